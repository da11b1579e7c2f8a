"""Runner units with litellm's `mock_response` (no server): parameters reach litellm, reasoning, cost, final 4xx, limits."""
import asyncio, json, os
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from ifhier.cli import main
from ifhier.run.runner import run_benchmark, read_responses, RunError
from ifhier.run.client import litellm_module as _litellm

litellm = _litellm()


def _bench(tmp_path, n=3):
    p = tmp_path / "b.jsonl"
    p.write_text("".join(json.dumps(dict(id=f"q{i}", prompt=f"question {i}")) + "\n" for i in range(n))); return p


@pytest.fixture
def calls(monkeypatch):
    "Record every `litellm.acompletion` call (then let litellm answer it with `mock_response`)."
    seen, real = [], litellm.acompletion
    async def spy(**kw):
        seen.append(kw)
        if isinstance(kw.get("mock_response"), Exception): raise kw["mock_response"]
        return await real(**kw)
    monkeypatch.setattr(litellm, "acompletion", spy)
    return seen


def _rows(out): return sorted(read_responses(Path(out) / "responses.jsonl").values(), key=lambda r: r["prompt_id"])


def test_parameters_reach_litellm(tmp_path, calls):
    cfg = tmp_path / "cfg.yaml"; cfg.write_text("mock_response: fine\ntop_p: 0.9\nextra_body: {chat_template_kwargs: {enable_thinking: false}}\n")
    code = main(["run", "--model", "openai/gpt-4o-mini", "--bench", str(_bench(tmp_path)), "--out", str(tmp_path / "r"),
                 "--temperature", "0.3", "--max-tokens", "77", "--reasoning-effort", "low", "--system", "Be brief.",
                 "--config", str(cfg), "--timeout", "9"])
    assert code == 0 and len(calls) == 3
    kw = calls[0]
    assert (kw["temperature"], kw["max_tokens"], kw["reasoning_effort"], kw["top_p"], kw["timeout"]) == (0.3, 77, "low", 0.9, 9.0)
    assert kw["extra_body"] == {"chat_template_kwargs": {"enable_thinking": False}}
    assert kw["num_retries"] == 0 and kw["max_retries"] == 0                  # litellm and the SDK never retry on their own
    assert kw["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "question 0"}]
    man = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert man["parameters"]["extra"]["top_p"] == 0.9 and man["parameters"]["reasoning_effort"] == "low"
    assert set(man["versions"]) == {"ifhier", "litellm", "python"} and man["synthetic"] is False


def test_defaults_are_not_sent(tmp_path, calls):
    run_benchmark("openai/gpt-4o-mini", _bench(tmp_path, 1), tmp_path / "r", extra=dict(mock_response="x"), progress=False)
    assert not {"temperature", "max_tokens", "reasoning_effort"} & set(calls[0])


@pytest.mark.parametrize("content,response,reasoning", [
    ("<think>count first</think>\nFour words right here.", "Four words right here.", "count first"),
    ("<think>ran out of budget while", "", "ran out of budget while"),            # unclosed: no visible answer
    ("no reasoning at all", "no reasoning at all", None)])
def test_think_is_moved_out(tmp_path, content, response, reasoning):
    run_benchmark("openai/gpt-4o-mini", _bench(tmp_path, 1), tmp_path / "r", extra=dict(mock_response=content), progress=False)
    r = _rows(tmp_path / "r")[0]
    assert (r["response"], r["reasoning"], r["raw"]) == (response, reasoning, None if response == content else content)


def test_cost_known_and_unknown(tmp_path):
    run_benchmark("openai/gpt-4o-mini", _bench(tmp_path, 2), tmp_path / "a", extra=dict(mock_response="x"), progress=False)
    assert all(r["cost_usd"] > 0 for r in _rows(tmp_path / "a"))
    man = run_benchmark("openai/not-a-priced-model", _bench(tmp_path, 2), tmp_path / "b", extra=dict(mock_response="x"), progress=False)
    assert all(r["cost_usd"] is None for r in _rows(tmp_path / "b"))                # unknown, never a made-up 0
    assert man["totals"]["cost_usd"] is None and man["totals"]["cost_unknown"] == 2


def test_non_retryable_4xx_recorded_once(tmp_path, calls):
    err = litellm.AuthenticationError(message="Incorrect API key provided: sk-live-abcdefgh12345678", llm_provider="openai", model="gpt-4o-mini")
    man = run_benchmark("openai/gpt-4o-mini", _bench(tmp_path, 2), tmp_path / "r", extra=dict(mock_response=err), progress=False)
    rows = _rows(tmp_path / "r")
    assert len(calls) == 2 and [r["attempts"] for r in rows] == [1, 1]
    assert rows[0]["error"].startswith("AuthenticationError: ") and "abcdefgh12345678" not in rows[0]["error"]
    assert man["totals"]["errors"] == {"AuthenticationError": 2}
    ctx = litellm.ContextWindowExceededError(message="too long", model="gpt-4o-mini", llm_provider="openai")
    run_benchmark("openai/gpt-4o-mini", _bench(tmp_path, 1), tmp_path / "c", extra=dict(mock_response=ctx), progress=False)
    assert _rows(tmp_path / "c")[0]["attempts"] == 1


def test_max_cost_stops_launching(tmp_path):
    man = run_benchmark("openai/gpt-4o-mini", _bench(tmp_path, 5), tmp_path / "r", extra=dict(mock_response="x"),
                        concurrency=1, max_cost=1e-12, progress=False)
    assert man["status"] == "max_cost" and man["totals"]["answers"] == 1 and "max-cost" in man["stopped"]


def test_limit_samples_and_synthetic(tmp_path):
    from ifhier.io import data_path
    bench = data_path("ifhierbench.jsonl")
    for name in ("witness", "root-only", "no-format", "one-slip", "wrong-scope"):
        man = run_benchmark(name, bench, tmp_path / name, limit=4, samples=2, progress=False)
        assert man["synthetic"] and man["label"] == "offline responder, not a model" and man["totals"]["answers"] == 8, name
    more = run_benchmark("witness", bench, tmp_path / "witness", limit=6, samples=2, progress=False)   # grows a run: only the new ones
    assert more["requested"] == 4 and more["totals"]["answers"] == 12


@pytest.mark.parametrize("kw,msg", [(dict(concurrency=0), "--concurrency"), (dict(samples=0), "--samples"),
                                    (dict(max_retries=-1), "--max-retries"), (dict(timeout=0), "--timeout"),
                                    (dict(max_cost=-1), "--max-cost")])
def test_out_of_range_refused(tmp_path, kw, msg):
    with pytest.raises(RunError, match=msg): run_benchmark("witness", _bench(tmp_path), tmp_path / "r", **kw)


def test_cli_refuses_out_of_range(tmp_path, capsys):
    for opt in ("--concurrency", "--samples", "--max-tokens", "--limit"):
        with pytest.raises(SystemExit) as e: main(["run", "--model", "witness", "--bench", "b", "--out", "o", opt, "0"])
        assert e.value.code == 2 and f"argument {opt}: 0 is not a positive integer" in capsys.readouterr().err
    with pytest.raises(SystemExit): main(["run", "--model", "witness", "--bench", "b", "--out", "o", "--temperature", "-1"])
    assert "argument --temperature" in capsys.readouterr().err
