"""Compare today's strict checker with the hand labels of `answers.jsonl`; print every differing label.

Run from the repository root: `python ifhier/data/agreement/crosscheck.py` (writes nothing).
"""
import json, pathlib, collections
from ifhier.check import check
from ifhier.tree import ConstraintNode

HERE = pathlib.Path(__file__).parent
rows, n, sh = [], 0, collections.Counter()
for line in open(HERE / "answers.jsonl", encoding="utf-8"):
    a = json.loads(line)
    got = check(ConstraintNode.from_json(a["tree"]), a["response"])
    assert [(v.node_path, v.constraint) for v in got] == [(l["node_path"], l["constraint"]) for l in a["labels"]], a["id"]
    for v, l in zip(got, a["labels"]):
        n += 1
        sh[l["strict"] == l["human"]] += 1
        if v.verdict != l["strict"]:
            rows.append((a["id"], a["prompt_id"], l["node_path"], l["constraint"], l["strict"], v.verdict, v.reason))
print(f"{n} labels; checker differs from strict label on {len(rows)}; strict != human on {sh[False]}")
for r in rows: print(" | ".join(map(str, r)))
