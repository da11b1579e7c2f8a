"`ifhier explain`: the tree walk of one answer in a terminal."
import json
from ifhier.cli import call
from ifhier.io import data_path
from ifhier.benchfile import load_bench
from ifhier.run.responders import respond_one_slip
from ifhier.tree import ConstraintNode

BENCH = str(data_path("ifhierbench.jsonl"))

def _run_dir(tmp_path, rec, answer):
    d = tmp_path / "run"; d.mkdir()
    (d / "responses.jsonl").write_text(json.dumps(dict(prompt_id=rec["id"], sample=0, model="m", response=answer)) + "\n")
    return d

def test_explain_depth3_failing_answer(tmp_path):
    rec = next(r for r in load_bench(BENCH) if r["depth"] == 3)
    ans = respond_one_slip(ConstraintNode.from_json(rec["tree"], validate=False), seed=1)
    code, out, err = call("explain", "--bench", BENCH, "--responses", _run_dir(tmp_path, rec, ans), "--prompt-id", rec["id"])
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"{rec['id']} (depth 3), sample 0: ")
    assert "✗ fail" in out and "slice: " in out and "\x1b[" not in out     # not a TTY: no colour codes
    assert out.count("\n  ") >= 3                                           # nested nodes are indented

def test_explain_bad_input(tmp_path):
    rec = load_bench(BENCH)[0]
    d = _run_dir(tmp_path, rec, "x")
    code, _, err = call("explain", "--bench", BENCH, "--responses", d, "--prompt-id", "nope")
    assert code == 2 and err.strip() == f"ifhier: error: no prompt 'nope' in {BENCH}"
    code, _, err = call("explain", "--bench", BENCH, "--responses", d, "--prompt-id", rec["id"], "--sample", "3")
    assert code == 2 and "samples: [0]" in err and len(err.strip().splitlines()) == 1
