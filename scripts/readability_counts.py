#!/usr/bin/env python
"""Count the reading problems of issue 17 over a built benchmark (default: the shipped one).

Each count reads the prompt text or the tree it was rendered from (and the structure vocabulary), never the
sampler, so it cannot agree with it by construction. `tests/test_readability.py` asserts each one.

    python scripts/readability_counts.py [BENCH.jsonl] [--witness]
"""
import argparse, json, re, sys
from collections import Counter
from pathlib import Path
from ifhier.tree import ConstraintNode, iter_nodes
from ifhier.registry import place_of
from ifhier.bench.vocab import load_vocab, genre_vocab

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "ifhier" / "data" / "ifhierbench.jsonl"
OPENERS = {"json.has_keys": "keys", "markdown.has_heading": "headings", "labeled.has_labels": "labels"}
COUNTS_OF = {"json": "json.key_count", "markdown": "markdown.heading_count", "labeled": "labeled.section_count"}
CLASH = {"string.quotation", "string.bullet_list", "string.section_checker", "string.num_paragraphs",
         "string.nth_paragraph_first_word", "string.title", "string.postscript"}
STRUCTURE_WORDS = {"title", "titles", "heading", "headings", "section", "sections", "paragraph", "paragraphs", "item", "items",
                   "key", "keys", "label", "labels", "bullet", "bullets", "list", "field", "value", "chapter", "part", "note",
                   "p.s.", "postscript", "subject", "greeting", "header"}
COUNT_PARAMS = {"n", "min_chars", "max_chars"}
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'd|I'll|I've|[Mm]e|[Mm]y|[Ww]e|[Ww]e're|[Ww]e'd|[Ww]e'll|[Oo]ur|us)\b")

def constraint_text(prompt:str, task:dict|None=None)->str:
    "The prompt without its task sentence and context (the constraint paragraphs)."
    paras = prompt.split("\n\n")
    skip = 1 + bool(task and task.get("context"))
    return "\n\n".join(paras[skip:])

def _sentences(text:str)->list:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'])", text.replace("\n\n", " ")) if s.strip()]

def _lexical_words(cid, p):
    from ifhier.registry import get_type
    out = []
    for n, prm in get_type(cid).params.items():
        if getattr(prm, "lexical", False) and not getattr(prm, "vocab", "") and n in p:
            v = p[n]
            out += list(prm.words(v)) if hasattr(prm, "words") else [v] if isinstance(v, str) else [x for x in v if isinstance(x, str)]
    return out

def _round(n:int)->bool: return n % 5 == 0 if n < 50 else (n % 10 == 0 or n % 25 == 0)

_UNIT = r"(?:item \d+|the value of key ['\"][^'\"]+['\"]|the section (?:under heading|labeled) ['\"][^'\"]+['\"])"
_CHAIN = re.compile(_UNIT + r"(?: of " + _UNIT + r")+(?: of the response)?|" + _UNIT + r" of the response")

def counts(recs:list, tasks:dict|None=None, witnesses:dict|None=None)->dict:
    "Every count of issue 17 over `recs` (benchmark records); `witnesses` (id -> answer) adds the padding count."
    vocab, c = load_vocab(), Counter()
    rounds, nums, ranges, wide, words_max, openings, nsent = 0, 0, 0, 0, 0, Counter(), 0
    for r in recs:
        t = (tasks or {}).get(r["task_id"])
        vs = list(iter_nodes(ConstraintNode.from_json(r["tree"])))
        gv = genre_vocab(vocab, r["genre"])
        text = constraint_text(r["prompt"], t)
        # 1 identifiers in two quote styles
        ids = [x for v in vs for cid, p in v.node.constraints if cid in OPENERS for x in p[OPENERS[cid]]]
        if any(f'"{i}"' in r["prompt"] and f"'{i}'" in r["prompt"] for i in ids): c["quote_styles_mixed"] += 1
        # 2 value-type sentence
        vt = re.search(r"unless (?:stated otherwise|a different format is given)|values are text|value is a string", r["prompt"])
        if vt: c["value_type_sentence"] += 1
        nonstr = any(v.node.kind == "json" and any(ch.kind != "string" for ch in v.node.children) for v in vs)
        if vt and not nonstr: c["value_type_sentence_nothing_below"] += 1
        # 3 "bulleted list or a JSON array" for a JSON value / array item
        if any(v.node.kind == "array" and v.parent is not None and v.parent.kind in ("json", "array") for v in vs) \
                and re.search(r"bullet(?:ed list| points)? or a JSON array", r["prompt"]):
            c["list_or_array_in_json"] += 1
        for v in vs:
            cids = [cid for cid, _ in v.node.constraints]
            # 4 two count sentences for one list; counts the named parts imply; unnamed required parts
            if "array.length" in cids and "array.elements_at" in cids and re.search(r"at least \d+ items?\b", r["prompt"]) \
                    and re.search(r"\b(?:elements?|entries|entry|items?)\b", r["prompt"]): c["two_counts_one_list"] += 1
            named = next((len(p[OPENERS[cid]]) for cid, p in v.node.constraints if cid in OPENERS), 0)
            for cid, p in v.node.constraints:
                if cid in COUNTS_OF.values():
                    lo = {"exactly": p["n"], "at least": p["n"], "more than": p["n"] + 1}.get(p["rel"], 0)
                    hi = {"exactly": p["n"], "at most": p["n"], "less than": p["n"] - 1}.get(p["rel"], 10**9)
                    if named and lo <= named and hi >= 10**9: c["count_implied_by_names"] += 1
                    if lo - named >= 3: c["unnamed_required_3plus"] += 1
            # 6 short fields as containers, pairs that do not fit
            name = next(iter((v.node.via or {}).values()), None)
            if isinstance(name, str) and v.node.kind != "string":
                if name in gv["short"]: c["short_field_container"] += 1
                if v.node.kind not in gv["holds"].get(name, ()): c["child_does_not_fit_parent"] += 1
            # 7 constraints that clash with their container
            pl = place_of(v.node.via)
            if pl in ("value", "item") and set(cids) & CLASH and not (isinstance(name, str) and name in gv["long"]):
                c["clash_with_container"] += 1
            # 8 structure words as content
            for cid, p in v.node.constraints:
                ws = [w.casefold() for w in _lexical_words(cid, p)]
                names = {n.casefold().replace("_", " ") for role in ("key", "heading", "label") for n in gv[role]}
                if any(w in STRUCTURE_WORDS or w in names for w in ws): c["structure_word_as_content"] += 1
            # 10 numbers
            for cid, p in v.node.constraints:
                for k, x in p.items():
                    if k in COUNT_PARAMS and isinstance(x, int) and x >= 10: nums += 1; rounds += _round(x)
                if cid == "string.string_length":
                    ranges += 1
                    if p["max_chars"] > 3 * p["min_chars"] or not (_round(p["min_chars"]) and _round(p["max_chars"])): wide += 1
        chains = [m.group() for m in _CHAIN.finditer(r["prompt"])]
        if any(ch.count(" of ") - sum(u.count(" of ") for u in re.findall(r"the value of key", ch)) >= 3 or
               ch.count(" of ") >= 4 for ch in chains): c["alias_chain_3plus"] += 1
        c["keep_to_more_than"] += len(re.findall(r"\bKeep\b[^.]{0,80}\bto (?:more than|at least)\b", text))
        c["less_than_twice"] += len(re.findall(r"\b(?:less|fewer) than twice\b", text))
        c["more_than_n_minus_1"] += len(re.findall(r"\bmore than (\d*9)\b", text))
        c["deeper_heading_wording"] += "one level deeper than" in text
        paras = [len(p.split()) for p in text.split("\n\n")]
        words_max = max(words_max, *paras)
        c["constraint_paragraph_200plus"] += sum(w >= 200 for w in paras)
        if r["depth"] == 3: c.setdefault("_d3_words", []).append(len(text.split()))
        for s in _sentences(text):
            openings[" ".join(s.split()[:2]).casefold()] += 1; nsent += 1
        # audience and purpose: the prompt (its context left out) speaks in the first person, asks a question
        own = r["prompt"].replace(t["context"], "") if t and t.get("context") else r["prompt"]
        c["first_person"] += bool(FIRST_PERSON.search(own))
        c["question"] += bool(re.search(r"\?(?:\s|$)", own))
        # woven format: the root format named in the task paragraph
        first = r["prompt"].split("\n\n")[0]
        if r["tree"]["kind"] != "string" and re.search(r"JSON|Markdown|list|labeled|bullet|heading|section", first) and \
                not (t and re.search(r"JSON|Markdown|list|labeled|bullet|heading|section", t["task"])): c["root_format_woven"] += 1
        if witnesses and re.search(r'"note_\d+"|^#* ?Note \d+|\nNote \d+:', witnesses.get(r["id"], ""), re.M): c["witness_note_padding"] += 1
    d3 = c.pop("_d3_words", [0])
    return dict(c, round_share=round(rounds / max(nums, 1), 3), counts_ge10=nums, char_ranges=ranges, char_ranges_wide_or_unround=wide,
                constraint_paragraph_words_max=words_max, distinct_two_word_openings_per_sentence=round(len(openings) / max(nsent, 1), 3),
                first_person_share=round(c.pop("first_person", 0) / max(len(recs), 1), 3), question_share=round(c.pop("question", 0) / max(len(recs), 1), 3),
                depth3_constraint_words_mean=round(sum(d3) / len(d3), 1), depth3_constraint_words_max=max(d3),
                containers=sum(r["tree"]["kind"] != "string" for r in recs))

def main(argv=None)->int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", nargs="?", default=BENCH)
    ap.add_argument("--witness", action="store_true", help="also write every witness and count note_N padding")
    a = ap.parse_args(argv)
    from ifhier.bench.sampler import load_tasks
    recs = [json.loads(l) for l in Path(a.bench).read_text(encoding="utf-8").splitlines() if l.strip()]
    tasks = {t["task_id"]: t for t in load_tasks(ROOT / "ifhier" / "data" / "seed_tasks.jsonl")}
    wit = None
    if a.witness:
        from ifhier.bench.witness import witness_response
        wit = {r["id"]: witness_response(r["tree"]) for r in recs}
    for k, v in sorted(counts(recs, tasks, wit).items()): print(f"{k:45} {v}")
    return 0

if __name__ == "__main__": sys.exit(main())
