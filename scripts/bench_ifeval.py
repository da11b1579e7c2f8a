"""Benchmark the IFEval profile: score 541 synthetic IFEval-format answers, strict and loose, on one core.

`main()` writes a seeded synthetic input/response pair (every one of the 25 instruction ids, 1-3
instructions per prompt as in IFEval) to a temporary directory, scores it with
`ifhier.ifeval.score.score_ifeval` in both modes and prints answers per second. Model loading
(Punkt, langdetect profiles) is done once before timing and reported separately."""
from __future__ import annotations
import json, os, sys, tempfile, time
from pathlib import Path
import numpy as np

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

def main(n:int=541, seed:int=0):
    "Time strict and loose IFEval scoring of `n` synthetic answers on one core and print answers/second."
    if hasattr(os, "sched_setaffinity"): os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    from ifhier.ifeval.score import score_ifeval
    from ifhier.text import count_sentences, detect_language
    t0 = time.perf_counter(); count_sentences("Warm up. Now."); detect_language("warm up the language detector")
    print(f"model loading (Punkt + langdetect): {time.perf_counter() - t0:.2f} s")
    with tempfile.TemporaryDirectory() as d:
        inp, resp = make_pair(d, n, seed)
        for loose in (False, True):
            mode = "loose" if loose else "strict"
            t0 = time.perf_counter()
            rep = score_ifeval(inp, resp, Path(d) / f"{mode}.jsonl", loose=loose)
            dt = time.perf_counter() - t0
            acc = rep.set_index("level").loc[["prompt", "instruction"], "accuracy"].tolist()
            print(f"ifeval {mode}: {n} answers in {dt:.2f} s = {n / dt:.0f} answers/s "
                  f"(prompt-level {acc[0]:.3f}, instruction-level {acc[1]:.3f})")

if __name__ == "__main__": main()
