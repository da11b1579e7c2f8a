"""IFHierBench where researchers already work, end to end and offline: `inspect eval ifhier/ifhierbench` and
`lm_eval --tasks ifhierbench` against a local OpenAI-compatible server (127.0.0.1) that answers each prompt with
its witness; their logs read back by `ifhier score`; `ifhier export hf` loaded by `datasets`; `ifhier report A B
--compare`; and the core never importing inspect_ai, lm_eval or datasets."""
import ast, re, json, os, subprocess, sys
from pathlib import Path
import pytest
from fake_openai import FakeOpenAI
from ifhier.cli import call
from ifhier.io import data_path, write_jsonl, read_jsonl
from ifhier.benchfile import load_bench
from ifhier.bench.witness import witness_response

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SHIPPED = data_path("ifhierbench.jsonl")
N_SHIPPED = sum(1 for line in Path(SHIPPED).read_text(encoding="utf-8").splitlines() if line.strip())   # whatever the shipped build holds
LIMIT = 40
OFFLINE = dict(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1",
               OPENAI_API_KEY="sk-test-not-a-key", NO_PROXY="127.0.0.1,localhost", LITELLM_LOCAL_MODEL_COST_MAP="True")


def _env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    return {**env, **OFFLINE, "HF_HOME": str(tmp / "hf"), "INSPECT_LOG_DIR": str(tmp / "inspect-logs")}


def _run(argv, tmp, timeout=400) -> subprocess.CompletedProcess:
    r = subprocess.run([str(a) for a in argv], capture_output=True, text=True, env=_env(tmp), cwd=tmp, timeout=timeout)
    assert r.returncode == 0, f"{argv[0]} exited {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def witness_server():
    "A fake OpenAI-compatible server answering every benchmark prompt with that prompt's witness."
    answers = {}
    for r in load_bench(SHIPPED):
        w = witness_response(r["tree"]); answers[r["prompt"]] = w; answers[r["prompt"].strip()] = w
    s = FakeOpenAI(answers=answers).start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def inspect_log(witness_server, tmp_path_factory):
    "`inspect eval ifhier/ifhierbench ... --limit 40`: (log file, CLI output)."
    tmp = tmp_path_factory.mktemp("inspect")
    r = _run([BIN / "inspect", "eval", "ifhier/ifhierbench", "--model", "openai/witness-model", "--model-base-url", witness_server.url,
              "--limit", LIMIT, "--log-dir", tmp / "logs", "--display", "plain"], tmp)
    logs = sorted((tmp / "logs").glob("*.eval"))
    assert len(logs) == 1, r.stdout[-2000:]
    return logs[0], r.stdout


@pytest.fixture(scope="module")
def lm_eval_out(witness_server, tmp_path_factory):
    """`ifhier export lm-eval DIR`, the folder moved elsewhere (as when shared), then `lm_eval ... --tasks
    ifhierbench,ifhierbench_depths --include_path MOVED --limit 40`: (output folder, CLI output)."""
    tmp = tmp_path_factory.mktemp("lmeval")
    code, out, err = call("export", "lm-eval", tmp / "exported")
    assert code == 0, err
    (tmp / "exported").rename(tmp / "tasks")
    r = _run([BIN / "lm_eval", "--model", "local-chat-completions", "--model_args",
              f"model=witness-model,base_url={witness_server.url}/chat/completions,num_concurrent=4,tokenizer_backend=None",
              "--tasks", "ifhierbench,ifhierbench_depths", "--include_path", tmp / "tasks", "--limit", LIMIT, "--apply_chat_template",
              "--log_samples", "--output_path", tmp / "out"], tmp)
    return tmp / "out", r.stdout


def test_inspect_eval_reports_full_accuracy_on_witness_answers(inspect_log, witness_server):
    from inspect_ai.log import read_eval_log
    path, stdout = inspect_log
    log = read_eval_log(str(path))
    assert log.status == "success" and log.eval.task == "ifhier/ifhierbench"
    m = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    assert m["prompt_level_strict_acc"] == 1.0 and m["inst_level_strict_acc"] == 1.0
    assert m["prompt_level_loose_acc"] == 1.0 and m["inst_level_loose_acc"] == 1.0 and m["d0_prompt_level_strict_acc"] == 1.0
    assert len(log.samples) == LIMIT and log.results.completed_samples == LIMIT
    v = log.samples[0].scores["ifhier_scorer"].metadata["verdicts"]["strict"]   # per-constraint verdicts, paths, reasons
    assert v and all(x["verdict"] == "pass" and x["node_path"] and x["reason"] for x in v)
    assert "prompt_level_strict_acc" in stdout


def test_inspect_log_scores_through_ifhier(inspect_log, tmp_path):
    code, out, err = call("score", "--responses", inspect_log[0], "--out", tmp_path / "s.jsonl")
    assert code == 0, err
    assert f"answered {LIMIT}/{LIMIT} (prompt, sample) pairs" in out and "read an inspect log of task 'ifhier/ifhierbench'" in out
    rows = read_jsonl(tmp_path / "s.jsonl")
    assert len({r["prompt_id"] for r in rows}) == LIMIT and {r["verdict"] for r in rows} == {"pass"}


def test_inspect_log_of_another_benchmark_is_named(inspect_log, tmp_path):
    from inspect_ai.log import read_eval_log, write_eval_log
    log = read_eval_log(str(inspect_log[0]))
    log.eval.task, log.eval.dataset.name = "inspect_evals/ifeval", "google/IFEval"
    for i, s in enumerate(log.samples): s.id = 1000 + i
    log.eval.dataset.sample_ids = [s.id for s in log.samples]
    for fmt in ("eval", "json"):
        other = tmp_path / f"other.{fmt}"
        write_eval_log(log, str(other), format=fmt)
        code, out, err = call("score", "--responses", other, "--out", tmp_path / "s.jsonl")
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert "an inspect log of task 'inspect_evals/ifeval', dataset 'google/IFEval', not of this benchmark" in err


def _samples_of(out: Path, task: str) -> Path:
    "lm-eval's samples file of `task` itself (`samples_TASK_<timestamp>.jsonl`, not its per-depth tasks')."
    return next(p for p in out.rglob(f"samples_{task}_*.jsonl") if re.fullmatch(rf"samples_{task}_\d[-\dT:.]*\.jsonl", p.name))


def test_lm_eval_reports_full_accuracy_on_witness_answers(lm_eval_out):
    out, stdout = lm_eval_out
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    res = results["results"]["ifhierbench"]
    assert res["prompt_level_strict_acc,none"] == 1.0 and res["inst_level_strict_acc,none"] == 1.0
    assert res["prompt_level_loose_acc,none"] == 1.0 and res["inst_level_loose_acc,none"] == 1.0
    assert res["d0_prompt_level_strict_acc,none"] == 1.0
    group = results["groups"]["ifhierbench_depths"]                      # one task per depth, weighted by size
    assert group["prompt_level_strict_acc,none"] == 1.0 and group["inst_level_loose_acc,none"] == 1.0
    assert {f"ifhierbench_d{k}" for k in range(4)} <= set(results["results"])
    assert all(results["results"][f"ifhierbench_d{k}"]["prompt_level_strict_acc,none"] == 1.0 for k in range(4))
    assert "prompt_level_strict_acc" in stdout


def test_lm_eval_samples_score_through_ifhier(lm_eval_out, tmp_path):
    samples = _samples_of(lm_eval_out[0], "ifhierbench")
    code, out, err = call("score", "--responses", samples, "--out", tmp_path / "s.jsonl")
    assert code == 0, err
    assert f"answered {LIMIT}/{LIMIT} (prompt, sample) pairs" in out and "model 'witness-model'" in out
    rows = read_jsonl(tmp_path / "s.jsonl")
    assert len({r["prompt_id"] for r in rows}) == LIMIT and {r["verdict"] for r in rows} == {"pass"}


def test_lm_eval_samples_of_another_task_are_named(lm_eval_out, tmp_path):
    samples = _samples_of(lm_eval_out[0], "ifhierbench")
    other = tmp_path / samples.name.replace("ifhierbench", "ifeval")
    lines = [json.loads(l) for l in samples.read_text().splitlines()]
    for i, s in enumerate(lines): s["doc"] = dict(key=1000 + i, prompt=s["doc"]["prompt"], instruction_id_list=[], kwargs=[])
    other.write_text("".join(json.dumps(s) + "\n" for s in lines))
    code, out, err = call("score", "--responses", other, "--out", tmp_path / "s.jsonl")
    assert code == 2 and "Traceback" not in err
    assert "an lm-eval samples file of task 'ifeval', not of IFHierBench" in err


def test_hf_export_loads_with_datasets_offline(tmp_path):
    code, out, err = call("train-set", "--n", 12, "--out", tmp_path / "train.jsonl")
    assert code == 0, err
    code, out, err = call("export", "hf", tmp_path / "ds", "--train-set", tmp_path / "train.jsonl")
    assert code == 0, err
    probe = ("import datasets, json, sys; d = sys.argv[1]; t = datasets.load_dataset(d, split='test'); "
             "tr = datasets.load_dataset(d, split='train'); trn = datasets.load_dataset(d, 'trainer', split='train'); d3 = datasets.load_dataset(d, 'depth_3', split='test'); "
             "print(json.dumps(dict(n=len(t), train=len(tr), trainer_cols=trn.column_names, d3=len(d3), cols=t.column_names, id0=t[0]['id'], "
             "tree0=json.loads(t[0]['tree']), wit=t[0]['witness'], depths=sorted(set(t['depth'])))))")
    r = _run([sys.executable, "-c", probe, tmp_path / "ds"], tmp_path)
    assert "Ignoring part of dataset_info" not in r.stderr and "malformed" not in r.stderr, r.stderr   # the card's splits are valid
    got = json.loads(r.stdout.strip().splitlines()[-1])
    bench = load_bench(SHIPPED)
    assert got["n"] == N_SHIPPED == len(bench) and got["train"] == 12 and {"messages", "ground_truth", "reward_model"} <= set(got["trainer_cols"])
    assert got["d3"] == sum(b["depth"] == 3 for b in bench) and got["depths"] == sorted({b["depth"] for b in bench})
    assert got["id0"] == bench[0]["id"] and got["tree0"] == bench[0]["tree"] and got["wit"] == witness_response(bench[0]["tree"])
    assert {"prompt", "tree", "witness", "depth", "constraint_ids"} <= set(got["cols"])
    card = (tmp_path / "ds" / "README.md").read_text()
    assert "license: apache-2.0" in card and "@article{mao2026ifhierbench" in card and "witness" in card


def test_report_compare_two_offline_answerers(tmp_path):
    from ifhier.run.runner import run_benchmark
    bench = load_bench(SHIPPED)[::20]
    write_jsonl(bench, tmp_path / "bench.jsonl")
    for name, d in (("witness", "a"), ("one-slip (synthetic)", "b")): run_benchmark(name, bench, tmp_path / d, progress=False)
    code, out, err = call("report", tmp_path / "a", tmp_path / "b", "--compare", "--bench", tmp_path / "bench.jsonl",
                          "--out", tmp_path / "rep", "--n-boot", 300)
    assert code == 0, err
    for s in ("(A) vs", "### Prompt-level", "### Node-level", "### Instruction-level", "node_kind=json", "node_depth=1",
              "A − B (points)", "Nodes where the two differ"):
        assert s in out, s
    overall = [l for l in out.splitlines() if l.startswith("| overall |")]
    assert len(overall) == 4 and all("[+" in l for l in overall)                  # every level, and the wording table: a positive difference with its CI
    import pandas as pd
    cmp = pd.read_csv(tmp_path / "rep" / "compare.csv")
    node = cmp[(cmp.level == "node") & (cmp.group == "overall")].iloc[0]
    assert node.a_rate == 1.0 and node.b_only == 0 and node.a_only > 0 and 0 < node.ci_low <= node["diff"] <= node.ci_high and node.p_val < 0.05
    dis = pd.read_csv(tmp_path / "rep" / "disagreements.csv")
    assert len(dis) == node.a_only and set(dis.a) == {"pass"} and set(dis.b) == {"fail"}
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Accuracy by number of constraints" in md and "| Offline answerer" in md and "middle" in md
    code, out, err = call("report", tmp_path / "a", "--compare", "--bench", tmp_path / "bench.jsonl", "--out", tmp_path / "rep2")
    assert code == 2 and "--compare takes exactly two runs" in err


CORE_FORBIDDEN = ("inspect_ai", "lm_eval", "datasets")


def _imports(py: Path) -> set:
    out = set()
    for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import): out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module: out.add(node.module.split(".")[0])
    return out


def test_core_never_imports_the_integrations():
    "Statically: only the inspect task module imports inspect_ai; no module imports lm_eval or datasets."
    pkg = ROOT / "ifhier"
    users = {str(p.relative_to(pkg)): sorted(_imports(p) & set(CORE_FORBIDDEN)) for p in pkg.rglob("*.py")}
    assert {k: v for k, v in users.items() if v} == {"integrations/inspect_task.py": ["inspect_ai"]}
    # and at run time: every other module imported, none of the three loaded
    mods = [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in pkg.rglob("*.py")
            if p.name != "_modidx.py" and p.name != "inspect_task.py"]
    code = (f"import importlib, sys\nfor m in {mods!r}: importlib.import_module(m)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {CORE_FORBIDDEN!r}))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **OFFLINE}, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout


def test_inspect_task_options_and_the_wise_task_run_end_to_end(witness_server, tmp_path):
    "`-T depth=2 -T profile=strict -T per_type=1` narrows the task and its metrics; `ifhier/wise_wording` runs and grades."
    from inspect_ai.log import read_eval_log
    # a GPT-5-named model makes inspect use OpenAI's Responses API, which a local server (vLLM's, say) may lack:
    # `-M responses_api=false` keeps it on chat completions, as the README says
    seen = len(witness_server.log)
    _run([BIN / "inspect", "eval", "ifhier/ifhierbench", "--model", "openai/gpt-5-witness", "--model-base-url", witness_server.url,
          "-M", "responses_api=false", "-T", "depth=2", "-T", "profile=strict", "-T", "per_type=1", "--log-dir", tmp_path / "a", "--display", "plain"], tmp_path)
    log = read_eval_log(str(next((tmp_path / "a").glob("*.eval"))))
    routes = {r["route"] for r in witness_server.log[seen:]}
    assert routes == {"/v1/chat/completions"}, routes
    m = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    assert log.status == "success" and m["prompt_level_strict_acc"] == 1.0 and not any("loose" in k for k in m), m
    bench = {r["id"]: r for r in load_bench(SHIPPED)}
    ids = [s.id for s in log.samples]
    assert 0 < len(ids) < 150 and all(bench[i]["depth"] == 2 for i in ids)          # depth 2 only, and fewer than all of it
    _run([BIN / "inspect", "eval", "ifhier/wise_wording", "--model", "openai/witness-model", "--model-base-url", witness_server.url,
          "-T", "families=keyword_once", "--limit", LIMIT, "--log-dir", tmp_path / "w", "--display", "plain"], tmp_path)
    wlog = read_eval_log(str(next((tmp_path / "w").glob("*.eval"))))
    wm = {k: v.value for k, v in wlog.results.scores[0].metrics.items()}
    assert wlog.status == "success" and 0.0 <= wm["compliance"] <= 1.0 and any(k.startswith("compliance_") for k in wm), wm
    assert {s.metadata["family"] for s in wlog.samples} == {"keyword_once"} and len(wlog.samples) == LIMIT
