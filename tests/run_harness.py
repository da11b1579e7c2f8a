"""What the runner's end-to-end tests share: the fake key, the CLI as a subprocess, a local fake OpenAI server,
a proxy-free environment and a small benchmark. Imported by those tests (pytest picks up the fixtures)."""
import json, os, sys
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from fake_openai import FakeOpenAI

KEY = "sk-test-SECRET123"
ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "import sys; from ifhier.cli import main; sys.exit(main())", "run"]


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for v in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"): monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost"); monkeypatch.setenv("OPENAI_API_KEY", KEY)


@pytest.fixture
def server():
    s = FakeOpenAI().start(); yield s; s.stop()


def _bench(path, n):
    recs = [dict(id=f"p{i:02d}", prompt=f"Prompt number {i}: write about topic {i}.") for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs)); return recs


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
