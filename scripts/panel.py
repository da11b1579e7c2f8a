"""The development panel (issue 23, items 5-6): answers written and labelled blind, then scored.

A frontier LLM answers a seeded draw of prompts exactly as a chat model would (one pass, no tools, reading only
the prompt); readers who never saw the checker label every constraint from a checklist written from the tree
(the paper voice's one sentence per constraint); the labels are hashed before the checker runs; a failure counts
only where a reader confirms it. Nothing here calls a model: the answers and labels come in as files, with their
provenance ("a frontier LLM, one pass, no tools" — never a named model's score).

    python scripts/panel.py draw    --out panel/ [--bench B.jsonl --voices ifhier,paper --seed 23 --per-depth 8 --depths 2,3
                                                   --exclude earlier_panel/ ...]   # prompts no earlier draw or sample used
    python scripts/panel.py packets --panel panel/ --protocol answerer.txt --sessions 4 --seed 1 --out packets/
    python scripts/panel.py answers --panel panel/ --packets packets/   # packets/answers_<S>.txt -> answers_ifhier.jsonl
    python scripts/panel.py sheets  --panel panel/ [--out out/panel]    # checklists for the blind readers
    python scripts/panel.py readers --panel panel/ --sheets out/panel --protocol reader.txt --sessions 4 --seed 2 --out packets/
    python scripts/panel.py labels  --panel panel/ --packets packets/   # packets/labels_<k>.jsonl -> labels_ifhier.jsonl
    python scripts/panel.py seal    --panel panel/              # sha256 of every label file, before scoring
    python scripts/panel.py score   --panel panel/ [--out out/panel]    # checker vs readers, and the paired wording effect

`packets` and `readers` write one file of items per fresh session, shuffled and under neutral ids (pNN for answerers,
rNN for readers, kept in packets/neutral_ids.json), and the protocol text with that session's files filled in
(ask_<S>.txt): hand each session only its ask file. `answers` and `labels` read the sessions' files back and refuse a
missing, repeated or unknown item.

Layout of panel/: prompts_<voice>.jsonl (id, prompt), answers_<voice>.jsonl (prompt_id, response),
labels_<voice>.jsonl (prompt_id, constraint index, label pass|fail), seals.json, PROVENANCE.md.
The draw keeps a held-out half (`half`: dev | held_out): tune on dev, quote held_out.
"""
import argparse, hashlib, json, random, re, sys
from pathlib import Path
from ifhier.benchfile import load_bench
from ifhier.io import data_path, read_jsonl, write_jsonl, write_json, InputError
from ifhier.tree import ConstraintNode

VOICES = ("ifhier", "paper")

def _voices(panel:Path)->list:
    "The voices a panel was drawn in (those with a prompts file), in VOICES order."
    return [v for v in VOICES if (panel / f"prompts_{v}.jsonl").exists()]

def used_ids(paths:list, known:set)->set:
    "Ids of `known` named anywhere in the files at `paths` (a folder: every file below it): prompts an earlier draw or rating used."
    if missing := [str(p) for p in paths if not Path(p).exists()]: raise InputError(f"--exclude: no such file or folder: {', '.join(missing)}")
    files = [f for p in map(Path, paths) for f in ([p] if p.is_file() else sorted(p.rglob("*")))]
    found = {m for f in files if f.is_file() for m in re.findall(r"[A-Za-z0-9-]+-\d{4}", f.read_text(errors="ignore"))}
    return found & known

def draw(out:Path, seed:int, per_depth:int, depths:tuple, bench_path:Path|None=None, voices:tuple=VOICES, exclude:tuple=()):
    from ifhier.bench.voice import revoice
    if bad := set(voices) - set(VOICES): raise InputError(f"unknown voice(s) {sorted(bad)}; known: {', '.join(VOICES)}")
    bench = load_bench(bench_path or data_path("ifhierbench.jsonl"))
    skip = used_ids(list(exclude), {r["id"] for r in bench})
    rng, picked = random.Random(seed), []
    for d in depths:
        ids = sorted(r["id"] for r in bench if r["depth"] == d and r["id"] not in skip)
        if len(ids) < per_depth: raise InputError(f"depth {d} has {len(ids)} prompts; cannot draw {per_depth}")
        picked += rng.sample(ids, per_depth)
    keep = [r for r in bench if r["id"] in set(picked)]
    halves = {pid: ("dev" if i % 2 == 0 else "held_out") for i, pid in enumerate(sorted(picked, key=lambda p: hashlib.sha256(f"{seed}:{p}".encode()).hexdigest()))}
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl([dict(r, half=halves[r["id"]]) for r in keep], out / "bench.jsonl")
    for v in voices:
        recs = keep if v == "ifhier" else revoice(keep, v)
        write_jsonl([dict(id=r["id"], prompt=r["prompt"]) for r in recs], out / f"prompts_{v}.jsonl")
    print(f"drew {len(keep)} trees (seed {seed}, {per_depth} per depth {list(depths)}{f', {len(skip)} used prompts left out' if exclude else ''}): "
          f"{out}/prompts_<voice>.jsonl")

def _deal(items:list, seed:int, prefix:str, sessions:int)->tuple[dict, list]:
    """`items` shuffled by `seed` under neutral ids (`prefix`01, ...), dealt in order into `sessions` runs of near-equal
    length: ({neutral id: item}, [[(neutral id, item), ...] per session])."""
    if not 1 <= sessions <= len(items): raise InputError(f"--sessions must be between 1 and {len(items)}, got {sessions}")
    items = list(items); random.Random(seed).shuffle(items)
    named = [(f"{prefix}{i + 1:02d}", x) for i, x in enumerate(items)]
    k, r = divmod(len(named), sessions)
    return dict(named), [named[i * k + min(i, r):(i + 1) * k + min(i + 1, r)] for i in range(sessions)]

def _ask(protocol:Path, **files)->str:
    "The protocol text with a session's files filled in ({PF}/{AF} for answerers, {PK}/{OUT} for readers)."
    text = Path(protocol).read_text(encoding="utf-8")
    for k, v in files.items():
        if "{" + k + "}" not in text: raise InputError(f"{protocol}: the protocol must name {{{k}}}")
        text = text.replace("{" + k + "}", str(Path(v).resolve()))
    return text

def _ids_file(out:Path)->dict: return json.loads((out / "neutral_ids.json").read_text()) if (out / "neutral_ids.json").exists() else {}

def packets(panel:Path, protocol:Path, sessions:int, seed:int, out:Path, voice:str="ifhier"):
    "One prompt file per fresh answerer session: the draw's prompts shuffled by `seed` under neutral ids pNN, depths mixed."
    named, runs = _deal(read_jsonl(panel / f"prompts_{voice}.jsonl"), seed, "p", sessions)
    out.mkdir(parents=True, exist_ok=True)
    for s, run in zip(_session_names(sessions), runs):
        (out / f"prompts_{s}.txt").write_text("".join(f"=== PROMPT {pid} ===\n{p['prompt']}\n\n" for pid, p in run), encoding="utf-8")
        (out / f"ask_{s}.txt").write_text(_ask(protocol, PF=out / f"prompts_{s}.txt", AF=out / f"answers_{s}.txt"), encoding="utf-8")
    ids = {pid: p["id"] for pid, p in named.items()}
    write_json(dict(_ids_file(out), answerer_ids=ids, answerer_seed=seed, voice=voice), out / "neutral_ids.json")
    print(f"{len(ids)} prompts in {sessions} answerer packets (seed {seed}): {out}/ask_<S>.txt")

def _session_names(n:int)->list: return [chr(ord("A") + i) if n <= 26 else f"S{i + 1:02d}" for i in range(n)]

def answers(panel:Path, pk:Path):
    "Read the answerer sessions' files back into answers_<voice>.jsonl, in the draw's order; refuse a missing, repeated or unknown answer."
    meta = _ids_file(pk)
    if "answerer_ids" not in meta: raise InputError(f"{pk}/neutral_ids.json: no answerer ids (run `packets` first)")
    ids, got = meta["answerer_ids"], {}
    for f in sorted(pk.glob("answers_*.txt")):
        parts = re.split(r"^=== ANSWER (p\d\d+) ===\n", f.read_text(encoding="utf-8"), flags=re.M)
        if parts[0].strip(): raise InputError(f"{f}: text before the first '=== ANSWER pNN ===' line")
        for pid, body in zip(parts[1::2], parts[2::2]):
            if pid not in ids: raise InputError(f"{f}: unknown answer id {pid}")
            if pid in got: raise InputError(f"{f}: {pid} answered twice")
            got[pid] = body.rstrip("\n")
    if missing := sorted(set(ids) - set(got)): raise InputError(f"{pk}: no answer for {', '.join(missing)}")
    inv = {v: k for k, v in ids.items()}
    rows = [dict(prompt_id=r["id"], response=got[inv[r["id"]]]) for r in read_jsonl(panel / f"prompts_{meta['voice']}.jsonl")]
    write_jsonl(rows, panel / f"answers_{meta['voice']}.jsonl")
    print(f"{len(rows)} answers: {panel}/answers_{meta['voice']}.jsonl")

def readers(panel:Path, sheets_dir:Path, protocol:Path, sessions:int, seed:int, out:Path, voice:str="ifhier"):
    "One file of items per fresh reader session: each answer with its prompt and numbered checklist, shuffled by `seed` under neutral ids rNN."
    rows = list(read_jsonl(sheets_dir / f"sheet_{voice}.jsonl"))
    if any(r["answer"] is None for r in rows): raise InputError(f"{sheets_dir}/sheet_{voice}.jsonl: an answer is missing (run `answers` before `sheets`)")
    named, runs = _deal(rows, seed, "r", sessions)
    out.mkdir(parents=True, exist_ok=True)
    for k, run in enumerate(runs):
        (out / f"items_{k}.txt").write_text("".join(
            f"##### ITEM {rid} #####\n--- PROMPT ---\n{r['prompt']}\n--- ANSWER ---\n{r['answer']}\n--- CHECKLIST ---\n"
            + "".join(f"{c['index']}. {c['requirement']}\n" for c in r["checklist"]) + "\n" for rid, r in run), encoding="utf-8")
        (out / f"ask_reader_{k}.txt").write_text(_ask(protocol, PK=out / f"items_{k}.txt", OUT=out / f"labels_{k}.jsonl"), encoding="utf-8")
    rids = {rid: r["prompt_id"] for rid, r in named.items()}
    write_json(dict(_ids_file(out), reader_ids=rids, reader_seed=seed, reader_sessions=sessions), out / "neutral_ids.json")
    print(f"{sum(len(r['checklist']) for r in rows)} constraints of {len(rows)} answers in {sessions} reader packets (seed {seed}): {out}/ask_reader_<k>.txt")

def labels(panel:Path, pk:Path, voice:str="ifhier"):
    "Read the reader sessions' label files back into labels_<voice>.jsonl; refuse a missing, repeated or unknown label."
    meta = _ids_file(pk)
    if "reader_ids" not in meta: raise InputError(f"{pk}/neutral_ids.json: no reader ids (run `readers` first)")
    need = {r["id"]: {c["index"] for c in checklist(r)} for r in read_jsonl(panel / "bench.jsonl")}
    out, seen = [], set()
    for k in range(meta["reader_sessions"]):
        f = pk / f"labels_{k}.jsonl"
        if not f.exists(): raise InputError(f"{f}: missing (reader session {k} has not written its labels)")
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip(): continue
            try: x = json.loads(line); pid, i, lab = meta["reader_ids"][x["rid"]], int(x["index"]), x["label"]
            except (ValueError, KeyError, TypeError) as e: raise InputError(f"{f}: not a label line ({e}): {line[:80]}") from None
            if lab not in ("pass", "fail") or i not in need[pid] or (pid, i) in seen: raise InputError(f"{f}: bad or repeated label: {line[:80]}")
            seen.add((pid, i)); out.append(dict(prompt_id=pid, index=i, label=lab, reader=f"reader-{k + 1}", why=x.get("why", "")))
    if missing := [(p, i) for p, s in need.items() for i in sorted(s) if (p, i) not in seen]: raise InputError(f"{pk}: {len(missing)} constraints unlabelled, e.g. {missing[:3]}")
    write_jsonl(sorted(out, key=lambda x: (x["prompt_id"], x["index"])), panel / f"labels_{voice}.jsonl")
    print(f"{len(out)} labels: {panel}/labels_{voice}.jsonl (seal them before scoring)")

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
    d.add_argument("--exclude", nargs="*", default=[], type=Path, help="files or folders naming prompts not to draw (earlier panels, rating samples)")
    k = sub.add_parser("packets"); k.add_argument("--panel", required=True, type=Path); k.add_argument("--protocol", required=True, type=Path)
    k.add_argument("--sessions", type=int, default=4); k.add_argument("--seed", type=int, required=True); k.add_argument("--out", required=True, type=Path)
    k = sub.add_parser("readers"); k.add_argument("--panel", required=True, type=Path); k.add_argument("--sheets", required=True, type=Path)
    k.add_argument("--protocol", required=True, type=Path); k.add_argument("--sessions", type=int, default=4)
    k.add_argument("--seed", type=int, required=True); k.add_argument("--out", required=True, type=Path)
    for n in ("answers", "labels"):
        k = sub.add_parser(n); k.add_argument("--panel", required=True, type=Path); k.add_argument("--packets", required=True, type=Path)
    for n in ("sheets", "seal", "score"):
        q = sub.add_parser(n); q.add_argument("--panel", required=True, type=Path)
        q.add_argument("--out", type=Path, default=Path("out/panel"), help="where derived files go (sheets, verdicts.csv, prompts.csv)")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "draw": draw(a.out, a.seed, a.per_depth, tuple(int(x) for x in a.depths.split(",")), a.bench, tuple(a.voices.split(",")), a.exclude)
        elif a.cmd == "packets": packets(a.panel, a.protocol, a.sessions, a.seed, a.out)
        elif a.cmd == "readers": readers(a.panel, a.sheets, a.protocol, a.sessions, a.seed, a.out)
        elif a.cmd in ("answers", "labels"): globals()[a.cmd](a.panel, a.packets)
        else: globals()[a.cmd](a.panel, a.out)
    except InputError as e: sys.exit(f"panel: error: {e}")

if __name__ == "__main__": main()
