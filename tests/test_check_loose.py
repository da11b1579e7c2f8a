"The loose profile: each tolerance accepts its wrapping and still rejects a real violation next to it; loose >= strict."
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from ifhier.check import check
from ifhier.tolerances import LOOSE_TOLERANCES
from ifhier.io import read_jsonl, data_path
from ifhier.tree import ConstraintNode
from ifhier.bench.witness import witness_response
from ifhier.bench.mutate import mutants

def _s(kind, via=None, cons=(), kids=()):
    return {"kind": kind, "via": via, "constraints": [{"id": c, "params": p} for c, p in cons], "children": list(kids)}

def _v(tree, resp, profile): return [v.verdict for v in check(tree, resp, profile=profile)]

JSON = _s("json", cons=[("json.has_keys", {"keys": ["name"]})],
          kids=[_s("string", {"key": "name"}, [("string.num_words", {"rel": "at most", "n": 5})])])
MD = _s("markdown", cons=[("markdown.has_heading", {"headings": ["Vote"]})],
        kids=[_s("string", {"heading": "Vote"}, [("string.num_words", {"rel": "at most", "n": 5})])])
LAB = _s("labeled", cons=[("labeled.has_labels", {"labels": ["Summary"]})],
         kids=[_s("string", {"label": "Summary"}, [("string.num_words", {"rel": "at most", "n": 5})])])
LIST = _s("array", cons=[("array.length", {"rel": "exactly", "n": 3})])
LEAF = _s("json", cons=[("json.has_keys", {"keys": ["tips"]})],
          kids=[_s("string", {"key": "tips"}, [("string.num_words", {"rel": "at most", "n": 6})])])
LONG = "one two three four five six seven"

CASES = {   # tolerance: (tree, accepted wrapping, the same wrapping around a real violation)
    "json-in-text": (JSON, 'Sure! Here is the JSON:\n```json\n{"name": "Ada"}\n```\nLet me know!',
                     f'Sure! Here is the JSON:\n{{"name": "{LONG}"}}\nLet me know!'),
    "fenced-answer": (MD, "```markdown\n## Vote\nGo vote early.\n```", f"```markdown\n## Vote\n{LONG}\n```"),
    "decorated-name": (MD, "## 1. Vote.\nGo vote early.\n## 🗳 Other\nx", f"## 🗳 Vote\n{LONG}"),
    "setext-heading": (MD, "Intro\n\nVote\n----\nGo vote early.", f"Vote\n====\n{LONG}"),
    "decorated-label": (LAB, "- **Summary:** short and sweet\n- **Other:** x", f"### Summary:\n{LONG}\n### Other: x"),
    "lead-in": (_s("labeled", cons=[("labeled.section_count", {"rel": "exactly", "n": 2})]),
                "Here is the breakdown:\nSummary: a\nVerdict: b", "Here is the breakdown:\nSummary: a\nVerdict: b\nNote: c"),
    "trailing-rule": (LAB, "Summary: short and sweet\n\n---\nHope this helps!", f"Summary: {LONG}\n\n---\nHope this helps!"),
    "bullet-dot": (LIST, "• a\n• b\n• c", "• a\n• b"),
    "array-as-text": (LEAF, '{"tips": ["Drink water.", "Sleep."]}', '{"tips": ["Drink more water every day.", "Sleep eight hours."]}'),
}

def test_every_tolerance_has_a_case():
    assert set(CASES) == {t.name for t in LOOSE_TOLERANCES}

@pytest.mark.parametrize("name", sorted(CASES))
def test_tolerance_both_ways(name):
    tree, ok, bad = CASES[name]
    assert set(_v(tree, ok, "loose")) == {"pass"}, (name, check(tree, ok, profile="loose"))
    assert set(_v(tree, ok, "strict")) != {"pass"}          # the wrapping is what strict rejects
    assert not all(v == "pass" for v in _v(tree, bad, "loose")), (name, check(tree, bad, profile="loose"))

def test_bad_profile_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown profile"): check(JSON, "{}", profile="lenient")

_RECS = list(read_jsonl(data_path("ifhierbench.jsonl")))[::15]
_ANS = list(read_jsonl(data_path("agreement", "answers.jsonl")))

def _pairs():
    out = [(r["tree"], witness_response(r["tree"])) for r in _RECS]
    out += [(r["tree"], m["response"]) for r in _RECS[:20] for m in mutants(r["tree"])]
    return out + [(a["tree"], a["response"]) for a in _ANS]
PAIRS = _pairs()

@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(PAIRS), st.sampled_from(["", "Sure! Here you go:\n\n", "```\n", "```markdown\n"]),
       st.sampled_from(["", "\n\n---\nHope this helps!", "\n```"]), st.booleans())
def test_loose_never_below_strict(pair, pre, post, crlf):
    tree, resp = pair
    resp = pre + resp + post
    if crlf: resp = resp.replace("\n", "\r\n")
    t = ConstraintNode.from_json(tree)
    s, l = check(t, resp), check(t, resp, profile="loose")
    assert [v.node_path for v in s] == [v.node_path for v in l]
    worse = [(a.node_path, a.constraint, a.reason, b.reason) for a, b in zip(s, l) if a.passed and not b.passed]
    assert not worse, worse

def test_witness_and_mutants_under_both_profiles():
    "Over a sample of the shipped benchmark (every 15th prompt; the full run also gives 100%, about 10 s)."
    from ifhier.bench.mutate import mutation_table
    for pf in ("strict", "loose"):
        assert all(v.passed for r in _RECS for v in check(r["tree"], witness_response(r["tree"]), profile=pf))
        df = mutation_table(_RECS, profile=pf)
        assert len(df) > 100 and df.killed.all(), df[~df.killed]

def test_cli_score_loose(tmp_path):
    import json
    from ifhier.cli import call
    bench = tmp_path / "b.jsonl"; resp = tmp_path / "r.jsonl"; out = tmp_path / "s.jsonl"
    recs = [r for r in _RECS if r["tree"]["kind"] == "json"][:2]
    bench.write_text("".join(json.dumps(r) + "\n" for r in recs))
    resp.write_text("".join(json.dumps(dict(prompt_id=r["id"], sample=0, model="m",
                                            response="Sure!\n" + witness_response(r["tree"]) + "\nBye")) + "\n" for r in recs))
    code, so, se = call("score", "--bench", str(bench), "--responses", str(resp), "--out", str(out), "--loose")
    assert code == 0, se
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    by = {pf: [r["verdict"] for r in rows if r["profile"] == pf] for pf in ("strict", "loose")}
    assert set(by["loose"]) == {"pass"} and "pass" not in set(by["strict"]) and len(by["strict"]) == len(by["loose"])
    assert "loose" in so and "strict" in so
