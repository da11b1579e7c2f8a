"""`make run`: the main job, offline, end to end, through the same commands a researcher runs.

1. `ifhier build --seed 0`: the IFHierBench benchmark, checked byte-identical to the shipped one;
2. `ifhier run --model M` for every offline answerer (the witness and the labelled synthetic responders),
   through the same runner, resume logic and run-directory format a paid model run uses;
3. `ifhier score --loose`: every constraint at its own scope, strict and loose side by side, once per run
   (`RUN/scores.csv`: the report and the figures read it instead of scoring again);
4. `ifhier report out/runs/* --paper`: Table 2 / Table 3 layouts with bootstrap CIs, flat-checker over-credit,
   failure-mode signatures and reasoning order, offline answerers kept apart from models;
5. the figures (accuracy by depth with CIs, per-type heatmap, over-credit, WISE contrasts, word-count errors,
   outcome profiles, rank reversals) into figures/;
6. `ifhier explain`: one failing depth-3 answer walked node by node;
7. `ifhier ifeval score --out-dir`: the IFEval profile on a shipped fixture, strict and loose in one pass;
8. WISE: matched prompts, synthetic demo panel, grading, the full statistical audit;
9. `ifhier wise demo --constraint`: the wording audit of one IFHierBench constraint type;
10. `ifhier wise paper`: the WISE paper's Table 11 re-derived and its rank-reversal figures;
11. `ifhier build --tier hard|scale`: the two Build 2.0 tiers, each checked byte-identical to its shipped file,
    answered by the witness and the root-only answerer and reported (accuracy by difficulty; on the scale tier the
    density sweep, accuracy against the constraint count K with the fitted decay a*b^(K-1) per depth).
Everything is written under --out (default out/); figures go to figures/."""
import argparse, filecmp, importlib.util, os, shutil, sys, time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
root = Path(__file__).resolve().parents[1]
ANSWERERS = ("witness", "root-only", "no-format", "one-slip", "wrong-scope")

def step(title):
    print(f"\n== {title} ==", flush=True)
    return time.perf_counter()

def cli(*argv):
    from ifhier.cli import main
    code = main([str(a) for a in argv])
    if code: sys.exit(f"`ifhier {' '.join(map(str, argv))}` failed with exit code {code}")

def done(t): print(f"({time.perf_counter() - t:.1f} s)", flush=True)

def main(out: Path, reps: int):
    import pandas as pd
    out.mkdir(parents=True, exist_ok=True); figs = root / "figures"; figs.mkdir(exist_ok=True)

    t = step("1. build the benchmark (seed 0)")
    bench = out / "ifhierbench.jsonl"
    cli("build", "--seed", 0, "--out", bench)
    same = filecmp.cmp(bench, root / "ifhier/data/ifhierbench.jsonl", shallow=False)
    print(f"identical to the shipped ifhier/data/ifhierbench.jsonl: {same}")
    if not same: sys.exit("the seed-0 build differs from the shipped benchmark")
    done(t)

    t = step("2. answer it with the offline answerers through `ifhier run` (the runner a paid model uses)")
    runs = [out / "runs" / m for m in ANSWERERS]
    shutil.rmtree(out / "runs", ignore_errors=True)   # offline answers are cheap: start clean (a stale run of another build would be refused)
    for m, d in zip(ANSWERERS, runs): cli("run", "--model", m, "--bench", bench, "--out", d)
    cli("run", "--model", "witness", "--bench", bench, "--out", runs[0])      # a re-run resumes: nothing left to ask
    done(t)

    t = step("3. score every constraint at its own scope, strict and loose (once: the report and figures read these tables)")
    for d in runs: cli("score", "--bench", bench, "--responses", d, "--out", d / "scores.csv", "--loose")
    done(t)

    t = step("4. the report: paper layouts with bootstrap CIs")
    from ifhier.report.tables import existing_scores
    from ifhier.benchfile import load_bench
    stale = [d.name for d in runs if not existing_scores(d, load_bench(bench), ("strict", "loose"))]
    if stale: sys.exit(f"the score tables of {stale} would be scored again by the report")
    cli("report", *runs, "--bench", bench, "--out", out / "report", "--paper", "--seed", 0)
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    print(md.split("### Table 2 layout")[1].split("\n\n")[1])
    print(f"report: {out / 'report' / 'report.md'} (its figures in {out / 'report' / 'figures'})")
    done(t)

    t = step("5. figures")
    spec = importlib.util.spec_from_file_location("figures_script", root / "scripts" / "figures.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    mod.main(["--runs", *map(str, runs), "--bench", str(bench), "--out", str(figs)])
    scores = pd.read_csv(runs[1] / "scores.csv", dtype={"depth": str})
    from ifhier.report.score import accuracy_table
    from ifhier.figures import plot_accuracy_by_depth, save_figure
    acc = pd.concat([accuracy_table(pd.read_csv(d / "scores.csv", dtype={"depth": str}).query("profile == 'strict'")) for d in runs])
    save_figure(plot_accuracy_by_depth(acc), figs / "accuracy_by_depth")
    print("figure: figures/accuracy_by_depth.png"); done(t)

    t = step("6. explain one failing depth-3 answer (root-only)")
    bad = scores[(scores.depth == "3") & (scores.verdict == "fail") & (scores.profile == "strict")].prompt_id
    if len(bad): cli("explain", "--bench", bench, "--responses", runs[1], "--prompt-id", bad.iloc[0])
    done(t)

    t = step("7. the IFEval profile on the shipped fixture, strict and loose in one pass")
    fx = root / "nbs/fixtures"
    cli("ifeval", "score", "--input", fx / "ifeval_input.jsonl", "--responses", fx / "ifeval_responses.jsonl", "--out-dir", out / "ifeval")
    done(t)

    t = step("8. WISE: matched prompts, synthetic demo panel, grading, full statistical audit")
    w = out / "wise"
    cli("wise", "build", "--out", w / "prompts.jsonl")
    cli("wise", "demo", "--prompts", w / "prompts.jsonl", "--out", w / "answers.jsonl")
    cli("wise", "grade", "--prompts", w / "prompts.jsonl", "--answers", w / "answers.jsonl", "--out", w / "graded.csv", "--by-panel")
    cli("wise", "analyze", "--graded", w / "graded.csv", "--out", w / "analysis", "--reps", reps, "--seed", 0)
    summ = pd.read_csv(w / "analysis/summary.csv")
    print("WISE audit summary of the synthetic panel (not model results):\n" + summ.round(1).to_string(index=False))
    done(t)

    t = step("9. wording audit of one IFHierBench constraint type (synthetic panel with a planted effect)")
    cli("wise", "demo", "--constraint", "markdown.has_heading", "--depth", 2, "--reps", 2000, "--out", out / "wording")
    print(pd.read_csv(out / "wording/contrasts.csv").round(2).to_string(index=False))
    done(t)

    t = step("10. WISE paper: Table 11 re-derived, rank-reversal figures")
    cli("wise", "paper", "--out", figs)
    (figs / "table11_check.csv").replace(out / "table11_check.csv")
    done(t)
    t = step("11. the hard and scale tiers: build, check against the shipped files, answer, report")
    for tier in ("hard", "scale"):
        tb = out / f"ifhierbench_{tier}.jsonl"
        cli("build", "--tier", tier, "--seed", 0, "--out", tb)
        if not filecmp.cmp(tb, root / f"ifhier/data/ifhierbench_{tier}.jsonl", shallow=False):
            sys.exit(f"the seed-0 {tier} build differs from the shipped ifhier/data/ifhierbench_{tier}.jsonl")
        truns = [out / "tiers" / tier / m for m in ("witness", "root-only")]
        shutil.rmtree(out / "tiers" / tier, ignore_errors=True)
        for m, d in zip(("witness", "root-only"), truns): cli("run", "--model", m, "--bench", tb, "--out", d)
        cli("report", *truns, "--bench", tb, "--out", out / "tiers" / tier / "report", "--seed", 0)
        md = (out / "tiers" / tier / "report" / "report.md").read_text(encoding="utf-8")
        head = "## Density sweep" if tier == "scale" and "## Density sweep" in md else None
        print(f"{tier}: identical to the shipped file; report {out / 'tiers' / tier / 'report' / 'report.md'}")
        if head: print(head + md.split(head)[1].split("\n\n## ")[0][:1500])
    done(t)
    print(f"\nall outputs under {out}/, figures under {figs}/")

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=root / "out")
    ap.add_argument("--reps", type=int, default=10_000, help="bootstrap replicates for the WISE audit")
    a = ap.parse_args()
    main(a.out.resolve(), a.reps)
