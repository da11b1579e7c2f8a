"""One run per directory, and Ctrl-C that always ends cleanly: real processes against the local fake OpenAI server."""
import json, os, signal, subprocess, sys, time
from collections import Counter
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from fake_openai import FakeOpenAI, answer_for

from run_harness import KEY, ROOT, CLI, _no_proxy, server, _bench, _env   # noqa: F401 (fixtures)


def _run(server, bench, out, *more):
    return subprocess.Popen(CLI + ["--model", "openai/fake-model", "--api-base", server.url, "--bench", str(bench), "--out", str(out),
                                   "--timeout", "5", "--concurrency", "4", *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())


def _rows(out): return [json.loads(l) for l in (out / "responses.jsonl").read_text().splitlines()]


def _wait(cond, limit=240):
    t0 = time.time()
    while not cond() and time.time() - t0 < limit: time.sleep(0.02)
    assert cond(), "timed out"


def _holder(out):
    try: return json.loads((out / ".lock").read_text() or "null")
    except (OSError, ValueError): return None


def test_two_runs_into_one_directory_never_pay_twice(tmp_path, server):
    recs = _bench(tmp_path / "b.jsonl", 40)
    server.delay = 0.15
    # 1. started at the same moment (two terminals, a scheduler retrying): whoever locks first runs, the other refuses
    out = tmp_path / "same_time"
    a, b = _run(server, tmp_path / "b.jsonl", out), _run(server, tmp_path / "b.jsonl", out)
    (oa, ea), (ob, eb) = a.communicate(timeout=300), b.communicate(timeout=300)
    codes = sorted([a.returncode, b.returncode])
    asked = Counter(server.prompts())
    assert len(server.log) == 40 and set(asked.values()) == {1}, asked            # 0 answers paid twice
    rows = _rows(out)
    assert len(rows) == 40 and len({(r["prompt_id"], r["sample"]) for r in rows}) == 40   # 0 duplicate rows
    assert all(r["response"] == answer_for(p["prompt"]) for r, p in zip(sorted(rows, key=lambda r: r["prompt_id"]), recs))
    loser_err = ea if a.returncode else eb
    if codes == [0, 2]:                                                            # the usual case: the second refused at once
        assert len(loser_err.strip().splitlines()) == 1 and "is in use by pid" in loser_err and "Traceback" not in loser_err, loser_err
    else:                                                                          # it started only after the first had finished
        assert codes == [0, 0] and "complete: 40 answers" in ob + oa
    # 2. the second started while the first certainly holds the directory: one line naming the holder, nothing asked
    server.log.clear()
    out = tmp_path / "while_running"
    a = _run(server, tmp_path / "b.jsonl", out, "--concurrency", "1")
    _wait(lambda: _holder(out) is not None)
    holder = _holder(out)
    b = _run(server, tmp_path / "b.jsonl", out)
    ob, eb = b.communicate(timeout=300)
    assert a.poll() is None, "the first run ended before the second was refused"
    assert b.returncode == 2 and ob == "" and len(eb.strip().splitlines()) == 1, eb
    assert f"is in use by pid {holder['pid']} on {holder['host']}" in eb and str(a.pid) in eb, eb
    oa, ea = a.communicate(timeout=300)
    assert a.returncode == 0 and "complete: 40 answers" in oa, ea
    assert len(server.log) == 40 and set(Counter(server.prompts()).values()) == {1}
    assert len(_rows(out)) == 40 and (out / ".lock").read_text() == ""           # released on exit


def test_sigkilled_runs_lock_is_taken_over(tmp_path, server):
    recs = _bench(tmp_path / "b.jsonl", 30)
    out = tmp_path / "run"
    server.delay = 0.2
    a = _run(server, tmp_path / "b.jsonl", out, "--concurrency", "2")
    _wait(lambda: (out / "responses.jsonl").exists() and len(_rows(out)) >= 4)
    holder = _holder(out)
    a.send_signal(signal.SIGKILL); a.communicate()
    assert _holder(out) == holder                                                  # the crash left the lock file naming its holder
    kept = {r["prompt_id"] for r in _rows(out) if not r["error"]}
    server.log.clear()
    b = _run(server, tmp_path / "b.jsonl", out)
    ob, eb = b.communicate(timeout=300)
    assert b.returncode == 0 and "complete: 30 answers" in ob, eb
    assert f"was locked by pid {holder['pid']}" in eb and "no longer running; taking over" in eb and len(eb.strip().splitlines()) == 1, eb
    asked = Counter(server.prompts())
    assert not kept & {p for p, r in zip([r["id"] for r in recs], [x["prompt"] for x in recs]) if asked[r]}   # nothing kept was asked again
    assert sum(asked.values()) == 30 - len(kept) and set(asked.values()) == {1}


def test_ctrl_c_ends_cleanly_at_any_moment_with_busy_cpus(tmp_path):
    "12 real SIGINTs at varied moments while two CPU-bound processes run: each ends with 130 and one stderr line."
    rounds = [("start", 0.0), ("start", 0.005), ("start", 0.02), ("mid-flight", 0.0), ("mid-flight", 0.03), ("mid-flight", 0.11),
              ("retry-wait", 0.0), ("retry-wait", 0.2), ("writing", 0.0), ("writing", 0.002), ("writing", 0.008), ("writing", 0.02)]
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        r = subprocess.run([sys.executable, str(ROOT / "tests" / "interrupt_driver.py"), json.dumps(rounds), str(tmp_path)],
                           capture_output=True, text=True, env=_env(), timeout=600)
    finally:
        for b in burners: b.kill(); b.wait()
    assert r.returncode == 0, r.stderr[-3000:]
    res = [json.loads(l) for l in r.stdout.splitlines()]
    assert len(res) == len(rounds)
    for x in res:
        lines = x["stderr"].strip().splitlines()
        assert x["code"] == 130, x
        assert len(lines) == 1 and "interrupted" in lines[0] and "re-run the same command to resume" in lines[0], x
        assert "never awaited" not in x["stderr"] and "Traceback" not in x["stderr"], x
        assert x["ok_after"] >= x["ok_at_signal"] and x["right"] and x["unique"], x   # no finished answer lost, none wrong
        assert f"; {x['ok_after']} answers kept" in lines[0], x
        assert x["status"] in ("interrupted", None) and x["lock_free"], x
    assert sum(x["status"] == "interrupted" for x in res) >= 9
