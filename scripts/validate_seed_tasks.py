"""Validate the seed tasks file (default `data/seed_tasks.jsonl`); stdlib only.

    python scripts/validate_seed_tasks.py [path]

Checks every rule documented in `data/seed_tasks.md`: field names and order, stable unique ids, clean task
text (no output constraints), contexts where the genre needs them, genre coverage, keyword pools and the
admissible root formats per genre. Prints a summary; exits 1 and lists every violation when any rule fails."""
import json, re, sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATH = ROOT / "ifhier" / "data" / "seed_tasks.jsonl"

KEYS = ["task_id", "task", "context", "genre", "keywords", "formats"]
ROOT_FORMATS = ["string", "json", "array", "markdown", "labeled"]  # canonical order of `formats`
_ALL = ROOT_FORMATS
_DOC = ["string", "json", "markdown", "labeled"]
# genre -> admissible root formats; a task's `formats` must be a subset of its genre's row (and hold "string").
GENRE_FORMATS = {
    "email":               ["string", "labeled"],
    "letter":              ["string"],
    "poem":                ["string"],
    "song":                ["string"],
    "story":               ["string"],
    "riddle":              ["string", "labeled"],
    "dialogue":            ["string", "labeled"],
    "speech":              ["string"],
    "essay":               ["string", "markdown", "labeled"],
    "blog post":           ["string", "markdown", "labeled"],
    "rewrite":             ["string"],
    "explanation":         ["string", "array", "markdown", "labeled"],
    "news brief":          _DOC,
    "product description": _DOC,
    "review":              _DOC,
    "advertisement":       _DOC,
    "summary":             _ALL,
    "analysis report":     _ALL,
    "plan":                _ALL,
    "recipe":              _ALL,
    "lesson plan":         _ALL,
    "faq":                 _ALL,
}
CORE_GENRES = ["email", "poem", "story", "news brief", "analysis report", "product description", "recipe",
               "dialogue", "essay", "riddle", "letter", "review", "plan", "summary"]
MIN_PER_GENRE = 12      # a genre "counts" once it has this many tasks
MIN_GENRES = 12         # at least this many genres must count
MIN_TASKS = 210
CONTEXT_REQUIRED = {"summary", "news brief"}              # every task of these genres has a context
CONTEXT_MOSTLY = {"analysis report": 0.5, "review": 0.5}  # more than this share of tasks has a context
CONTEXT_WORDS = (60, 180)
POOL_SIZE = (14, 20)
KEYWORD_RE = re.compile(r"^[a-z]+( [a-z]+)?$")  # 1-2 lowercase words, letters and single spaces only
STOPWORDS = {"the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "you",
             "your", "our", "their", "its", "but", "not", "all", "any", "can", "will", "into", "about", "than",
             "then", "them", "they", "there", "these", "those", "what", "which", "who", "whom", "when", "where",
             "how", "why", "also", "just", "very", "some", "such", "each", "other", "over", "under", "more", "most"}
TASK_MAX_CHARS = 300

_NUM = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|a few|several)"
_UNITS = (r"(?:tips|reasons|ideas|points|items|steps|examples|questions|facts|parts|options|suggestions|things|ways"
          r"|arguments|benefits|names|slogans|taglines|headlines|versions|drafts|answers|clues|lines|stanzas"
          r"|verses|sentences|paragraphs|words|sections|bullets|characters|pages|chapters|scenes|exchanges|turns)")
# phrases that smuggle an output constraint into the task; the sampler adds all constraints itself
BANNED = [(re.compile(p, re.I), why) for p, why in [
    (r"\bwords?\b|\bword count\b", "length in words"),
    (r"\bsentences?\b", "sentence count"),
    (r"\bparagraphs?\b", "paragraph count"),
    (r"\bbullets?\b|\bbullet points?\b|\bnumbered\b", "list format"),
    (r"\blists?\b", "list format"),
    (r"\bjson\b|\byaml\b|\bxml\b|\bhtml\b|\bmarkdown\b|\bcode (?:block|fence)s?\b", "output format"),
    (r"\bformat(?:ted|ting)?\b|\btables?\b", "output format"),
    (r"\bheadings?\b|\bheaders?\b|\bsections?\b|\btitled?\b|\btitles\b", "structure"),
    (r"\blower[- ]?case\b|\bupper[- ]?case\b|\ball caps\b|\bcapital(?:s| letters?)\b|\bcapitali[sz]", "letter case"),
    (r"\bat (?:least|most)\b|\bno (?:more|fewer|less) than\b|\b(?:fewer|less|more) than\b", "count relation"),
    (r"\bexactly\b|\bmaximum\b|\bminimum\b|\blimit(?:ed|s)?\b|\bunder \d+", "count relation"),
    (r"\bcharacters?\b", "character count"),
    (r"\bcommas?\b|\bquotation marks?\b|\bdouble quotes?\b|\bpunctuation\b", "punctuation rule"),
    (r"\bplaceholders?\b|\bpostscript\b|\bp\.\s?s\.", "placeholder or postscript"),
    (r"\bhighlight(?:ed|s)?\b|\basterisks?\b|\bbold\b|\bitalics?\b", "highlighting"),
    (r"\bstanzas?\b|\bverses?\b|\blines?\b|\bhaikus?\b|\bsonnets?\b|\blimericks?\b", "fixed poetic form"),
    (r"\b(?:start|begin|end|open|close|finish)s? (?:it |your \w+ )?with\b", "start or end phrase"),
    (r"\brepeat\b|\bseparated by\b|\bwrap(?:ped)?\b", "layout rule"),
    (r"\bin (?:english|french|spanish|german)\b|\bkeywords?\b|\binclude the\b", "language or lexical rule"),
    (r"\bconcise(?:ly)?\b|\bbriefly\b|\bin brief\b|\bshort(?:er|est)?\b|\bsuccinct(?:ly)?\b|\blengthy\b", "length"),
    (r"\byour (?:response|answer|reply)\b", "addresses the response itself"),
    (rf"\b{_NUM}[- ]{_UNITS}\b", "count of output units"),
]]


def _words(s): return len(s.split())


def validate(path):
    "Return (errors, warnings, rows) for the JSONL file at `path`."
    errs, warns, rows = [], [], []
    try: lines = Path(path).read_text(encoding="utf-8").split("\n")
    except OSError as e: return [f"{path}: cannot read ({e.strerror})"], [], []
    if lines and lines[-1] == "": lines = lines[:-1]
    else: warns.append(f"{path}: the file does not end with a newline")
    for n, line in enumerate(lines, 1):
        if not line.strip(): errs.append(f"line {n}: blank line"); continue
        try: d = json.loads(line)
        except json.JSONDecodeError as e: errs.append(f"line {n}: not JSON ({e.msg})"); continue
        if not isinstance(d, dict): errs.append(f"line {n}: not a JSON object"); continue
        rows.append((n, d))

    seen_ids, seen_tasks, seen_ctx, last_num = {}, {}, {}, 0
    for n, d in rows:
        tid = d.get("task_id")
        where = f"line {n} ({tid})" if isinstance(tid, str) else f"line {n}"
        def err(msg): errs.append(f"{where}: {msg}")
        if list(d) != KEYS:
            err(f"keys must be exactly {KEYS} in this order, got {list(d)}")
            if not set(KEYS) <= set(d): continue
        # task_id
        if not isinstance(tid, str) or not re.fullmatch(r"t\d{4}", tid): err(f"task_id {tid!r} must look like 't0001'")
        else:
            if tid in seen_ids: err(f"task_id {tid} repeats line {seen_ids[tid]}")
            seen_ids.setdefault(tid, n)
            num = int(tid[1:])
            if num == 0: err("task_id numbers start at t0001")
            if num <= last_num: err(f"task_id {tid} is not in ascending order")
            last_num = max(last_num, num)
        # genre
        genre = d["genre"]
        if genre not in GENRE_FORMATS:
            err(f"genre {genre!r} is unknown; use one of {sorted(GENRE_FORMATS)} or add it to GENRE_FORMATS")
        # task
        task = d["task"]
        if not isinstance(task, str) or not task.strip(): err("task must be a non-empty string"); task = ""
        else:
            if task != task.strip() or "  " in task or "\n" in task: err("task has stray whitespace or a line break")
            if len(task) > TASK_MAX_CHARS: err(f"task is {len(task)} characters long; keep it under {TASK_MAX_CHARS}")
            if not re.search(r"[.?!]$", task): err("task must end with '.', '?' or '!'")
            n_sent = len([s for s in re.split(r"(?<=[.?!])\s+", task) if s])
            if n_sent > 2: err(f"task must be one or two sentences, found {n_sent}")
            for rx, why in BANNED:
                if m := rx.search(task): err(f"task contains {m.group(0)!r}, which reads as an output constraint ({why})")
            key = task.lower()
            if key in seen_tasks: err(f"task text repeats line {seen_tasks[key]}")
            seen_tasks.setdefault(key, n)
        # context
        ctx = d["context"]
        refers = bool(re.search(r"\b(?:following|below)\b", task, re.I))
        if ctx is None:
            if genre in CONTEXT_REQUIRED: err(f"genre {genre!r} needs a context")
            if refers: err("task refers to 'the following'/'below' material but context is null")
        elif not isinstance(ctx, str) or not ctx.strip(): err("context must be null or a non-empty string")
        else:
            w = _words(ctx)
            if not CONTEXT_WORDS[0] <= w <= CONTEXT_WORDS[1]:
                err(f"context has {w} words; keep it within {CONTEXT_WORDS[0]}-{CONTEXT_WORDS[1]}")
            if ctx != ctx.strip(): err("context has leading or trailing whitespace")
            if not refers: err("task has a context but does not point to it ('the following ...' or '... below')")
            if ctx in seen_ctx: err(f"context repeats line {seen_ctx[ctx]}")
            seen_ctx.setdefault(ctx, n)
        # keywords
        kws = d["keywords"]
        if not isinstance(kws, list) or not all(isinstance(k, str) for k in kws):
            err("keywords must be a list of strings")
        else:
            if not POOL_SIZE[0] <= len(kws) <= POOL_SIZE[1]:
                err(f"keyword pool has {len(kws)} entries; it needs {POOL_SIZE[0]}-{POOL_SIZE[1]}")
            for k in kws:
                if not KEYWORD_RE.match(k): err(f"keyword {k!r} must be 1-2 lowercase words of letters a-z, single-spaced")
                elif len(k) < 3: err(f"keyword {k!r} is shorter than 3 characters")
                elif any(len(w) < 2 for w in k.split()): err(f"keyword {k!r} holds a one-letter word")
                elif k in STOPWORDS or all(w in STOPWORDS for w in k.split()): err(f"keyword {k!r} is a function word")
            for k, c in Counter(kws).items():
                if c > 1: err(f"keyword {k!r} appears {c} times")
            uniq = sorted(set(kws))
            for a in uniq:
                for b in uniq:
                    if a != b and a in b: err(f"keyword {a!r} is a substring of {b!r}")
        # formats
        fm = d["formats"]
        if not isinstance(fm, list) or not all(isinstance(f, str) for f in fm): err("formats must be a list of strings")
        else:
            if bad := [f for f in fm if f not in ROOT_FORMATS]: err(f"formats {bad} are not root formats {ROOT_FORMATS}")
            if "string" not in fm: err('formats must include "string"')
            if len(set(fm)) != len(fm): err("formats repeat an entry")
            if fm != [f for f in ROOT_FORMATS if f in fm]: err(f"formats must follow the order {ROOT_FORMATS}")
            if genre in GENRE_FORMATS and (extra := [f for f in fm if f not in GENRE_FORMATS[genre]]):
                err(f"formats {extra} are not admissible for genre {genre!r} (allowed: {GENRE_FORMATS[genre]})")

    # corpus-level rules
    by_genre = defaultdict(list)
    for _, d in rows:
        if isinstance(d.get("genre"), str): by_genre[d["genre"]].append(d)
    if len(rows) < MIN_TASKS: errs.append(f"file holds {len(rows)} tasks; at least {MIN_TASKS} are needed")
    full = [g for g, ds in by_genre.items() if len(ds) >= MIN_PER_GENRE]
    if len(full) < MIN_GENRES:
        errs.append(f"only {len(full)} genres have >= {MIN_PER_GENRE} tasks; at least {MIN_GENRES} are needed")
    for g in CORE_GENRES:
        if len(by_genre.get(g, [])) < MIN_PER_GENRE:
            warns.append(f"core genre {g!r} has {len(by_genre.get(g, []))} tasks (< {MIN_PER_GENRE})")
    for g, share in CONTEXT_MOSTLY.items():
        ds = by_genre.get(g, [])
        if ds and sum(d.get("context") is not None for d in ds) <= share * len(ds):
            errs.append(f"genre {g!r}: most tasks need a context, only "
                        f"{sum(d.get('context') is not None for d in ds)} of {len(ds)} have one")
    return errs, warns, rows


def summary(rows):
    "Print counts per genre, pool sizes and context lengths."
    by_genre = defaultdict(list)
    for _, d in rows: by_genre[d.get("genre")].append(d)
    print(f"{len(rows)} tasks in {len(by_genre)} genres")
    print(f"  {'genre':<20} {'tasks':>5} {'context':>7}  formats")
    for g in sorted(by_genre, key=lambda g: (-len(by_genre[g]), str(g))):
        ds = by_genre[g]
        fms = sorted({tuple(d.get("formats") or []) for d in ds})
        print(f"  {str(g):<20} {len(ds):>5} {sum(d.get('context') is not None for d in ds):>7}  "
              + " | ".join(",".join(f) for f in fms))
    pools = [len(d["keywords"]) for _, d in rows if isinstance(d.get("keywords"), list)]
    ctxs = [_words(d["context"]) for _, d in rows if isinstance(d.get("context"), str)]
    if pools: print(f"keyword pools: {min(pools)}-{max(pools)} entries, mean {sum(pools) / len(pools):.1f}")
    if ctxs: print(f"contexts: {len(ctxs)}, {min(ctxs)}-{max(ctxs)} words, mean {sum(ctxs) / len(ctxs):.0f}")


def main(argv):
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT_PATH
    errs, warns, rows = validate(path)
    print(f"validating {path}")
    if rows: summary(rows)
    for w in warns: print(f"WARNING: {w}")
    if errs:
        print(f"\n{len(errs)} violation(s):")
        for e in errs: print(f"  - {e}")
        return 1
    print("OK: all seed task rules pass")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
