"""Constraint trees and the hierarchical checker: round trip, validation, `unreachable` propagation, the paper's A.4 examples."""
import json
from pathlib import Path
import pandas as pd
import pytest
from ifhier.verdicts import check, check_flat, verdicts_df, prompt_accuracy, instruction_accuracy, Verdict, VERDICTS
from ifhier.registry import ParamError
from ifhier.tree import ConstraintNode, iter_nodes, depth, validate_tree, alias_of

A4 = json.loads((Path(__file__).parents[1] / "nbs" / "fixtures" / "paper_a4.json").read_text())

def n(kind, via=None, cons=(), kids=()):
    return {"kind": kind, "via": via, "constraints": [{"id": c, "params": p} for c, p in cons], "children": list(kids)}

# JSON root -> key "report" (markdown) -> heading "Highlights" (labeled) -> label "Summary" (string)
DEEP = n("json", cons=[("json.has_keys", {"keys": ["report"]}), ("json.key_count", {"rel": "at most", "n": 3})], kids=[
    n("markdown", {"key": "report"}, [("markdown.has_heading", {"headings": ["Highlights"]})], [
        n("labeled", {"heading": "Highlights"}, [("labeled.has_labels", {"labels": ["Summary"]}),
                                                  ("labeled.section_count", {"rel": "exactly", "n": 2})], [
            n("string", {"label": "Summary"}, [("string.num_words", {"rel": "at most", "n": 5}),
                                                ("string.lowercase_letters", {})])])])])
PATHS = ["$", "$", '$["report"]', '$["report"]#"Highlights"', '$["report"]#"Highlights"', '$["report"]#"Highlights"@"Summary"',
         '$["report"]#"Highlights"@"Summary"']
GOOD = json.dumps({"report": "# Report\nintro\n## **Highlights**\nSummary: short and sweet\nNext: more\n## Other\nx"})

def test_deep_tree_passes_and_paths():
    got = check(DEEP, GOOD)
    assert [v.node_path for v in got] == PATHS
    assert [v.verdict for v in got] == ["pass"] * 7
    assert depth(ConstraintNode.from_json(DEEP)) == 3

@pytest.mark.parametrize("response,verdicts,reason", [
    # level 0 fails: everything unreachable with the parse reason
    ("not json", ["unreachable"] * 7, "response is not valid JSON: Expecting value at line 1 column 1"),
    ('{"x": 1}', ["fail", "pass"] + ["unreachable"] * 5, "no key 'report' (found 'x')"),
    ('{"report": {"a": 1}}', ["pass", "pass"] + ["unreachable"] * 5, "value of 'report' is not text (found an object)"),
    # level 1 extraction fails
    (json.dumps({"report": "# Report\n## Lowlights\nSummary: x"}), ["pass", "pass", "fail"] + ["unreachable"] * 4,
     "no heading 'Highlights' (found 'Report', 'Lowlights')"),
    # level 2 extraction fails
    (json.dumps({"report": "## Highlights\nOverview: x\nNext: y"}), ["pass"] * 3 + ["fail", "pass", "unreachable", "unreachable"],
     "no label 'Summary' (found 'Overview', 'Next')"),
    # level 2 blank scope: its constraints fail, its child is unreachable
    (json.dumps({"report": "## Highlights\n   \n## Other"}), ["pass"] * 3 + ["fail", "fail", "unreachable", "unreachable"],
     "empty scope at $[\"report\"]#\"Highlights\""),
    # level 3 blank scope
    (json.dumps({"report": "## Highlights\nSummary:   \nNext: y"}), ["pass"] * 5 + ["fail", "fail"], "empty scope"),
    # level 3 content failures only
    (json.dumps({"report": "## Highlights\nSummary: Far Too Many Words In This One\nNext: y"}), ["pass"] * 5 + ["fail", "fail"], None),
])
def test_unreachable_propagation(response, verdicts, reason):
    got = check(DEEP, response)
    assert [v.verdict for v in got] == verdicts
    assert [v.node_path for v in got] == PATHS
    if reason: assert got[-1].reason == reason
    first = verdicts.index("unreachable") if "unreachable" in verdicts else None
    if first is not None: assert len({v.reason for v in got[first:]}) == 1   # the whole subtree shares the reason

def test_round_trip_exact():
    for tree in [DEEP] + [ex["tree"] for ex in A4]:
        node = ConstraintNode.from_json(tree)
        assert node.to_json() == tree
        assert ConstraintNode.from_json(json.dumps(node.to_json())) == node
        assert json.loads(json.dumps(node.to_json())) == tree

def test_round_trip_keeps_optional_none_and_unicode():
    tree = n("markdown", cons=[("markdown.heading_count", {"rel": "exactly", "n": 1, "level": None}),
                               ("markdown.has_heading", {"headings": ["Résumé 📄"]})],
             kids=[n("string", {"heading": "Résumé 📄"})])
    assert ConstraintNode.from_json(tree).to_json() == tree
    assert [v.path for v in iter_nodes(ConstraintNode.from_json(tree))] == ["$", '$#"Résumé 📄"']

def test_aliases():
    node = ConstraintNode.from_json(A4[3]["tree"])
    assert [v.alias for v in iter_nodes(node)] == [
        "the response", "the value of key 'target_audience'", "the value of key 'Sources'", "item 2 of the value of key 'Sources'"]
    assert alias_of({"label": "Summary"}) == "the section labeled 'Summary'"

@pytest.mark.parametrize("mutate,exc,msg", [
    (lambda t: t["children"][0]["constraints"].append({"id": "nope.x", "params": {}}), ValueError, 'node $["report"]: unknown constraint type'),
    (lambda t: t["children"][0]["children"][0]["constraints"][1]["params"].update(n=99), ParamError,
     'node $["report"]#"Highlights": labeled.section_count: n must be an integer'),
    (lambda t: t["children"][0]["children"][0]["constraints"].append({"id": "json.key_count", "params": {"rel": "exactly", "n": 1}}),
     ValueError, "json.key_count applies to ['json'] scopes, not labeled"),
    (lambda t: t["children"][0]["children"][0]["children"][0]["via"].update(label="Verdict"), ValueError,
     """node $["report"]#"Highlights"@"Verdict": label 'Verdict' is not opened by a structure constraint of $["report"]#"Highlights\""""),
    (lambda t: t["children"][0].update(via={"index": 0}), ValueError, "a json scope cannot have a child reached by index"),
    (lambda t: t["children"][0]["children"][0]["children"][0].update(children=[n("string", {"key": "x"})]), ValueError,
     "a string scope cannot have a child reached by key"),
])
def test_validation_names_the_node(mutate, exc, msg):
    t = json.loads(json.dumps(DEEP)); mutate(t)
    with pytest.raises(exc) as e: ConstraintNode.from_json(t)
    assert msg in str(e.value)

@pytest.mark.parametrize("ex", A4, ids=lambda ex: f"depth{ex['depth']}")
def test_paper_a4(ex):
    tree = ConstraintNode.from_json(ex["tree"])
    assert depth(tree) == ex["depth"]
    assert {v.verdict for v in check(tree, ex["pass"])} == {"pass"}
    assert [v.verdict for v in check(tree, ex["fail"])] == ex["fail_verdicts"]

def test_flat_over_credits_nested_failures():
    # the leaf's lowercase constraint passes flat on an all-lowercase non-JSON answer; hierarchically it is unreachable
    ex = A4[3]
    resp = "sources: a, b, c"
    hier, flat = check(ex["tree"], resp), check_flat(ex["tree"], resp)
    assert [v.verdict for v in hier] == ["unreachable"] * 6
    assert flat[-1].verdict == "pass" and "unreachable" not in {v.verdict for v in flat}

def test_accuracies():
    rows = []
    for ex in A4:
        for s, key in enumerate(["pass", "fail"]):
            rows.append(verdicts_df(check(ex["tree"], ex[key]), model="m", prompt_id=f"p{ex['depth']}", sample=s, depth=ex["depth"]))
    df = pd.concat(rows, ignore_index=True)
    assert set(df.verdict) <= set(VERDICTS)
    assert prompt_accuracy(df) == 0.5
    n_pass = sum(len(ex["fail_verdicts"]) for ex in A4) + sum(v == "pass" for ex in A4 for v in ex["fail_verdicts"])
    assert instruction_accuracy(df) == pytest.approx(n_pass / (2 * sum(len(ex["fail_verdicts"]) for ex in A4)))
    by = prompt_accuracy(df, by=["depth"])
    assert list(by.columns) == ["depth", "n", "accuracy"] and by["accuracy"].tolist() == [0.5] * 4
    # two models on the same prompt are two answers, not one
    two = pd.concat([df.assign(model="a"), df.assign(model="b")])
    assert prompt_accuracy(two, by=["model"])["n"].tolist() == [8, 8]

def test_verdict_object():
    v = check(A4[0]["tree"], A4[0]["pass"])[0]
    assert isinstance(v, Verdict) and v.passed and v.params == {}
