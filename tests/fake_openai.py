"""A local OpenAI-compatible `/v1/chat/completions` for runner tests and benchmarks (stdlib only, 127.0.0.1).

Each answer is `answer_for(prompt)` (a hash of the prompt), so every answer is checkable. Faults are scripted:
`plan[substring] = [fault, ...]` serves those faults (in order) to requests whose prompt contains `substring`;
`storm_until = time` / `storm_n = N` answer every request (until then / the next N) with 429 + Retry-After; `always = fault` fails everything.
`answers = {prompt: text}` (or a function of the prompt) answers those prompts with that text instead, e.g. each prompt's witness.
A fault is ("status", code, retry_after) | ("stall", seconds) | ("malformed",). Every request is logged."""
import hashlib, json, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def answer_for(prompt: str) -> str:
    return "ANSWER " + hashlib.sha256(prompt.encode()).hexdigest()[:12]


def _text(content) -> str:
    "A message's content as text: a string, or the text parts of a list of content parts."
    if isinstance(content, list): return "".join(c.get("text", "") for c in content if isinstance(c, dict))
    return content or ""


def _user_text(body: dict) -> str:
    "The last user message of a chat-completions (`messages`) or Responses API (`input`) request."
    msgs = body.get("messages") or body.get("input") or []
    if isinstance(msgs, str): return msgs
    return next((_text(m.get("content")) for m in reversed(msgs) if isinstance(m, dict) and m.get("role") == "user"), "")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass

    def setup(self):   # headers and body go out in separate writes: without NODELAY, Nagle + delayed ACK add 40 ms
        super().setup(); self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_POST(self):
        srv = self.server.fake
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n)
        if len(raw) < n:                   # the client hung up mid-body (an interrupted run): nothing to answer
            srv.disconnects += 1; self.close_connection = True; return
        body = json.loads(raw or b"{}")
        prompt = _user_text(body)
        fault = srv.next_fault(prompt)
        route = self.path.rstrip("/")
        with srv.lock: srv.log.append(dict(prompt=prompt, time=time.time(), fault=fault and fault[0], body=body,
                                           auth=self.headers.get("Authorization"), route=route))
        if route not in ("/v1/chat/completions", "/v1/responses"): return self._send(404, {"error": {"message": "no route"}})
        make = srv.completion if route == "/v1/chat/completions" else srv.response
        if fault and fault[0] == "stall":
            time.sleep(fault[1]); fault = None
            try: return self._send(200, make(body, prompt))
            except OSError: return
        if fault and fault[0] == "malformed": return self._send(200, b'{"id": "x", "choices": [{"mess')
        if fault: return self._send(fault[1], {"error": {"message": f"injected {fault[1]}" + (  # a 401 echoes the key, as providers do
                                    f"; incorrect API key provided: {self.headers.get('Authorization', '')[7:]}" if fault[1] == 401 else ""), "type": "server_error"}},
                                    fault[2] if len(fault) > 2 else None)
        if srv.delay: time.sleep(srv.delay)
        self._send(200, make(body, prompt))

    def _send(self, code, obj, retry_after=None):
        data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(data)))
            if retry_after is not None: self.send_header("Retry-After", str(retry_after))
            self.end_headers(); self.wfile.write(data)
        except OSError: pass


class _Server(ThreadingHTTPServer):
    request_queue_size = 256    # the default backlog of 5 drops SYNs under concurrency

    def handle_error(self, request, client_address):
        "A client that hung up (an interrupted run closes its sockets) is recorded, not printed: it is the client's right."
        if isinstance(sys.exc_info()[1], ConnectionError): self.fake.disconnects += 1
        else: super().handle_error(request, client_address)


class FakeOpenAI:
    "Start with `FakeOpenAI().start()`; `url` is the api_base; `stop()` when done."
    def __init__(self, delay: float = 0.0, reasoning: bool = False, answers=None):
        self.delay, self.reasoning, self.lock, self.answers = delay, reasoning, threading.Lock(), answers
        self.log, self.plan, self.storm_until, self.always, self.retry_after, self.storm_n = [], {}, 0.0, None, 0.05, 0
        self.disconnects = 0   # requests whose client hung up before the answer was written

    def next_fault(self, prompt):
        with self.lock:
            if self.always: return self.always
            if time.time() < self.storm_until: return ("status", 429, self.retry_after)
            if self.storm_n > 0:
                self.storm_n -= 1; return ("status", 429, self.retry_after)
            for k, faults in self.plan.items():
                if k in prompt and faults: return faults.pop(0)
        return None

    def completion(self, body, prompt):
        text = self.answer(prompt)
        return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": body.get("model"),
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": 2, "total_tokens": len(prompt.split()) + 2}}

    def response(self, body, prompt):
        "A Responses API (`/v1/responses`) answer, as inspect_ai's openai provider asks for by default."
        text, n = self.answer(prompt), len(prompt.split())
        return {"id": "resp_fake", "object": "response", "created_at": 0, "status": "completed", "model": body.get("model"),
                "output": [{"type": "message", "id": "msg_fake", "status": "completed", "role": "assistant",
                            "content": [{"type": "output_text", "text": text, "annotations": []}]}],
                "parallel_tool_calls": False, "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None,
                "usage": {"input_tokens": n, "output_tokens": 2, "total_tokens": n + 2, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}

    def answer(self, prompt):
        "The text served for `prompt`: `answers` first (exact, then stripped), else `answer_for`."
        a = self.answers
        if callable(a): return a(prompt)
        if a is not None:
            for k in (prompt, prompt.strip()):
                if k in a: return a[k]
        return answer_for(prompt)

    def start(self):
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads, self.httpd.fake = True, self
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        return self

    def stop(self):
        self.httpd.shutdown(); self.httpd.server_close()

    def prompts(self, ok_only=False):
        with self.lock: return [r["prompt"] for r in self.log if not ok_only or r["fault"] is None]


if __name__ == "__main__":   # run standalone: python tests/fake_openai.py [delay] -> prints the URL, serves until killed
    import sys
    f = FakeOpenAI(float(sys.argv[1]) if len(sys.argv) > 1 else 0.0).start()
    print(f.url, flush=True)
    while True: time.sleep(3600)
