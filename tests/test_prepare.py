"""Offline tests of `ifhier prepare` (LLM-assisted seed-task preparation) through litellm's `mock_response`."""
import argparse, asyncio, json, os, subprocess, sys
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from ifhier.run.prepare import prepare_tasks, read_raw, PROMPT_VERSION
from ifhier.cli import call

FIX = Path(__file__).resolve().parent.parent / "nbs" / "fixtures"
RAW = FIX / "prepare_raw.jsonl"
ANSWERS = json.loads((FIX / "prepare_answers.json").read_text())
PROMPTS = {r["prompt"]: str(r["source_key"]) for r in read_raw(RAW)}
SEED_FIELDS = ["task_id", "task", "context", "genre", "keywords", "formats"]
AUDIT_FIELDS = ["source_key", "removed_constraints", "prep_model", "prep_prompt_version"]
FAST = dict(retries=2, backoff_s=0.001)


def lines(p):
    p = Path(p)
    return [json.loads(l) for l in p.read_text().splitlines()] if p.exists() else []


@pytest.fixture
def fake(monkeypatch):
    """Patch `litellm.acompletion` so each call goes through litellm's own `mock_response` machinery with
    the next answer scripted for that raw prompt (str, or an Exception to raise); records every call."""
    import litellm
    real, calls, script = litellm.acompletion, [], {}

    async def acompletion(**kw):
        key = next(k for p, k in PROMPTS.items() if p in kw["messages"][1]["content"])
        calls.append((key, kw))
        todo = script.get(key)
        ans = todo.pop(0) if isinstance(todo, list) and len(todo) > 1 else (todo[0] if isinstance(todo, list) else todo)
        if ans is None: ans = json.dumps(ANSWERS[key])
        if isinstance(ans, Exception): raise ans
        return await real(**kw, mock_response=ans)

    monkeypatch.setattr(litellm, "acompletion", acompletion)
    return calls, script


def test_happy_path(tmp_path, fake):
    calls, _ = fake
    out = tmp_path / "seed.jsonl"
    df = prepare_tasks(RAW, out, "openai/fake-model", concurrency=3)
    assert list(df.status) == ["prepared"] * 3 and list(df.attempts) == [1, 1, 1]
    recs = lines(out)
    assert [r["source_key"] for r in recs] == [9001, 9002, "pdab0fa61ee82"]
    for r in recs:
        assert list(r) == SEED_FIELDS + AUDIT_FIELDS
        assert r["prep_model"] == "openai/fake-model" and r["prep_prompt_version"] == PROMPT_VERSION
        assert 12 <= len(r["keywords"]) <= 20 and "string" in r["formats"]
    assert recs[0]["removed_constraints"] == ANSWERS["9001"]["removed_constraints"]
    assert len(calls) == 3
    kw = calls[0][1]
    assert kw["response_format"] == {"type": "json_object"} and kw["seed"] == 0 and kw["max_retries"] == 0
    assert not (tmp_path / "seed.jsonl.rejects.jsonl").exists()


def test_invalid_then_valid_retry(tmp_path, fake):
    calls, script = fake
    bad = dict(ANSWERS["9001"], keywords=["park", "vote", "grant", "spring", "garden"])
    script["9001"] = [json.dumps(bad), None]
    df = prepare_tasks(RAW, tmp_path / "seed.jsonl", "openai/fake")
    assert df.set_index("source_key").loc[9001, "attempts"] == 2
    assert list(df.status) == ["prepared"] * 3
    retry = [kw for k, kw in calls if k == "9001"][1]["messages"]
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[2]["content"] == json.dumps(bad)
    assert "keywords must hold 12 to 20 items, got 5" in retry[3]["content"]


def test_reject_path(tmp_path, fake):
    calls, script = fake
    script["9002"] = ['{"task": "Write a cover letter.", "genre": "memo"}']      # invalid every time
    script["9001"] = ["Sure! Here is the JSON you asked for."]
    out = tmp_path / "seed.jsonl"
    df = prepare_tasks(RAW, out, "openai/fake")
    assert list(df.status) == ["rejected", "rejected", "prepared"]
    assert [r["source_key"] for r in lines(out)] == ["pdab0fa61ee82"]
    rej = lines(f"{out}.rejects.jsonl")
    assert [r["source_key"] for r in rej] == [9001, 9002]
    assert rej[0]["reason"].startswith("the reply is not JSON")
    assert "missing field(s)" in rej[1]["reason"] and rej[1]["prep_prompt_version"] == PROMPT_VERSION
    assert len(calls) == 5                                  # one retry each for the two rejects


def test_resume_never_pays_twice(tmp_path, fake):
    calls, script = fake
    out = tmp_path / "seed.jsonl"
    script["9002"] = ["{}"]
    prepare_tasks(RAW, out, "openai/fake")
    n, before = len(calls), out.read_bytes()
    df = prepare_tasks(RAW, out, "openai/fake")
    assert len(calls) == n == 4                              # second run: no calls at all
    assert list(df.status) == ["skipped"] * 3 and out.read_bytes() == before


def test_resume_after_kill(tmp_path, fake):
    calls, _ = fake
    out = tmp_path / "seed.jsonl"
    prepare_tasks(RAW, out, "openai/fake")
    first = out.read_text().splitlines()
    out.write_text(first[1] + "\n" + first[0][:40])          # killed mid-write: one record plus a torn line
    calls.clear()
    df = prepare_tasks(RAW, out, "openai/fake")
    assert sorted(k for k, _ in calls) == ["9001", "pdab0fa61ee82"]
    assert out.read_text().splitlines() == first            # repaired and back in input order
    assert list(df.status) == ["prepared", "skipped", "prepared"]


def test_backoff_then_error_recorded_and_retried_next_run(tmp_path, fake):
    import litellm
    calls, script = fake
    script["9001"] = ["litellm.RateLimitError"]               # litellm raises its own RateLimitError
    out = tmp_path / "seed.jsonl"
    df = prepare_tasks(RAW, out, "openai/fake", **FAST)
    row = df.set_index("source_key").loc[9001]
    assert row.status == "error" and row.reason.startswith("RateLimitError: ")
    assert "Traceback" not in row.reason and "\n" not in row.reason
    assert len([k for k, _ in calls if k == "9001"]) == 3    # 1 + 2 retries
    err = lines(f"{out}.errors.jsonl")
    assert err[0]["source_key"] == 9001 and "RateLimitError" in err[0]["error"]
    script["9001"] = None                                     # the provider recovers: only 9001 is asked again
    calls.clear()
    df = prepare_tasks(RAW, out, "openai/fake", **FAST)
    assert [k for k, _ in calls] == ["9001"] and list(df.status) == ["prepared", "skipped", "skipped"]


def test_non_retryable_error_is_final_and_redacted(tmp_path, fake):
    import litellm
    calls, script = fake
    secret = "sk-live-abcdef0123456789"
    script["9002"] = [litellm.AuthenticationError(message=f"Incorrect API key provided: {secret}",
                                                  llm_provider="openai", model="fake")]
    out = tmp_path / "seed.jsonl"
    df = prepare_tasks(RAW, out, "openai/fake", api_key=secret, **FAST)
    assert len([k for k, _ in calls if k == "9002"]) == 1
    row = df.set_index("source_key").loc[9002]
    assert row.status == "error" and row.reason.startswith("AuthenticationError: ")
    for p in tmp_path.iterdir(): assert secret not in p.read_text()
    assert secret not in df.to_string()


def test_bounded_concurrency(tmp_path, monkeypatch):
    import litellm
    raw = tmp_path / "raw.jsonl"
    raw.write_text("".join(json.dumps({"prompt": f"Write a short poem number {i} about rain."}) + "\n" for i in range(12)))
    state = dict(now=0, peak=0, n=0)
    real = litellm.acompletion

    async def slow(**kw):
        state["now"] += 1; state["n"] += 1; state["peak"] = max(state["peak"], state["now"])
        await asyncio.sleep(0.02)
        state["now"] -= 1
        return await real(**kw, mock_response=json.dumps(ANSWERS["pdab0fa61ee82"]))

    monkeypatch.setattr(litellm, "acompletion", slow)
    df = prepare_tasks(raw, tmp_path / "seed.jsonl", "openai/fake", concurrency=3)
    assert (df.status == "prepared").all() and state["n"] == 12 and state["peak"] == 3


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="concurrency must be at least 1"):
        prepare_tasks(RAW, tmp_path / "o.jsonl", "openai/fake", concurrency=0)
    with pytest.raises(ValueError, match="unknown prompt version"):
        prepare_tasks(RAW, tmp_path / "o.jsonl", "openai/fake", prompt_version="prepare_v0")


def test_cli(tmp_path, fake):
    out = tmp_path / "seed.jsonl"
    code, o, _ = call("prepare", "--raw", RAW, "--out", out, "--model", "openai/fake", "--concurrency", "2")
    assert code == 0 and o.startswith("prepared 3, skipped 0, rejected 0, provider errors 0 -> ")
    code, _, err = call("prepare", "--raw", tmp_path / "missing.jsonl", "--out", out, "--model", "m")
    assert (code, err) == (2, f"ifhier: error: {tmp_path / 'missing.jsonl'}: no such file\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prompt": "fine"}\n{"key": 3}\n')
    code, _, err = call("prepare", "--raw", bad, "--out", out, "--model", "m")
    assert (code, err) == (2, f"ifhier: error: {bad}:2: needs a non-empty string field 'prompt'\n")


def test_import_does_not_import_litellm():
    code = "import sys, ifhier.run.prepare; print('litellm' in sys.modules)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"


def test_works_inside_a_running_event_loop(tmp_path, fake):
    async def notebook_cell():     # Jupyter runs cells inside an event loop; asyncio.run would refuse
        return prepare_tasks(RAW, tmp_path / "seed.jsonl", "openai/fake")
    assert list(asyncio.run(notebook_cell()).status) == ["prepared"] * 3

def test_resume_keeps_records_with_unicode_line_separators(tmp_path):
    "U+2028 inside a JSON string is not a line break: such a record must survive a resume."
    from ifhier.run.prepare import _load
    out = tmp_path / "tasks.jsonl"
    rec = {"source_key": "1", "task": "Write a poem.\u2028Then stop.", "context": None}
    out.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    assert _load(out) == [rec]
    assert json.loads(out.read_text(encoding="utf-8")) == rec
