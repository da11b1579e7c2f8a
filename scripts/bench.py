"""`make bench`: run every scripts/bench_*.py and print its figures.

Each bench script owns one topic (checker throughput, IFEval scoring, benchmark build, WISE bootstrap,
`ifhier score` over 100k answers)
and prints its own numbers; timings are wall-clock on this machine, one process, so compare ratios
measured within one run rather than absolute figures across machines."""
import importlib.util, os, platform, sys, time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
here = Path(__file__).resolve().parent

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
        print(f"({path.stem} took {time.perf_counter() - t0:.1f} s)", flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
