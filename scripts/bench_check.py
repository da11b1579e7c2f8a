"""Throughput of the hierarchical checker: answers per second at constraint depths 0-3, on one core.

Hand-made trees (registry types only) with a witness-like passing answer and several failing ones per depth
(a content miss, a missing key / heading, broken JSON, an empty answer). Each answer is checked `REPEAT` times
after a warm-up; the figure is answers checked per second of wall time, pinned to one CPU where the OS allows."""
import json, os, time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from ifhier.verdicts import check, check_flat      # noqa: E402
from ifhier.tree import ConstraintNode, depth   # noqa: E402

REPEAT = 300

def n(kind, via=None, cons=(), kids=()):
    return {"kind": kind, "via": via, "constraints": [{"id": c, "params": p} for c, p in cons], "children": list(kids)}

TREES = {
    0: n("string", cons=[("string.num_words", {"rel": "at most", "n": 60}), ("string.contains", {"words": ["policy"]}),
                         ("string.comma", {})]),
    1: n("markdown", cons=[("markdown.has_heading", {"headings": ["Summary", "Details"]}),
                           ("markdown.heading_count", {"rel": "at most", "n": 4})],
         kids=[n("string", {"heading": "Summary"}, [("string.num_words", {"rel": "at most", "n": 30}),
                                                    ("string.contains", {"words": ["report"]})]),
               n("string", {"heading": "Details"}, [("string.not_contains", {"words": ["car"]}), ("string.lowercase_letters", {})])]),
    2: n("json", cons=[("json.has_keys", {"keys": ["headline", "bullets"]}), ("json.key_count", {"rel": "at most", "n": 3})],
         kids=[n("string", {"key": "headline"}, [("string.contains", {"words": ["report", "policy"]}),
                                                 ("string.string_length", {"min_chars": 10, "max_chars": 60})]),
               n("array", {"key": "bullets"}, [("array.length", {"rel": "exactly", "n": 3}), ("list.items_unique", {}),
                                               ("array.elements_at", {"positions": [0, 2]})],
                 [n("string", {"index": 0}, [("string.num_words", {"rel": "at most", "n": 15})]),
                  n("string", {"index": 2}, [("string.num_words", {"rel": "at most", "n": 15})])])]),
    3: n("json", cons=[("json.has_keys", {"keys": ["review"]})],
         kids=[n("markdown", {"key": "review"}, [("markdown.has_heading", {"headings": ["Pros and Cons"]}),
                                                  ("markdown.heading_count", {"rel": "at least", "n": 2})],
                 [n("labeled", {"heading": "Pros and Cons"}, [("labeled.has_labels", {"labels": ["Pros", "Cons"]}),
                                                               ("labeled.section_count", {"rel": "exactly", "n": 2})],
                    [n("string", {"label": "Pros"}, [("string.capital_letters", {})]),
                     n("string", {"label": "Cons"}, [("string.num_words", {"rel": "less than", "n": 10})])])])]),
}

ANSWERS = {
    0: ["The policy is clear and short and it helps everyone who reads it.",
        "The plan, which is long, misses the word.", ""],
    1: ["# Report\n## Summary\nA short report on the policy.\n## Details\nall lowercase details here.",
        "## Summary\nA short report.\n## Detail\nx", "# Summary\nno report word\n# Details\nA Car.", "no headings at all"],
    2: ['```json\n{"headline": "Policy report for 2026", "bullets": ["Costs fall.", "Access grows.", "Rules tighten."]}\n```',
        '{"headline": "Policy report", "bullets": ["a", "a"]}', '{"headline": "News", "items": []}', '{"headline": "x",'],
    3: [json.dumps({"review": "# Review\nIntro.\n## Pros and Cons\nPros: FAST AND CHEAP\nCons: few dorms\n## Verdict\nGood."}),
        json.dumps({"review": "# Review\n## Pros and Cons\nPros: fast\nCons: many many many words in this cons section here ok"}),
        json.dumps({"review": "# Review\n## Pros\nx"}), json.dumps({"review": {"a": 1}}), "Sorry, I can't."],
}

def _pin():
    try: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError): pass

def rate(fn, tree, answers, repeat=REPEAT)->float:
    "Answers per second for `fn(tree, answer)` over `answers`, best of 3 rounds."
    for a in answers: fn(tree, a)                       # warm-up (imports, regex caches)
    rounds = []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(repeat):
            for a in answers: fn(tree, a)
        rounds.append(repeat * len(answers) / (time.perf_counter() - t0))
    return max(rounds)

def main():
    _pin()
    print(f"{'depth':>5} {'constraints':>11} {'answers':>7} {'check ans/s':>12} {'flat ans/s':>11}  pass/fail/unreachable")
    for d, t in TREES.items():
        tree = ConstraintNode.from_json(t)
        assert depth(tree) == d
        verdicts = [v.verdict for a in ANSWERS[d] for v in check(tree, a)]
        assert all(v.verdict == "pass" for v in check(tree, ANSWERS[d][0])), f"depth {d}: the witness answer must pass"
        counts = "/".join(str(verdicts.count(k)) for k in ("pass", "fail", "unreachable"))
        n_cons = sum(len(x["constraints"]) for x in _walk(t))
        print(f"{d:>5} {n_cons:>11} {len(ANSWERS[d]):>7} {rate(check, tree, ANSWERS[d]):>12,.0f} "
              f"{rate(check_flat, tree, ANSWERS[d]):>11,.0f}  {counts}")

def _walk(t):
    yield t
    for c in t["children"]: yield from _walk(c)

if __name__ == "__main__":
    main()
