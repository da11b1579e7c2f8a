"""IFEval-format REWARD, per answer, beside IFEval's reference checker called the way open-instruct and verl call it.

The answers are the bench's 541 IFEval answers (`scripts/bench_ifeval.make_pair(folder, 541, 0)`: IFEval's 25
instruction ids, 1-3 per prompt), the same answers wrapped as a reasoning model sends them (a closed `<think>` and a
blank line before, a newline after), and, apart, the 24 answered prompts of `nbs/fixtures/ifeval_*.jsonl`. Each row is given to the reward
as the IFEval row it is (`instruction_id_list` + `kwargs`), and to `IfhierVerifier` as open-instruct's ground-truth
label text.

- **ifhier**, in this process: `reward(row, answer, mode="binary")` once per answer (the strict IFEval profile; the
  row's instructions are built on its first call and kept in the reward's task cache), `IfhierVerifier()(None,
  answer, label)` once per answer, and `reward_batch(rows, answers, mode="binary")` for the whole list, in this
  process (`time_limit=None`) and on the default guarded pool (a 10 s limit per answer, 2 workers).
- **the reference**, in a fresh process of the bench venv (`.bench-venv/`, made by `scripts/bench_ifeval.py`): the
  IFEval code lm-eval ships (`lm_eval/tasks/ifeval/instructions_registry.py`, Google's code), called per answer as
  open-instruct's `IFEvalVerifier` calls it (and verl's proposed IFEval reward, a copy of it): the answer is
  `remove_thinking_section(prediction)` (text after the last `</think>`, stripped), then for each instruction id the
  instruction is built from the registry, `build_description(**kwargs)` with the `None` kwargs dropped, and
  `check_following(answer)`; the answer's reward here is 1 when all pass. langdetect is seeded 0 (as the bench's
  reference driver does), so its verdicts are the same from run to run.

Each side is timed per answer (`perf_counter` around the one call) over `PASSES` passes; an answer's time is its
median over the passes, and p50 / p99 are over the answers. Throughput is answers / median pass time. Verdicts are
compared per answer (all pass) and per instruction, on the raw answer too (IFEval's own `evaluation_main` and lm-eval
check the answer as it is, unstripped), and every disagreement is printed with its cause. Nothing is asserted on time."""
import json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PASSES = int(os.environ.get("IFHIER_BENCH_REWARD_IFEVAL_PASSES", 5))

def _jsonl(path): return [json.loads(l) for l in Path(path).read_text(encoding="utf-8").splitlines() if l.strip()]

def _rows(inp:Path, resp:Path)->tuple[list, list]:
    "(IFEval rows, answers) of an input/responses pair, in input order; a prompt with no text answer is left out."
    by = {r["prompt"]: r["response"] for r in _jsonl(resp)}
    rows = [r for r in _jsonl(inp) if isinstance(by.get(r["prompt"]), str)]
    return rows, [by[r["prompt"]] for r in rows]

def _label(row:dict)->str:
    "open-instruct's ground-truth label for an IFEval row (the text its RLVR-IFeval rows carry)."
    return json.dumps([{"instruction_id": row["instruction_id_list"], "kwargs": row["kwargs"]}])

def _pcts(ts:list)->tuple[float, float]:
    "(p50, p99) of `ts`, in microseconds."
    q = statistics.quantiles(ts, n=100, method="inclusive")
    return 1e6 * q[49], 1e6 * q[98]

def _per_answer(call, items:list, passes:int)->dict:
    "Time `call(*item)` once per item, `passes` times: per-item median seconds, median pass seconds, first-pass seconds, results."
    per, totals, out = [[] for _ in items], [], None
    for _ in range(passes):
        got, t_pass = [], 0.0
        for k, it in enumerate(items):
            t0 = time.perf_counter(); r = call(*it); dt = time.perf_counter() - t0
            per[k].append(dt); t_pass += dt; got.append(r)
        totals.append(t_pass); out = out or got
    return dict(per=[statistics.median(p) for p in per], total=statistics.median(totals), first=totals[0], results=out)

# ---------------------------------------------------------------- the reference side (runs in the bench venv)
def remove_thinking_section(prediction:str)->str:
    "open-instruct's `remove_thinking_section`: the text after the last `</think>`, answer tags dropped, stripped."
    prediction = prediction.replace("<|assistant|>", "").strip()
    prediction = prediction.split("</think>")[-1]
    prediction = prediction.replace("<answer>", "").replace("</answer>", "")
    return prediction.strip()

def reference(inp:str, resp:str, passes:int)->dict:
    "In the bench venv: IFEval's checker per answer as open-instruct calls it; per-answer times and verdicts (JSON)."
    sys.path.insert(0, str(HERE))
    from ifeval_reference_driver import _load_reference
    _load_reference()                                   # lm_eval's ifeval modules, as installed; langdetect seeded 0
    from lm_eval.tasks.ifeval import instructions_registry
    REG = instructions_registry.INSTRUCTION_DICT
    def flags(ids, kwargs, prediction, answer):
        out = []
        for iid, args in zip(ids, kwargs):
            args = {k: v for k, v in (args or {}).items() if v is not None}
            inst = REG[iid](iid)
            inst.build_description(**args)
            out.append(bool(prediction.strip() and inst.check_following(answer)))
        return out
    def verifier(ids, kwargs, prediction):              # IFEvalVerifier.__call__, all instructions checked
        answer = remove_thinking_section(prediction)
        if not prediction or not answer: return [False] * len(ids)
        return flags(ids, kwargs, prediction, answer)
    rows, answers = _rows(Path(inp), Path(resp))
    items = [(r["instruction_id_list"], r["kwargs"], a) for r, a in zip(rows, answers)]
    for it in items[:50]: verifier(*it)                 # warm up: imports, langdetect profiles, Punkt
    t = _per_answer(verifier, items, passes)
    raw = [flags(ids, kws, a, a) for ids, kws, a in items]     # lm-eval / IFEval's evaluation_main: the answer unstripped
    return dict(per=t["per"], total=t["total"], first=t["first"], flags=t["results"], raw=raw)

# ---------------------------------------------------------------- this venv
def _run_reference(inp:Path, resp:Path, passes:int)->dict:
    import bench_ifeval
    py, data = bench_ifeval.reference_venv()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | {"NLTK_DATA": str(data)}
    r = subprocess.run([str(py), __file__, "--reference", str(inp), str(resp), str(passes)], capture_output=True, text=True, env=env)
    if r.returncode: raise RuntimeError(f"the reference failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    return json.loads(r.stdout.splitlines()[-1])

def _cause(row:dict, iid:str, ours:bool, ref:bool, raw:bool, answer:str)->str:
    "Why ifhier and the reference differ on one instruction, as far as the bench can tell."
    kw = dict(zip(row["instruction_id_list"], row["kwargs"])).get(iid) or {}
    if iid == "keywords:letter_frequency" and not (isinstance(kw.get("letter"), str) and len(kw["letter"]) == 1 and kw["letter"].isascii() and kw["letter"].isalpha()):
        return f"IFEval draws a RANDOM letter for letter={kw.get('letter')!r} (not a letter): its verdict changes from run to run; ifhier counts the character asked"
    if raw != ref: return "whitespace/think tags around the answer: open-instruct strips the answer (the reward does too), IFEval's evaluation_main checks it unstripped"
    if answer != answer.strip(): return "the answer has surrounding whitespace"
    return "not explained by the bench: look at this row"

def _compare(rows, answers, ours_vec, ref:dict)->dict:
    "Answer-level (all pass) and instruction-level agreement, against the reference as open-instruct calls it and on raw answers."
    out = dict(answers=len(rows), instructions=sum(len(r["instruction_id_list"]) for r in rows))
    for name, flags in (("open_instruct", ref["flags"]), ("raw", ref["raw"])):
        out[name] = dict(answers=sum(all(o) == all(f) for o, f in zip(ours_vec, flags)),
                         instructions=sum(a == b for o, f in zip(ours_vec, flags) for a, b in zip(o, f)))
    out["differ"] = [(k, row.get("key", k), iid, a, b, c, _cause(row, iid, a, b, c, ans))
                     for k, (row, ans, o, f, g) in enumerate(zip(rows, answers, ours_vec, ref["flags"], ref["raw"]))
                     for iid, a, b, c in zip(row["instruction_id_list"], o, f, g) if a != b or a != c]
    return out

def _ours(rows:list, answers:list, passes:int)->dict:
    from ifhier.reward import reward, reward_batch, IfhierVerifier
    from ifhier.reward.verify import _TASKS
    from ifhier.text import count_sentences, detect_language
    count_sentences("Warm up. Now."); detect_language("warm up the language detector")   # models load once, not timed
    _TASKS.clear()
    per = _per_answer(lambda r, a: reward(r, a, mode="binary"), list(zip(rows, answers)), passes)
    labels = [_label(r) for r in rows]
    v = IfhierVerifier(mode="binary")
    oi = _per_answer(lambda l, a: v(None, a, l).score, list(zip(labels, answers)), passes)
    vec = [[e["passed"] for e in reward(r, a, mode="vector")] for r, a in zip(rows, answers)]
    batch = {}
    for name, kw in (("in_process", dict(time_limit=None)), ("guarded_2", dict(workers=2))):
        ts = []
        for _ in range(max(1, passes // 2)):
            t0 = time.perf_counter(); got = reward_batch(rows, answers, mode="binary", **kw); ts.append(time.perf_counter() - t0)
        assert [float(x) for x in got] == [float(x) for x in per["results"]], f"reward_batch ({name}) and reward differ"
        batch[name] = statistics.median(ts)
    assert [float(x) for x in oi["results"]] == [float(x) for x in per["results"]], "IfhierVerifier and reward differ"
    return dict(per=per, verifier=oi, vec=vec, batch=batch)

def _report(label:str, key:str, rows:list, answers:list, passes:int, record)->None:
    n = len(rows)
    ours = _ours(rows, answers, passes)
    with tempfile.TemporaryDirectory() as d:
        inp, resp = Path(d) / "input.jsonl", Path(d) / "responses.jsonl"
        inp.write_text("".join(json.dumps(r) + "\n" for r in rows))
        resp.write_text("".join(json.dumps(dict(prompt=r["prompt"], response=a)) + "\n" for r, a in zip(rows, answers)))
        ref = _run_reference(inp, resp, passes)
    p, o = ours["per"], ours["verifier"]
    rate = lambda t: n / t
    print(f"{label}: {n} answers, {sum(len(r['instruction_id_list']) for r in rows)} instructions; per answer, median of {passes} passes")
    for name, t in (("ifhier reward(row, answer, mode='binary')", p), ("ifhier IfhierVerifier()(None, answer, label)", o),
                    ("reference, open-instruct's IFEvalVerifier call", ref)):
        p50, p99 = _pcts(t["per"])
        print(f"  {name:<48} {rate(t['total']):>8,.0f} answers/s  p50 {p50:>7,.0f} us  p99 {p99:>7,.0f} us"
              f"  (first pass {rate(t['first']):,.0f} answers/s)")
    for name, t in ours["batch"].items():
        what = "in this process, time_limit=None" if name == "in_process" else "guarded pool, 2 workers, 10 s limit per answer"
        print(f"  ifhier reward_batch(rows, answers), {what}: {rate(t):,.0f} answers/s")
    print(f"  -> reward() per answer is {ref['total'] / p['total']:.1f}x the reference's throughput; "
          f"p99 {_pcts(ref['per'])[1] / _pcts(p['per'])[1]:.1f}x lower")
    c = _compare(rows, answers, ours["vec"], ref)
    print(f"  agreement with the reference called as open-instruct does: {c['open_instruct']['answers']}/{n} answers (all pass), "
          f"{c['open_instruct']['instructions']}/{c['instructions']} instructions")
    print(f"  agreement with the reference on the raw answer (IFEval's evaluation_main, lm-eval): {c['raw']['answers']}/{n} answers, "
          f"{c['raw']['instructions']}/{c['instructions']} instructions")
    causes = {}
    for d in c["differ"]: causes.setdefault(d[-1], []).append(d)
    for why, ds in causes.items():
        print(f"    {len(ds)} instruction verdict(s) differ: {why}")
        for k, rk, iid, a, b, g, _ in ds[:3]: print(f"      e.g. answer {rk} ({iid}): ifhier {a}, open-instruct call {b}, raw {g}")
    record(f"reward_ifeval.{key}.reward_percall", round(rate(p["total"])), "answers/s", f"{n} IFEval answers, reward(row, answer) per answer")
    record(f"reward_ifeval.{key}.reward_p50", round(_pcts(p["per"])[0]), "us", None)
    record(f"reward_ifeval.{key}.reward_p99", round(_pcts(p["per"])[1]), "us", None)
    record(f"reward_ifeval.{key}.reference_percall", round(rate(ref["total"])), "answers/s", "IFEval's checker as open-instruct calls it")
    record(f"reward_ifeval.{key}.reference_p50", round(_pcts(ref["per"])[0]), "us", None)
    record(f"reward_ifeval.{key}.reference_p99", round(_pcts(ref["per"])[1]), "us", None)
    record(f"reward_ifeval.{key}.speedup", round(ref["total"] / p["total"], 1), "x", f"reward_ifeval.{key}.reference_percall")
    record(f"reward_ifeval.{key}.reward_batch_in_process", round(rate(ours["batch"]["in_process"])), "answers/s", None)
    record(f"reward_ifeval.{key}.agree_answers", c["open_instruct"]["answers"], "answers", f"of {n}")
    record(f"reward_ifeval.{key}.agree_instructions", c["open_instruct"]["instructions"], "instructions", f"of {c['instructions']}")

def main(passes:int=PASSES):
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    sys.path.insert(0, str(HERE))
    try: from benchout import record
    except ImportError: record = lambda *a, **k: None
    import bench_ifeval
    with tempfile.TemporaryDirectory() as d:
        rows, answers = _rows(*bench_ifeval.make_pair(d, 541, 0))
    _report("the bench's IFEval answers (bench_ifeval.make_pair, seed 0)", "bench541", rows, answers, passes, record)
    wrapped = [f"<think>Plan the answer.</think>\n\n{a}\n" for a in answers]
    _report("the same 541 answers as a reasoning model sends them ('<think>...</think>' + blank line before, a newline after)",
            "bench541_think", rows, wrapped, passes, record)
    fx = HERE.parent / "nbs" / "fixtures"
    _report("the fixture's IFEval answers (nbs/fixtures/ifeval_*.jsonl)", "fixture25", *_rows(fx / "ifeval_input.jsonl", fx / "ifeval_responses.jsonl"),
            passes, record)

if __name__ == "__main__":
    if sys.argv[1:2] == ["--reference"]:
        print(json.dumps(reference(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    else: main()
