"""Throughput of `ifhier score` on 100k answers: the witness and the three synthetic responders' answers to the
shipped benchmark (2,400 distinct answers), tiled as samples until 100,000 rows, then scored end to end with
`ifhier.report.score.score_run` (resolve duplicates, check every constraint at its scope, fail missing answers).
The figure is answers scored per second of wall time, one process."""
import os, time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from ifhier.io import data_path                     # noqa: E402
from ifhier.bench.build import load_bench           # noqa: E402
from ifhier.run.responders import RESPONDERS, answer_seed   # noqa: E402
from ifhier.tree import ConstraintNode              # noqa: E402
from ifhier.report.score import score_run           # noqa: E402

N = 100_000

def main(n: int = N):
    bench = load_bench(data_path("ifhierbench.jsonl"))
    t0 = time.perf_counter()
    base = [dict(prompt_id=rec["id"], sample=0, model=name, error=None,
                 response=fn(ConstraintNode.from_json(rec["tree"], validate=False), seed=answer_seed(rec["id"], 0)))
            for name, fn in RESPONDERS.items() for rec in bench]
    print(f"{len(base)} distinct answers from {len(RESPONDERS)} offline answerers in {time.perf_counter() - t0:.1f} s")
    k = -(-n // len(base))
    rows = [dict(r, model="tiled", sample=s * len(RESPONDERS) + j // len(bench)) for s in range(k) for j, r in enumerate(base)][:n]
    t0 = time.perf_counter()
    df, cov = score_run(bench, rows, dict(model="tiled"), answered_only=True)
    dt = time.perf_counter() - t0
    print(f"scored {len(rows):,} answers ({len(df):,} verdict rows) in {dt:.1f} s: {len(rows) / dt:,.0f} answers/s, "
          f"{len(df) / dt:,.0f} verdicts/s")

if __name__ == "__main__":
    main()
