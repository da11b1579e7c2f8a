"""`ifhier build | witness | score` end to end through the modules' `register_cli` (issue 3)."""
import argparse, contextlib, io, json
from pathlib import Path
import pandas as pd
from ifhier.build import register_cli as build_cli
from ifhier.score import register_cli as score_cli

ROOT = Path(__file__).resolve().parent.parent

def _run(*argv):
    ap = argparse.ArgumentParser(prog="ifhier"); sub = ap.add_subparsers()
    build_cli(sub); score_cli(sub)
    args = ap.parse_args(list(argv))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = args.func(args)
    return rc, out.getvalue(), err.getvalue()

def test_build_witness_score_pipeline(tmp_path):
    bench, run, scores = tmp_path / "b.jsonl", tmp_path / "run", tmp_path / "s.csv"
    tasks = str(ROOT / "data" / "seed_tasks.jsonl")
    assert _run("build", "--seed", "3", "--out", str(bench), "--tasks", tasks, "--per-depth", "5", "--summary", str(tmp_path / "s.md"))[0] == 0
    first = bench.read_bytes()
    assert _run("build", "--seed", "3", "--out", str(bench), "--tasks", tasks, "--per-depth", "5")[0] == 0
    assert bench.read_bytes() == first
    assert _run("witness", "--bench", str(bench), "--out", str(run))[0] == 0
    man = json.loads((run / "manifest.json").read_text())
    assert man["model"] == "witness" and man["n_prompts"] == 20 and man["n_errors"] == 0
    rc, out, _ = _run("score", "--bench", str(bench), "--responses", str(run / "responses.jsonl"), "--out", str(scores))
    assert rc == 0 and "prompt_acc" in out
    df = pd.read_csv(scores)
    assert set(df.verdict) == {"pass"} and df.prompt_id.nunique() == 20
    assert list(df.columns) == ["prompt_id", "sample", "depth", "node_path", "constraint", "verdict", "reason", "params", "model"]

def test_bad_inputs_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"; bad.write_text('{"prompt_id": 1\n')
    for argv in (["build", "--out", str(tmp_path / "x.jsonl"), "--tasks", str(bad)],
                 ["witness", "--bench", str(bad), "--out", str(tmp_path / "r")],
                 ["witness", "--bench", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "r")],
                 ["score", "--bench", str(bad), "--responses", str(bad), "--out", str(tmp_path / "s.csv")],
                 ["score", "--bench", str(ROOT / "data" / "seed_tasks.jsonl"), "--responses", str(bad), "--out", str(tmp_path / "s.csv")]):
        rc, out, err = _run(*argv)
        assert rc == 2 and err.startswith("ifhier: error: ") and len(err.strip().splitlines()) == 1, (argv, err)
