"""Hostile data never loses work, never leaks a secret, never ends in a traceback (issue 22, items 3-5).

Against the local fake OpenAI server (tests/fake_openai.py): a provider answer holding a lone UTF-16 surrogate, a
`null` content, a server echoing a router deployment's key without "Bearer", nested `--config` secrets and URL
credentials. Then hostile files: response rows and manifests with impossible numbers, broken benchmark rows, outputs
that would land on inputs. Every refusal is one line on stderr and exit 2."""
import json, os, subprocess, sys
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from fake_openai import FakeOpenAI
from run_harness import KEY, ROOT, CLI, _no_proxy, _env   # noqa: F401 (fixtures)
from ifhier.cli import call
from ifhier.io import data_path

BENCH = [json.loads(l) for l in data_path("ifhierbench.jsonl").read_text(encoding="utf-8").splitlines()[:4]]


def _bench(tmp_path, recs=BENCH):
    p = tmp_path / "b.jsonl"; p.write_text("".join(json.dumps(r) + "\n" for r in recs)); return p


def _run(*argv):
    return subprocess.run(CLI + [str(a) for a in argv], capture_output=True, text=True, env=_env(), timeout=300)


def _one_line_refusal(code, err, *contains):
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("ifhier: error: ") and "Traceback" not in err, err
    for c in contains: assert c in err, err


def _files_text(d:Path)->str:
    return "".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(d.rglob("*")) if p.is_file())


@pytest.fixture
def serve():
    started = []
    def go(**kw):
        s = FakeOpenAI(**kw).start(); started.append(s); return s
    yield go
    for s in started: s.stop()


def test_lone_surrogate_is_stored_losslessly_and_rescored(tmp_path, serve):
    s = serve(answers=lambda p: "ok \ud83d answer")
    b, out = _bench(tmp_path), tmp_path / "run"
    p = _run("--model", "openai/m", "--api-base", s.url, "--bench", b, "--out", out)
    assert p.returncode == 0 and "complete: 4 answers, 0 errors" in p.stdout, p.stderr[-2000:]
    raw = (out / "responses.jsonl").read_bytes()
    raw.decode("utf-8")                                                      # valid UTF-8 throughout
    rows = [json.loads(l) for l in raw.decode().splitlines()]
    assert len(rows) == 4 and {r["raw"] for r in rows} == {"ok \ud83d answer"}            # lossless
    assert {r["response"] for r in rows} == {"ok \ufffd answer"} and all("surrogate" in r["note"] for r in rows)
    n = len(s.log)
    again = _run("--model", "openai/m", "--api-base", s.url, "--bench", b, "--out", out)
    assert again.returncode == 0 and len(s.log) == n                       # nothing asked twice
    code, o, err = call("score", "--bench", b, "--responses", out, "--out", tmp_path / "s.jsonl")
    assert code == 0 and "answered 4/4" in o, err
    code, o, err = call("explain", "--bench", b, "--responses", out, "--prompt-id", BENCH[0]["id"])
    assert code == 0 and BENCH[0]["id"] in o, err


def test_null_content_is_an_errored_row_and_retried(tmp_path, serve):
    s = serve(answers=lambda p: None)
    b, out = _bench(tmp_path), tmp_path / "run"
    p = _run("--model", "openai/m", "--api-base", s.url, "--bench", b, "--out", out)
    assert p.returncode == 0 and "0 answers, 4 errors" in p.stdout, p.stdout + p.stderr[-2000:]
    rows = [json.loads(l) for l in (out / "responses.jsonl").read_text().splitlines()]
    assert all(r["response"] is None and r["error"].startswith("EmptyResponse") for r in rows)
    assert json.loads((out / "manifest.json").read_text())["totals"]["errors"] == {"EmptyResponse": 4}
    n = len(s.log)
    s.answers = None                                                         # the provider recovers: the resume asks again
    again = _run("--model", "openai/m", "--api-base", s.url, "--bench", b, "--out", out)
    assert again.returncode == 0 and len(s.log) == n + 4 and "4 answers, 0 errors" in again.stdout, again.stdout
    code, o, err = call("score", "--bench", b, "--responses", out, "--out", tmp_path / "s.jsonl")
    assert code == 0 and "answered 4/4" in o, err


def test_null_content_from_an_old_file_counts_as_missing_everywhere(tmp_path):
    out = tmp_path / "run"; out.mkdir()
    (out / "responses.jsonl").write_text("".join(json.dumps(dict(prompt_id=r["id"], sample=0, response=None, error=None)) + "\n" for r in BENCH))
    code, o, err = call("score", "--bench", _bench(tmp_path), "--responses", out, "--out", tmp_path / "s.jsonl")
    assert code == 0 and "answered 0/4" in o and "4 rows errored" in o, o


def test_no_secret_reaches_any_file(tmp_path, serve):
    s = serve(); s.always = ("status", 401)                                 # a 401 echoes the key it got, without "Bearer"
    secrets = ["node2-pw-Zq81x", "tok-nested-77aa", "pw-Url-9931", KEY]
    (tmp_path / "router.yaml").write_text("model_list:\n  - model_name: m\n    litellm_params: {model: openai/m, api_base: %s, api_key: node2-pw-Zq81x}\n" % s.url)
    (tmp_path / "cfg.yaml").write_text("extra_body:\n  session_token: tok-nested-77aa\n  chat_template_kwargs: {enable_thinking: false}\n")
    b = _bench(tmp_path)
    p1 = _run("--model", "m", "--router", tmp_path / "router.yaml", "--bench", b, "--out", tmp_path / "r1", "--max-retries", "1")
    url = s.url.replace("http://", "http://user:pw-Url-9931@")
    p2 = _run("--model", "openai/m", "--api-base", url, "--config", tmp_path / "cfg.yaml", "--bench", b, "--out", tmp_path / "r2", "--max-retries", "1")
    s.always = ("status", 401); s3 = serve(); s3.always = ("status", 401)
    p3 = _run("--model", "openai/m", "--api-base", s3.url, "--bench", b, "--out", tmp_path / "r3", "--max-retries", "0")
    for p in (p1, p2, p3): assert p.returncode == 0, p.stderr[-2000:]
    assert any("incorrect API key provided" in s.get("error") or "" for s in map(json.loads, (tmp_path / "r1/responses.jsonl").read_text().splitlines()))
    for d, p in ((tmp_path / "r1", p1), (tmp_path / "r2", p2), (tmp_path / "r3", p3)):
        text = _files_text(d) + p.stdout + p.stderr
        assert [x for x in secrets if x in text] == [], d
    man = json.loads((tmp_path / "r2/manifest.json").read_text())
    assert man["parameters"]["extra"]["extra_body"] == {"session_token": "***", "chat_template_kwargs": {"enable_thinking": False}}
    assert man["api_base"] == [s.url.replace("http://", "http://***@")]


def test_a_row_that_cannot_be_stored_loses_nothing_else(tmp_path, monkeypatch):
    import ifhier.run.runner as runner
    real = runner.json_line
    def json_line(row):
        if row.get("prompt_id") == BENCH[1]["id"]: raise TypeError("cannot serialise this reply")
        return real(row)
    monkeypatch.setattr(runner, "json_line", json_line)
    man = runner.run_benchmark("witness", BENCH, tmp_path / "run", progress=False)
    rows = {r["prompt_id"]: r for r in map(json.loads, (tmp_path / "run/responses.jsonl").read_text().splitlines())}
    assert len(rows) == 4 and rows[BENCH[1]["id"]]["error"] == "StoreError: TypeError: cannot serialise this reply"
    assert all(rows[r["id"]]["error"] is None for r in BENCH if r["id"] != BENCH[1]["id"])
    assert (man["totals"]["answers"], man["totals"]["n_errors"]) == (3, 1)


def _run_dir(tmp_path, rows, manifest=None):
    d = tmp_path / "run"; d.mkdir(exist_ok=True)
    (d / "responses.jsonl").write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    if manifest is not None: (d / "manifest.json").write_text(json.dumps(manifest))
    return d


OK_ROWS = [dict(prompt_id=r["id"], sample=0, model="m", response="x", error=None) for r in BENCH]
MAN = dict(format="ifhier-run/1", model="m", parameters=dict(samples=1), n_prompts=4, status="complete", totals=dict(answers=4, n_errors=0))


@pytest.mark.parametrize("bad,manifest,message", [
    (dict(sample="abc"), MAN, "responses.jsonl:2: sample must be an integer >= 0, got 'abc'"),
    (dict(sample=[1]), MAN, "responses.jsonl:2: sample must be an integer >= 0, got [1]"),
    (dict(sample=5000), MAN, "responses.jsonl:2: sample 5000 is beyond the run's samples=1"),
    (dict(sample=5000), None, "responses.jsonl:2: sample 5000 in a file of 4 rows"),
    (dict(model={"name": "m"}), MAN, "responses.jsonl:2: model must be a string or null"),
    ({}, dict(MAN, samples="abc"), "manifest.json: samples must be an integer >= 1, got 'abc'"),
    ({}, dict(MAN, parameters=dict(samples=10000)), "manifest.json: samples=10000 but this complete run holds 4"),
    ({}, dict(model="m", samples=10000), "manifest.json: samples=10000 but its rows hold samples 0-0"),
    ({}, dict(MAN, parameters="x"), "manifest.json: parameters must be an object, got 'x'"),
])
def test_hostile_rows_and_manifests_refused_before_any_work(tmp_path, bad, manifest, message):
    rows = [OK_ROWS[0], dict(OK_ROWS[1], **bad), *OK_ROWS[2:]]
    d, b = _run_dir(tmp_path, rows, manifest), _bench(tmp_path)
    for argv in (("score", "--bench", b, "--responses", d, "--out", tmp_path / "s.jsonl"),
                 ("explain", "--bench", b, "--responses", d, "--prompt-id", BENCH[0]["id"])):
        _one_line_refusal(*call(*argv)[::2], message)
    assert not (tmp_path / "s.jsonl").exists()


def _deep_line(rec, levels=5000):
    return json.dumps(dict(rec, tree="@")).replace('"@"', '{"kind": "json", "via": null, "children": [' * levels + ']}' * levels)


@pytest.mark.parametrize("change,message", [
    (dict(tree="not a tree"), "b.jsonl:2: record ifhb-0001: tree must be a JSON object"),
    ("deep", "b.jsonl:2: JSON nested too deeply"),
    ("deep40", "b.jsonl:2: record ifhb-0001: bad tree: tree: nested deeper than 32 levels"),
    (dict(tree=dict(BENCH[1]["tree"], kind="table")), "b.jsonl:2: record ifhb-0001: bad tree: node $: unknown scope kind 'table'"),
    (dict(tree={"kind": "string", "via": None, "constraints": [{"id": "string.nope", "params": {}}], "children": []}, depth=0),
     "b.jsonl:2: record ifhb-0001: bad tree: node $: unknown constraint type 'string.nope'"),
    (dict(tree={"kind": "string", "via": None, "constraints": [{"id": "string.num_words", "params": {"rel": "about", "n": "x"}}], "children": []}, depth=0),
     "b.jsonl:2: record ifhb-0001: bad tree: node $: string.num_words"),
])
def test_broken_benchmark_refused_before_run_and_score(tmp_path, change, message):
    lines = [json.dumps(r) for r in BENCH]
    if change == "deep": lines[1] = _deep_line(BENCH[1])
    elif change == "deep40": lines[1] = _deep_line(BENCH[1], 40)
    else: lines[1] = json.dumps(dict(BENCH[1], **change))
    b = tmp_path / "b.jsonl"; b.write_text("\n".join(lines) + "\n")
    d = _run_dir(tmp_path, OK_ROWS, MAN)
    _one_line_refusal(*call("score", "--bench", b, "--responses", d, "--out", tmp_path / "s.jsonl")[::2], message)
    _one_line_refusal(*call("run", "--model", "witness", "--bench", b, "--out", tmp_path / "w")[::2], message)
    assert not (tmp_path / "w").exists() and not (tmp_path / "s.jsonl").exists()


def test_outputs_never_land_on_inputs(tmp_path):
    d = _run_dir(tmp_path, OK_ROWS, MAN); before = _files_text(d)
    _one_line_refusal(*call("run", "--model", "witness", "--bench", d / "responses.jsonl", "--out", d)[::2], "is also the input --bench")
    _one_line_refusal(*call("build", "--out", tmp_path / "b.jsonl", "--summary", tmp_path / "b.jsonl", "--per-depth", "1")[::2],
                      "--summary and --out are the same file")
    _one_line_refusal(*call("train-set", "--n", "2", "--out", tmp_path / "t.parquet", "--parquet", tmp_path / "t.parquet")[::2],
                      "--parquet and --out are the same file")
    (tmp_path / "raw.jsonl").write_text('{"key": 1, "prompt": "x"}\n')
    _one_line_refusal(*call("prepare", "--raw", tmp_path / "raw.jsonl", "--out", tmp_path / "raw.jsonl", "--model", "openai/m")[::2])
    os.symlink(d, tmp_path / "alias")
    _one_line_refusal(*call("run", "--model", "witness", "--bench", tmp_path / "alias" / "responses.jsonl", "--out", d)[::2], "is also the input")
    b = _bench(tmp_path)
    _one_line_refusal(*call("score", "--bench", b, "--responses", d, "--out", d / "responses.jsonl")[::2], "is the responses.jsonl of the input run directory")
    _one_line_refusal(*call("score", "--bench", b, "--responses", d / "responses.jsonl", "--out", d / "manifest.json")[::2],
                      "is also the input --responses manifest")
    side = tmp_path / "s.summary.json"; side.write_text(b.read_text())   # a benchmark where score's sidecar would go
    _one_line_refusal(*call("score", "--bench", side, "--responses", d, "--out", tmp_path / "s.csv")[::2],
                      "--out summary", "is also the input --bench")
    _one_line_refusal(*call("report", d, "--bench", b, "--out", d)[::2], "is also the input RUN_DIR")
    assert _files_text(d) == before


def test_torn_line_warns_in_one_line(tmp_path):
    d = _run_dir(tmp_path, OK_ROWS + ['{"prompt_id": "ifhb-0000", "sam'], MAN)
    (d / "responses.jsonl").write_text((d / "responses.jsonl").read_text().rstrip("\n"))
    p = subprocess.run([sys.executable, "-c", "import sys; from ifhier.cli import main; sys.exit(main())", "score", "--bench", str(_bench(tmp_path)),
                        "--responses", str(d), "--out", str(tmp_path / "s.jsonl")], capture_output=True, text=True, env=_env())
    assert p.returncode == 0, p.stderr
    warn = [l for l in p.stderr.splitlines() if "truncated" in l]
    assert warn == [f"ifhier: warning: {d / 'responses.jsonl'}:5: ignoring a truncated last line"], p.stderr
    assert "warnings.warn" not in p.stderr and "UserWarning" not in p.stderr


def test_score_table_beside_the_answers_is_fine_but_not_over_them(tmp_path):
    "The README's `--out runs/m/scores.csv` keeps working; the run's own files are protected (wise grade here; score: see the report)."
    d, b = _run_dir(tmp_path, OK_ROWS, MAN), _bench(tmp_path)
    code, o, err = call("score", "--bench", b, "--responses", d, "--out", d / "scores.csv")
    assert code == 0, err
    from ifhier.io import refuse_overlap, InputError
    for name in ("responses.jsonl", "manifest.json", ".lock"):
        with pytest.raises(InputError, match=f"is the {name} of the input run directory"):
            refuse_overlap({"--responses": d}, {"--out": d / name})
