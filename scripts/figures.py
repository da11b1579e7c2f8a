"""Write the project's figures (PNG + SVG) offline, one library call each: the IFHierBench figures from run
directories (the tables of `ifhier report`), the WISE figures from the synthetic demo panel, and the WISE
paper's rank reversals from its published tables.

    python scripts/figures.py --runs out/runs/witness out/runs/one-slip ... [--bench FILE] [--out figures]
"""
import argparse
from pathlib import Path
from ifhier.io import data_path, project_root
from ifhier.benchfile import load_bench
from ifhier.report.tables import load_runs
from ifhier.report.write import group_tables
from ifhier.wise.build import build_prompts, grade
from ifhier.wise.demo import demo_answers
from ifhier.wise.audit import analyze
from ifhier.wise.paper import per_model_long, pos_worst_gaps
from ifhier import figures as F

def main(argv=None)->int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", nargs="+", required=True, help="run directories (each with responses.jsonl)")
    ap.add_argument("--bench", default=str(data_path("ifhierbench.jsonl")))
    ap.add_argument("--out", default=str(project_root() / "figures"))
    ap.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates for the intervals")
    a = ap.parse_args(argv)
    bench, out = load_bench(a.bench), Path(a.out)
    t = group_tables(load_runs(a.runs, bench), bench, a.n_boot, 0)          # the same tables `ifhier report` writes
    prompts = build_prompts(repeats=1, seed=0); graded = grade(demo_answers(prompts, seed=0), prompts)
    res = analyze(graded, reps=a.n_boot, seed=0); con = res["contrasts"]
    prof = res["profiles"].groupby(["family", "form"], as_index=False, sort=False)[["under", "exact", "over"]].mean().dropna()
    long = per_model_long("wise_table22")
    charts = dict(
        ifhierbench_accuracy_ci=F.plot_accuracy_ci(t["acc"]),
        ifhierbench_type_heatmap=F.plot_type_heatmap(t["rates"]),
        ifhierbench_overcredit=F.plot_overcredit(t["overcredit"]),
        wise_contrasts=F.plot_contrasts(con[con.scheme == con.scheme.iloc[0]]),
        wise_word_error=F.plot_word_error(F.word_errors(graded[graded.family == "exact_count"])),
        wise_outcomes=F.plot_outcomes(prof),
        paper_ranks_avoidance=F.plot_rank_bump(long),
        paper_pos_worst_avoidance=F.plot_pos_worst(pos_worst_gaps(long)))
    for name, chart in charts.items(): F.save_figure(chart, out / name)
    print(f"wrote {len(charts)} figures (PNG + SVG) to {out}")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
