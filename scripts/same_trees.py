#!/usr/bin/env python
"""Does a rebuilt benchmark keep every prompt's constraint tree (only the wording moved)?

    python scripts/same_trees.py OLD.jsonl|git:REV [NEW.jsonl]

Compares, id by id, the `tree` JSON and every other field except `prompt` and `builder_version`; `git:REV` reads
the benchmark committed at REV. NEW defaults to the shipped benchmark. Exit 1 if any id differs."""
import json, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = "ifhier/data/ifhierbench.jsonl"

def _read(src:str)->list:
    text = subprocess.run(["git", "show", f"{src[4:]}:{BENCH}"], cwd=ROOT, capture_output=True, text=True, check=True).stdout \
        if src.startswith("git:") else Path(src).read_text(encoding="utf-8")
    return [json.loads(l) for l in text.splitlines() if l.strip()]

def compare(old:list, new:list)->dict:
    "Ids whose tree (or any field but the prompt text and version) differs, and how many prompts changed."
    o, n = {r["id"]: r for r in old}, {r["id"]: r for r in new}
    keep = lambda r: {k: v for k, v in r.items() if k not in ("prompt", "builder_version")}
    return dict(ids=len(n), same_ids=set(o) == set(n), differ=sorted(i for i in n if i not in o or keep(o[i]) != keep(n[i])),
                prompts_changed=sum(i in o and o[i]["prompt"] != n[i]["prompt"] for i in n))

def main(argv=None)->int:
    a = (argv if argv is not None else sys.argv[1:]) or ["-h"]
    if a[0] in ("-h", "--help"): print(__doc__); return 0
    r = compare(_read(a[0]), _read(a[1] if len(a) > 1 else str(ROOT / BENCH)))
    print(f"{r['ids']} ids (same set: {r['same_ids']}); trees or other fields differing: {len(r['differ'])} {r['differ'][:10]}; "
          f"prompt texts changed: {r['prompts_changed']}")
    return 0 if r["same_ids"] and not r["differ"] else 1

if __name__ == "__main__": sys.exit(main())
