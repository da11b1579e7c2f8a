"""Regression cases from the differential check of the IFEval profile against Google's reference checker.

The reference (google-research `instruction_following_eval`, run with nltk 3.9.1, NLTK's English `punkt_tab`
parameters and langdetect seeded 0, as spec/ifeval-semantics.md prescribes) and `ifhier.ifeval.profile` scored the same
generated (instruction, kwargs, response) cases; every disagreement was minimised and is pinned here with the
reference's verdicts written out literally, so this test needs neither the reference code nor a given nltk.
A second group pins reference behaviour that a different nltk release would change (nltk >= 3.10 compiles
Punkt and Treebank patterns with the `regex` engine and realigns curly quotes): if one of these fails, the
installed nltk no longer reproduces the reference.
"""
import pytest
from ifhier.ifeval.profile import build_checker
from ifhier.ifeval.score import follow_instructions

CAP = "change_case:capital_word_frequency"
SENT = "length_constraints:number_sentences"
WORDS = "length_constraints:number_words"
cap = lambda n, rel: {"capital_frequency": n, "capital_relation": rel}

# (instruction id, kwargs, response, reference strict verdict, reference loose verdict)
FOUND = [
    # nltk >= 3.9.2 splits figure/en/em dashes and the horizontal bar (U+2012-U+2015) off as tokens; the
    # reference's Treebank rules keep them inside the token, so `HELLO—WORLD` is ONE capital word and
    # `well—KNOWN` none. ifhier counted 2 and 1 (capital words with dashes, 11 of ~35k cases).
    (CAP, cap(2, "at least"), "HELLO—WORLD", False, False),
    (CAP, cap(2, "less than"), "HELLO—WORLD", True, True),
    (CAP, cap(1, "at least"), "well—KNOWN", False, False),
    (CAP, cap(1, "at least"), "NASA–ESA", True, True),
    (CAP, cap(2, "at least"), "NASA–ESA", False, False),
    (CAP, cap(2, "at least"), "A‒B", False, False),
    (CAP, cap(2, "at least"), "PART―TWO", False, False),
    (CAP, cap(2, "less than"), "I said—NO.", True, True),
    (CAP, cap(3, "at least"), "**Note:** AI—ML and HD-TV", False, False),
]

NLTK_GUARDS = [
    # Punkt (nltk <= 3.9.x): a closing curly quote or guillemet after the period does not end the sentence
    (SENT, {"num_sentences": 2, "relation": "at least"}, "He said “Stop.” Then he left.", False, False),
    (SENT, {"num_sentences": 2, "relation": "at least"}, "«Bonjour.» Il est parti.", False, False),
    (SENT, {"num_sentences": 2, "relation": "less than"}, "She wrote ‘done.’ Next line.", True, True),
    (SENT, {"num_sentences": 2, "relation": "at least"}, "Done.\x1cNext.", True, True),   # U+001C is \s for stdlib re
    # Treebank (nltk <= 3.9.x): a leading apostrophe stays on the first letter ('T, IS, TRUE: 3 capital words)
    (CAP, cap(3, "at least"), "'TIS TRUE", True, True),
    # word count uses stdlib `re` (normative, spec §4.1): combining vowel signs break words (5 here, not 2)
    (WORDS, {"num_words": 3, "relation": "at least"}, "नमस्ते दुनिया", True, True),
]


@pytest.mark.parametrize("iid,kwargs,response,strict,loose", FOUND + NLTK_GUARDS)
def test_reference_verdict(iid, kwargs, response, strict, loose):
    check = build_checker(iid, kwargs)
    assert follow_instructions(response, [check]) == [strict]
    assert follow_instructions(response, [check], loose=True) == [loose]
