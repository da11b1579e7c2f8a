#!/usr/bin/env python
"""Validate ifhier/data/structure_vocab.yaml (or the file given): every seed-task genre has an entry, kinds are
container kinds, keys are snake_case, headings and labels Title Case, no identifier overlaps another of its genre
(or a shared one), fields have 2-5 choices; `holds`/`long`/`short` name known identifiers, a short
field never holds structure. Prints a summary; exits 1 with one line per problem.

    python scripts/validate_structure_vocab.py [VOCAB.yaml] [--tasks SEED_TASKS.jsonl]
"""
import argparse, json, sys
from pathlib import Path
import yaml
from ifhier.bench.vocab import vocab_problems, genre_vocab

ROOT = Path(__file__).resolve().parent.parent

def main(argv=None)->int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vocab", nargs="?", default=ROOT / "ifhier" / "data" / "structure_vocab.yaml")
    ap.add_argument("--tasks", default=ROOT / "ifhier" / "data" / "seed_tasks.jsonl")
    a = ap.parse_args(argv)
    try: v = yaml.safe_load(Path(a.vocab).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e: print(f"{a.vocab}: {e}"); return 1
    genres = tuple(sorted({json.loads(l)["genre"] for l in Path(a.tasks).read_text(encoding="utf-8").splitlines() if l.strip()}))
    errs = vocab_problems(v, genres)
    for e in errs: print(f"{a.vocab}: {e}")
    if errs: return 1
    for g in sorted(v["genres"]):
        gv = genre_vocab(v, g)
        print(f"{g:20} kinds={','.join(gv['kinds']) or '-':28} keys={len(gv['key']):2} fields={len(gv['fields'])} "
              f"headings={len(gv['heading']):2} labels={len(gv['label']):2} holds={len(gv['holds']):2} long={len(gv['long']):2} "
              f"short={len(gv['short']):2}{' code' if gv['code'] else ''}")
    print("OK"); return 0

if __name__ == "__main__": sys.exit(main())
