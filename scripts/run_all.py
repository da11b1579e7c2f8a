"""`make run`: the main job, offline, end to end.

1. build the IFHierBench benchmark (seed 0) and confirm it is byte-identical to data/ifhierbench.jsonl;
2. answer it with the embedded responders (the witness and three labelled synthetic ones);
3. score every run directory at its own scope and print strict accuracy by depth; draw figures/accuracy_by_depth.png;
3b. `ifhier report out/runs/* --bench … --out out/report --paper`: the paper-layout report (Table 2 / Table 3 with
    bootstrap CIs, over-credit, failure modes, reasoning order; offline answerers apart from models); its figures
    are copied into figures/report_*;
4. score the shipped IFEval-format fixture, strict and loose;
5. WISE: build the matched prompts, answer them with the synthetic demo panel, grade, and run the full audit;
6. audit the wording of one IFHierBench constraint type (each of its templates on the same trees);
7. redraw the WISE paper figures from the published tables.
Everything is written under --out (default out/); figures go to figures/."""
import argparse, filecmp, os, sys, time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
root = Path(__file__).resolve().parents[1]

def step(title):
    print(f"\n== {title} ==", flush=True)
    return time.perf_counter()

def cli(*argv):
    from ifhier.cli import main
    code = main([str(a) for a in argv])
    if code: sys.exit(f"`ifhier {' '.join(map(str, argv))}` failed with exit code {code}")

def main(out: Path, reps: int):
    import pandas as pd
    from ifhier.bench.build import load_bench
    from ifhier.report.score import load_responses, score_responses, accuracy_table
    from ifhier.run.responders import RESPONDERS, respond_run
    from ifhier.figures import plot_accuracy_by_depth, plot_rank_bump, save_figure
    out.mkdir(parents=True, exist_ok=True); (root / "figures").mkdir(exist_ok=True)

    t = step("1. build the benchmark (seed 0)")
    bench = out / "ifhierbench.jsonl"
    cli("build", "--seed", 0, "--out", bench)
    same = filecmp.cmp(bench, root / "ifhier/data/ifhierbench.jsonl", shallow=False)
    print(f"identical to data/ifhierbench.jsonl: {same}  ({time.perf_counter() - t:.1f} s)")
    if not same: sys.exit("the seed-0 build differs from the committed data/ifhierbench.jsonl")

    t = step("2-3. answer with the offline responders and score every constraint at its scope")
    records, tables = load_bench(bench), []
    for name in RESPONDERS:
        run_dir = out / "runs" / name.split(" ")[0]
        respond_run(records, name, run_dir)
        cli("score", "--bench", bench, "--responses", run_dir, "--out", run_dir / "scores.csv")
        tables.append(accuracy_table(pd.read_csv(run_dir / "scores.csv", dtype={"depth": str})))
    acc = pd.concat(tables, ignore_index=True)
    acc.to_csv(out / "accuracy_by_depth.csv", index=False)
    wide = acc.pivot(index="model", columns="depth", values="prompt_acc").mul(100).round(1)
    print("strict prompt-level accuracy (%) by depth:\n" + wide.to_string())
    save_figure(plot_accuracy_by_depth(acc), root / "figures/accuracy_by_depth")
    print(f"figure: figures/accuracy_by_depth.png  ({time.perf_counter() - t:.1f} s)")

    t = step("3b. the report over every run directory (paper layouts, bootstrap CIs)")
    import shutil
    runs = sorted(p for p in (out / "runs").iterdir() if (p / "responses.jsonl").exists())
    cli("report", *runs, "--bench", bench, "--out", out / "report", "--paper", "--seed", 0)
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    print(md.split("### Table 2 layout")[1].split("\n\n")[1])
    for f in sorted((out / "report" / "figures").glob("*.png")):
        shutil.copyfile(f, root / "figures" / f"report_{f.name}")
    print(f"report: {out / 'report' / 'report.md'}; figures copied to figures/report_*  ({time.perf_counter() - t:.1f} s)")

    t = step("4. IFEval profile on the shipped fixture (strict, then loose)")
    fx = root / "nbs/fixtures"
    for flag in ([], ["--loose"]):
        cli("ifeval", "score", "--input", fx / "ifeval_input.jsonl", "--responses", fx / "ifeval_responses.jsonl",
            "--out", out / f"ifeval_{'loose' if flag else 'strict'}.jsonl", *flag)

    t = step("5. WISE: matched prompts, synthetic demo panel, grading, full statistical audit")
    w = out / "wise"
    cli("wise", "build", "--out", w / "prompts.jsonl")
    cli("wise", "demo", "--prompts", w / "prompts.jsonl", "--out", w / "answers.jsonl")
    cli("wise", "grade", "--prompts", w / "prompts.jsonl", "--answers", w / "answers.jsonl", "--out", w / "graded.csv", "--by-panel")
    cli("wise", "analyze", "--graded", w / "graded.csv", "--out", w / "analysis", "--reps", reps, "--seed", 0)
    summ = pd.read_csv(w / "analysis/summary.csv")
    print("WISE audit summary of the synthetic panel (not model results):\n" + summ.round(1).to_string(index=False))
    print(f"({time.perf_counter() - t:.1f} s)")

    t = step("6. wording audit of one IFHierBench constraint type (synthetic panel with a planted effect)")
    cli("wise", "demo", "--constraint", "markdown.has_heading", "--depth", 2, "--out", out / "wording")
    print(pd.read_csv(out / "wording/contrasts.csv").round(2).to_string(index=False))

    t = step("7. WISE paper figures from the published tables")
    from ifhier.wise.paper import PAPER_PANELS, table11_check, per_model_long
    print("Table 11 rebuilt from the per-form tables:\n" + table11_check().to_string(index=False))
    for p in PAPER_PANELS.itertuples():
        path = root / f"figures/wise_paper_ranks_{p.panel_id}.png"
        title = f"{p.panel}: ranks of the printed models ({p.per_model.split('_')[1].replace('table', 'Table ')})"
        save_figure(plot_rank_bump(per_model_long(p.per_model), title), path)
        print(f"figure: {path.relative_to(root)}")
    print(f"\nall outputs under {out}/ and figures/")

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=root / "out")
    ap.add_argument("--reps", type=int, default=10_000, help="bootstrap replicates for the WISE audit")
    a = ap.parse_args()
    main(a.out.resolve(), a.reps)
