"""The per-answer time limit (issue 22): one answer that makes the checker hang costs at most its limit, comes back
`unscored`, and the rest of the batch is exact. The hang is made independent of the parsers (which are linear-time
and may stay so): a checker that spins in C regex backtracking on a marker answer, shipped to the pool's workers
by fork (the guard's start method on Linux). Timing bounds compare with the same batch without the hostile answer
and leave seconds of slack, so a loaded CI machine does not fail them."""
import json, re, sys, time
from pathlib import Path
import pytest
from ifhier.guard import TIME_LIMIT, Unscored, guarded_map
from ifhier.io import data_path, write_jsonl
from ifhier.benchfile import load_bench
from ifhier.bench.witness import witness_response
import ifhier.reward.verify as verify
import ifhier.report.score as score
from ifhier.cli import call

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the hostile checker reaches the workers by fork")

BENCH = load_bench(data_path("ifhierbench.jsonl"))
MARK = "HOSTILE"
SLACK = 8.0   # seconds beyond the limit: process start and a loaded machine

def _spin():
    "Backtrack in C for hours: neither a signal handler nor a thread can interrupt this."
    re.match(r"(a+)+$", "a" * 40 + "b")

def _slow_or_square(x:int)->int:
    if x < 0: _spin()
    return x * x

def _hostile(check):
    "A checker that hangs on answers starting with MARK and is `check` otherwise."
    def slow(tree, text, *a, **k):
        if isinstance(text, str) and text.startswith(MARK): _spin()
        return check(tree, text, *a, **k)
    return slow

def test_guarded_map_unscores_a_hang_and_keeps_going():
    t0 = time.monotonic()
    got = list(guarded_map(_slow_or_square, [1, 2, -1, 3, -1, *range(4, 40)], workers=2, time_limit=1.0))
    dt = time.monotonic() - t0
    assert got[:5] == [1, 4, Unscored("time limit 1 s exceeded"), 9, Unscored("time limit 1 s exceeded")]
    assert got[5:] == [x * x for x in range(4, 40)]                    # the pool replaced the killed workers
    assert dt < 2 * 1.0 + SLACK, dt                                    # two hangs, each at most its limit (on 2 workers)

def test_guarded_map_limit_holds_for_one_worker():
    t0 = time.monotonic()
    assert list(guarded_map(_slow_or_square, [-1, 5], workers=1, time_limit=0.5)) == [Unscored("time limit 0.5 s exceeded"), 25]
    assert time.monotonic() - t0 < 0.5 + SLACK

def _nap_or_square(x:int)->int:
    "x squared after a tenth of a second (sleeping: honest work that a loaded machine does not stretch tenfold)."
    time.sleep(0.1)
    return x * x

def _raise_on_7(x:int)->int:
    if x % 10 == 7: raise ValueError(f"bad {x}")
    return x * x

def _nap_then(job):
    "(x, nap): sleep 0.1 s first if `nap`; then `_slow_or_square(x)`."
    x, nap = job
    if nap: time.sleep(0.1)
    return _slow_or_square(x)

def _timed(xs, **kw):
    t0 = time.monotonic(); got = list(guarded_map(_slow_or_square, xs, **kw)); return got, time.monotonic() - t0

@pytest.mark.parametrize("workers", [1, 2])
def test_hang_inside_a_large_chunk(workers):
    "Chunks of 64 (the default): one hang in the middle of one costs its own limit, and every other item is exact."
    xs = list(range(2000)); xs[1000] = -1
    _, base = _timed(list(range(2000)), workers=workers, time_limit=1.0)
    got, dt = _timed(xs, workers=workers, time_limit=1.0)
    assert got[1000] == Unscored("time limit 1 s exceeded")
    assert got[:1000] + got[1001:] == [x * x for x in range(2000) if x != 1000]
    assert dt < base + 1.0 + SLACK, (dt, base)

def test_hang_counts_from_its_own_start():
    "A forced chunk of 30 where the hang is item 20, after 2 s of honest work: cut at its own limit, the rest exact."
    xs = [*range(20), -1, *range(21, 30)]
    t0 = time.monotonic()
    got = list(guarded_map(_nap_then, [(x, i < 20) for i, x in enumerate(xs)], workers=1, time_limit=1.0, chunk=30))
    dt = time.monotonic() - t0
    assert got == [*(x * x for x in range(20)), Unscored("time limit 1 s exceeded"), *(x * x for x in range(21, 30))]
    assert dt < 2.0 + 1.0 + SLACK, dt

def test_slow_honest_chunk_is_not_cut():
    "20 items of 0.1 s in one forced chunk take 2 s, twice the 1 s limit: none of them is unscored."
    assert list(guarded_map(_nap_or_square, range(20), workers=1, time_limit=1.0, chunk=20)) == [x * x for x in range(20)]

def test_an_exception_costs_only_its_item():
    got = list(guarded_map(_raise_on_7, range(200), workers=2, time_limit=5.0, chunk=64))
    assert [g for x, g in enumerate(got) if x % 10 != 7] == [x * x for x in range(200) if x % 10 != 7]
    assert [g for x, g in enumerate(got) if x % 10 == 7] == [Unscored(f"checker error: ValueError: bad {x}") for x in range(7, 200, 10)]

@pytest.mark.parametrize("chunk", [None, 1, 5, 64])
def test_order_is_kept(chunk):
    "Two workers finish chunks out of order (a hang holds one back); the results come in input order."
    xs = list(range(500)); xs[3] = -1
    got = list(guarded_map(_slow_or_square, xs, workers=2, time_limit=0.5, chunk=chunk))
    assert got == [Unscored("time limit 0.5 s exceeded") if x < 0 else x * x for x in xs]

def _batch(n:int):
    recs = BENCH[:: max(1, len(BENCH) // 100)][:100]
    recs = [recs[i % len(recs)] for i in range(n)]
    comps = [witness_response(r["tree"]) + ("\n" * (i // len(BENCH[:100]))) for i, r in enumerate(recs)]   # distinct texts
    return recs, comps

@pytest.mark.parametrize("workers", [1, 2])
def test_reward_batch_one_hostile_answer(monkeypatch, workers):
    recs, comps = _batch(1000)
    limit = 1.0
    t0 = time.monotonic(); clean = verify.reward_batch(recs, comps, workers=workers, time_limit=limit); base = time.monotonic() - t0
    monkeypatch.setattr(verify, "check_verdicts", _hostile(verify.check_verdicts))
    at = 500
    t0 = time.monotonic()
    got = verify.reward_batch(recs[:at] + [recs[0]] + recs[at:], comps[:at] + [MARK + comps[0]] + comps[at:], workers=workers, time_limit=limit)
    dt = time.monotonic() - t0
    assert got[:at] + got[at + 1:] == clean and all(s == 1.0 for s in clean)
    assert (float(got[at]), got[at].state, got[at].reason) == (0.0, "unscored", "time limit 1 s exceeded")
    assert dt < base + limit + SLACK, (dt, base)

def test_reward_batch_vector_states(monkeypatch):
    recs, comps = _batch(20)
    monkeypatch.setattr(verify, "check_verdicts", _hostile(verify.check_verdicts))
    got = verify.reward_batch(recs[:3], [comps[0], MARK, None], mode="vector", workers=2, time_limit=0.5)
    assert [{e["state"] for e in v} for v in got] == [{"passed"}, {"unscored"}, {"missing"}]
    assert {e["reason"] for e in got[1]} == {"time limit 0.5 s exceeded"}

def test_default_limit_is_on():
    import inspect
    assert inspect.signature(verify.reward_batch).parameters["time_limit"].default == TIME_LIMIT
    assert inspect.signature(score.score_run).parameters["time_limit"].default == TIME_LIMIT

def test_ifhier_score_with_a_hostile_row(tmp_path, monkeypatch):
    bench = BENCH[::30][:20]
    bp = tmp_path / "bench.jsonl"; write_jsonl(bench, bp)
    rows = [dict(prompt_id=r["id"], sample=0, model="m", response=witness_response(r["tree"]), finish_reason="stop") for r in bench]
    rows[3] = dict(rows[3], response=MARK + " " + "x" * 5000)
    rows[5] = dict(rows[5], finish_reason="length")                              # cut off, still checked
    run = tmp_path / "run"; run.mkdir(); write_jsonl(rows, run / "responses.jsonl")
    (run / "manifest.json").write_text(json.dumps(dict(model="m", samples=1)))
    monkeypatch.setattr(score, "check", _hostile(score.check))
    t0 = time.monotonic()
    code, out, err = call("score", "--bench", bp, "--responses", run, "--out", tmp_path / "s.csv", "--workers", 2, "--time-limit", 1)
    dt = time.monotonic() - t0
    assert code == 0, err
    assert dt < 1 + SLACK + 10, dt                                                 # the scoring of 20 answers is well under 10 s
    assert "18 passed, 0 failed, 1 cut off, 1 unscored, 0 missing" in out, out
    import pandas as pd
    df = pd.read_csv(tmp_path / "s.csv")
    assert "state" in df.columns
    bad = df[df.prompt_id == bench[3]["id"]]
    assert set(bad.state) == {"unscored"} and set(bad.reason) == {"unscored: time limit 1 s exceeded"} and set(bad.verdict) == {"fail"}
    assert set(df[df.prompt_id == bench[5]["id"]].state) == {"cut_off"}
    acc = json.loads((tmp_path / "s.summary.json").read_text())["accuracy"]
    row = [a for a in acc if a["depth"] == "all"][0]
    assert row["n_cut_off"] == 1 and row["prompt_acc"] == pytest.approx(19 / 20) and row["prompt_acc_finished"] == pytest.approx(18 / 19)
