"""The development panel (issue 23, items 5-6): answers written and labelled blind, then scored.

A frontier LLM answers a seeded draw of prompts exactly as a chat model would (one pass, no tools, reading only
the prompt); readers who never saw the checker label every constraint from a checklist written from the tree
(the paper voice's one sentence per constraint); the labels are hashed before the checker runs; a failure counts
only where a reader confirms it. Nothing here calls a model: the answers and labels come in as files, with their
provenance ("a frontier LLM, one pass, no tools" — never a named model's score).

    python scripts/panel.py draw   --out panel/ [--bench B.jsonl --voices ifhier,paper --seed 23 --per-depth 8 --depths 2,3]
    python scripts/panel.py sheets --panel panel/ [--out out/panel]   # checklists for the blind readers
    python scripts/panel.py seal   --panel panel/              # sha256 of every label file, before scoring
    python scripts/panel.py score  --panel panel/ [--out out/panel]   # checker vs readers, and the paired wording effect

Layout of panel/: prompts_<voice>.jsonl (id, prompt), answers_<voice>.jsonl (prompt_id, response),
labels_<voice>.jsonl (prompt_id, constraint index, label pass|fail), seals.json, PROVENANCE.md.
The draw keeps a held-out half (`half`: dev | held_out): tune on dev, quote held_out.
"""
import argparse, hashlib, json, random, sys
from pathlib import Path
from ifhier.benchfile import load_bench
from ifhier.io import data_path, read_jsonl, write_jsonl, write_json, InputError
from ifhier.tree import ConstraintNode

VOICES = ("ifhier", "paper")

def _voices(panel:Path)->list:
    "The voices a panel was drawn in (those with a prompts file), in VOICES order."
    return [v for v in VOICES if (panel / f"prompts_{v}.jsonl").exists()]

def draw(out:Path, seed:int, per_depth:int, depths:tuple, bench_path:Path|None=None, voices:tuple=VOICES):
    from ifhier.bench.voice import revoice
    if bad := set(voices) - set(VOICES): raise InputError(f"unknown voice(s) {sorted(bad)}; known: {', '.join(VOICES)}")
    bench = load_bench(bench_path or data_path("ifhierbench.jsonl"))
    rng, picked = random.Random(seed), []
    for d in depths:
        ids = sorted(r["id"] for r in bench if r["depth"] == d)
        if len(ids) < per_depth: raise InputError(f"depth {d} has {len(ids)} prompts; cannot draw {per_depth}")
        picked += rng.sample(ids, per_depth)
    keep = [r for r in bench if r["id"] in set(picked)]
    halves = {pid: ("dev" if i % 2 == 0 else "held_out") for i, pid in enumerate(sorted(picked, key=lambda p: hashlib.sha256(f"{seed}:{p}".encode()).hexdigest()))}
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl([dict(r, half=halves[r["id"]]) for r in keep], out / "bench.jsonl")
    for v in voices:
        recs = keep if v == "ifhier" else revoice(keep, v)
        write_jsonl([dict(id=r["id"], prompt=r["prompt"]) for r in recs], out / f"prompts_{v}.jsonl")
    print(f"drew {len(keep)} trees (seed {seed}, {per_depth} per depth {list(depths)}): {out}/prompts_<voice>.jsonl")

def checklist(rec:dict)->list:
    "One plain sentence per constraint of `rec`'s tree (the paper voice: written from the tree, never the checker), numbered."
    from ifhier.bench.voice import paper_sentences
    items = [(path, cid, text) for path, cid, text in paper_sentences(ConstraintNode.from_json(rec["tree"])) if cid]
    return [dict(index=i, node_path=path, constraint=cid, text=text) for i, (path, cid, text) in enumerate(items)]

def sheets(panel:Path, out:Path):
    bench = {r["id"]: r for r in read_jsonl(panel / "bench.jsonl")}
    out.mkdir(parents=True, exist_ok=True)
    for v in _voices(panel):
        prompts = {r["id"]: r["prompt"] for r in read_jsonl(panel / f"prompts_{v}.jsonl")}
        answers = {a["prompt_id"]: a["response"] for a in read_jsonl(panel / f"answers_{v}.jsonl")}
        rows = [dict(prompt_id=pid, prompt=prompts[pid], answer=answers.get(pid),
                     checklist=[dict(index=c["index"], requirement=c["text"]) for c in checklist(bench[pid])]) for pid in prompts]
        write_jsonl(rows, out / f"sheet_{v}.jsonl")
        print(f"{out}/sheet_{v}.jsonl: {len(rows)} answers, {sum(len(r['checklist']) for r in rows)} constraints to label")

def seal(panel:Path, out:Path=None):
    seals = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(panel.glob("labels_*.jsonl"))}
    if not seals: raise InputError(f"{panel}: no labels_*.jsonl to seal")
    write_json(seals, panel / "seals.json"); print(json.dumps(seals, indent=1))

def score(panel:Path, out:Path):
    import pandas as pd
    from ifhier.verdicts import check
    seals = json.loads((panel / "seals.json").read_text())
    for name, h in seals.items():
        if hashlib.sha256((panel / name).read_bytes()).hexdigest() != h: raise InputError(f"{panel / name}: changed since it was sealed")
    bench = {r["id"]: r for r in read_jsonl(panel / "bench.jsonl")}
    rows = []
    for v in _voices(panel):
        answers = {a["prompt_id"]: a["response"] for a in read_jsonl(panel / f"answers_{v}.jsonl")}
        labels = {(l["prompt_id"], int(l["index"])): l["label"] for l in read_jsonl(panel / f"labels_{v}.jsonl")}
        for pid, rec in bench.items():
            items = {(c["node_path"], c["constraint"]): c["index"] for c in checklist(rec)}
            for pf in ("strict", "loose"):
                for vd in check(rec["tree"], answers.get(pid, ""), profile=pf):
                    i = items[(vd.node_path, vd.constraint)]
                    rows.append(dict(voice=v, prompt_id=pid, depth=rec["depth"], half=rec["half"], profile=pf, index=i,
                                     constraint=vd.constraint, checker=vd.verdict, reason=vd.reason, reader=labels.get((pid, i))))
    df = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True); df.to_csv(out / "verdicts.csv", index=False)
    lab = df[df.reader.notna()]
    for pf, g in lab.groupby("profile"):
        agree = (g.checker == g.reader).mean()
        print(f"{pf}: checker vs blind reader agree on {(g.checker == g.reader).sum()}/{len(g)} constraints ({agree:.1%}); "
              f"checker fails the reader confirms: {((g.checker == 'fail') & (g.reader == 'fail')).sum()}/{(g.checker == 'fail').sum()}")
    # prompt level, confirmed failures only: a prompt fails when some constraint fails under the checker AND the reader
    s = df[df.profile == "loose"].assign(confirmed_fail=lambda d: (d.checker == "fail") & (d.reader.fillna("fail") == "fail"))
    p = s.groupby(["voice", "prompt_id", "depth", "half"]).confirmed_fail.any().rename("failed").reset_index()
    p["passed"] = ~p.failed
    print("prompt-level accuracy, confirmed failures only (loose checker AND reader), Wilson 95% CI:")
    print(accuracy_table(p).to_string(index=False))
    p.to_csv(out / "prompts.csv", index=False)
    if len(_voices(panel)) < 2: return df
    print("paired wording effect, ifhier voice − paper voice, prompt-level strict checker (bootstrap 95% CI over trees, exact McNemar, Holm):")
    print(wording_effect(df[df.profile == "strict"]).to_string(index=False))
    return df

def accuracy_table(p):
    "Prompt-level accuracy per voice and depth, and per voice over all depths, with Wilson 95% intervals."
    import pandas as pd
    from statsmodels.stats.proportion import proportion_confint
    rows = []
    for v, g in p.groupby("voice"):
        for depth, h in [*g.groupby("depth"), ("all", g)]:
            k, n = int(h.passed.sum()), len(h)
            lo, hi = proportion_confint(k, n, method="wilson")
            rows.append(dict(voice=v, depth=depth, prompts=n, passed=k, accuracy=k / n, ci_low=lo, ci_high=hi))
    return pd.DataFrame(rows).round(3)

def wording_effect(df, reps:int=10_000, seed:int=0):
    "Per depth and overall: prompt-level pass rate in each voice, the paired difference with a bootstrap CI, exact McNemar p, Holm."
    import numpy as np, pandas as pd
    from scipy.stats import binomtest
    from statsmodels.stats.multitest import multipletests
    ok = df.groupby(["voice", "prompt_id", "depth"]).checker.apply(lambda s: bool((s == "pass").all())).unstack("voice").reset_index()
    rng, rows = np.random.default_rng(seed), []
    for depth, g in [(d, g) for d, g in ok.groupby("depth")] + [("all", ok)]:
        a, b = g["ifhier"].to_numpy(bool), g["paper"].to_numpy(bool)
        idx = rng.integers(0, len(a), (reps, len(a)))
        boot = a[idx].mean(1) - b[idx].mean(1)
        n10, n01 = int((a & ~b).sum()), int((~a & b).sum())
        pval = binomtest(n10, n10 + n01, 0.5).pvalue if n10 + n01 else 1.0
        rows.append(dict(depth=depth, trees=len(a), ifhier=a.mean(), paper=b.mean(), effect=a.mean() - b.mean(),
                         ci_low=np.quantile(boot, 0.025), ci_high=np.quantile(boot, 0.975), mcnemar_p=pval))
    t = pd.DataFrame(rows)
    per = t.depth != "all"
    t.loc[per, "holm_p"] = multipletests(t.loc[per, "mcnemar_p"], method="holm")[1]
    return t.round(3)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw"); d.add_argument("--out", required=True, type=Path); d.add_argument("--seed", type=int, default=23)
    d.add_argument("--per-depth", type=int, default=8); d.add_argument("--depths", default="2,3")
    d.add_argument("--bench", type=Path, help="the benchmark file to draw from (default: the shipped core build)")
    d.add_argument("--voices", default=",".join(VOICES), help="voices to render the drawn trees in")
    for n in ("sheets", "seal", "score"):
        q = sub.add_parser(n); q.add_argument("--panel", required=True, type=Path)
        q.add_argument("--out", type=Path, default=Path("out/panel"), help="where derived files go (sheets, verdicts.csv, prompts.csv)")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "draw": draw(a.out, a.seed, a.per_depth, tuple(int(x) for x in a.depths.split(",")), a.bench, tuple(a.voices.split(",")))
        else: globals()[a.cmd](a.panel, a.out)
    except InputError as e: sys.exit(f"panel: error: {e}")

if __name__ == "__main__": main()
