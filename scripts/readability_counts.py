#!/usr/bin/env python
"""Count the reading problems of issues 17 and 23 over a built benchmark (default: the shipped one).

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


# ---- issue 23 item 1: the reader's rules, each a count over the prompts (names checked, not only kinds) ----------
# Our own lists (not the sampler's): a reader's idea of which parts head a whole document and which are short.
DOC_LEVEL = {"introduction", "intro", "summary", "executive summary", "conclusion", "conclusions", "headline", "title", "subject",
             "subject line", "abstract", "overview", "key takeaways", "takeaways", "final thoughts", "next steps", "what's next",
             "what happens next", "greeting", "sign off", "sign-off", "closing", "call to action", "tl;dr", "tldr", "lede", "body",
             "body copy", "short answer", "the short answer", "bottom line", "verdict", "thesis", "table of contents", "references"}
SHORT_PARTS = {"headline", "title", "subject", "subject line", "tagline", "slogan", "price", "rating", "status", "prep time",
               "cook time", "serves", "difficulty", "deadline", "tone", "priority", "urgency", "risk level", "sentiment",
               "confidence", "product name", "skill level", "spice level", "would return", "vegetarian", "eco friendly",
               "approval", "best for", "greeting", "sign off", "hint", "clue", "short answer", "the short answer", "quote",
               "goal", "budget", "offer", "the offer", "takeaway", "key finding", "milestone", "step", "tip", "verdict", "riddle"}
SIGN_OFF = re.compile(r"\b(?:thank(?:s| you)|let me know|hope this helps|any (?:other|more|further) questions|anything else I can|"
                      r"that is all for now|best regards|kind regards|cheers|feel free to|happy to help|see you)\b", re.I)
GENERIC_LEAD = re.compile(r"(?:^|(?<=[.!?]\s))(?:(?:I|We) have (?:a few|some) requirements|Here is what I need|Some requirements from my side|"
                          r"Please keep to what I ask|There are some rules I need you to follow|To be useful to me, the answer has to follow|"
                          r"A few details matter to me|Before you start, note what I need|Some (?:rules|points|requirements) (?:to follow|first))", re.M)
LINK_NO_ORDER = re.compile(r"(?:^|(?<=[.!?]\s))(?:Next|Then),", re.M)
ORDER_SET = re.compile(r"(?:^|(?<=[.!?]\s))(?:First|To start|Start|Begin)\b", re.M)
POSITIONS = re.compile(r"\b(?:an? )?(?:items?|elements?|entries|entry) at positions? \d")
ITEM_OF = re.compile(r"\b[Ii]tem \d+ of the \"[^\"]+\" (?:list|field|section)")
BARE_ITEM = re.compile(r"\b[Tt]he (?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) (?:bullet|item)\b(?! of)")
MAIN_LEVEL = re.compile(r"with (#+) headings for (?:its|the) main sections")
FREQ = dict(e=.127, t=.091, a=.082, o=.075, i=.07, n=.067, s=.063, h=.061, r=.06, d=.043, l=.04, c=.028, u=.028, m=.024, w=.024, f=.022,
            g=.02, y=.02, p=.019, b=.015, v=.01, k=.008, j=.002, x=.0015, q=.001, z=.0007)   # English letters per letter of text
PURPOSE = [   # a purpose line, and what in the tree (root kind, constraint ids) it contradicts
    (re.compile(r"\bas it is\b"), lambda kind, cids: cids & {"string.placeholder", "string.two_responses", "string.repeat_prompt"}),
    (re.compile(r"scan quickly|tick things off"), lambda kind, cids: cids & {"string.nth_paragraph_first_word", "string.section_checker", "string.num_sentences"}),
    (re.compile(r"\b(?:script|parse|program|app)\b|as JSON"), lambda kind, cids: kind != "json"),
    (re.compile(r"headings (?:first|matter)|renders Markdown"), lambda kind, cids: kind != "markdown"),
    (re.compile(r"\blabels matter|into a form|labeled part"), lambda kind, cids: kind != "labeled")]
LOWER_REL, UPPER_REL = {"at least", "more than", "exactly"}, {"at most", "less than", "exactly"}

def _name(node)->str|None:
    "The name a part is reached by (key, heading, label), normalised; None for a list item or the root."
    n = next((x for k, x in (node.via or {}).items() if k != "index"), None)
    return n.replace("_", " ").strip().casefold() if isinstance(n, str) else None

def _chars(v)->int:
    "A scope's size in characters: from its own length bounds, else by where it sits (whole answer, part, list item)."
    for cid, p in v.node.constraints:
        if cid == "string.string_length": return (p["min_chars"] + p["max_chars"]) // 2
        if cid == "string.num_words": return int(p["n"] * 5.5)
        if cid == "string.num_sentences": return p["n"] * 100
    return 1500 if v.parent is None else 150 if "index" in (v.node.via or {}) else 400

def _text_list(v)->bool:
    "Is array scope `v` written as a bulleted text list (in Markdown or labeled text, or a root list of strings)?"
    if v.parent is None: return all(c.kind == "string" for c in v.node.children)
    return v.parent.kind in ("markdown", "labeled")

def _array_flags(v)->tuple:
    "(mixed JSON array, lone object in a list of text) for array scope `v`."
    objs = [c for c in v.node.children if c.kind == "json"]
    strs = [c for c in v.node.children if c.kind == "string"]
    keys = {tuple(sorted(k for cid, p in c.constraints if cid == "json.has_keys" for k in p["keys"])) for c in objs}
    implied = max([len(p.get("positions", [])) for cid, p in v.node.constraints if cid == "array.elements_at"] +
                  [p["n"] + (p["rel"] == "more than") for cid, p in v.node.constraints if cid == "array.length" and p["rel"] in LOWER_REL] + [0])
    mixed = not _text_list(v) and bool(objs) and (bool(strs) or len(keys) > 1)
    lone = bool(objs) and (_text_list(v) or (len(objs) == 1 and max(implied, len(v.node.children)) >= 2))
    return mixed, lone

def _short(v)->bool: return _name(v.node) in SHORT_PARTS

def _cramped(cons)->bool:
    "Counts one part cannot meet as prose: more words than ~6.5 characters each fit under its character cap, a character floor at 9+ per allowed word, paragraphs under 80 characters or sentences and bullets under 45 each, a word asked r times in fewer than 10r words."
    lo = dict(exactly=0, **{"at least": 0, "more than": 1}); hi = dict(exactly=0, **{"at most": 0, "less than": -1})
    words_lo = max([p["n"] + lo[p["rel"]] for c, p in cons if c == "string.num_words" and p["rel"] in lo] + [0])
    words_hi = min([p["n"] + hi[p["rel"]] for c, p in cons if c == "string.num_words" and p["rel"] in hi] + [10**9])
    chars_hi = min([p["max_chars"] for c, p in cons if c == "string.string_length"] + [10**9])
    chars_lo = max([p["min_chars"] for c, p in cons if c == "string.string_length"] + [0])
    paras = max([p["n"] for c, p in cons if c == "string.nth_paragraph_first_word"] + [0])
    parts = max([p["n"] + lo.get(p.get("rel", "exactly"), -p["n"]) for c, p in cons if c in ("string.num_sentences", "string.bullet_list")] + [0])
    rep = max([s["n"] + lo.get(s["rel"], -s["n"]) for c, p in cons if c == "string.keyword_frequency" for s in p["specs"]] + [0])
    return (chars_hi < 6.5 * words_lo or chars_lo > 9 * max(words_hi, 1) or chars_hi < 80 * paras or chars_hi < 45 * parts
            or (rep > 1 and min(words_hi, chars_hi / 6.5) < 10 * rep))

def reader_rule_counts(recs:list)->dict:
    "Issue 23's reader's-rule counts over benchmark records `recs` (prompt + tree only): prompts per count, and shares."
    c, d23, rng_n, rng3 = Counter(), 0, 0, 0
    for r in recs:
        vs = list(iter_nodes(ConstraintNode.from_json(r["tree"])))
        hit, prompt = set(), r["prompt"]
        for v in vs:
            cids = {cid for cid, _ in v.node.constraints}
            if v.depth >= 2 and _name(v.node) in DOC_LEVEL: hit.add("doc_part_nested")
            if v.node.kind == "array":
                mixed, lone = _array_flags(v)
                if mixed: hit.add("json_array_mixed")
                if lone: hit.add("lone_object_in_text_list")
            for cid, p in v.node.constraints:
                if cid == "string.end_checker" and v.parent is not None and SIGN_OFF.search(p["end_phrase"]): hit.add("sign_off_in_part")
                if cid == "string.placeholder" and (r.get("context") or _short(v) or "index" in (v.node.via or {})): hit.add("placeholder_misplaced")
                if cid == "string.letter_frequency":
                    if v.parent is not None: hit.add("letter_count_below_root")
                    size = _chars(v)
                    for s in p["specs"]:
                        exp = size * FREQ.get(s["letter"].casefold(), .01)
                        if (s["rel"] in UPPER_REL and s["n"] < exp / 3) or (s["rel"] in LOWER_REL and s["n"] > 3 * exp + 1):
                            hit.add("letter_starved_or_forced")
                if cid == "string.string_length":
                    rng_n += 1; rng3 += p["max_chars"] == 3 * p["min_chars"]
                if _short(v) and (cid == "string.string_length" or (cid in ("string.num_words", "string.num_sentences") and p["rel"] in LOWER_REL)):
                    hit.add("lower_bound_on_short_part")
            if _cramped(v.node.constraints): hit.add("cramped_part")
            if v.parent is not None:
                for cid, name in (("string.title", "title_in_part"), ("string.postscript", "postscript_in_part"),
                                  ("string.quotation", "quote_wrap_in_part"), ("string.section_checker", "section_x_in_part")):
                    if cid in cids: hit.add(name)
        if POSITIONS.search(prompt):
            hit.add("position_phrase")
            if r["depth"] >= 2: c["_pos23"] += 1
        d23 += r["depth"] >= 2
        if ITEM_OF.search(prompt): hit.add("item_n_of_list")
        lists = [_name(v.node) for v in vs if v.node.children and all("index" in (c.via or {}) for c in v.node.children) and _name(v.node)]
        for par in map(str.casefold, prompt.split("\n\n")):   # a bare "the fourth bullet" after a second list is named: which list?
            firsts = sorted(m.start() for n in set(lists) if (m := re.search(f'"{re.escape(n)}"[^."]{{0,60}}?(?:bulleted|list)', par)))
            if len(firsts) >= 2 and BARE_ITEM.search(par, firsts[1]): hit.add("two_lists_one_paragraph")
        level = next((p.get("level") for cid, p in vs[0].node.constraints if cid == "markdown.heading_count" and p.get("level")), None)
        if level and (m := MAIN_LEVEL.search(prompt)) and len(m[1]) != level: hit.add("heading_level_disagrees")
        if re.search(r"\bunique\b", prompt): hit.add("unique_word")
        if "spelled exactly like that" in prompt: hit.add("spelled_exactly")
        nested = sum(v.node.kind == "json" and any(ch.kind == "json" for ch in v.node.children) for v in vs)
        if len(re.findall(r"\btop-level\b", prompt)) > nested: hit.add("top_level_adds_nothing")
        if GENERIC_LEAD.search(prompt): hit.add("generic_lead_in")
        first = re.split(r"(?<=[.!?])\s", constraint_text(prompt, r), 1)[0]   # a purpose line opens the constraint text
        allc = frozenset(cid for v in vs for cid, _ in v.node.constraints)
        if re.match(r"(?:I|I'll|I'm|My|We|Our|This|A program|Each labeled)\b", first) and any(
                rx.search(first) and bad(r["tree"]["kind"], allc) for rx, bad in PURPOSE): hit.add("purpose_line_disagrees")
        if (m := LINK_NO_ORDER.search(prompt)) and not ORDER_SET.search(prompt[:m.start()]): hit.add("link_without_order")
        if re.search(r"\bplease\b", prompt, re.I): c["_please"] += 1
        c.update(hit)
    n = max(len(recs), 1)
    return dict({k: c.get(k, 0) for k in READER_COUNTS},
                position_phrase_share_d23=round(c["_pos23"] / max(d23, 1), 3), please_share=round(c["_please"] / n, 3),
                char_ranges_3x_share=round(rng3 / max(rng_n, 1), 3), prompts=len(recs))

READER_COUNTS = ("doc_part_nested", "json_array_mixed", "lone_object_in_text_list", "sign_off_in_part", "title_in_part",
                 "postscript_in_part", "quote_wrap_in_part", "section_x_in_part", "placeholder_misplaced", "letter_count_below_root",
                 "letter_starved_or_forced", "lower_bound_on_short_part", "position_phrase", "item_n_of_list", "unique_word",
                 "spelled_exactly", "top_level_adds_nothing", "generic_lead_in", "link_without_order", "purpose_line_disagrees",
                 "cramped_part", "two_lists_one_paragraph", "heading_level_disagrees")

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
    print("-- reader's rules (issue 23): prompts with each problem, and shares")
    for k, v in reader_rule_counts(recs).items(): print(f"{k:45} {v}")
    return 0

if __name__ == "__main__": sys.exit(main())
