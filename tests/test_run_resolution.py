"""Every reader of a run directory takes the same row for a (prompt, sample): the last successful row, else the last row.

The directory below is what a resumed run leaves: the first attempt at a prompt errored (a 429 that ran out of
retries), the re-run answered it. `ifhier score`, `ifhier explain`, the workbench and the reward must all see the
retry's answer."""
import json
import pandas as pd
from ifhier.cli import call
from ifhier.io import data_path, read_jsonl, write_jsonl
from ifhier.bench.witness import witness_response
from ifhier.run.rundir import new_manifest, write_manifest, read_responses, find_row
from ifhier.walk import run_answers
from ifhier.reward.verify import reward

BENCH = read_jsonl(data_path("ifhierbench.jsonl"))


def _resumed_run(d):
    recs = [r for r in BENCH if r["depth"] == 2][:3]
    rows = []
    for r in recs:   # first attempt: an error; the resume: the witness (passes everything), then an unrelated later error
        rows.append(dict(prompt_id=r["id"], sample=0, model="m", response=None, error="RateLimitError: slow down", attempts=7))
    for r in recs:
        rows.append(dict(prompt_id=r["id"], sample=0, model="m", response="<think>plan</think>" + witness_response(r["tree"]), error=None))
    rows.append(dict(prompt_id=recs[2]["id"], sample=0, model="m", response=None, error="Timeout: late"))
    write_jsonl(rows, d / "responses.jsonl")
    write_manifest(d, new_manifest("m", recs, d, len(recs), dict(model="m", samples=1), "openai", False))
    write_jsonl(recs, d / "bench.jsonl")
    return recs


def test_explain_and_score_agree_on_a_resumed_run(tmp_path):
    run = tmp_path / "run"; run.mkdir()
    recs = _resumed_run(run)
    code, out, err = call("score", "--bench", run / "bench.jsonl", "--responses", run, "--out", tmp_path / "s.csv")
    assert code == 0, err
    s = pd.read_csv(tmp_path / "s.csv")
    assert set(s.verdict) == {"pass"} and "3 pairs duplicated" in out
    for r in recs:
        n = int((s.prompt_id == r["id"]).sum())
        code, out, err = call("explain", "--bench", run / "bench.jsonl", "--responses", run, "--prompt-id", r["id"])
        assert code == 0, err
        assert f"{n}/{n} constraints pass" in out.splitlines()[0], out          # the retry, as score saw it
        assert "✗" not in out and "∅" not in out
    answers = run_answers([run])["m"]
    assert {k: v for k, v in answers.items()} == {(r["id"], 0): witness_response(r["tree"]) for r in recs}
    idx = read_responses(run)
    rows = read_jsonl(run / "responses.jsonl")
    for r in recs:
        assert idx[(r["id"], 0)] is find_row(rows, r["id"]) or idx[(r["id"], 0)] == find_row(rows, r["id"])
        assert reward(r, idx[(r["id"], 0)]["response"]) == 1.0                   # the reward reads the same answer the same way


def test_wise_grading_of_a_resumed_run_reads_the_retry(tmp_path):
    "A retried request leaves two rows; grading a run directory takes the one the resolver picks (it used to refuse a 'duplicate')."
    v, run = tmp_path / "variants.jsonl", tmp_path / "run"
    assert call("wise", "build", "--constraint", "string.comma", "--depth", 1, "--max-prompts", 2, "--out", v)[0] == 0
    vs = read_jsonl(v)
    rows = [dict(prompt_id=x["id"], sample=0, model="m", response=None, error="Timeout: x") for x in vs]
    rows += [dict(prompt_id=x["id"], sample=0, model="m", response="No commas here at all", error=None) for x in vs]
    run.mkdir(); write_jsonl(rows, run / "responses.jsonl")
    code, out, err = call("wise", "grade", "--prompts", v, "--answers", run, "--out", tmp_path / "g.csv", "--no-complete")
    assert code == 0, err
    g = pd.read_csv(tmp_path / "g.csv")
    assert len(g) == len(vs) and not g.missing.any()
