"""The library notebooks are the documentation: examples keep their outputs, every section says why."""
import json, re
from pathlib import Path

NBS = Path(__file__).resolve().parents[1] / "nbs"
LIBRARY = sorted(p for p in NBS.rglob("*.ipynb") if not {"analysis", "fixtures"} & set(p.relative_to(NBS).parts))

def _cells(path): return json.loads(path.read_text())["cells"]
def _src(cell): return "".join(cell.get("source", []))

def visible_examples(path):
    "Code cells the docs site shows: not exported, not hidden, not the `default_exp` line."
    for c in _cells(path):
        src = _src(c).strip()
        if c["cell_type"] != "code" or not src: continue
        directives = [l for l in src.splitlines() if l.startswith("#|")]
        if any(k in d for d in directives for k in ("export", "hide", "default_exp")): continue
        yield c

def test_examples_show_their_outputs():
    shown = [(p, bool(c.get("outputs"))) for p in LIBRARY for c in visible_examples(p)]
    assert len(shown) > 100, "the notebooks lost their examples"
    share = sum(s for _, s in shown) / len(shown)
    bare = sorted({str(p.relative_to(NBS)) for p, s in shown if not s})
    assert share >= 0.8, f"only {share:.0%} of {len(shown)} visible example cells show an output (without: {bare[:10]} …)"

def test_every_section_heading_has_prose():
    "A `##` heading is followed by a sentence, in its own cell or the next markdown cell — not straight by code."
    empty = []
    for p in LIBRARY:
        cells = _cells(p)
        for i, c in enumerate(cells):
            if c["cell_type"] != "markdown": continue
            lines = _src(c).strip().splitlines()
            for j, line in enumerate(lines):
                if not re.match(r"## ", line) or line.rstrip().endswith(" -"): continue  # " -" hides it from the docs (STYLE.md)
                after = [l for l in lines[j + 1:] if l.strip()]
                if after and not re.match(r"#{1,6} ", after[0]): continue
                if after: empty.append(f"{p.relative_to(NBS)}: {line}"); continue  # a heading straight under a heading
                nxt = cells[i + 1] if i + 1 < len(cells) else None
                if not (nxt and nxt["cell_type"] == "markdown" and not re.match(r"#{1,6} ", _src(nxt).strip())):
                    empty.append(f"{p.relative_to(NBS)}: {line}")
    assert not empty, f"{len(empty)} headings with no sentence under them: {empty[:12]}"

def test_the_docs_site_has_an_index_page_source():
    assert (NBS / "index.ipynb").exists(), "nbs/index.ipynb (the README's source and the site's front page) is missing"


def test_make_docs_builds_a_page_per_library_notebook(tmp_path):
    "`make docs` (scripts/docs.py): nbdev's processing + smalldocs, offline; index.html and one page per library notebook."
    import subprocess, sys
    root = NBS.parent
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, str(root / "scripts" / "docs.py"), "--out", str(site)],
                       cwd=root, capture_output=True, text=True, timeout=1500)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert (site / "index.html").exists()
    for nb in LIBRARY:
        page = site / nb.relative_to(NBS).with_suffix(".html")
        assert page.exists(), f"no page for {nb.relative_to(NBS)}"
    assert "count_words" in (site / "00_text.html").read_text()     # the API docs are rendered
    assert "def build_one(" in re.sub(r"<[^>]+>", "", (site / "bench" / "33_build.html").read_text())   # show_doc ran past its mixed setup cells
    assert (site / "figures" / "workbench.png").exists()             # the index page's pictures travel with it


def test_every_public_signature_renders():
    "show_doc resolves each public function's annotations (a name imported only for type checkers breaks `make docs`)."
    import importlib, inspect, pkgutil, warnings
    import ifhier
    from nbdev.showdoc import show_doc
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in pkgutil.walk_packages(ifhier.__path__, "ifhier."):
            mod = importlib.import_module(m.name)
            for n in getattr(mod, "__all__", []):
                o = getattr(mod, n, None)
                if inspect.isfunction(o) or inspect.isclass(o):
                    try: show_doc(o)
                    except Exception as e: bad.append(f"{m.name}.{n}: {e!r}")
    assert not bad, bad
