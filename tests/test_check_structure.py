"""Each of the 10 structure types passing and failing at the root and at nested scopes, through `check`."""
import json
import pytest
from ifhier.verdicts import check
from ifhier.registry import REGISTRY

# (id, kind, params, passing scope, failing scope, substring of the failing reason)
CASES = [
    ("json.has_keys", "json", {"keys": ["a", "b"]}, {"a": 1, "b": [], "c": 0}, {"a": 1}, "missing key 'b'"),
    ("json.key_count", "json", {"rel": "at most", "n": 2}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}, "3 top-level keys"),
    ("array.length", "array", {"rel": "exactly", "n": 3}, ["x", "y", "z"], ["x", "y"], "2 items; needed exactly 3"),
    ("array.length", "array", {"rel": "more than", "n": 1}, "- x\n- y", "- x", "1 item; needed more than 1"),
    ("array.elements_at", "array", {"positions": [0, 2]}, ["a", "b", "c"], ["a", "b"], "no item 3 (list has 2 items)"),
    ("list.items_unique", "array", {}, ["a", "b", "A"], ["a", "b", " a "], "item 3 repeats item 1"),
    ("list.items_unique", "array", {}, "1. a\n2. b", "1. a\n2. a", "item 2 repeats item 1"),
    ("markdown.heading_count", "markdown", {"rel": "exactly", "n": 2}, "# A\ntext\n## B", "# A\n## B\n### C", "3 headings"),
    ("markdown.heading_count", "markdown", {"rel": "at least", "n": 2, "level": 2}, "## A\n## B", "# A\n## B", "1 heading of level 2"),
    ("markdown.has_heading", "markdown", {"headings": ["Pros and Cons", "Verdict"]}, "## **Pros and Cons**:\nx\n# verdict",
     "## Pros\n# Verdict", "no heading 'Pros and Cons'"),
    ("markdown.has_code_block", "markdown", {"language": "python"}, "To run it\n```py\nprint('# hi')\n```",
     "```python\nprint(1)  # hi\n```", "has a comment"),
    ("markdown.has_code_block", "markdown", {"language": "sql"}, "```sql\nSELECT '--';\n```", "```bash\nls\n```", "no non-empty sql code block"),
    ("labeled.has_labels", "labeled", {"labels": ["Summary", "Sources"]}, "**Summary:** x\nSources: y", "Summary: x\n- Sources: y",
     "no label 'Sources'"),
    ("labeled.section_count", "labeled", {"rel": "less than", "n": 3}, "A: 1\nB: 2", "A: 1\nB: 2\nC: 3", "3 labeled sections"),
]

def test_all_structure_types_covered():
    assert {c[0] for c in CASES} == {k for k, ct in REGISTRY.items() if ct.level == "structure"}

def _node(kind, cid, params, via=None, kids=()):
    return {"kind": kind, "via": via, "constraints": [{"id": cid, "params": params}], "children": list(kids)}

def _text(v): return v if isinstance(v, str) else json.dumps(v)

def _wrappers(kind, cid, params):
    "(name, tree, make response from a scope value) for the root and three nesting contexts."
    leaf = lambda via: _node(kind, cid, params, via)
    yield "root", leaf(None), _text
    yield "json key", _node("json", "json.has_keys", {"keys": ["wrap"]}, kids=[leaf({"key": "wrap"})]), \
        lambda v: json.dumps({"other": 1, "wrap": v})
    yield "array item", _node("array", "array.elements_at", {"positions": [1]}, kids=[leaf({"index": 1})]), \
        lambda v: json.dumps(["first", v])
    if kind == "markdown":   # Markdown nests in a labeled section (its headings would end a heading section)
        yield "label section", _node("labeled", "labeled.has_labels", {"labels": ["Body"]}, kids=[leaf({"label": "Body"})]), \
            lambda v: "Intro: hello\nBody:\n" + _text(v)
    else:                    # the others nest in a heading section (their label lines would end a labeled section)
        yield "heading section", _node("markdown", "markdown.has_heading", {"headings": ["Body"]}, kids=[leaf({"heading": "Body"})]), \
            lambda v: "# Intro\nhello\n# Body\n" + _text(v)

@pytest.mark.parametrize("cid,kind,params,good,badv,why", CASES)
def test_pass_and_fail_everywhere(cid, kind, params, good, badv, why):
    for name, tree, make in _wrappers(kind, cid, params):
        got = check(tree, make(good))
        assert [v.verdict for v in got] == ["pass"] * len(got), (name, got)
        got = check(tree, make(badv))
        assert got[-1].verdict == "fail" and why in got[-1].reason, (name, got)
        assert [v.verdict for v in got[:-1]] == ["pass"] * (len(got) - 1), (name, got)

def test_nested_under_labels_and_fenced_json():
    tree = _node("labeled", "labeled.has_labels", {"labels": ["Data"]},
                 kids=[_node("json", "json.has_keys", {"keys": ["k"]}, {"label": "Data"},
                             kids=[_node("array", "array.length", {"rel": "exactly", "n": 2}, {"key": "k"})])])
    ok = 'Intro: hi\nData:\n```json\n{"k": "- a\\n- b"}\n```'
    assert [v.verdict for v in check(tree, ok)] == ["pass"] * 3
    assert [v.verdict for v in check(tree, ok, bare_json=True)] == ["pass", "unreachable", "unreachable"]
    got = check(tree, 'Data: {"k": "just words"}')
    assert got[-1].verdict == "unreachable" and got[-1].reason == "value of 'k' is not an array (found a string with no list items)"

def test_heading_count_nested_counts_only_the_section():
    tree = _node("markdown", "markdown.has_heading", {"headings": ["Body"]},
                 kids=[_node("markdown", "markdown.heading_count", {"rel": "exactly", "n": 2}, {"heading": "Body"})])
    got = check(tree, "# Intro\n## x\n# Body\n## One\n## Two\n# End\n## y")
    assert [v.verdict for v in got] == ["pass", "pass"] and got[1].reason == "2 headings; needed exactly 2"

def test_structure_unreachable_at_root_reason():
    for cid, kind, params, *_ in CASES:
        if kind in ("json", "array"):
            got = check(_node(kind, cid, params), "just prose")
            assert got[0].verdict == "unreachable" and got[0].reason.startswith("response is not")
