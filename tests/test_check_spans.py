"Scope spans: `response[start:end]` is the region each node's constraints saw, on every scope kind, CRLF and non-ASCII answers."
import json
import pytest
from ifhier.verdicts import check, scope_spans

def _s(kind, via=None, cons=(), kids=()):
    return {"kind": kind, "via": via, "constraints": [{"id": c, "params": p} for c, p in cons], "children": list(kids)}

WORDS = ("string.num_words", {"rel": "at most", "n": 50})

def _region(resp, spans, path):
    a, b = spans[path]
    return resp[a:b]

@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_json_key_and_index(nl):
    tree = _s("json", cons=[("json.has_keys", {"keys": ["bag"]})], kids=[
        _s("array", {"key": "bag"}, [("array.elements_at", {"positions": [1]})], [_s("string", {"index": 1}, [WORDS])])])
    resp = f'```json{nl}{{"bag": ["a", "caf\\u00e9 \U0001F600 e\u0301", 3]}}{nl}```'
    sp = scope_spans(tree, resp)
    assert sp["$"] == (0, len(resp))
    assert _region(resp, sp, '$["bag"]') == '["a", "caf\\u00e9 \U0001F600 e\u0301", 3]'
    assert _region(resp, sp, '$["bag"][1]') == 'caf\\u00e9 \U0001F600 e\u0301'
    vs = check(tree, resp)
    assert [v.span for v in vs] == [sp["$"], sp['$["bag"]'], sp['$["bag"][1]']]

@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_markdown_labeled_list_three_deep(nl):
    tree = _s("markdown", cons=[("markdown.has_heading", {"headings": ["Plan"]})], kids=[
        _s("labeled", {"heading": "Plan"}, [("labeled.has_labels", {"labels": ["Steps"]})], [
            _s("array", {"label": "Steps"}, [("array.elements_at", {"positions": [1]})], [
                _s("string", {"index": 1}, [WORDS])])])])
    body = ["# Intro", "Hi \U0001F44B", "## Plan", "Goal: ship it", "Steps:", "  - fetch e\u0301clairs",
            "  - bake them", "    slowly", "  - eat", "## Later", "Nothing."]
    resp = nl.join(body)
    sp = scope_spans(tree, resp)
    plan = _region(resp, sp, '$#"Plan"')
    assert plan == nl.join(body[3:9])
    assert _region(resp, sp, '$#"Plan"@"Steps"') == nl.join(body[5:9]).lstrip()
    assert _region(resp, sp, '$#"Plan"@"Steps"[1]') == "bake them" + nl + "    slowly"
    assert all(v.verdict == "pass" for v in check(tree, resp))

def test_unreachable_and_loose_json_span():
    tree = _s("json", cons=[("json.has_keys", {"keys": ["a"]})], kids=[_s("string", {"key": "a"}, [WORDS])])
    resp = 'Here is the JSON:\n{"a": "x y"}\nLet me know!'
    assert scope_spans(tree, resp) == {"$": None, '$["a"]': None}
    assert all(v.span is None for v in check(tree, resp))
    sp = scope_spans(tree, resp, profile="loose")
    assert _region(resp, sp, "$") == '{"a": "x y"}' and _region(resp, sp, '$["a"]') == "x y"

def test_text_list_items_and_numbers_in_json():
    tree = _s("array", cons=[("array.elements_at", {"positions": [0, 2]})],
              kids=[_s("string", {"index": 0}, [WORDS]), _s("string", {"index": 2}, [WORDS])])
    resp = " - apples\n- pears\n- plum\u00e9 pie"
    sp = scope_spans(tree, resp)
    assert _region(resp, sp, "$[0]") == "apples" and _region(resp, sp, "$[2]") == "plum\u00e9 pie"
    tree2 = _s("json", cons=[("json.has_keys", {"keys": ["n"]})], kids=[_s("string", {"key": "n"}, [WORDS])])
    resp2 = '{"n": 12.5, "n": 7}'
    assert _region(resp2, scope_spans(tree2, resp2), '$["n"]') == "7"    # duplicate keys: the last one, as json.loads
