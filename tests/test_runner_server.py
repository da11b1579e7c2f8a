"""`ifhier run` end to end against local OpenAI-compatible servers on 127.0.0.1 (no network, fake key)."""
import json, os, signal, subprocess, sys, time
from collections import Counter
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from fake_openai import FakeOpenAI, answer_for
from ifhier.run.runner import run_benchmark, read_responses

from run_harness import KEY, ROOT, CLI, _no_proxy, server, _bench, _env   # noqa: F401 (fixtures)


def _cmd(server, bench, out, *more):
    return CLI + ["--model", "openai/fake-model", "--api-base", server.url, "--bench", str(bench), "--out", str(out),
                  "--timeout", "1", "--max-retries", "8", *more]


def _main(argv):
    from ifhier.cli import call
    return call(*argv)


def _lines(p): return len(p.read_text().splitlines()) if p.exists() else 0


def test_kill_resume_secrets(tmp_path, server):
    recs = _bench(tmp_path / "b.jsonl", 30)
    out, resp = tmp_path / "run", tmp_path / "run" / "responses.jsonl"
    server.delay = 0.1
    server.plan = {"number 3:": [("status", 429, 0.2)], "number 4:": [("status", 500)], "number 5:": [("stall", 2.0)],
                   "number 6:": [("malformed",)], "number 7:": [("status", 401)], "number 8:": [("status", 400)]}
    p = subprocess.Popen(_cmd(server, tmp_path / "b.jsonl", out, "--samples", "2", "--concurrency", "4"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    t0 = time.time()
    while _lines(resp) < 20 and time.time() - t0 < 30: time.sleep(0.02)
    p.send_signal(signal.SIGKILL); out1, err1 = p.communicate()
    first = read_responses(resp)
    done = Counter(k[0] for k, r in first.items() if not r["error"])
    assert 20 <= len(first) < 60, len(first)
    # the plan serves its one fault to whichever sample of the prompt reaches the server first; concurrent requests
    # can arrive in either order, so exactly one of the two samples carries it, unretried
    for pid, kind in (("p07", "AuthenticationError"), ("p08", "BadRequestError")):
        faulted = [first[(pid, s)] for s in (0, 1) if (pid, s) in first and first[(pid, s)]["error"]]
        assert len(faulted) == 1 and faulted[0]["error"].startswith(kind) and faulted[0]["attempts"] == 1, (pid, faulted)
    with resp.open("a") as f: f.write('{"prompt_id": "p2')                      # a torn last line, as SIGKILL leaves one
    assert {e["auth"] for e in server.log} == {f"Bearer {KEY}"}                 # the key did reach the server ...
    server.log.clear()
    r = subprocess.run(_cmd(server, tmp_path / "b.jsonl", out, "--samples", "2", "--concurrency", "4"),
                       capture_output=True, text=True, env=_env(), timeout=60)
    assert r.returncode == 0, r.stderr
    asked = Counter(server.prompts(ok_only=True))
    for rec in recs:   # the resume asked exactly for what was missing or errored, never for a finished answer
        assert asked[rec["prompt"]] == 2 - done[rec["id"]], (rec["id"], asked[rec["prompt"]], done[rec["id"]])
    rows = [json.loads(l) for l in resp.read_text().splitlines()]          # every line is JSON again
    ok = Counter((r["prompt_id"], r["sample"]) for r in rows if not r["error"])
    assert set(ok) == {(rec["id"], s) for rec in recs for s in (0, 1)} and set(ok.values()) == {1}
    by = {rec["id"]: rec["prompt"] for rec in recs}
    assert all(r["response"] == answer_for(by[r["prompt_id"]]) for r in rows if not r["error"])
    man = json.loads((out / "manifest.json").read_text())
    assert man["status"] == "complete" and man["totals"]["answers"] == 60 and man["totals"]["cost_usd"] is None
    assert man["resumed"] and man["parameters"]["bench_sha256"] and not man["synthetic"]
    # a finished run makes zero requests; different generation parameters are refused, naming the parameter
    server.log.clear()
    code, o, e = _main(_cmd(server, tmp_path / "b.jsonl", out, "--samples", "2")[len(CLI) - 1:])
    assert code == 0 and server.log == [] and "60 answers" in o, e
    code, o2, e2 = _main(_cmd(server, tmp_path / "b.jsonl", out, "--temperature", "0.5")[len(CLI) - 1:])
    assert code == 2 and "temperature=None" in e2 and "temperature=0.5" in e2 and "Traceback" not in e2, e2
    assert server.log == []
    for f in out.rglob("*"):                                                   # ... and nowhere else
        if f.is_file(): assert KEY not in f.read_text(), f
    for text in (out1, err1, r.stdout, r.stderr, o, e, e2): assert KEY not in text


def test_ctrl_c_keeps_answers(tmp_path, server):
    _bench(tmp_path / "b.jsonl", 40)
    out = tmp_path / "run"
    server.delay = 0.3
    p = subprocess.Popen(_cmd(server, tmp_path / "b.jsonl", out, "--concurrency", "2"), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=_env())
    t0 = time.time()
    while _lines(out / "responses.jsonl") < 3 and time.time() - t0 < 240: time.sleep(0.02)   # a busy machine starts slowly
    assert _lines(out / "responses.jsonl") >= 3, "the run never got going"
    p.send_signal(signal.SIGINT); o, e = p.communicate(timeout=120)
    assert p.returncode == 130, e
    assert "re-run the same command to resume" in e and len(e.strip().splitlines()) == 1 and "never awaited" not in e, e
    man = json.loads((out / "manifest.json").read_text())
    assert man["status"] == "interrupted" and man["totals"]["answers"] == _lines(out / "responses.jsonl") >= 3


def test_adaptive_concurrency_under_429_storm(tmp_path, server):
    _bench(tmp_path / "b.jsonl", 120)
    server.delay, server.retry_after = 0.01, 0.02
    server.storm_n = 80
    man = run_benchmark("openai/fake-model", tmp_path / "b.jsonl", tmp_path / "run", api_base=server.url, concurrency=8,
                        max_retries=60, timeout=2, cut_interval=0.1, progress=False)
    hist = man["concurrency_history"]
    lows = [h["limit"] for h in hist if h["reason"] == "rate_limit"]
    assert lows and min(lows) <= 3, hist                                   # cut under the storm
    low_at = min(range(len(hist)), key=lambda i: hist[i]["limit"])
    assert any(h["reason"] == "clean_round" for h in hist[low_at:]) and hist[-1]["limit"] > min(lows), hist   # and regrown
    assert man["totals"]["answers"] == 120 and man["totals"]["n_errors"] == 0


@pytest.mark.parametrize("bad", ["500", "refused"])
def test_router_spreads_and_survives_a_dead_server(tmp_path, server, bad):
    recs = _bench(tmp_path / "b.jsonl", 24)
    if bad == "500":
        dead = FakeOpenAI().start(); dead.always = ("status", 500); url = dead.url
    else:
        import socket
        s = socket.socket(); s.bind(("127.0.0.1", 0)); url = f"http://127.0.0.1:{s.getsockname()[1]}/v1"; s.close()
    try:
        man = run_benchmark("openai/fake-model", tmp_path / "b.jsonl", tmp_path / "run", api_base=[url, server.url],
                            concurrency=4, timeout=2, max_retries=6, backoff_base=0.01, progress=False)
    finally:
        if bad == "500": dead.stop()
    rows = read_responses(tmp_path / "run" / "responses.jsonl")
    assert man["totals"]["answers"] == 24 and all(rows[(r["id"], 0)]["response"] == answer_for(r["prompt"]) for r in recs)
    if bad == "500": assert dead.log, "the failing deployment was never tried"


def test_router_file(tmp_path, server):
    recs = _bench(tmp_path / "b.jsonl", 10)
    dead = FakeOpenAI().start(); dead.always = ("status", 503)
    (tmp_path / "fleet.yaml").write_text(
        "model_list:\n" + "".join(f"  - model_name: fleet\n    litellm_params: {{model: openai/fake-model, api_base: '{u}', api_key: os.environ/OPENAI_API_KEY}}\n"
                                   for u in (dead.url, server.url)) + "router_settings: {routing_strategy: simple-shuffle}\n")
    try:
        man = run_benchmark("fleet", tmp_path / "b.jsonl", tmp_path / "run", router=str(tmp_path / "fleet.yaml"),
                            concurrency=2, timeout=2, backoff_base=0.01, progress=False)
        with pytest.raises(ValueError, match="not a model_name"):
            run_benchmark("other", tmp_path / "b.jsonl", tmp_path / "run2", router=str(tmp_path / "fleet.yaml"), progress=False)
    finally: dead.stop()
    rows = read_responses(tmp_path / "run" / "responses.jsonl")
    assert man["totals"]["answers"] == 10 and all(rows[(r["id"], 0)]["response"] == answer_for(r["prompt"]) for r in recs)
    assert rows[("p00", 0)]["provider"] == "openai" and man["router"].endswith("fleet.yaml")
    assert KEY not in (tmp_path / "run" / "manifest.json").read_text()


def test_wise_and_wording_prompts_run_and_grade_straight_from_the_run_directory(server, tmp_path):
    "One runner for every prompt set: WISE's matched prompts and wording variants go through `ifhier run`, and grading reads the run directory."
    from ifhier.cli import call
    from ifhier.io import read_jsonl
    p, v = tmp_path / "wise.jsonl", tmp_path / "variants.jsonl"
    assert call("wise", "build", "--out", p, "--repeats", 1, "--families", "json_keys")[0] == 0
    assert call("wise", "build", "--constraint", "string.comma", "--depth", 1, "--max-prompts", 3, "--out", v)[0] == 0
    for prompts, run in ((p, tmp_path / "run_wise"), (v, tmp_path / "run_wording")):
        code, out, err = call("run", "--model", "openai/fake-model", "--api-base", server.url, "--bench", prompts, "--out", run,
                              "--limit", 12, "--timeout", 5)
        assert code == 0, err
        code, out, err = call("wise", "grade", "--prompts", prompts, "--answers", run, "--out", run / "graded.csv", "--no-complete")
        assert code == 0 and "graded" in out, err
    import pandas as pd
    g = pd.read_csv(tmp_path / "run_wise" / "graded.csv")
    assert len(g) == 12 and set(g.model) == {"openai/fake-model"} and not g.compliant.any()   # the fake answers are no JSON object
    assert len(read_jsonl(tmp_path / "run_wording" / "responses.jsonl")) == 9                  # 3 prompts x 3 templates
