"""Concurrency efficiency and per-request overhead of `ifhier run` against a fixed-delay local server.

    PYTHONPATH=. python scripts/bench_runner.py [--n 200] [--delay 0.2] [--concurrency 32]

Efficiency = ideal time / actual time, where ideal = ceil(n / concurrency) x delay (each of `concurrency` slots
serves its share back to back). Overhead = wall time per request at concurrency 1 against a zero-delay server
(the runner + litellm + HTTP round trip). The server runs in its own process (tests/fake_openai.py)."""
import argparse, json, math, os, subprocess, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-key")
for v in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"): os.environ.pop(v, None)
os.environ["NO_PROXY"] = "127.0.0.1,localhost"
ROOT = Path(__file__).resolve().parent.parent


def serve(delay):
    p = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_openai.py"), str(delay)], stdout=subprocess.PIPE, text=True)
    return p, p.stdout.readline().strip()


def timed(url, n, concurrency, d):
    from ifhier.run.runner import run_benchmark
    bench = Path(d) / f"b{n}.jsonl"
    bench.write_text("".join(json.dumps(dict(id=f"p{i}", prompt=f"prompt {i}")) + "\n" for i in range(n)))
    out = Path(tempfile.mkdtemp(dir=d))
    t0 = time.perf_counter()
    man = run_benchmark("openai/bench", bench, out, api_base=url, concurrency=concurrency, progress=False)
    dt = time.perf_counter() - t0
    assert man["totals"]["answers"] == n, man["totals"]
    return dt


def raw_litellm(url, n, concurrency):
    "The same requests through bare `litellm.acompletion` under a semaphore: litellm's own floor."
    import asyncio
    from ifhier.run.client import litellm_module as _litellm
    litellm = _litellm()
    async def go():
        sem = asyncio.Semaphore(concurrency)
        async def one(i):
            async with sem: await litellm.acompletion(model="openai/bench", api_base=url, num_retries=0, max_retries=0,
                                                      timeout=30, messages=[{"role": "user", "content": f"prompt {i}"}])
        t0 = time.perf_counter(); await asyncio.gather(*(one(i) for i in range(n))); return time.perf_counter() - t0
    return asyncio.run(go())


def main(argv=()):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--delay", type=float, nargs="+", default=[1.0, 0.2], help="server delays: a typical answer time, and a stress test")
    ap.add_argument("--concurrency", type=int, default=32); ap.add_argument("--overhead-n", type=int, default=100)
    a = ap.parse_args(list(argv))
    from ifhier.run.client import litellm_module as _litellm
    _litellm()                                                    # import cost is not part of the measurement
    fast, url0 = serve(0.0)
    try:
        with tempfile.TemporaryDirectory() as d:
            timed(url0, 8, 4, d)                                  # warm up connections and code paths
            for delay in a.delay:
                slow, url = serve(delay)
                try: dt, raw = timed(url, a.n, a.concurrency, d), raw_litellm(url, a.n, a.concurrency)
                finally: slow.kill()
                ideal = math.ceil(a.n / a.concurrency) * delay
                print(f"concurrency efficiency: {ideal / dt:.3f}  (n={a.n}, delay={delay}s, concurrency={a.concurrency}: "
                      f"ideal {ideal:.2f}s, actual {dt:.2f}s; bare litellm.acompletion {ideal / raw:.3f}, runner / bare = {dt / raw:.2f}x)")
            dt0, raw0 = timed(url0, a.overhead_n, 1, d), raw_litellm(url0, a.overhead_n, 1)
    finally:
        fast.kill()
    print(f"per-request overhead: {1000 * dt0 / a.overhead_n:.1f} ms  (concurrency 1, zero-delay server, n={a.overhead_n}; "
          f"bare litellm {1000 * raw0 / a.overhead_n:.1f} ms)")


if __name__ == "__main__":
    main(sys.argv[1:])
