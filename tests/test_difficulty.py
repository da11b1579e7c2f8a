"""Difficulty you can see (issue 23, item 2) and the density sweep (item 4): every type declares its slack, prompts are
measured from their trees, the report gives accuracy against each measure with CIs, and the decay fit recovers a, b."""
import math
import numpy as np
import pandas as pd
import pytest
from ifhier.registry import REGISTRY, RELATIONS, Slack, ChoiceParam
from ifhier.benchfile import load_bench
from ifhier.io import data_path
from ifhier.bench.difficulty import MEASURES, constraint_slack, prompt_difficulty, difficulty_table, difficulty_summary_md
from ifhier.report.difficulty import (accuracy_by_difficulty, difficulty_markdown, fit_decay, density_section,
                                      synthetic_density_scores, wilson_ci)

CORE = load_bench(data_path("ifhierbench.jsonl"))

def test_every_type_declares_its_slack_in_its_declaration():
    assert len(REGISTRY) == 35
    for cid, ct in REGISTRY.items():
        s = ct.slack
        assert isinstance(s, Slack) and s.names() <= set(ct.params), cid
        rel_params = {k for k, p in ct.params.items() if isinstance(p, ChoiceParam) and set(p.options) == set(RELATIONS)}
        assert rel_params == ({s.rel} - {""}), f"{cid}: a relation parameter the slack does not name (or the other way)"
        spec_params = {k for k, p in ct.params.items() if type(p).__name__ == "FreqSpecParam"}
        assert spec_params == ({s.specs} - {""}), cid
    numeric = {cid for cid, ct in REGISTRY.items() if ct.slack.numeric}
    assert numeric == {"json.key_count", "array.length", "markdown.heading_count", "labeled.section_count", "string.keyword_frequency",
                       "string.letter_frequency", "string.string_length", "string.num_words", "string.num_sentences",
                       "string.nth_paragraph_first_word", "string.bullet_list", "string.highlight_section", "string.placeholder",
                       "string.section_checker", "string.capital_word_frequency"}
    assert REGISTRY["string.string_length"].slack.bounds == ("min_chars", "max_chars")

def test_a_fixed_relation_is_the_one_the_checker_applies():
    "A type with a count but no relation parameter declares the relation its checker enforces (its reason says it)."
    fixed = [(cid, ct) for cid, ct in REGISTRY.items() if ct.slack.n and not ct.slack.rel]
    assert len(fixed) == 5
    for cid, ct in fixed:
        _, p, _ = ct.examples[0]
        assert f"needed {ct.slack.fixed} {p[ct.slack.n]}" in ct.check("x", **p).reason, cid

def test_constraint_slack_on_hand_values():
    s = constraint_slack("string.string_length", dict(min_chars=40, max_chars=50))
    assert s["relation"] == "range" and s["narrow"] and s["width"] == pytest.approx(10 / 45) and s["pins"] == "whole"
    assert not constraint_slack("string.string_length", dict(min_chars=100, max_chars=300))["narrow"]
    assert constraint_slack("string.num_words", dict(rel="more than", n=9))["relation"] == "at least"
    assert constraint_slack("string.num_words", dict(rel="more than", n=9))["width"] == math.inf
    assert constraint_slack("array.length", dict(rel="exactly", n=6))["exact"]
    assert constraint_slack("string.highlight_section", dict(n=3))["relation"] == "at least"
    k = constraint_slack("string.letter_frequency", dict(specs=[dict(letter="z", rel="at least", n=2)]))
    assert k["numeric"] and not k["exact"] and k["relation"] == "at least"
    b = constraint_slack("json.has_keys", dict(keys=["a"]))
    assert b["relation"] == "binary" and not b["numeric"] and math.isnan(b["width"]) and b["pins"] == "part"

def _node(kind, via, cons, kids=()):
    return {"kind": kind, "via": via, "constraints": [{"id": c, "params": p} for c, p in cons], "children": list(kids)}

def test_prompt_difficulty_on_hand_trees():
    leaf = lambda i, cons: _node("string", {"index": i}, cons)
    tree = _node("array", None, [("array.elements_at", {"positions": [0, 1, 2]}), ("array.length", {"rel": "exactly", "n": 6})], [
        leaf(0, [("string.num_words", {"rel": "exactly", "n": 12}), ("string.capital_letters", {})]),
        leaf(1, [("string.string_length", {"min_chars": 40, "max_chars": 48})]),
        _node("json", {"index": 2}, [("json.has_keys", {"keys": ["name"]})], [
            _node("string", {"key": "name"}, [("string.contains", {"words": ["tea"]}), ("string.num_sentences", {"rel": "at most", "n": 2}),
                                              ("string.string_length", {"min_chars": 10, "max_chars": 60})])])])
    assert prompt_difficulty(tree) == dict(depth=2, constraints=9, scopes=5, width=3, leaves=3, max_per_scope=3, numeric=5,
                                           exact_numeric=2, narrow_numeric=1, pins_whole=5)
    flat = _node("string", None, [("string.lowercase_letters", {})])
    assert prompt_difficulty(flat) == dict(depth=0, constraints=1, scopes=1, width=0, leaves=1, max_per_scope=1, numeric=0,
                                           exact_numeric=0, narrow_numeric=0, pins_whole=1)

def test_summary_of_the_shipped_core():
    t = difficulty_table(CORE)
    assert len(t) == 600 and set(MEASURES) <= set(t.columns) and (t.depth == [r["depth"] for r in CORE]).all()
    assert (t.groupby("depth").constraints.median().diff().dropna() >= 0).all()          # more constraints deeper
    md = difficulty_summary_md(CORE)
    assert "| 0 | 150 |" in md and "| all | 600 |" in md and md.count("\n|") == 7

def test_accuracy_by_difficulty_follows_a_known_rule():
    sub = CORE[::10]
    n = {r["id"]: prompt_difficulty(r["tree"])["constraints"] for r in sub}
    sc = pd.DataFrame([dict(run="m", prompt_id=r["id"], sample=0, depth=str(r["depth"]), passed=n[r["id"]] <= 3) for r in sub])
    acc = accuracy_by_difficulty(sc, sub, n_boot=200)
    c = acc[acc.measure == "constraints"]
    for row in c.itertuples():
        lo = int(row.bin.split("-")[0]); hi = int(row.bin.split("-")[-1])
        assert row.estimate == (1.0 if hi <= 3 else 0.0 if lo > 3 else row.estimate)
    assert c.estimate.iloc[0] == 1.0 and c.estimate.iloc[-1] == 0.0
    assert ((acc.ci_low <= acc.estimate + 1e-12) & (acc.estimate <= acc.ci_high + 1e-12) & (acc.ci_low >= 0) & (acc.ci_high <= 1)).all()
    assert set(acc.measure) == set(MEASURES) - {"depth"} and acc.groupby("measure").prompts.sum().eq(len(sub)).all()
    md = "\n".join(difficulty_markdown(acc))
    assert "### Accuracy by difficulty" in md and "| exact_numeric |" in md and "[" in md
    for m in set(acc.measure):                                                # bins in increasing order within a measure
        starts = [int(l.split("|")[2].strip().split("-")[0]) for l in md.splitlines() if l.startswith(f"| {m} |")]
        assert starts == sorted(starts) and len(starts) == acc[acc.measure == m].bin.nunique(), m

def test_decay_fit_recovers_known_parameters():
    truth = {1: (0.95, 0.97), 2: (0.9, 0.93), 3: (0.85, 0.88)}
    bench, sc = synthetic_density_scores(truth, per_cell=400, seed=5)
    t, f, L = density_section(sc, bench)
    f = f.set_index("depth")
    for d, (a, b) in truth.items():
        r = f.loc[str(d)]
        assert r.b == pytest.approx(b, abs=0.01) and r.a == pytest.approx(a, abs=0.05)
        assert r.b_low < b < r.b_high and r.a_low < a <= r.a_high
    assert f.loc["3"].b_high < f.loc["2"].b_low                       # depths with different decays are told apart
    assert "## Density sweep" in L[0] and any("K=32" in l for l in L)

def test_decay_fit_at_the_sweep_size_covers_and_rejects():
    bench, sc = synthetic_density_scores({2: (0.9, 0.93)}, per_cell=25, seed=11)
    t, f, _ = density_section(sc, bench)
    assert list(t.k) == [4, 8, 12, 16, 24, 32] and set(t.n) == {25}
    r = f.iloc[0]
    assert r.b_low < 0.93 < r.b_high and r.b_high - r.b_low < 0.1 and not (r.b_low < 0.8 < r.b_high)
    lo, hi = wilson_ci(t.passed, t.n)
    assert ((lo <= t.estimate) & (t.estimate <= hi)).all()
    with pytest.raises(ValueError, match="two distinct K"): fit_decay([8, 8], [25, 25], [10, 12])
