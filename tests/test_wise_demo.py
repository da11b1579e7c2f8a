"WISE offline demo panel (H4): synthetic answers go through the real graders and feed every statistic."
import warnings
import numpy as np
import pytest
from ifhier.wise.items import json_outcome, keyword_count, load_items, word_count
from ifhier.wise.build import build_prompts, by_panel, grade
from ifhier.wise.demo import SIM_MODELS, comply_prob, demo_answers, demo_graded, write_answer

@pytest.fixture(scope="module")
def graded():
    return demo_graded(n_items=24, repeats=3, seed=0)

def test_demo_is_labelled_synthetic(graded):
    assert all(m.endswith("(synthetic)") for m in graded.model.unique())
    assert all(p.endswith("(synthetic)") for p in graded.provider.unique())

def test_demo_is_deterministic_and_seeded():
    ps = build_prompts(load_items()[:4], repeats=1, seed=0)
    assert demo_answers(ps, seed=5) == demo_answers(list(reversed(ps)), seed=5)
    assert demo_answers(ps, seed=5) != demo_answers(ps, seed=6)

def test_written_texts_hit_the_decided_counts():
    rng = np.random.default_rng(1)
    for t in (5, 8, 10, 12):
        p = dict(grader="exact_words", params=dict(target=t))
        assert all(word_count(write_answer(p, True, 0.5, rng)) == t for _ in range(20))
        assert all(word_count(write_answer(p, False, 0.5, rng)) != t for _ in range(20))
    kp = dict(grader="keyword_count", params=dict(keyword="answer", target=1))   # a word that is in the filler text
    assert all(keyword_count(write_answer(kp, True, 0.5, rng), "answer") == 1 for _ in range(30))
    jp = dict(grader="json_keys", params=dict(keys=["note"]))
    assert all(json_outcome(write_answer(jp, False, 0.5, rng), ["note"])[0] != "pass" for _ in range(100))

def test_graded_compliance_tracks_the_simulated_probability(graded):
    ps = build_prompts(load_items()[:24], repeats=3, seed=0)
    want = np.mean([comply_prob(m, p, 0) for m in SIM_MODELS for p in ps])
    assert abs(graded.compliant.mean() - want) < 0.02

def test_full_pipeline_feeds_every_statistic(graded):
    from ifhier.wise.audit import analyze
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = analyze(by_panel(graded), reps=300, seed=1)
    assert set(res) >= {"compliance", "contrasts", "ranking", "summary", "profiles"}
    assert set(res["contrasts"].scheme) == {"provider_model_item", "model_item", "equal_model_item"}
    assert res["contrasts"][["ci_low", "ci_high", "p_raw", "p_holm"]].notna().all().all()
    assert res["ranking"].tau_b.notna().all() and (res["ranking"].reversal_pct > 0).any()
    prof = res["profiles"].set_index("family")
    assert prof.loc["avoidance", "under"].notna().all() and prof.loc["keyword", "multiple"].notna().all()
    assert prof.loc["json", "parse_fail"].notna().all()
