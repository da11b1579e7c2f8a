"""Time the full WISE analysis on a simulated paper-scale panel: `python scripts/bench_wise.py [--reps 10000]`.

13 simulated models (7 providers) x 100 items x 3 repeats x 6 exact-count wording forms; `analyze` runs the
three contrast schemes and the ranking task-bootstrap at the spec's default of 10,000 replicates. The panel is
synthetic (`ifhier.wise.panel.simulate_graded`); only the timing is reported."""
import argparse, time
from ifhier.wise.panel import simulate_graded
from ifhier.wise.audit import analyze

FORMS = ("POS", "NEG", "NEVER", "AVOID1", "AVOID2", "CNEG")
TARGET_SECONDS = 10.0

def main(reps: int = 10_000, seed: int = 0) -> float:
    "Print and return the seconds `analyze` takes on a paper-scale simulated panel."
    graded = simulate_graded(n_models=13, n_items=100, n_repeats=3, n_providers=7,
                             families={"exact_original": FORMS}, seed=seed)
    t0 = time.perf_counter()
    res = analyze(graded, reps=reps, seed=seed)
    secs = time.perf_counter() - t0
    n = len(res["contrasts"]) + len(res["ranking"])
    print(f"wise analyze: {len(graded):,} graded outputs (13 models x 100 items x 3 repeats x 6 forms), "
          f"{reps:,} replicates, 3 schemes + ranking ({n} intervals): {secs:.2f} s "
          f"(target < {TARGET_SECONDS:.0f} s{'' if secs < TARGET_SECONDS else ': MISSED'})")
    return secs

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    main(a.reps, a.seed)
