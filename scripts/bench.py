"""`make bench`: run every scripts/bench_*.py and print its figures.

Each bench script owns one topic (checker throughput, IFEval scoring, benchmark build, WISE bootstrap,
`ifhier score` over 100k answers)
and prints its own numbers; timings are wall-clock on this machine, one process, so compare ratios
measured within one run rather than absolute figures across machines. Every figure a script `record`s
(`scripts/benchout.py`) is also written to `out/bench.json` (override with IFHIER_BENCH_JSON)."""
import importlib.util, os, platform, sys, time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
import benchout  # noqa: E402

def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def main(only: list[str]) -> int:
    print(f"ifhier bench: python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}")
    scripts = sorted(p for p in here.glob("bench_*.py") if not only or any(o in p.stem for o in only))
    for path in scripts:
        print(f"\n== {path.stem} ==", flush=True)
        t0 = time.perf_counter()
        _load(path).main()
        dt = time.perf_counter() - t0
        benchout.record(f"{path.stem}.duration", round(dt, 1), "s")
        print(f"({path.stem} took {dt:.1f} s)", flush=True)
    out = Path(os.environ.get("IFHIER_BENCH_JSON", here.parent / "out" / "bench.json"))
    benchout.write(out)
    print(f"\nwrote {len(benchout.FIGURES)} figures to {out}")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
