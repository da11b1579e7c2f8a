"""One reader of answers (`ifhier.run.answers.read_answers`), so every path scores the same answer the same way.

A witness run whose answers carry a `<think>` block (or a byte-order mark and Windows line endings) scores 1.0 in
`ifhier score`, `reward`, the report, the inspect scorer and the lm-eval callbacks alike, and the report's flat checker
sees the same text the plain witness run has; WISE grading reads a resumed run the same through its directory and
through its `responses.jsonl`; `ifhier report` reads the table `ifhier score` left instead of scoring again; and
`ifhier explain` does not load the benchmark builder."""
import asyncio, json, subprocess, sys
import pandas as pd
import pytest
from ifhier.cli import call
from ifhier.io import data_path, read_jsonl, write_jsonl
from ifhier.run.runner import run_benchmark
from ifhier.run.answers import read_answers
from ifhier.reward.verify import reward

BENCH = read_jsonl(data_path("ifhierbench.jsonl"))[::40]          # a spread over every depth
THINK = "<think>reasoning</think>\n"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    "The witness run over BENCH, and the same answers behind a <think> block, and with a BOM and CRLF line endings."
    tmp = tmp_path_factory.mktemp("runs")
    write_jsonl(BENCH, tmp / "bench.jsonl")
    run_benchmark("witness", BENCH, tmp / "witness", progress=False)
    rows = read_jsonl(tmp / "witness" / "responses.jsonl")
    for name, f in (("think", lambda t: THINK + t), ("bom", lambda t: "\ufeff" + t.replace("\n", "\r\n"))):
        (tmp / name).mkdir()
        write_jsonl([dict(r, response=f(r["response"])) for r in rows], tmp / name / "responses.jsonl")
        (tmp / name / "manifest.json").write_text((tmp / "witness" / "manifest.json").read_text())
    return tmp


def test_the_reader_gives_the_witness_text(runs):
    plain = {a.key: a.text for a in read_answers(runs / "witness")}
    for name in ("think", "bom"):
        got = read_answers(runs / name)
        assert {a.key: a.text for a in got} == plain and {a.state for a in got} == {"answered"}, name
        assert {a.key: a.text for a in read_answers(runs / name / "responses.jsonl")} == plain, name
    assert {a.reasoning for a in read_answers(runs / "think")} == {"reasoning"}


def test_score_and_reward_give_full_marks_behind_a_think_block(runs, tmp_path):
    code, out, err = call("score", "--bench", runs / "bench.jsonl", "--responses", runs / "think", "--out", tmp_path / "s.csv", "--loose")
    assert code == 0, err
    assert set(pd.read_csv(tmp_path / "s.csv").verdict) == {"pass"}
    recs = {r["id"]: r for r in BENCH}
    for r in read_jsonl(runs / "think" / "responses.jsonl"):
        assert r["response"].startswith(THINK) and reward(recs[r["prompt_id"]], r["response"]) == 1.0


def test_report_and_flat_checker_read_the_visible_answer(runs):
    from ifhier.report.tables import load_runs, all_scores
    from ifhier.report.signature import flat_scores
    rs = load_runs([runs / "witness", runs / "think", runs / "bom"], BENCH, reuse=False)
    assert all_scores(rs, BENCH).groupby("run").passed.mean().tolist() == [1.0, 1.0, 1.0]
    flat = flat_scores(rs, BENCH)
    by = {r.name: flat[flat.run == r.name].flat.tolist() for r in rs}
    base = by[rs[0].name]
    assert len(base) > 0 and all(v == base for v in by.values())       # the flat checker sees the witness text in every run
    depth0 = {r["id"] for r in BENCH if r["depth"] == 0}
    assert flat[flat.prompt_id.isin(depth0)].flat.all()                 # at depth 0 flat and hierarchical agree: all pass


def _inspect_state(rec, text):
    from inspect_ai.model import ModelOutput
    from inspect_ai.solver import TaskState
    st = TaskState(model="none/none", sample_id=rec["id"], epoch=1, input=rec["prompt"], messages=[],
                   metadata=dict(depth=rec["depth"], tree=json.dumps(rec["tree"])))
    st.output = ModelOutput.from_content("none/none", text)
    return st


def test_inspect_scorer_and_lm_eval_callbacks_give_full_marks(runs):
    pytest.importorskip("inspect_ai")
    from inspect_ai.scorer import Target
    from ifhier.integrations.inspect_task import ifhier_scorer, ifhier_metrics
    from ifhier.integrations.lmeval import process_results
    recs, sc = {r["id"]: r for r in BENCH}, ifhier_scorer()
    for name in ("think", "bom"):
        scores = []
        for r in read_jsonl(runs / name / "responses.jsonl"):
            rec = recs[r["prompt_id"]]
            s = asyncio.run(sc(_inspect_state(rec, r["response"]), Target("")))
            assert s.value["prompt_level_strict"] == 1.0 and s.value["prompt_level_loose"] == 1.0, (name, rec["id"], s.explanation)
            scores.append(s)
            lm = process_results(dict(rec, tree=json.dumps(rec["tree"])), [r["response"]])
            assert lm["prompt_level_strict_acc"] is True and all(lm["inst_level_strict_acc"]) and lm["cut_off"] == 0, (name, rec["id"])
        m = ifhier_metrics()(scores)
        assert m["prompt_level_strict_acc"] == 1.0 and m["n_cut_off"] == m["n_missing"] == m["n_unscored"] == 0


def test_cut_off_and_missing_are_counted_not_hidden(runs):
    from inspect_ai.scorer import Target
    from ifhier.integrations.inspect_task import ifhier_scorer, ifhier_metrics
    rec, sc = BENCH[0], ifhier_scorer()
    w = read_answers(runs / "witness").by_key()[(rec["id"], 0)].text
    got = [asyncio.run(sc(_inspect_state(rec, t), Target(""))) for t in (w, "<think>never closed", "")]
    m = ifhier_metrics()(got)
    assert m["n_cut_off"] == 1 and m["prompt_level_strict_acc"] == pytest.approx(1 / 3)


def test_wise_grade_reads_a_resumed_run_through_its_folder_and_its_file(tmp_path):
    v, run = tmp_path / "variants.jsonl", tmp_path / "run"
    assert call("wise", "build", "--constraint", "string.comma", "--depth", 1, "--max-prompts", 2, "--out", v)[0] == 0
    vs = read_jsonl(v)
    rows = [dict(prompt_id=x["id"], sample=0, model="m", response=None, error="Timeout: x") for x in vs]
    rows += [dict(prompt_id=x["id"], sample=0, model="m", response=THINK + "No commas here at all", error=None) for x in vs]
    run.mkdir(); write_jsonl(rows, run / "responses.jsonl")
    graded = []
    for src in (run, run / "responses.jsonl"):
        code, out, err = call("wise", "grade", "--prompts", v, "--answers", src, "--out", tmp_path / "g.csv", "--no-complete")
        assert code == 0, err
        graded.append(pd.read_csv(tmp_path / "g.csv"))
    plain = tmp_path / "plain.jsonl"
    write_jsonl([dict(r, response=r["response"].removeprefix(THINK)) for r in rows if r["response"]], plain)
    assert call("wise", "grade", "--prompts", v, "--answers", plain, "--out", tmp_path / "p.csv", "--no-complete")[0] == 0
    pd.testing.assert_frame_equal(graded[0], graded[1])
    assert len(graded[0]) == len(vs) and not graded[0].missing.any()
    assert graded[0].compliant.tolist() == pd.read_csv(tmp_path / "p.csv").compliant.tolist()   # graded on the visible answer


def test_report_reads_the_scores_ifhier_score_left(runs, tmp_path, monkeypatch):
    from ifhier.report import tables
    d = tmp_path / "w"; d.mkdir()
    for f in ("responses.jsonl", "manifest.json"): (d / f).write_bytes((runs / "think" / f).read_bytes())
    assert call("score", "--bench", runs / "bench.jsonl", "--responses", d, "--out", d / "scores.csv", "--loose")[0] == 0
    def no_scoring(*a, **k): raise AssertionError("scored again")
    monkeypatch.setattr(tables, "score_run", no_scoring)
    code, out, err = call("report", d, "--bench", runs / "bench.jsonl", "--out", tmp_path / "rep", "--seed", 0)
    assert code == 0, err
    assert (tmp_path / "rep" / "report.md").exists()


def test_explain_loads_no_builder(runs):
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", "import ifhier.explain"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    loaded = [l for l in r.stderr.splitlines() if any(f"ifhier.bench.{m}" in l for m in ("sampler", "render", "witness"))]
    assert loaded == []
    rec = BENCH[-1]
    code, out, err = call("explain", "--bench", runs / "bench.jsonl", "--responses", runs / "think", "--prompt-id", rec["id"])
    assert code == 0, err
    assert "✗" not in out and "cut off" not in out
