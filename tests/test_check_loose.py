"The loose profile: each tolerance accepts its wrapping and still rejects a real violation next to it; loose >= strict."
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from ifhier.verdicts import check
from ifhier.tolerances import LOOSE_TOLERANCES
from ifhier.io import read_jsonl, data_path
from ifhier.tree import ConstraintNode
from ifhier.bench.witness import witness_response
from ifhier.bench.mutate import mutants
from ifhier.report.human_agreement import load_agreement

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
WHO = _s("markdown", cons=[("markdown.has_heading", {"headings": ["Who It's For"]})],
         kids=[_s("string", {"heading": "Who It's For"}, [("string.num_words", {"rel": "at most", "n": 5})])])
QUOTE = _s("string", cons=[("string.quotation", {})])
PS = _s("string", cons=[("string.postscript", {"marker": "P.S."})])
TWO = _s("string", cons=[("string.num_sentences", {"rel": "exactly", "n": 2})])
REPEAT = _s("string", cons=[("string.repeat_prompt", {"prompt_text": "Write a poem about rain."})])
DIALOGUE = _s("labeled", cons=[("labeled.has_labels", {"labels": ["Scene", "Moral"]})],
              kids=[_s("string", {"label": "Scene"}, [("string.contains", {"words": ["cathedral"]})])])

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
    # issue 16's classes
    "typographic-quotes": (WHO, "## Who It\u2019s For\nNew hikers.", f"## Who Its For\n{LONG}"),
    "curly-quotation": (QUOTE, "\u201cShort and sweet.\u201d", "\u201cShort and sweet.\u201d Then more."),
    "json-slips": (JSON, '```json\n{"name": "Ada\nLovelace",\n}\n```', '```json\n{"name": "one two three\nfour five six",\n}\n```'),
    "emoji-tail": (PS, "Main text.\n\nP.S. Call me! \U0001F642", "Main text.\n\nP.S. Call me! \U0001F642 See you soon."),
    "sign-off": (TWO, "Thanks for coming. See you soon.\n\nBest,\nDana", "Thanks for coming. See you soon. Bye now.\n\nBest,\nDana"),
    "emphasised-copy": (REPEAT, "**Write a poem about rain.**\nRain falls.", "**Write a poem about snow.**\nSnow falls."),
    "label-lines": (DIALOGUE, "Scene: A square.\nTourist: Excuse me, where is the cathedral?\nLocal: Straight on.\n"
                    "Tourist: Thanks!\nLocal: Enjoy.\nMoral: Ask.",
                    "Scene: A square.\nTourist: Excuse me, where is it?\nLocal: There.\nTourist: Thanks!\nLocal: Bye.\nMoral: Ask."),
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
_ANS = load_agreement()          # the in-house set and both blind halves

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
    "Over the whole shipped benchmark: every witness passes and every mutant is killed, under each profile (a sample missed a loose tolerance that let 15 mutants live)."
    from ifhier.bench.mutate import mutation_table
    recs = list(read_jsonl(data_path("ifhierbench.jsonl")))
    for pf in ("strict", "loose"):
        assert all(v.passed for r in recs for v in check(r["tree"], witness_response(r["tree"]), profile=pf))
        df = mutation_table(recs, profile=pf)
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


# issue 16: the rules decided the same way in both profiles, each with its "must still fail" twin
BOTH = [  # (tree, answer, expected verdicts under both profiles)
    (PS, "Run slowly at first. Too fast. P.S. Follow the 10 percent rule.", ["pass"]),             # a P.S. opening a sentence
    (PS, "Remember that the letters P.S. stand for postscript.", ["fail"]),                        # a mention
    (PS, "Too fast, P.S. follow the rule.", ["fail"]),                                             # not after a sentence end
    (_s("string", cons=[("string.section_checker", {"n": 2, "splitter": "SECTION"})]),
     "SECTION 1 Heating uses 44 percent. SECTION 2 Lighting uses 31 percent.", ["pass"]),        # markers opening sentences
    (_s("string", cons=[("string.section_checker", {"n": 2, "splitter": "Section"})]),
     "Section 1 covers the law, as section 2 of it says.", ["fail"]),                            # a mention
    (_s("string", cons=[("string.bullet_list", {"n": 2})]), '"- one\n- two"', ["pass"]),          # the quote hides no bullet
    (_s("string", cons=[("string.bullet_list", {"n": 3})]), '"- one\n- two"', ["fail"]),          # still two bullets
]

@pytest.mark.parametrize("i", range(len(BOTH)))
def test_issue16_rules_in_both_profiles(i):
    tree, resp, want = BOTH[i]
    assert _v(tree, resp, "strict") == want and _v(tree, resp, "loose") == want, check(tree, resp)

SUB = _s("markdown", cons=[("markdown.has_heading", {"headings": ["Plan"]})],
         kids=[_s("markdown", {"heading": "Plan"}, [("markdown.has_heading", {"headings": ["Budget"]})],
                  kids=[_s("string", {"heading": "Budget"}, [("string.num_words", {"rel": "at most", "n": 5})])])])

def test_sub_heading_one_level_off_is_a_sibling_in_both_profiles():
    "Decided (not tolerated): a sub-heading at its parent's level is a sibling, so the child scope is unreachable."
    nested, flat = "## Plan\n### Budget\nTen dollars.", "## Plan\n## Budget\nTen dollars."
    for pf in ("strict", "loose"):
        assert _v(SUB, nested, pf) == ["pass"] * 3 and _v(SUB, flat, pf) == ["pass", "fail", "unreachable"]

def test_sign_off_counts_as_a_sentence_under_strict_only():
    resp = "Thanks for coming. See you soon.\n\nBest,\nDana"
    assert _v(TWO, resp, "strict") == ["fail"] and _v(TWO, resp, "loose") == ["pass"]
    assert _v(TWO, "Thanks for coming. See you soon. We left early.\n\nBest,\nDana", "loose") == ["fail"]   # 3 real sentences

def test_thematic_break_closes_any_section_under_loose():
    tree = _s("markdown", cons=[("markdown.has_heading", {"headings": ["Roots"]})],
              kids=[_s("string", {"heading": "Roots"}, [("string.value_in_set", {"values": ["Maybe", "Yes"]})])])
    ok, bad = "## Roots\n**Maybe**\n\n---\n\n## Thesis\nx", "## Roots\nPerhaps\n\n---\n\n## Thesis\nx"
    assert _v(tree, ok, "strict") == ["pass", "fail"] and _v(tree, ok, "loose") == ["pass", "pass"]
    assert _v(tree, bad, "loose") == ["pass", "fail"]                                                     # wrong content still fails
    mid = "## Roots\nMaybe\n\n---\nand more\n\n## Thesis\nx"
    assert _v(tree, mid, "loose") == ["pass", "fail"]                                                     # a rule inside a section is content

def test_label_lines_keep_real_labels():
    "Prose and dialogue are not labels, but an extra label written like one still cuts its section."
    prose = "Scene: Objections usually begin with time: nobody has it. The cathedral helps.\nMoral: Ask."
    assert _v(DIALOGUE, prose, "loose") == ["pass", "pass"]
    extra = "Scene: A square.\nNotes: the cathedral.\nMoral: Ask."                            # a real extra label
    assert _v(DIALOGUE, extra, "loose") == ["pass", "fail"]

def test_typographic_quotes_do_not_match_another_name():
    assert _v(WHO, "## Who It\u2019s Not For\nNew hikers.", "loose")[0] == "fail"

def test_json_slips_keep_other_syntax_errors_unreachable():
    for bad in ('{"name": "Ada" "x": 1}', '{"name": "Ada", // comment\n}', "{'name': 'Ada'}"):
        assert _v(JSON, bad, "loose") == ["unreachable", "unreachable"], bad
