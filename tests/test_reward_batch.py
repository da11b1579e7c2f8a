"""`reward_batch` beyond one machine's pool: a Dask cluster executor gives exactly the in-process results, in
order; and property tests of `reward` over arbitrary completions (never raises, stays in [0, 1])."""
import json
from hypothesis import given, settings, strategies as st, HealthCheck
from ifhier.io import data_path, read_jsonl
from ifhier.bench.witness import witness_response
from ifhier.bench.mutate import mutants
from ifhier.reward.verify import reward, reward_batch, answer_text

BENCH = read_jsonl(data_path("ifhierbench.jsonl"))[::15]

def _batch():
    recs, comps = [], []
    for i, r in enumerate(BENCH):
        for c in [witness_response(r["tree"]), "plain prose, no structure", *[m["response"] for m in mutants(r["tree"])[:2]]]:
            recs.append(r); comps.append(c if i % 3 else f"<think>why</think>{c}<|im_end|>")
    return recs, comps

def test_dask_executor_matches_in_process():
    from distributed import Client, LocalCluster
    recs, comps = _batch()
    want = reward_batch(recs, comps)
    want_vec = reward_batch(recs, comps, mode="vector")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        ex = client.get_executor()
        assert reward_batch(recs, comps, executor=ex, chunksize=7) == want
        assert reward_batch(recs, comps, executor=ex, mode="vector", chunksize=11) == want_vec
    assert len(set(want)) > 2 and want[0] == 1.0                      # a real mix of scores, in input order

TREE = BENCH[-1]["tree"]          # a depth-3 tree
WIT = witness_response(TREE)

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.none(), st.binary(max_size=200), st.text(max_size=300), st.integers(),
                 st.builds(lambda a, b: a + WIT + b, st.text(max_size=40), st.text(max_size=40))),
       st.sampled_from(["partial", "binary"]), st.sampled_from([None, "stop", "length"]))
def test_reward_never_raises_and_stays_in_range(completion, mode, fr):
    s = reward({"tree": TREE}, completion, mode=mode, finish_reason=fr)
    assert 0.0 <= s <= 1.0
    if fr == "length": assert s == 0.0

@given(st.text(max_size=80), st.sampled_from(["<|im_end|>", "</s>", "<|eot_id|>"]))
def test_end_tokens_are_removed_as_suffixes_only(body, tok):
    got = answer_text(body + tok, think="keep").text
    assert got == answer_text(body, think="keep").text                 # exactly the token goes, never a character set

_LOOSE_RECS = read_jsonl(data_path("ifhierbench.jsonl"))[::25]
_WRAPS = st.sampled_from(["{}", "Sure! Here is the answer:\n\n{}", "```markdown\n{}\n```", "```json\n{}\n```", "{}\n\nHope this helps.",
                          "<think>x</think>{}<|im_end|>"])

@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(_LOOSE_RECS) - 1), st.integers(0, 3), _WRAPS, st.sampled_from(["partial", "binary"]))
def test_loose_never_scores_below_strict(i, which, wrap, mode):
    r = _LOOSE_RECS[i]
    base = [witness_response(r["tree"]), *[m["response"] for m in mutants(r["tree"])[:3]]]
    c = wrap.format(base[which % len(base)])
    assert reward(r, c, mode=mode, profile="loose") >= reward(r, c, mode=mode, profile="strict")

def test_loose_batch_matches_single():
    recs, comps = _batch()
    assert reward_batch(recs, comps, profile="loose", workers=2, chunksize=9) == [reward(r, c, profile="loose") for r, c in zip(recs, comps)]
