"""`ifhier prepare` against a real OpenAI-compatible HTTP server on 127.0.0.1 (started by the test, no network)."""
import json, os, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import pytest
from ifhier.run.prepare import prepare_tasks, read_raw

FIX = Path(__file__).resolve().parent.parent / "nbs" / "fixtures"
RAW = FIX / "prepare_raw.jsonl"
ANSWERS = json.loads((FIX / "prepare_answers.json").read_text())
PROMPTS = {r["prompt"]: str(r["source_key"]) for r in read_raw(RAW)}
KEY = "sk-test"


class Fake(BaseHTTPRequestHandler):
    "A tiny /v1/chat/completions: answers each raw prompt with its fixture answer; fails on request."
    hits, auth, bodies, fail = [], set(), [], {}     # fail: key -> list of (status, body) served first

    def log_message(self, *a): pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        key = next(k for p, k in PROMPTS.items() if p in body["messages"][1]["content"])
        Fake.hits.append(key); Fake.bodies.append(body); Fake.auth.add(self.headers.get("Authorization"))
        if self.path != "/v1/chat/completions": return self._send(404, {"error": {"message": "no route"}})
        if Fake.fail.get(key): return self._send(*Fake.fail[key].pop(0))
        msg = {"role": "assistant", "content": json.dumps(ANSWERS[key])}
        self._send(200, {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                         "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}})

    def _send(self, code, obj, headers=None):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items(): self.send_header(k, v)
        self.end_headers(); self.wfile.write(data)


@pytest.fixture
def server(monkeypatch):
    for v in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"): monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    Fake.hits, Fake.auth, Fake.bodies, Fake.fail = [], set(), [], {}
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Fake)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown(); srv.server_close()


def test_local_openai_compatible_server(tmp_path, server):
    Fake.fail["9002"] = [(500, {"error": {"message": "upstream overloaded"}})]         # one 5xx, then fine
    Fake.fail["pdab0fa61ee82"] = [(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}})]
    out = tmp_path / "seed.jsonl"
    df = prepare_tasks(RAW, out, "openai/fake", api_base=server, concurrency=2, api_key=KEY, retries=2, backoff_s=0.01)
    st = df.set_index("source_key").status.to_dict()
    assert st == {9001: "prepared", 9002: "prepared", "pdab0fa61ee82": "error"}
    assert Fake.auth == {f"Bearer {KEY}"}                                  # the key did reach the server ...
    assert sorted(Fake.hits) == ["9001", "9002", "9002", "pdab0fa61ee82"]  # 5xx retried once by us, 401 final
    assert Fake.bodies[0]["response_format"] == {"type": "json_object"} and Fake.bodies[0]["model"] == "fake"
    recs = [json.loads(l) for l in out.read_text().splitlines()]
    assert [r["task_id"] for r in recs] == ["prep-9001", "prep-9002"] and recs[0]["prep_model"] == "openai/fake"
    err = [json.loads(l) for l in (tmp_path / "seed.jsonl.errors.jsonl").read_text().splitlines()]
    assert err[0]["error"].startswith("AuthenticationError: ") and "\n" not in err[0]["error"]
    # ... and never appears in anything written (outputs, rejects, errors) nor in the report
    for p in tmp_path.iterdir(): assert KEY not in p.read_text(), p.name
    assert KEY not in df.to_string()
    # resume: the server is asked only about the prompt that failed
    Fake.hits = []
    df = prepare_tasks(RAW, out, "openai/fake", api_base=server, api_key=KEY, backoff_s=0.01)
    assert Fake.hits == ["pdab0fa61ee82"] and list(df.status) == ["skipped", "skipped", "prepared"]
    assert len(out.read_text().splitlines()) == 3


def test_the_runners_retry_loop_retry_after_and_fatal_4xx(tmp_path, server, monkeypatch):
    "prepare goes through the runner's retry loop: a 429's Retry-After is the wait, a 400 is final at once."
    import asyncio, ifhier.run.limits as limits
    waits, real = [], asyncio.sleep
    async def sleep(s, *a, **k):
        waits.append(s); return await real(0)
    monkeypatch.setattr(limits.asyncio, "sleep", sleep)
    Fake.fail["9001"] = [(429, {"error": {"message": "slow down"}}, {"Retry-After": "7"})]
    Fake.fail["9002"] = [(400, {"error": {"message": "bad request"}})]
    df = prepare_tasks(RAW, tmp_path / "seed.jsonl", "openai/fake", api_base=server, api_key=KEY, retries=3, backoff_s=1000)
    st = df.set_index("source_key").status.to_dict()
    assert st == {9001: "prepared", 9002: "error", "pdab0fa61ee82": "prepared"}
    assert 7.0 in waits                                                    # the server's Retry-After, not the 1000 s backoff
    assert sorted(Fake.hits) == ["9001", "9001", "9002", "pdab0fa61ee82"]  # the 400 was asked once
    assert df.set_index("source_key").loc[9002, "reason"].startswith("BadRequestError")
