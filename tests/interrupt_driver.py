"""Interrupt `ifhier run` many times, at chosen moments, in one interpreter (litellm is imported once, not per run).

Each round runs `ifhier.cli.main(["run", ...])` against a local fake OpenAI server while a watcher thread sends this
process a real SIGINT (what Ctrl-C does) at the round's moment: at the start (before any request), mid-flight, during
a retry wait (the server answered 429 with a long Retry-After), or while rows are being written. stderr is captured
per round, garbage is collected before the capture ends (so a "coroutine ... was never awaited" warning would be
caught), and one JSON line per round is printed. Usage: python interrupt_driver.py ROUNDS_JSON OUT_DIR"""
import contextlib, gc, io, json, os, random, signal, sys, threading, time, warnings
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_openai import FakeOpenAI, answer_for  # noqa: E402
from ifhier.cli import main                      # noqa: E402
from ifhier.run.client import litellm_module     # noqa: E402


def _ok_rows(p: Path) -> list:
    if not p.exists(): return []
    return [r for r in (json.loads(l) for l in p.read_text(encoding="utf-8").splitlines() if l.strip()) if not r.get("error")]


def one_round(server, base: Path, i: int, moment: str, delay: float) -> dict:
    out, bench = base / f"run{i}", base / f"bench{i}.jsonl"
    prompts = {f"p{k:02d}": f"Round {i} prompt number {k}: write about topic {k}." for k in range(80)}
    bench.write_text("".join(json.dumps(dict(id=k, prompt=v)) + "\n" for k, v in prompts.items()))
    server.delay, server.plan = (0.0 if moment == "writing" else 0.05), {}
    if moment == "retry-wait": server.plan = {f"Round {i} prompt number 0:": [("status", 429, 30)]}
    resp, state = out / "responses.jsonl", {}

    def watch():
        t0 = time.monotonic()
        def until(cond):
            while not cond() and time.monotonic() - t0 < 60: time.sleep(0.005)
        if moment == "start": until(lambda: (out / ".lock").exists())
        elif moment == "mid-flight": until(lambda: resp.exists() and resp.read_bytes().count(b"\n") >= 2)
        elif moment == "retry-wait": until(lambda: any(r["fault"] == "status" and f"Round {i} " in r["prompt"] for r in server.log))
        elif moment == "writing": until(lambda: resp.exists() and resp.stat().st_size > 0)
        time.sleep(delay)
        state["ok_at_signal"] = len(_ok_rows(resp))
        if not state.get("returned"): os.kill(os.getpid(), signal.SIGINT)

    w, t_start = threading.Thread(target=watch, daemon=True), time.monotonic()
    err, sout = io.StringIO(), io.StringIO()
    argv = ["run", "--model", "openai/fake-model", "--api-base", server.url, "--bench", str(bench), "--out", str(out),
            "--timeout", "5", "--max-retries", "3", "--concurrency", "1" if moment == "retry-wait" else "4"]
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(sout), warnings.catch_warnings():
        warnings.filterwarnings("always", message=".*was never awaited", category=RuntimeWarning)   # never hidden here
        w.start()
        try: code = main(argv)
        except KeyboardInterrupt: code = "KeyboardInterrupt escaped"
        state["returned"] = True
        w.join(timeout=70)
        gc.collect(); time.sleep(0.05); gc.collect()
    rows = [json.loads(l) for l in resp.read_text(encoding="utf-8").splitlines() if l.strip()] if resp.exists() else []
    man = json.loads((out / "manifest.json").read_text()) if (out / "manifest.json").exists() else {}
    ok = [r for r in rows if not r.get("error")]
    return dict(round=i, moment=moment, delay=delay, seconds=round(time.monotonic() - t_start, 2), code=code, stderr=err.getvalue(), stdout=sout.getvalue(), ok_at_signal=state.get("ok_at_signal"),
                ok_after=len(ok), right=all(r["response"] == answer_for(prompts[r["prompt_id"]]) for r in ok),
                unique=len({(r["prompt_id"], r["sample"]) for r in ok}) == len(ok), status=man.get("status"),
                lock_free=(out / ".lock").read_text() == "" if (out / ".lock").exists() else True)


def main_(rounds: list, base: Path):
    litellm_module()                                     # import once: its cost is not what is tested
    server = FakeOpenAI().start()
    try:
        for i, (moment, delay) in enumerate(rounds): print(json.dumps(one_round(server, base, i, moment, delay)), flush=True)
    finally: server.stop()


if __name__ == "__main__":
    main_(json.loads(sys.argv[1]), Path(sys.argv[2]))
