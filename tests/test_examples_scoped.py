"""Every constraint type's declared examples hold at the root *and* at a nested scope, through the tree checker.

The examples (one passing and one failing at least, asserted by the catalog) are checked directly in
19_catalog; here the same examples travel through `check`, once as the whole answer and once as the
value of a JSON key two levels down, so each type is exercised at the root and nested."""
import json
import pytest
from ifhier.catalog import catalog_df
from ifhier.registry import REGISTRY
from ifhier.verdicts import check

CASES = [(cid, i) for cid, ct in sorted(REGISTRY.items()) for i in range(len(ct.examples))]

def _root(ct, params):
    return {"kind": next(iter(sorted(ct.scopes))), "via": None, "constraints": [{"id": ct.id, "params": params}], "children": []}

def _nested(ct, params):
    "JSON root -> key 'outer' -> JSON object -> key 'inner' -> the scope under test."
    leaf = dict(_root(ct, params), via={"key": "inner"})
    mid = {"kind": "json", "via": {"key": "outer"}, "constraints": [{"id": "json.has_keys", "params": {"keys": ["inner"]}}], "children": [leaf]}
    return {"kind": "json", "via": None, "constraints": [{"id": "json.has_keys", "params": {"keys": ["outer"]}}], "children": [mid]}

def _as_answer(ct, scope):
    "The example's scope as answer text (a structure example may be a parsed object)."
    if isinstance(scope, str): return scope
    return json.dumps(scope) if isinstance(scope, (dict, list)) else getattr(scope, "text", str(scope))

def _as_value(ct, scope):
    "The example's scope as a JSON value to nest: text stays text, objects and lists stay structured."
    return scope if isinstance(scope, (str, dict, list)) else getattr(scope, "text", str(scope))

def test_every_type_has_passing_and_failing_examples():
    for cid, ct in REGISTRY.items():
        assert {bool(e[2]) for e in ct.examples} == {True, False}, cid
    assert len(catalog_df()) == len(REGISTRY) == 35

@pytest.mark.parametrize("cid,i", CASES)
def test_example_at_root_and_nested(cid, i):
    ct = REGISTRY[cid]
    scope, params, want = ct.examples[i]
    want = "pass" if want else "fail"
    root = [v for v in check(_root(ct, params), _as_answer(ct, scope)) if v.constraint == cid]
    answer = json.dumps({"outer": {"inner": _as_value(ct, scope)}})
    nested = [v for v in check(_nested(ct, params), answer) if v.node_path == '$["outer"]["inner"]']
    assert [v.verdict for v in root] == [want], (root, scope)
    assert [(v.constraint, v.verdict) for v in nested] == [(cid, want)], (nested, scope)
