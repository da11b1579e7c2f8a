"WISE graders (H4): property-based and table-driven checks of the strict output-level scoring."
import json
import pytest
from hypothesis import given, strategies as st
from ifhier.wise.items import (GRADERS, Grade, grade_exact_words, grade_json_keys, grade_keyword, grade_word_range,
                         json_outcome, keyword_count, word_count)

WS = st.sampled_from([" ", "  ", "\n", "\t", "\r\n", "\u00a0", " \n\t ", "\u2003"])
WORD = st.text(st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs")), min_size=1, max_size=8)

@given(st.lists(WORD, max_size=30), st.lists(WS, min_size=31, max_size=31), WS, WS)
def test_word_count_is_number_of_tokens_whatever_the_whitespace(words, seps, lead, trail):
    text = lead + "".join(w + s for w, s in zip(words, seps)) + trail
    assert word_count(text) == len(words)

@pytest.mark.parametrize("text,n", [("Gold’s chemical symbol is Au.", 5), ("a — b", 3), ("e-mail isn't", 2),
                                    ("zero\u200bwidth", 1), ("", 0), ("\n\t ", 0), ("**Bold** answer:", 2)])
def test_word_count_table(text, n):
    assert word_count(text) == n

@given(st.integers(1, 40), st.integers(1, 40))
def test_exact_words_error_is_signed(n, target):
    g = grade_exact_words(" ".join(["w"] * n), target=target)
    assert (g.compliant, g.count, g.error) == (n == target, n, n - target)
    assert g.outcome == ("exact" if n == target else "under" if n < target else "over")

@pytest.mark.parametrize("text,kw,n", [("Cat cat CAT", "cat", 3), ("concatenate cats", "cat", 0), ("cat's cat-like", "cat", 2),
                                       ("C++ or c++", "C++", 2), ("Ottawa.", "ottawa", 1), ("Saturn_5 saturn5", "Saturn", 0),
                                       ("NaCl (table salt)", "NaCl", 1), ("émigré Émigré", "émigré", 2)])
def test_keyword_whole_word_case_insensitive(text, kw, n):
    assert keyword_count(text, kw) == n

@given(st.integers(0, 4), st.sampled_from(["Saturn", "carbon", "NaCl", "Fe"]))
def test_keyword_grade_counts_inserted_occurrences(k, kw):
    text = " ".join(["Filler words"] + [kw.upper() if j % 2 else kw for j in range(k)] + ["end."])
    g = grade_keyword(text, keyword=kw)
    assert (g.count, g.compliant, g.error) == (k, k == 1, k - 1)

@pytest.mark.parametrize("n,ok,outcome", [(7, False, "below"), (8, True, "in_range"), (12, True, "in_range"), (13, False, "above")])
def test_range_inclusive(n, ok, outcome):
    g = grade_word_range(" ".join(["w"] * n), lo=8, hi=12)
    assert (g.compliant, g.outcome, g.count, g.error) == (ok, outcome, n, None)

KEYS = ["answer", "confidence"]

@given(st.permutations(KEYS), st.sampled_from(["", " ", "\n", "\n\n  "]), st.booleans())
def test_json_exact_key_set_passes_in_any_order_and_layout(keys, pad, indent):
    text = pad + json.dumps({k: 1 for k in keys}, indent=2 if indent else None) + pad
    assert grade_json_keys(text, keys=KEYS) == Grade(True, 2, None, True, "pass")

@pytest.mark.parametrize("text,outcome,parse_ok", [
    ('```json\n{"answer": 1, "confidence": 2}\n```', "parse_fail", False),      # code fence rejected
    ('```\n{"answer": 1, "confidence": 2}\n```', "parse_fail", False),
    ('Sure: {"answer": 1, "confidence": 2}', "parse_fail", False),
    ('{"answer": 1, "confidence": 2} Done.', "parse_fail", False),
    ('{"answer": NaN, "confidence": 2}', "parse_fail", False),
    ('{"answer": 1, "answer": 1, "confidence": 2}', "parse_fail", False),
    ("{'answer': 1, 'confidence': 2}", "parse_fail", False),
    ('{"answer": 1}', "key_mismatch", True),
    ('{"answer": 1, "confidence": 2, "source": 3}', "key_mismatch", True),
    ('{"Answer": 1, "confidence": 2}', "key_mismatch", True),                   # keys match exactly
    ('[{"answer": 1, "confidence": 2}]', "not_object", True),
    ('"answer"', "not_object", True)])
def test_json_failures_are_classified(text, outcome, parse_ok):
    g = grade_json_keys(text, keys=KEYS)
    assert (g.compliant, g.outcome, g.parse_ok) == (False, outcome, parse_ok)
    assert (g.count is None) == (outcome in ("parse_fail", "not_object"))

def test_registry_names_match_forms_yaml():
    assert {"exact_words", "keyword_count", "word_range", "json_keys"} <= set(GRADERS)
