"""Every command through the real command line (`ifhier.cli.call`, the one CLI test helper): results, and
bad input as one line `ifhier: error: …` with exit code 2."""
import json
from pathlib import Path
import numpy as np
import pandas as pd
import pytest
from ifhier.cli import call
from ifhier.io import data_path, write_jsonl
from ifhier.benchfile import load_bench

FIX = Path(__file__).resolve().parent.parent / "nbs" / "fixtures"
BENCH = str(data_path("ifhierbench.jsonl"))
TASKS = str(data_path("seed_tasks.jsonl"))

def one_line_error(code, err, *needles):
    assert code == 2, (code, err)
    assert err.startswith("ifhier: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for n in needles: assert n in err, (n, err)

def test_build_witness_score_pipeline(tmp_path):
    bench, run, scores = tmp_path / "b.jsonl", tmp_path / "run", tmp_path / "s.csv"
    assert call("build", "--seed", 3, "--out", bench, "--tasks", TASKS, "--per-depth", 5, "--summary", tmp_path / "s.md")[0] == 0
    first = bench.read_bytes()
    assert call("build", "--seed", 3, "--out", bench, "--tasks", TASKS, "--per-depth", 5)[0] == 0
    assert bench.read_bytes() == first
    assert call("witness", "--bench", bench, "--out", run)[0] == 0
    man = json.loads((run / "manifest.json").read_text())
    assert man["model"] == "witness" and man["n_prompts"] == 20 and man["totals"]["n_errors"] == 0 and man["synthetic"] is True and man["format"] == "ifhier-run/1"
    code, out, _ = call("score", "--bench", bench, "--responses", run / "responses.jsonl", "--out", scores)
    assert code == 0 and "prompt_acc" in out
    df = pd.read_csv(scores)
    assert set(df.verdict) == {"pass"} and df.prompt_id.nunique() == 20 and set(df.state) == {"passed"}
    assert list(df.columns) == ["prompt_id", "sample", "depth", "node_path", "constraint", "verdict", "reason", "params", "model", "profile", "state"]
    code, _, _ = call("score", "--bench", bench, "--responses", run / "responses.jsonl", "--out", tmp_path / "s.jsonl")
    assert code == 0 and len(pd.read_json(tmp_path / "s.jsonl", lines=True)) == len(df)

def test_bad_inputs_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"; bad.write_text('{"prompt_id": 1\n')
    binary = tmp_path / "bin.jsonl"; binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    ok = tmp_path / "b.jsonl"; write_jsonl(load_bench(BENCH)[:2], ok)
    for argv, needle in ((["build", "--out", tmp_path / "x.jsonl", "--tasks", bad], "bad.jsonl:1"),
                         (["build", "--out", tmp_path / "x.jsonl", "--tasks", binary], "bin.jsonl: not UTF-8"),
                         (["witness", "--bench", bad, "--out", tmp_path / "r"], "bad.jsonl:1"),
                         (["witness", "--bench", tmp_path / "missing.jsonl", "--out", tmp_path / "r"], "missing.jsonl"),
                         (["score", "--bench", bad, "--responses", bad, "--out", tmp_path / "s.csv"], "bad.jsonl"),
                         (["score", "--bench", TASKS, "--responses", bad, "--out", tmp_path / "s.csv"], "seed_tasks.jsonl:1"),
                         (["score", "--bench", ok, "--responses", ok, "--out", tmp_path / "s.csv"], "b.jsonl:1"),
                         (["score", "--bench", ok, "--responses", ok, "--out", tmp_path / "s.txt"], "must end in .csv"),
                         (["score", "--bench", ok, "--responses", ok, "--out", ok / "s.csv"], "b.jsonl")):
        one_line_error(*call(*argv)[::2], needle)

def test_no_command_overwrites_its_input(tmp_path):
    b = tmp_path / "b.jsonl"; write_jsonl(load_bench(BENCH)[:2], b); before = b.read_bytes()
    one_line_error(*call("score", "--bench", b, "--responses", b, "--out", b)[::2], "refusing to write over an input")
    one_line_error(*call("build", "--tasks", b, "--out", b)[::2], "refusing")
    assert b.read_bytes() == before

@pytest.mark.parametrize("argv, opt", [(["build", "--out", "x", "--per-depth", "0"], "--per-depth"),
                                       (["build", "--out", "x", "--per-depth", "-5"], "--per-depth"),
                                       (["build", "--out", "x", "--seed", "-1"], "--seed"),
                                       (["prepare", "--raw", "r", "--out", "o", "--model", "m", "--concurrency", "0"], "--concurrency"),
                                       (["wise", "build", "--out", "x", "--repeats", "0"], "--repeats")])
def test_out_of_range_options_name_the_option(argv, opt):
    code, _, err = call(*argv)
    assert code == 2 and opt in err and "Traceback" not in err

def test_ifeval_score_modes(tmp_path):
    inp, resp = FIX / "ifeval_input.jsonl", FIX / "ifeval_responses.jsonl"
    code, out, err = call("ifeval", "score", "--input", inp, "--responses", resp, "--out", tmp_path / "o.jsonl")
    assert (code, out) == (0, "strict prompt-level accuracy: 0.5600 (14/25)\nstrict instruction-level accuracy: 0.6571 (23/35)\n")
    assert err == "ifhier ifeval score: warning: 1 of 25 prompts have no response; their instructions count as not followed\n"
    code, out, _ = call("ifeval", "score", "--input", inp, "--responses", resp, "--out", tmp_path / "l.jsonl", "--loose")
    assert (code, out.splitlines()[0]) == (0, "loose prompt-level accuracy: 0.8000 (20/25)")
    code, out, _ = call("ifeval", "score", "--input", inp, "--responses", resp, "--out-dir", tmp_path / "both")
    assert code == 0 and out.splitlines()[0].startswith("strict prompt-level accuracy: 0.5600") and "loose prompt-level accuracy: 0.8000" in out
    assert (tmp_path / "both/eval_results_strict.jsonl").read_bytes() == (tmp_path / "o.jsonl").read_bytes()
    assert (tmp_path / "both/eval_results_loose.jsonl").read_bytes() == (tmp_path / "l.jsonl").read_bytes()
    rr = ("--letter-policy", "reference-random", "--seed", 4)   # each mode draws its own letters, in one pass as in two
    assert call("ifeval", "score", "--input", inp, "--responses", resp, "--out-dir", tmp_path / "rr", *rr)[0] == 0
    for loose, name in ((False, "strict"), (True, "loose")):
        assert call("ifeval", "score", "--input", inp, "--responses", resp, "--out", tmp_path / f"rr_{name}.jsonl", *rr, *(["--loose"] * loose))[0] == 0
        assert (tmp_path / f"rr/eval_results_{name}.jsonl").read_bytes() == (tmp_path / f"rr_{name}.jsonl").read_bytes()
    one_line_error(*call("ifeval", "score", "--input", tmp_path / "nope.jsonl", "--responses", resp, "--out", tmp_path / "o.jsonl")[::2], "nope.jsonl")
    bad = tmp_path / "bad.jsonl"; bad.write_text(json.dumps(dict(key=9, prompt="p", instruction_id_list=["x:y"], kwargs=[{}])) + "\n")
    one_line_error(*call("ifeval", "score", "--input", bad, "--responses", resp, "--out", tmp_path / "o.jsonl")[::2], "unknown instruction id 'x:y'")

def test_wise_build_grade_analyze(tmp_path):
    p, a, g, out = tmp_path / "p.jsonl", tmp_path / "a.jsonl", tmp_path / "g.csv", tmp_path / "out"
    code, o, _ = call("wise", "build", "--out", p, "--repeats", 1, "--families", "range_8_12")
    assert code == 0 and o.startswith("wrote ") and o.endswith(f"prompts to {p}\n")
    assert call("wise", "demo", "--prompts", p, "--out", a)[0] == 0
    assert call("wise", "grade", "--prompts", p, "--answers", a, "--out", g)[0] == 0
    code, o, err = call("wise", "analyze", "--graded", g, "--out", out, "--reps", 200)
    assert code == 0 and "compliance.csv" in o, err
    assert pd.read_csv(out / "summary.csv").family.tolist() == ["range_8_12"]
    (tmp_path / "bad.jsonl").write_text('{"prompt_id": "zzz", "model": "m"}\n')
    one_line_error(*call("wise", "grade", "--prompts", p, "--answers", tmp_path / "bad.jsonl", "--out", g)[::2],
                   f"{tmp_path / 'bad.jsonl'}:1: unknown prompt_id 'zzz'")
    one_line_error(*call("wise", "grade", "--prompts", p, "--answers", tmp_path / "missing.jsonl", "--out", g)[::2], "missing.jsonl")
    one_line_error(*call("wise", "demo", "--out", a)[::2], "needs --prompts")

def test_wise_analyze_errors_and_warnings(tmp_path):
    from ifhier.wise.panel import simulate_graded
    graded = simulate_graded()
    graded.drop(columns="model").to_csv(tmp_path / "bad.csv", index=False)
    one_line_error(*call("wise", "analyze", "--graded", tmp_path / "bad.csv", "--out", tmp_path)[::2], "missing column(s) model")
    one_line_error(*call("wise", "analyze", "--graded", tmp_path / "nope.csv", "--out", tmp_path)[::2], "nope.csv")
    one_line_error(*call("wise", "analyze", "--graded", FIX / "wise_graded_small.csv", "--out", tmp_path, "--kind", "json")[::2], "FAMILY=KIND")
    graded.drop(index=[0]).to_csv(tmp_path / "miss.csv", index=False)
    code, _, err = call("wise", "analyze", "--graded", tmp_path / "miss.csv", "--out", tmp_path, "--reps", 50)
    assert (code, err.strip()) == (0, "ifhier wise analyze: warning: 1 missing output(s) scored as empty, non-compliant answers (see diagnostics)")
    pd.DataFrame(dict(item=np.repeat(list("abcd"), 3), rater=list("xyz") * 4, measure="m",
                      value=[1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1])).to_csv(tmp_path / "r.csv", index=False)
    assert call("wise", "agreement", "--ratings", tmp_path / "r.csv", "--out", tmp_path, "--reps", 100)[0] == 0
    assert list(pd.read_csv(tmp_path / "agreement.csv").columns) == ["measure", "statistic", "estimate", "ci_low", "ci_high"]
    one_line_error(*call("wise", "agreement", "--ratings", tmp_path / "bad.csv", "--out", tmp_path)[::2], "ratings table is missing column(s)")

def test_wording_audit_round_trip(tmp_path):
    v, g, out = tmp_path / "v.jsonl", tmp_path / "g.csv", tmp_path / "out"
    assert call("wise", "build", "--bench", BENCH, "--constraint", "string.comma", "--depth", 1, "--out", v)[0] == 0
    vs = load_bench(v)
    assert {x["form"] for x in vs} == {"T1", "T2", "T3"}
    from ifhier.wise.wording import simulate_responses
    write_jsonl(simulate_responses(vs, seed=1), tmp_path / "r.jsonl")
    assert call("wise", "grade", "--prompts", v, "--answers", tmp_path / "r.jsonl", "--by-depth", "--out", g)[0] == 0
    assert set(pd.read_csv(g).family) == {"string.comma@d1"}
    assert call("wise", "analyze", "--graded", g, "--out", out, "--reps", 300)[0] == 0
    assert {p.name for p in out.iterdir()} == {f"{n}.csv" for n in ("compliance", "contrasts", "ranking", "summary", "diagnostics", "templates")}
    assert pd.read_csv(out / "summary.csv").family[0] == "string.comma@d1"

@pytest.mark.parametrize("argv, msg", [
    (["build", "--bench", BENCH, "--constraint", "nope.x", "--out", "{t}/v.jsonl"], "unknown constraint type"),
    (["build", "--bench", "{t}/missing.jsonl", "--constraint", "string.comma", "--out", "{t}/v.jsonl"], "missing.jsonl"),
    (["analyze", "--graded", "{t}/missing.csv", "--out", "{t}/o"], "missing.csv"),
])
def test_wording_bad_input(tmp_path, argv, msg):
    one_line_error(*call("wise", *[str(a).format(t=tmp_path) for a in argv])[::2], msg)

def test_wording_demo(tmp_path):
    code, out, _ = call("wise", "demo", "--constraint", "markdown.has_heading", "--bench", BENCH, "--depth", 2,
                        "--max-prompts", 8, "--reps", 200, "--out", tmp_path)
    assert code == 0 and "markdown.has_heading" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["variants.jsonl", "responses.jsonl", "graded.csv", "compliance.csv",
            "contrasts.csv", "ranking.csv", "summary.csv", "diagnostics.csv", "templates.csv"])
    assert "(synthetic)" in (tmp_path / "responses.jsonl").read_text()

def test_help_everywhere_shows_defaults():
    code, out, _ = call("--help")
    assert code == 0 and "build" in out and "wise" in out
    for argv in (["build"], ["score"], ["ifeval", "score"], ["wise", "analyze"], ["wise", "build"], ["catalog"], ["prepare"]):
        code, out, _ = call(*argv, "--help")
        assert code == 0 and "usage: ifhier" in out, argv
    assert "(default: 10000)" in call("wise", "analyze", "--help")[1]
