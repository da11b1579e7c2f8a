"""`ifhier score --workers N`: the same table, byte for byte and in the same order, for any number of workers."""
import random
from ifhier.cli import call
from ifhier.io import data_path, write_jsonl
from ifhier.benchfile import load_bench
from ifhier.run.responders import RESPONDERS
from ifhier.tree import ConstraintNode

def _run_file(path, seed=0):
    "A messy run over the shipped benchmark: two answerers as samples 0 and 1, shuffled, one errored row, one duplicate."
    bench = load_bench(data_path("ifhierbench.jsonl"))
    rows = []
    for s, name in enumerate(("one-slip (synthetic)", "root-only (synthetic)")):
        fn = RESPONDERS[name]
        rows += [dict(prompt_id=rec["id"], sample=s, model="m", error=None,
                      response=fn(ConstraintNode.from_json(rec["tree"], validate=False), seed=i)) for i, rec in enumerate(bench)]
    random.Random(seed).shuffle(rows)
    rows[3] = dict(rows[3], response=None, error="RateLimitError: slow down")
    rows.append(dict(rows[10], response="a later answer"))
    write_jsonl(rows, path)
    return len(rows)

def test_workers_give_identical_output(tmp_path):
    run = tmp_path / "responses.jsonl"
    assert _run_file(run) > 1000                       # several chunks per worker
    outs = {}
    for w in (1, 2, 3):
        (tmp_path / f"w{w}").mkdir()
        out = tmp_path / f"w{w}" / "scores.jsonl"
        code, stdout, err = call("score", "--responses", run, "--out", out, "--loose", "--workers", w)
        assert code == 0, err
        outs[w] = (out.read_bytes(), out.with_suffix(".summary.json").read_bytes(), stdout.replace(str(out), "OUT"))
    assert outs[1][0].count(b"\n") > 10_000
    assert outs[1] == outs[2] == outs[3]

def test_workers_option_is_checked(tmp_path):
    code, _, err = call("score", "--responses", tmp_path / "r.jsonl", "--out", tmp_path / "s.csv", "--workers", 0)
    assert code == 2 and "--workers" in err
