"""WISE statistics against reference implementations, by simulation, and on edge cases.

The notebooks (nbs/40_stats .. 44_wise_stats) test each function next to its code; this file holds the
property-based checks, the coverage simulation and the slower cross-checks."""
from pathlib import Path
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from ifhier.stats import (holm_adjust, kendall_tau_b, reversal_pct, pair_counts, fleiss_kappa, icc2k,
                          bootstrap_pvalue, percentile_ci, top_k_jaccard, max_rank_shift)
from ifhier.wise.panel import Panel, simulate_graded, validate_graded, make_panel, summary_table, WiseError
from ifhier.wise.boot import form_draws, contrasts, ranking, stream, SCHEMES
from ifhier.wise.audit import analyze, OUTPUT_COLUMNS

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------- reference implementations

@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=14))
def test_tau_b_equals_scipy_on_compliance_vectors(pairs):
    "tau-b on per-model compliance vectors (k/300, with ties) equals scipy's tau-b; counts give the same."
    k_pos, k_f = (np.array(v) * 50 for v in zip(*pairs))   # few distinct values: many ties
    c_pos, c_f = 100 * k_pos / 300, 100 * k_f / 300
    ref = sps.kendalltau(c_pos, c_f, variant="b").statistic
    got = kendall_tau_b(c_pos, c_f)
    if np.isnan(ref): assert np.isnan(got)
    else: assert got == pytest.approx(ref, abs=1e-12)
    assert kendall_tau_b(k_pos, k_f) == pytest.approx(got, abs=1e-12, nan_ok=True)

@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tau_b_batch_equals_loop(seed):
    x, y = np.random.default_rng(seed).integers(0, 4, size=(2, 40, 7))
    loop = [sps.kendalltau(a, b, variant="b").statistic for a, b in zip(x, y)]
    np.testing.assert_allclose(kendall_tau_b(x, y), loop, atol=1e-12)

def test_reversal_definition_table5():
    "WISE Table 5: the pair counts that reproduce the printed rows (11 models, 55 pairs)."
    for nc, nd, n2, tau, rev in [(44, 10, 1, 0.624, 18.5), (50, 4, 1, 0.844, 7.4), (46, 9, 0, 0.673, 16.4),
                                 (41, 13, 1, 0.514, 24.1), (48, 7, 0, 0.745, 12.7)]:
        assert (nc - nd) / np.sqrt(55 * (55 - n2)) == pytest.approx(tau, abs=5e-4)
        assert 100 * nd / (nc + nd) == pytest.approx(rev, abs=0.05)
    x = np.arange(11, 0, -1)                         # an example with 44 / 10 / tie under f only
    y = np.array([80, 110, 100, 90, 90, 60, 70, 10, 30, 20, 40])
    assert tuple(int(v) for v in pair_counts(x, y)) == (44, 10, 0, 1)
    assert kendall_tau_b(x, y) == pytest.approx(0.624, abs=5e-4)
    assert reversal_pct(x, y) == pytest.approx(18.5, abs=0.05)

@settings(max_examples=40, deadline=None)         # statsmodels' multipletests is slow (~70 ms a call)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_holm_equals_statsmodels(p):
    np.testing.assert_allclose(holm_adjust(p), multipletests(p, method="holm")[1], atol=1e-12)

def test_holm_hand_worked_table10():
    "Table 10 original family: raw <.001, <.001, .006, .357, .689 -> Holm <.001, <.001, .018, .714, .714."
    adj = holm_adjust([0.0001, 0.0001, 0.006, 0.357, 0.689])
    np.testing.assert_allclose(adj, [0.0005, 0.0005, 0.018, 0.714, 0.714])
    assert holm_adjust([0.02, 0.01, 0.03]).tolist() == pytest.approx([0.04, 0.03, 0.04])   # 3·.01, 2·.02, max(.04, .03)

@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.integers(2, 8), st.integers(2, 4))
def test_fleiss_equals_statsmodels(seed, n_items, n_raters, n_cat):
    rng = np.random.default_rng(seed)
    t = rng.multinomial(n_raters, rng.dirichlet(np.ones(n_cat)), size=n_items)
    ref = sm_fleiss(t, method="fleiss")
    got = fleiss_kappa(t)
    if np.isfinite(ref) and abs(1 - (t.sum(0) / t.sum()) @ (t.sum(0) / t.sum())) > 1e-12:
        assert got == pytest.approx(ref, abs=1e-10)
    else: assert np.isnan(got) or got == pytest.approx(ref)

@pytest.mark.parametrize("seed", range(8))
def test_icc2k_equals_pingouin(seed):
    import pingouin as pg
    rng = np.random.default_rng(seed)
    n, k = rng.integers(5, 30), rng.integers(2, 7)
    x = rng.normal(size=(n, 1)) + rng.normal(size=(n, k)) * rng.uniform(0.2, 2) + rng.normal(size=k)
    long = pd.DataFrame([(i, j, v) for (i, j), v in np.ndenumerate(x)], columns=["t", "r", "v"])
    res = pg.intraclass_corr(long, targets="t", raters="r", ratings="v").set_index("Type").ICC
    assert icc2k(x) == pytest.approx(res["ICC(A,k)"] if "ICC(A,k)" in res.index else res["ICC2k"], abs=1e-10)

# ---------------------------------------------------------------- the three schemes vs a plain loop

def _loop_draws(Y, scheme, providers, B, rng):
    "Straightforward per-replicate reading of spec §4.2-4.4 (independent of the vectorised code)."
    M, I, F = Y.shape
    provs = sorted(set(providers))
    out = np.empty((B, F))
    for b in range(B):
        if scheme == "equal_model_item":
            t = rng.integers(0, I, I); out[b] = 100 * Y[:, t].mean((0, 1)); continue
        if scheme == "model_item": slots = list(rng.integers(0, M, M))
        else:
            slots = []
            for p in rng.choice(len(provs), len(provs)):
                members = [m for m in range(M) if providers[m] == provs[p]]
                slots += list(rng.choice(members, len(members)))
        out[b] = 100 * np.mean([Y[s, rng.integers(0, I, I)].mean(0) for s in slots], axis=0)
    return out

@pytest.mark.parametrize("scheme", SCHEMES)
def test_vectorised_schemes_match_loop(scheme):
    g = validate_graded(simulate_graded(n_models=7, n_items=30, n_providers=3, families={"exact": ("POS", "NEG", "AVOID1")}, seed=3))
    p = make_panel(g, "exact")
    K = p.passed.sum(-1); n = np.full(K.shape[1], 3)
    fast = form_draws(K, n, scheme, stream(0, scheme), p.providers, reps=4000)
    slow = _loop_draws(K / 3, scheme, p.providers, 2000, np.random.default_rng(1))
    d_fast, d_slow = fast[:, 1:] - fast[:, :1], slow[:, 1:] - slow[:, :1]
    np.testing.assert_allclose(d_fast.std(0), d_slow.std(0), rtol=0.08)
    np.testing.assert_allclose(fast.mean(0), slow.mean(0), atol=0.6)
    np.testing.assert_allclose(np.percentile(d_fast, [2.5, 97.5], axis=0), np.percentile(d_slow, [2.5, 97.5], axis=0), atol=1.2)

def test_scheme_width_ordering():
    "Table 23: equal-model item << model-item <= provider-model-item when providers share effects."
    g = simulate_graded(n_models=11, n_items=100, n_providers=6, families={"orig": ("POS", "NEG", "AVOID1")}, seed=11)
    c = analyze(g, reps=3000)["contrasts"]
    w = (c.ci_high - c.ci_low).groupby(c.scheme).mean()
    assert w["equal_model_item"] < 0.75 * w["model_item"]
    assert w["model_item"] < w["provider_model_item"] * 1.05

# ---------------------------------------------------------------- coverage by simulation

def _panel(passed, providers):
    M, I, F, R = passed.shape
    nan = np.full(passed.shape, np.nan)
    return Panel("sim", "count", [f"m{k}" for k in range(M)], list(providers), ["POS", "NULL", "EFF"],
                 pd.DataFrame(dict(item=[f"i{k}" for k in range(I)], target=np.nan)), passed.astype(np.int8),
                 nan, nan, nan, np.ones(passed.shape, bool))

def _sigmoid(x): return 1 / (1 + np.exp(-x))

def _coverage(scheme, n_sets=200, reps=400, seed=0):
    """Share of simulated datasets whose 95% interval covers the true difference, and the rejection rate
    of a form with no effect. Finite populations make the truth exact: tasks (and, when models are
    resampled, models and providers) are drawn from them; outcomes are Bernoulli over 3 repeats."""
    rng = np.random.default_rng(seed)
    n_task, I, R = 4000, 60, 3
    task_eff = rng.normal(0, 1.0, n_task)
    task_form = rng.normal(0, 0.5, n_task)                       # tasks react differently to the wording
    if scheme == "equal_model_item":                              # fixed models
        ability = rng.normal(0.3, 1.0, (1, 8)); prov = np.arange(8) % 4
        pick_models = lambda: (np.arange(8), prov)
        n_pop = 8
    else:                                                         # providers of 2 models, drawn from a population
        n_prov = 400
        pe = rng.normal(0, 0.8, n_prov)
        ability = (np.repeat(pe, 2) + rng.normal(0.3, 0.7, 2 * n_prov))[None]
        n_pop = 2 * n_prov
        if scheme == "model_item":
            pick_models = lambda: (rng.choice(n_pop, 12, replace=False), np.arange(12))
        else:
            def pick_models():
                ps = rng.choice(n_prov, 6, replace=False)
                return np.concatenate([2 * ps, 2 * ps + 1]), np.concatenate([np.arange(6), np.arange(6)])
    model_form = rng.normal(-0.5, 0.6, n_pop)                      # model-specific wording effect
    def probs(models, tasks):
        a = ability[0, models][:, None] - task_eff[tasks][None]
        eff = model_form[models][:, None] + task_form[tasks][None]
        p = _sigmoid(a)
        return np.stack([p, p, _sigmoid(a + eff)], -1)               # POS, NULL (same as POS), EFF
    allp = probs(np.arange(n_pop), np.arange(n_task)).mean((0, 1))
    truth = 100 * (allp - allp[0])
    cover, reject = [], []
    for k in range(n_sets):
        models, providers = pick_models()
        tasks = rng.choice(n_task, I, replace=False)
        pr = probs(models, tasks)
        passed = rng.random(pr.shape + (R,)) < pr[..., None]
        c = contrasts(_panel(passed, providers), reps=reps, seed=k, schemes=[scheme]).set_index("form")
        cover.append(c.ci_low["EFF"] <= truth[2] <= c.ci_high["EFF"])
        reject.append(c.p_raw["NULL"] < 0.05)
    return np.mean(cover), np.mean(reject), truth

@pytest.mark.parametrize("scheme,band", [("equal_model_item", (0.88, 0.99)), ("model_item", (0.88, 0.99)),
                                         ("provider_model_item", (0.88, 0.99))])
def test_ci_coverage_near_nominal(scheme, band):
    cover, reject, truth = _coverage(scheme)
    assert truth[1] == 0 and truth[2] < -3                         # a real effect and a true null
    assert band[0] <= cover <= band[1], cover
    assert reject <= 0.12, reject                                  # p-values: no excess false positives

# ---------------------------------------------------------------- analyze: reproducibility, p-values, edges

@pytest.fixture(scope="module")
def graded():
    return simulate_graded(n_models=6, n_items=20, n_providers=3, seed=5)

def test_reproducible_from_seed(graded):
    a, b, c = analyze(graded, reps=1500, seed=7), analyze(graded, reps=1500, seed=7), analyze(graded, reps=1500, seed=8)
    for k in OUTPUT_COLUMNS: pd.testing.assert_frame_equal(a[k], b[k])
    for col in ("ci_low", "ci_high"): assert (a["contrasts"][col] != c["contrasts"][col]).any()
    assert (a["ranking"].tau_ci_low != c["ranking"].tau_ci_low).any() or (a["ranking"].tau_ci_high != c["ranking"].tau_ci_high).any()
    pd.testing.assert_frame_equal(a["summary"], c["summary"])

def test_pvalues_agree_with_intervals(graded):
    c = analyze(graded, reps=4000)["contrasts"]
    outside = (c.ci_low > 0) | (c.ci_high < 0)
    assert ((c.p_raw < 0.05) == outside).all()
    assert ((c.p_holm >= c.p_raw - 1e-12) & (c.p_holm <= 1)).all()
    for _, g in c.groupby(["family", "scheme"]):
        np.testing.assert_allclose(g.p_holm, multipletests(g.p_raw, method="holm")[1])
    assert ((c.p_raw * 4000).round(6) % 2 == 0).all()              # p = 2·count/B: resolution 2/B

def test_all_pass_model_and_ties(graded):
    g = graded.assign(compliant=graded.compliant.where(graded.model != "sim-00", True))
    g.loc[g.model == "sim-01", "compliant"] = g.loc[g.model == "sim-00", "compliant"].to_numpy()   # sim-01 ties sim-00
    r = analyze(g, reps=500)
    comp = r["compliance"].set_index(["family", "form", "model"]).compliance
    assert (comp.xs("sim-00", level="model") == 100).all()
    rk = r["ranking"]
    assert rk.tau_b.notna().all()
    ex = validate_graded(g)
    p = make_panel(ex, "exact_count")
    tot = p.passed.sum((1, 3))
    for f in range(1, 3):
        ref = sps.kendalltau(tot[:, 0], tot[:, f], variant="b").statistic
        assert rk[(rk.family == "exact_count") & (rk.form == p.forms[f])].tau_b.iloc[0] == pytest.approx(ref)

def test_single_provider_and_single_model(graded):
    r = analyze(graded.assign(provider="only"), reps=500)
    assert r["contrasts"].ci_low.notna().all()
    one = analyze(graded[graded.model == "sim-02"], reps=200)
    assert one["ranking"].tau_b.isna().all() and (one["ranking"].top3_jaccard == 1).all()
    pm = one["contrasts"]
    assert pm.ci_low.notna().all()                                  # tasks still resampled

def test_family_with_only_pos(graded):
    r = analyze(graded[graded.form == "POS"], reps=100)
    assert r["contrasts"].empty and r["ranking"].empty
    assert (r["summary"].g_wording == 0).all() and (r["summary"].worst_form == "POS").all()
    assert list(r["contrasts"].columns) == OUTPUT_COLUMNS["contrasts"]

def test_item_clusters_with_crossed_targets():
    "Items crossed with 4 targets: cluster='item' resamples whole items; widths grow vs tasks."
    g = simulate_graded(n_models=5, n_items=40, seed=2, families={"exact": ("POS", "AVOID1")})
    g["item"] = "base" + (g["item"].str[1:].astype(int) // 4).astype(str)   # 10 base items × 4 targets each
    t = analyze(g, reps=2000, cluster="task")["contrasts"]
    i = analyze(g, reps=2000, cluster="item")["contrasts"]
    np.testing.assert_allclose(t["diff"], i["diff"])
    assert set(i.scheme) == set(SCHEMES)

def test_bad_inputs(graded):
    with pytest.raises(WiseError, match="missing column"): analyze(graded.drop(columns=["family"]))
    with pytest.raises(WiseError, match="seed must be"): analyze(graded, reps=10, seed=-3)
    with pytest.raises(WiseError, match="cluster must be"): analyze(graded, reps=10, cluster="model")
    with pytest.raises(WiseError, match="kind of family"): analyze(graded, reps=10, kinds={"json": "xml"})

# ---------------------------------------------------------------- the paper's Table 11 from the per-form tables

def test_table11_from_per_form_tables():
    paper = ROOT / "ifhier" / "data" / "paper"
    t11 = pd.read_csv(paper / "wise_table11_audit_summary.csv").set_index("panel")
    panels = {"Original exact count": "wise_table2_original_exact_count.csv", "Avoidance family": "wise_table4_avoidance_family.csv",
              "Constructional controls": "wise_table3_constructional_controls.csv", "Keyword exactly once": "wise_table13_keyword_six_models.csv",
              "Inclusive 8–12 range": "wise_table14_range_six_models.csv", "JSON structure": "wise_table6_json_probe.csv"}
    rows = []
    for name, f in panels.items():
        d = pd.read_csv(paper / f)
        pos = d.compliance_pct[d.form == "POS"].iloc[0]
        comp = pos + d.diff_vs_pos_pp.fillna(0)                      # unrounded-ish: POS + printed diffs
        rows.append(pd.DataFrame(dict(family=name, form=d.form, model="ALL", n=1, compliance=comp)))
    s = summary_table(pd.concat(rows)).set_index("family")
    for name in panels:
        key = next(k for k in t11.index if k.split()[0] == name.split()[0])
        exp = t11.loc[key]
        assert s.loc[name, "pos"] == pytest.approx(exp.pos_pct, abs=0.05)
        assert s.loc[name, "c_mean"] == pytest.approx(exp.c_mean_pct, abs=0.15)
        assert s.loc[name, "c_worst"] == pytest.approx(exp.c_worst_pct, abs=0.15)
        assert s.loc[name, "g_wording"] == pytest.approx(exp.g_wording_pp, abs=0.15)

# ---------------------------------------------------------------- the graded format written by `ifhier wise grade`

def test_graded_csv_from_grader_roundtrip(tmp_path):
    import ifhier.wise.demo as demo
    g = demo.demo_graded(n_items=6, repeats=2)
    g.to_csv(tmp_path / "g.csv", index=False)
    from ifhier.wise.audit import analyze_files
    paths = analyze_files(tmp_path / "g.csv", tmp_path / "out", reps=200)
    for k, p in paths.items(): assert list(pd.read_csv(p).columns) == OUTPUT_COLUMNS[k]
    summ = pd.read_csv(paths["summary"])
    assert set(summ.family) == set(g.family)

def test_bench_runs_small():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_wise", ROOT / "scripts" / "bench_wise.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    assert mod.main(reps=200) > 0
