"""Extractors of `ifhier.scopes`: every success path and every failure reason, table-driven."""
import pytest
from ifhier.scopes import (parse_scope, parse_markdown, parse_labeled, parse_list, parse_json,
                           norm_name, scope_text, MarkdownDoc, LabeledDoc)
from ifhier.reach import extract_child, via_subject

# (kind, raw, kwargs, expected value or callable(value)->bool)
PARSE_OK = [
    ("string", "plain", {}, "plain"),
    ("string", None, {}, ""),
    ("string", b"caf\xc3\xa9", {}, "café"),
    ("string", 3.5, {}, "3.5"),
    ("json", '{"a": 1}', {}, {"a": 1}),
    ("json", '```json\n{"a": 1}\n```', {}, {"a": 1}),
    ("json", '```JSON\r\n{"a": 1}\r\n```', {}, {"a": 1}),
    ("json", '```\n{"a": 1}\n```', {}, {"a": 1}),
    ("json", '\ufeff{"a": 1}', {}, {"a": 1}),
    ("json", {"a": 1}, {}, {"a": 1}),
    ("json", '{"a": 1}', {"strict": True}, {"a": 1}),
    ("array", '["x", 1]', {}, ["x", 1]),
    ("array", "```json\n[1]\n```", {}, [1]),
    ("array", "[]", {}, []),
    ("array", ["x"], {}, ["x"]),
    ("array", "- a\n- b", {}, ["a", "b"]),
    ("array", "Here:\n1. a\n2) b\n+ c\n* d", {}, ["a", "b", "c", "d"]),
    ("array", "[NAME] wrote:\n- a", {}, ["a"]),
    ("markdown", "# A\nx", {}, lambda d: isinstance(d, MarkdownDoc) and d.section("a") == "x"),
    ("markdown", "no headings", {}, lambda d: d.headings == ()),
    ("labeled", "A: x\nB: y", {}, lambda d: isinstance(d, LabeledDoc) and d.section("b") == "y"),
    ("labeled", "no labels", {}, lambda d: d.sections == ()),
]

@pytest.mark.parametrize("kind,raw,kw,want", PARSE_OK)
def test_parse_ok(kind, raw, kw, want):
    v, why = parse_scope(kind, raw, **kw)
    assert why == ""
    assert want(v) if callable(want) else v == want

PARSE_FAIL = [
    ("json", '{"a": 1 "b": 2}', {}, "response is not valid JSON: Expecting ',' delimiter at line 1 column 9"),
    ("json", "Sure! {}", {}, "response is not valid JSON: Expecting value at line 1 column 1"),
    ("json", "[1, 2]", {}, "response is not an object (found an array)"),
    ("json", '"text"', {}, "response is not an object (found a string)"),
    ("json", "null", {}, "response is not an object (found null)"),
    ("json", "true", {}, "response is not an object (found a boolean)"),
    ("json", "3", {}, "response is not an object (found a number)"),
    ("json", "   ", {}, "response is empty; expected a JSON object"),
    ("json", None, {}, "response is empty; expected a JSON object"),
    ("json", "```json\n{}\n```", {"strict": True}, "response is not valid JSON: code fences are not allowed"),
    ("json", '```json\n{}\n```\ntrailing', {}, "response is not valid JSON: Expecting value at line 1 column 1"),
    ("json", "[" * 100000 + "]" * 100000, {}, "response is not valid JSON: nested too deeply"),
    ("json", '{"x": NaN}', {}, "response is not valid JSON: NaN is not JSON"),
    ("json", [1], {}, "response is not an object (found an array)"),
    ("json", "hello", {"subject": "value of 'k'"}, "value of 'k' is not an object (found a string)"),
    ("json", "{bad", {"subject": "value of 'k'"}, "value of 'k' is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    ("array", "words only", {}, "response is not an array (found text with no list items)"),
    ("array", "words", {"subject": "value of 'Sources'"}, "value of 'Sources' is not an array (found a string with no list items)"),
    ("array", '{"a": 1}', {}, "response is not an array (found an object)"),
    ("array", "[1, 2", {}, "response is not valid JSON: Expecting ',' delimiter at line 1 column 6"),
    ("array", "", {}, "response is empty; expected a list"),
    ("array", {"a": 1}, {}, "response is not an array (found an object)"),
    ("array", True, {}, "response is not an array (found a boolean)"),
    ("string", {"a": 1}, {}, "response is not text (found an object)"),
    ("markdown", [1], {}, "response is not text (found an array)"),
    ("labeled", {"a": 1}, {"subject": "item 2"}, "item 2 is not text (found an object)"),
    ("table", "x", {}, "unknown scope kind 'table'"),
]

@pytest.mark.parametrize("kind,raw,kw,reason", PARSE_FAIL)
def test_parse_fail(kind, raw, kw, reason):
    assert parse_scope(kind, raw, **kw) == (None, reason)

OBJ = {"headline": "Policy report", "n": 3, "x": 1.5, "t": True, "z": None, "meta": {"a": 1}, "tags": ["a"],
       "md": "# H\nbody", "list": "- a\n- b", "js": '{"in": 1}'}
MD = parse_markdown("# Imagery\nDARK\n## Sub\ndeep\n# **Pros and Cons**:\nok\n# Imagery\nsecond")
LAB = parse_labeled("Intro text\n**Summary:** short\nmore\nKey Points: none")

EXTRACT_OK = [
    ("json", OBJ, {"key": "headline"}, "string", "Policy report"),
    ("json", OBJ, {"key": "n"}, "string", "3"),
    ("json", OBJ, {"key": "x"}, "markdown", "1.5"),
    ("json", OBJ, {"key": "t"}, "labeled", "true"),
    ("json", OBJ, {"key": "z"}, "string", "null"),
    ("json", OBJ, {"key": "meta"}, "json", {"a": 1}),
    ("json", OBJ, {"key": "tags"}, "array", ["a"]),
    ("json", OBJ, {"key": "md"}, "markdown", "# H\nbody"),
    ("json", OBJ, {"key": "list"}, "array", "- a\n- b"),
    ("json", OBJ, {"key": "js"}, "json", '{"in": 1}'),
    ("array", ["a", {"k": 1}, [2], 4], {"index": 0}, "string", "a"),
    ("array", ["a", {"k": 1}, [2], 4], {"index": 1}, "json", {"k": 1}),
    ("array", ["a", {"k": 1}, [2], 4], {"index": 2}, "array", [2]),
    ("array", ["a", {"k": 1}, [2], 4], {"index": 3}, "string", "4"),
    ("markdown", MD, {"heading": "Imagery"}, "string", "DARK\n## Sub\ndeep"),
    ("markdown", MD, {"heading": "sub"}, "string", "deep"),
    ("markdown", MD, {"heading": "Pros and Cons"}, "markdown", "ok"),
    ("labeled", LAB, {"label": "summary"}, "string", "short\nmore"),
    ("labeled", LAB, {"label": "KEY POINTS:"}, "array", "none"),
]

@pytest.mark.parametrize("pk,pv,via,ck,want", EXTRACT_OK)
def test_extract_ok(pk, pv, via, ck, want):
    assert extract_child(pk, pv, via, ck) == (want, "")

EXTRACT_FAIL = [
    ("json", OBJ, {"key": "bullets"}, "string", "no key 'bullets' (found 'headline', 'n', 'x', 't', 'z', ...)"),
    ("json", {}, {"key": "a"}, "string", "no key 'a' (found none)"),
    ("json", {"Headline": 1}, {"key": "headline"}, "string", "no key 'headline' (found 'Headline')"),
    ("json", OBJ, {"key": "meta"}, "string", "value of 'meta' is not text (found an object)"),
    ("json", OBJ, {"key": "tags"}, "markdown", "value of 'tags' is not text (found an array)"),
    ("json", OBJ, {"key": "n"}, "json", "value of 'n' is not an object (found a number)"),
    ("json", OBJ, {"key": "z"}, "array", "value of 'z' is not an array (found null)"),
    ("json", OBJ, {"key": "meta"}, "array", "value of 'meta' is not an array (found an object)"),
    ("json", OBJ, {"key": "tags"}, "json", "value of 'tags' is not an object (found an array)"),
    ("array", ["a", "b"], {"index": 2}, "string", "no item 3 (list has 2 items)"),
    ("array", [], {"index": 0}, "string", "no item 1 (list has 0 items)"),
    ("array", [{"a": 1}], {"index": 0}, "string", "item 1 is not text (found an object)"),
    ("markdown", MD, {"heading": "Highlights"}, "string", "no heading 'Highlights' (found 'Imagery', 'Sub', '**Pros and Cons**:', 'Imagery')"),
    ("labeled", LAB, {"label": "Intro"}, "string", "no label 'Intro' (found 'Summary', 'Key Points')"),
    ("json", OBJ, {"index": 0}, "string", "cannot reach a child by index from a json scope"),
    ("string", "text", {"key": "a"}, "string", "cannot reach a child by key from a string scope"),
]

@pytest.mark.parametrize("pk,pv,via,ck,reason", EXTRACT_FAIL)
def test_extract_fail(pk, pv, via, ck, reason):
    assert extract_child(pk, pv, via, ck) == (None, reason)

@pytest.mark.parametrize("pv,via", [(None, {"key": "a"}), (OBJ, "junk"), (OBJ, {"key": "a", "index": 1}), (["a"], {"index": "0"}),
                                    (MD, {"heading": None}), (42, {"label": "x"})])
def test_extract_never_raises(pv, via):
    for pk in ("json", "array", "markdown", "labeled", "string"):
        v, why = extract_child(pk, pv, via, "string")
        assert isinstance(why, str)

def test_names_and_subjects():
    assert norm_name("## closing ##") == "## closing"  # a leading '#' belongs to the heading line, not the name
    for s in ["**Pros and Cons**:", "__Pros and Cons__", "_Pros and Cons_:", "Pros and Cons:", "PROS AND CONS ###"]:
        assert norm_name(s) == "pros and cons"
    assert [via_subject(v) for v in [{"key": "k"}, {"index": 0}, {"heading": "H"}, {"label": "L"}]] == \
        ["value of 'k'", "item 1", "section under heading 'H'", "section labeled 'L'"]
    assert scope_text({"a": [1, None]}) == '{"a": [1, null]}' and scope_text(None) == ""

def test_markdown_rules():
    d = parse_markdown("# A\n```\n# fenced\n```\n    # four spaces\n   # three spaces\n#nospace\nSetext\n======\n# B #\nb")
    assert [h.name for h in d.headings] == ["A", "three spaces", "B"]
    assert d.section("A") == "```\n# fenced\n```\n    # four spaces"
    assert d.code_blocks[0].code == "# fenced"
    assert parse_markdown("~~~python\nx\n~~~").code_blocks[0].language == "python"

def test_list_rules():
    assert parse_list("- a\n  - a1\n  - a2\n- b\n\nAfter the list.") == ["a\n- a1\n- a2", "b"]
    assert parse_list("    - deep\n    - deep2") == ["deep", "deep2"]
    assert parse_list("-5 degrees\n1.5 million") == []
    assert parse_scope("array", "- a\n- b")[0] == ["a", "b"]
    # a nested list inside an item opens as an array of its own
    item = parse_list("- Fruits\n  - apple\n  - pear")[0]
    assert parse_scope("array", item, subject="item 1")[0] == ["apple", "pear"]

def test_labeled_rules():
    d = parse_labeled("Summary : spaced\n**Verdict**: bold\n__Notes:__ under\nURL http://x\n12:30 lunch\n- Item: no")
    assert [s.label for s in d.sections] == ["Summary", "Verdict", "Notes"]
    assert d.section("notes") == "under\nURL http://x\n12:30 lunch\n- Item: no"

def test_json_rules():
    assert parse_json("```json\n{}\n```") == ({}, "")
    assert parse_json("```json\n{}\n```", strict=True)[0] is None
    assert parse_json("  [1]  ") == ([1], "")
