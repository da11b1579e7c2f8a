"""The reward on every record shape RL users have, its adapters called the frameworks' way, graded/component credit,
state policies, and the verdicts-only walk against the full `check` (issue 24)."""
import ast, json, math, subprocess, sys
import pytest
from ifhier.io import InputError, data_path, read_jsonl
from ifhier.tree import ConstraintNode
from ifhier.verdicts import check, check_verdicts, as_tree, PROFILES
from ifhier.bench.witness import witness_response
from ifhier.bench.mutate import mutants
from ifhier.reward.verify import (reward, reward_batch, compute_score, IfhierVerifier, trl_reward, reward_components,
                                  graded_credit, RecordShapeError, Reward)

BENCH = read_jsonl(data_path("ifhierbench.jsonl"))
AGREE = read_jsonl(data_path("agreement") / "answers.jsonl")

# IFEval's input format (google-research/instruction_following_eval, input_data.jsonl), written from the public format
IFEVAL_ROW = {"key": 1001, "prompt": "Write a short note to a friend. Your ENTIRE response should be in English, and in all lowercase "
              "letters. No capital letters are allowed. Do not use any commas.",
              "instruction_id_list": ["change_case:english_lowercase", "punctuation:no_comma"], "kwargs": [{}, {}]}
# RLVR-IFeval / open-instruct rows: the constraint as ground_truth text (JSON, or the Python literal open-instruct reads with ast.literal_eval)
OI_JSON = json.dumps([{"instruction_id": ["keywords:existence", "length_constraints:number_words"],
                       "kwargs": [{"keywords": ["river"]}, {"num_words": 5, "relation": "at least"}]}])
OI_LITERAL = str([{"instruction_id": ["keywords:existence"], "kwargs": [{"keywords": ["river"]}]}])
VERL_ROW = {"data_source": "allenai/RLVR-IFeval", "prompt": [{"role": "user", "content": "..."}],
            "reward_model": {"style": "rule", "ground_truth": OI_JSON}, "extra_info": {"index": 0}}
IFBENCH_ROW = {"key": 7, "prompt": "...", "instruction_id_list": ["count:word_count_range"], "kwargs": [{"min_words": 5, "max_words": 9}]}

GOOD = "a calm river runs past the old mill"
BAD = "A Calm River, running."

def _v(vs): return [(v.node_path, v.constraint, v.params, v.verdict, v.reason) for v in vs]

@pytest.mark.parametrize("profile", PROFILES)
def test_fast_walk_equals_check_on_witnesses_mutants_and_agreement(profile):
    n = 0
    for r in BENCH:
        t = as_tree(r["tree"])
        for resp in [witness_response(t), *[m["response"] for m in mutants(t)]]:
            assert _v(check_verdicts(t, resp, profile)) == _v(check(t, resp, profile=profile)), (r["id"], resp[:80])
            n += 1
    for a in AGREE:
        t = as_tree(a["tree"])
        assert _v(check_verdicts(t, a["response"], profile)) == _v(check(t, a["response"], profile=profile)), a["id"]
    assert n > 3000 and len(AGREE) == 76

def test_reward_equals_check_on_every_shape_of_a_tree():
    r = BENCH[5]; t = r["tree"]; w = witness_response(t); m = mutants(t)[0]["response"]
    for shape in (r, t, json.dumps(t), ConstraintNode.from_json(t), {"tree": json.dumps(t)}, {"ground_truth": json.dumps(t)},
                  {"reward_model": {"ground_truth": json.dumps(t)}}):
        for resp in (w, m):
            vs = check(t, resp)
            assert reward(shape, resp) == pytest.approx(sum(v.passed for v in vs) / len(vs))
    assert reward(r, w) == 1.0 and reward(r, m) < 1.0

@pytest.mark.parametrize("profile", PROFILES)
def test_ifeval_shapes_scored_by_the_ifeval_profile(profile):
    from ifhier.ifeval.profile import build_checker
    from ifhier.ifeval.score import follow_instructions
    for text in (GOOD, BAD, "", "   "):
        exp = follow_instructions(text.strip(), [build_checker(i, k) for i, k in zip(IFEVAL_ROW["instruction_id_list"], IFEVAL_ROW["kwargs"])],
                                  profile == "loose")
        got = reward(IFEVAL_ROW, text, profile=profile)
        assert got == pytest.approx(sum(exp) / 2), (text, exp)
        assert [e["passed"] for e in reward(IFEVAL_ROW, text, mode="vector", profile=profile)] == exp
    assert reward(IFEVAL_ROW, "a note, with a comma").state == "failed"
    assert reward(IFEVAL_ROW, "a note without one") == 1.0
    # open-instruct's ground truth as JSON text and as the Python literal it reads; a verl row around it
    for shape in (OI_JSON, OI_LITERAL, {"ground_truth": OI_JSON}, VERL_ROW, ast.literal_eval(OI_LITERAL)[0]):
        assert reward(shape, GOOD, profile=profile) == 1.0, shape
        assert reward(shape, "no such word here", profile=profile) < 1.0

def test_unknown_shapes_raise_and_ifbench_ids_are_unscored_with_reason():
    for bad in ({}, None, 3, {"prompt": "hi"}, "not json at all", {"func_name": "validate_lowercase", "N": None}):
        with pytest.raises(RecordShapeError, match="record"): reward(bad, GOOD)
        assert issubclass(RecordShapeError, InputError)
    got = reward_batch([{"prompt": "hi"}, IFEVAL_ROW], [GOOD, GOOD])
    assert (got[0].state, float(got[0])) == ("unscored", 0.0) and "no constraints ifhier can score" in got[0].reason
    assert got[1] == 1.0
    r = reward(IFBENCH_ROW, GOOD)
    assert (float(r), r.state) == (0.0, "unscored") and "count:word_count_range" in r.reason

def test_batch_equals_single_on_mixed_shapes():
    recs = [IFEVAL_ROW, VERL_ROW, BENCH[3], {"tree": json.dumps(BENCH[4]["tree"])}, OI_LITERAL] * 3
    comps = [GOOD, BAD, witness_response(BENCH[3]["tree"]), "junk", GOOD] * 3
    single = [reward(r, c) for r, c in zip(recs, comps)]
    for kw in (dict(), dict(time_limit=None), dict(time_limit=None, workers=2)):
        got = reward_batch(recs, comps, **kw)
        assert got == single and [g.state for g in got] == [s.state for s in single], kw

def test_graded_credit_by_distance_to_the_bound():
    t = {"kind": "string", "constraints": [{"id": "string.num_words", "params": {"rel": "at least", "n": 10}},
                                           {"id": "string.lowercase_letters", "params": {}}]}
    six = "one two three four five six"
    vs = check(t, six)
    assert vs[0].verdict == "fail" and vs[1].passed
    assert graded_credit(vs[0]) == pytest.approx(math.exp(-3 * 4 / 10))
    assert reward(t, six, mode="graded") == pytest.approx((math.exp(-1.2) + 1) / 2)
    assert reward(t, six) == 0.5 and reward(t, six + " " + six, mode="graded") == 1.0
    assert reward(t, "ONE TWO", mode="graded") == pytest.approx(math.exp(-3 * 8 / 10) / 2)       # lowercase fails: 0
    for r in BENCH[::50]:                                       # graded lies between partial and 1, equal on witnesses
        w = witness_response(r["tree"])
        assert reward(r, w, mode="graded") == 1.0
        for m in mutants(r["tree"])[:2]:
            assert reward(r, m["response"]) <= reward(r, m["response"], mode="graded") <= 1.0

def test_components_per_type_and_depth():
    r = next(x for x in BENCH if x["depth"] == 2); m = mutants(r["tree"])[0]["response"]
    got = reward(r, m, components=True)
    vs = check(r["tree"], m)
    assert set(k for k in got.components if k.startswith("type:")) == {f"type:{v.constraint}" for v in vs}
    assert {k for k in got.components if k.startswith("depth:")} <= {"depth:0", "depth:1", "depth:2"}
    assert min(got.components.values()) < 1.0 and float(got) < 1.0
    nemo = reward_components(r, m)
    assert nemo["reward"] == float(got) and nemo["reward_components"] == got.components and nemo["state"] == "failed"
    assert reward_batch([r], [m], components=True, time_limit=None)[0].components == got.components

def test_state_policies():
    r = BENCH[0]; w = witness_response(r["tree"])
    assert reward(r, w, finish_reason="length") == 0.0                                   # default: unchanged
    assert reward(r, w, finish_reason="length", states={"cut_off": 0.25}) == 0.25
    assert math.isnan(reward(r, None, states={"missing": float("nan")}))
    assert reward(r, None, states={"missing": 0.1}).state == "missing"
    assert reward({"tree": {"kind": "nope"}}, w, states={"unscored": 0.5}) == 0.5
    assert reward_batch([r, r], [w, "<think>"], states={"cut_off": 0.3}) == [1.0, 0.3]
    with pytest.raises(InputError, match="states"): reward(r, w, states={"passed": 0.1})
    with pytest.raises(InputError, match="states"): reward(r, w, states={"cut_off": 2})

def test_adapters_called_the_frameworks_way():
    r = BENCH[7]; w = witness_response(r["tree"]); gt = json.dumps(r["tree"])
    # verl: compute_score(data_source, solution_str, ground_truth, extra_info), as its reward manager calls it
    assert compute_score(data_source="ifhier", solution_str=w, ground_truth=gt, extra_info={"index": 3}) == 1.0
    assert compute_score("allenai/RLVR-IFeval", GOOD, OI_JSON, None) == 1.0
    # open-instruct: verifier(tokenized_prediction, prediction, label, query=None).score
    v = IfhierVerifier()
    assert v([1, 2, 3], "<think>x</think>" + w, gt).score == 1.0
    assert v([1], "no such word", OI_LITERAL, query="q").score == 0.0
    # TRL: reward_funcs=[f], f(prompts=..., completions=..., **dataset columns) -> list[float]
    f = trl_reward(time_limit=None)
    out = f(prompts=["p1", "p2"], completions=[[{"role": "assistant", "content": w}], [{"role": "assistant", "content": "no"}]],
            ground_truth=[gt, OI_JSON], completion_ids=[[1], [2]], trainer_state=None)
    assert out[0] == 1.0 and out[1] < 1.0 and all(type(x) is not list for x in out)
    with pytest.raises(InputError, match="ground_truth"): f(prompts=["p"], completions=["x"])

def test_reward_import_is_light():
    code = "import sys, ifhier.reward as R; R.reward; assert 'pandas' not in sys.modules and 'numpy' not in sys.modules, sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'numpy'))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).returncode == 0
