"""Throughput of `ifhier score` on DISTINCT answers, whole process, at 1 and 2 workers (`--workers`).

The answers are `bench_reward.distinct_stream` (seeded rewrites of the witness, mutants and responders per sample,
asserted pairwise distinct; see that script), written as one run's `responses.jsonl`: N = 200,000 rows (override
with IFHIER_BENCH_SCORE_N), `sample` counting each prompt's answers. Each measurement is the real command line
(`ifhier score --responses FILE --out FILE.jsonl --answered-only --workers W`) in its own process: reading,
resolving, checking, writing the table and its summary; wall time and the peak resident memory of its largest
process (the command or one pool worker).
The score table is held and written whole, so this memory grows with N (the reward stream is the flat one). The
two result files are compared byte for byte."""
import json, os, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
try: from benchout import record
except ImportError: record = lambda *a, **k: None
from bench_reward import distinct_stream            # noqa: E402

N = int(os.environ.get("IFHIER_BENCH_SCORE_N", 200_000))

def write_run(path:Path, n:int):
    from ifhier.io import data_path, read_jsonl
    ids = [r["id"] for r in read_jsonl(data_path("ifhierbench.jsonl"))]
    seen: dict = {}
    with open(path, "w") as f:
        for k, c in distinct_stream(n):
            s = seen[k] = seen.get(k, -1) + 1
            f.write(json.dumps(dict(prompt_id=ids[k], sample=s, model="distinct", response=c)) + "\n")

def timed(cmd:list)->tuple[float, float]:
    "(wall seconds, peak resident MB of the largest process: `cmd` or one of its children) of one run of `cmd`."
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    if status: raise RuntimeError(f"{cmd[:3]} failed: {p.stderr.read().decode()[-2000:]}")
    return dt, ru.ru_maxrss / 1024

def main(n:int=N):
    ifhier = Path(sys.executable).parent / "ifhier"
    with tempfile.TemporaryDirectory() as d:
        run, t0 = Path(d) / "responses.jsonl", time.perf_counter()
        write_run(run, n)
        print(f"{n:,} distinct answers written as one run in {time.perf_counter() - t0:.1f} s (not timed)")
        rate, outs = {}, {}
        for w in (1, 2):
            out = Path(d) / f"w{w}" / "scores.jsonl"; out.parent.mkdir()
            dt, mb = timed([str(ifhier), "score", "--responses", str(run), "--out", str(out), "--answered-only", "--workers", str(w)])
            rows = sum(1 for _ in open(out))
            rate[w] = n / dt
            outs[w] = out.read_bytes()
            print(f"ifhier score --workers {w}: {n:,} distinct answers ({rows:,} verdict rows) in {dt:.1f} s: "
                  f"{n / dt:,.0f} answers/s, {rows / dt:,.0f} verdicts/s; peak memory {mb:,.0f} MB", flush=True)
            record(f"ifhier_score.distinct.workers{w}", round(n / dt), "answers/s", f"{n:,} distinct answers, whole process")
            record(f"ifhier_score.distinct.workers{w}.verdicts", round(rows / dt), "verdicts/s", None)
            record(f"ifhier_score.distinct.workers{w}.peak_memory", round(mb), "MB", None)
        same = outs[1] == outs[2]
        print(f"speed-up 1 -> 2 workers: {rate[2] / rate[1]:.2f}x; score tables {'byte-identical' if same else 'DIFFER'}")
        record("ifhier_score.distinct.speedup_1_to_2", round(rate[2] / rate[1], 2), "x", "ifhier_score.distinct.workers1")
        if not same: raise RuntimeError("ifhier score --workers 2 wrote a different table than --workers 1")

if __name__ == "__main__":
    main()
