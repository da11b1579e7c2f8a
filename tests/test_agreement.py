"The checker against the hand-graded agreement set: floors for the three agreement figures."
from ifhier.report.agreement import load_agreement, agreement_table, agreement_figures

TAB = agreement_table(load_agreement())
FIG = agreement_figures(TAB).set_index("comparison").rate

def test_strict_checker_matches_strict_labels():
    assert FIG["strict checker vs strict labels"] == 1.0, TAB[TAB.strict != TAB.strict_label]

def test_loose_checker_agrees_with_the_human_grader():
    assert FIG["loose checker vs human labels"] >= 0.97
    assert FIG["strict checker vs human labels"] >= 0.80          # the over-strictness, pinned so it is noticed if it moves
    assert FIG["loose checker vs human labels"] > FIG["strict checker vs human labels"]

def test_loose_never_below_strict_and_never_passes_a_human_fail_strict_failed():
    assert not ((TAB.strict == "pass") & (TAB.loose != "pass")).any()
    assert not ((TAB.human == "fail") & (TAB.strict != "pass") & (TAB.loose == "pass")).any()

def test_set_size():
    assert len(set(TAB.id)) >= 76 and len(TAB) >= 256
