"""`ifhier score` over run directories (errors, duplicates, missing answers, --answered-only) and `ifhier report`
over several run directories (witness + synthetic responders, a fake model run), through `ifhier.cli.call`."""
import json
from pathlib import Path
import pandas as pd
import pytest
from ifhier.cli import call
from ifhier.io import data_path, write_jsonl, read_jsonl
from ifhier.benchfile import load_bench
from ifhier.bench.witness import witness_response
from ifhier.run.runner import run_benchmark
from ifhier.report.reasoning import trace_order

FIX = Path(__file__).resolve().parent.parent / "nbs" / "fixtures"
BENCH = load_bench(data_path("ifhierbench.jsonl"))[::30]          # 20 prompts, 5 per depth

@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    p = tmp_path_factory.mktemp("b") / "bench.jsonl"; write_jsonl(BENCH, p); return p

def fake_model_run(d: Path):
    "A 'model' run: retries (error then success), a duplicated success, missing prompts, an error-only prompt, reasoning."
    rows = []
    for i, r in enumerate(BENCH[:16]):
        ok = dict(prompt_id=r["id"], sample=0, model="openai/fake-model", provider="openai", response=witness_response(r["tree"]),
                  raw=None, reasoning="Keys first, then the sections." if i % 2 else None, finish_reason="stop",
                  usage=dict(prompt_tokens=100, completion_tokens=50, total_tokens=150), cost_usd=0.002, latency_s=1.5, attempts=1, error=None)
        if i < 3: rows.append(dict(ok, response=None, error="RateLimitError: 429 slow down", usage=None, cost_usd=None))
        rows.append(ok)
        if i == 4: rows.append(dict(ok, response="not an answer"))   # a later success wins: prompt 4 now fails
    rows.append(dict(prompt_id=BENCH[16]["id"], sample=0, model="openai/fake-model", response=None, error="Timeout: 60 s"))
    d.mkdir(parents=True, exist_ok=True); write_jsonl(rows, d / "responses.jsonl")
    (d / "manifest.json").write_text(json.dumps(dict(model="openai/fake-model", provider="openai", synthetic=False, samples=1,
                                                     started="2026-01-01T00:00:00+00:00", concurrency_history=[dict(limit=4)])))

def test_score_run_dir_coverage(tmp_path, bench):
    run = tmp_path / "run"; fake_model_run(run)
    code, out, err = call("score", "--bench", bench, "--responses", run, "--out", tmp_path / "s.csv")
    assert code == 0, err
    assert "answered 16/20 (prompt, sample) pairs; 4 prompts with no answer; 4 rows errored; 4 pairs duplicated" in out
    assert "the 4 missing answers count as failed" in out and "warning: 4 (prompt, sample) pairs" in err
    df = pd.read_csv(tmp_path / "s.csv", dtype={"depth": str})
    assert list(df.columns) == ["prompt_id", "sample", "depth", "node_path", "constraint", "verdict", "reason", "params", "model", "profile", "state"]
    miss = df[df.reason.str.startswith("no answer")]
    assert miss.prompt_id.nunique() == 4 and set(miss.verdict) == {"fail"} and set(miss.state) == {"missing"}
    assert set(miss[miss.prompt_id == BENCH[16]["id"]].reason) == {"no answer (Timeout)"}
    side = json.loads((tmp_path / "s.summary.json").read_text())
    assert side["coverage"]["missing"] == 4 and side["coverage"]["answered"] == 16
    overall = [a for a in side["accuracy"] if a["depth"] == "all"][0]
    assert overall["n_answers"] == 20 and overall["prompt_acc"] == pytest.approx(15 / 20)   # 15 witness answers pass
    code, out, _ = call("score", "--bench", bench, "--responses", run / "responses.jsonl", "--out", tmp_path / "a.csv", "--answered-only")
    assert code == 0 and "ANSWERED pairs only" in out
    a = pd.read_csv(tmp_path / "a.csv")
    assert a.prompt_id.nunique() == 16 and not a.reason.astype(str).str.startswith("no answer").any()

@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("runs")
    for name in ("witness", "root-only (synthetic)", "no-format (synthetic)"): run_benchmark(name, BENCH, d / name.split()[0], progress=False)
    fake_model_run(d / "fake")
    return d

def test_report_offline_only(tmp_path, bench, runs):
    code, out, err = call("report", runs / "witness", runs / "root-only", runs / "no-format", "--bench", bench,
                          "--out", tmp_path / "rep", "--n-boot", 200, "--paper")
    assert code == 0, err
    md = (tmp_path / "rep/report.md").read_text()
    assert "No model runs were given" in md and "## Models" not in md and "## Offline answerers (not models)" in md
    assert "## Published numbers" in md and "| GPT-5.5 | 53.7 |" in md
    t2 = md.split("### Table 2 layout")[1].split("###")[0]
    assert "Prompt-level Overall" in t2 and "| witness | strict | 100.0 [100.0, 100.0] |" in t2 and "| witness | loose |" in t2
    t3 = md.split("### Table 3 layout")[1].split("###")[0]
    assert "Pooled pass (%)" in t3 and t3.count("[") >= 5 * 4
    for f in ("offline_accuracy_ci", "offline_type_heatmap", "offline_overcredit"):
        assert (tmp_path / "rep/figures" / f"{f}.png").stat().st_size > 5000 and (tmp_path / "rep/figures" / f"{f}.svg").exists()
    sig = pd.read_csv(tmp_path / "rep/failure_signature.csv").set_index("run")
    assert sig.loc["witness", "pattern"] == "tight band" and sig.loc["no-format (synthetic)", "pattern"] == "structural collapse"
    acc = pd.read_csv(tmp_path / "rep/accuracy_by_depth.csv", dtype={"depth": str})
    assert {"estimate", "ci_low", "ci_high", "n", "n_boot", "seed", "method"} <= set(acc.columns) and set(acc.group) == {"offline"}
    rates = pd.read_csv(tmp_path / "rep/type_pass_rates.csv")
    assert rates.groupby("run").constraint.nunique().eq(35).all()

def test_report_model_beside_offline_and_paper(tmp_path, bench, runs):
    code, out, err = call("report", runs / "fake", runs / "witness", "--bench", bench, "--out", tmp_path / "rep", "--n-boot", 200, "--paper")
    assert code == 0, err
    md = (tmp_path / "rep/report.md").read_text()
    models, offline = md.split("## Offline answerers (not models)")
    assert "## Models" in models and "openai/fake-model" in models.split("## Models")[1] and "| witness |" not in models.split("## Models")[1]
    assert "| GPT-5.5 (published) |" in models and "(published)" in models.split("### Table 3 layout")[1]
    assert "answered 16/20" in md and "openai/fake-model" in offline.split("## Tokens")[1]
    costs = pd.read_csv(tmp_path / "rep/run_costs.csv").set_index("run")
    assert costs.loc["openai/fake-model", "error_kinds"] == "RateLimitError×3, Timeout×1"
    assert costs.loc["openai/fake-model", "cost_usd"] == pytest.approx(0.002 * 17) and costs.loc["openai/fake-model", "total_tokens"] == 150 * 17
    rs = pd.read_csv(tmp_path / "rep/reasoning_order.csv")
    assert len(rs) == 8 and set(rs.run) == {"openai/fake-model"}                 # the 8 kept answers with reasoning
    acc = pd.read_csv(tmp_path / "rep/accuracy_by_depth.csv", dtype={"depth": str}).set_index(["run", "profile", "level", "depth"])
    assert acc.loc[("openai/fake-model", "strict", "prompt", "overall"), "estimate"] == pytest.approx(15 / 20)   # missing = failed
    assert acc.loc[("openai/fake-model", "loose", "prompt", "overall"), "estimate"] >= 15 / 20 - 1e-9            # both profiles reported

def test_report_bad_input_is_one_line(tmp_path, bench):
    code, _, err = call("report", tmp_path / "nope", "--bench", bench, "--out", tmp_path / "rep")
    assert code == 2 and err.startswith("ifhier: error: ") and err.count("\n") == 1

def test_reasoning_order_hand_traces():
    traces = read_jsonl(FIX / "reasoning_traces.jsonl", ("name", "expected", "prompt", "tree", "reasoning"), "trace")
    assert len(traces) >= 6
    for t in traces: assert trace_order(t["tree"], t["reasoning"], t["prompt"])["label"] == t["expected"], t["name"]


def test_report_counts_answer_states_and_accuracy_without_cut_off(tmp_path, bench):
    "A witness run whose last (depth-3) answer stopped early at the length limit: counted cut off, and left out in the last column."
    run = tmp_path / "w"; run_benchmark("witness", BENCH, run, progress=False)
    rows = [json.loads(l) for l in (run / "responses.jsonl").read_text().splitlines()]
    rows[-1].update(finish_reason="length", response=rows[-1]["response"][:3], raw=rows[-1]["response"][:3])   # stopped early: fails
    (run / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = call("report", run, "--bench", bench, "--out", tmp_path / "rep", "--n-boot", 200)
    assert code == 0, err
    md = (tmp_path / "rep" / "report.md").read_text()
    row = next(l for l in md.splitlines() if l.startswith("| witness |") and "0.950" in l)
    assert row.split(" | ")[1:6] == ["19", "0", "1", "0", "0"] and row.rstrip(" |").endswith("1.000"), row
    assert "## Answer states" in md and "1 cut off" in out

def test_report_difficulty_and_density_sections(tmp_path, runs):
    "A bench marked as a scale tier (k = its constraint count) gets the difficulty section and the density sweep, with CIs."
    from ifhier.bench.difficulty import prompt_difficulty
    scale = [dict(r, tier="scale", k=prompt_difficulty(r["tree"])["constraints"]) for r in BENCH]
    p = tmp_path / "scale.jsonl"; write_jsonl(scale, p)
    code, out, err = call("report", runs / "witness", runs / "root-only", "--bench", p, "--out", tmp_path / "rep", "--n-boot", 100)
    assert code == 0, err
    md = (tmp_path / "rep/report.md").read_text()
    assert "### Accuracy by difficulty" in md and "| narrow_numeric |" in md and "### Density sweep" in md and "b (95% CI)" in md
    acc = pd.read_csv(tmp_path / "rep/accuracy_by_difficulty.csv")
    assert ((acc.ci_low <= acc.estimate + 1e-9) & (acc.estimate <= acc.ci_high + 1e-9)).all()
    assert acc[acc.run == "witness"].estimate.eq(1.0).all()
    dens = pd.read_csv(tmp_path / "rep/density.csv")
    assert set(dens.run) == {"witness", "root-only (synthetic)"} and dens.n.sum() == 2 * len(BENCH)
    fit = pd.read_csv(tmp_path / "rep/density_fit.csv")
    assert {"a", "a_low", "a_high", "b", "b_low", "b_high"} <= set(fit.columns)
    assert (fit.b.isna() | ((fit.b_low <= fit.b + 1e-9) & (fit.b <= fit.b_high + 1e-9))).all()     # NaN: nothing passed, b not identified
    w = fit[fit.run == "witness"]
    assert len(w) and (w.a > 0.999).all() and (w.b > 0.999).all()                                 # every answer passes: no decay
    assert (tmp_path / "rep/figures/offline_density.png").stat().st_size > 5000
