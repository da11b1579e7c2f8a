"""Build the documentation site offline: nbdev processes the notebooks, smalldocs renders the site.

nbdev's own `nbdev_docs` shells out to the Quarto binary, and Quarto is not on the package registries
this project may use (PyPI's `quarto-cli` is an sdist that downloads the binary from GitHub while it
builds). So this script runs nbdev's own processing (`nbdev.yml` from settings.ini, the sidebar, every
notebook through nbdev's processors into `_proc/`: `show_doc` for each export, `#| hide` cells dropped,
outputs kept) and renders `_proc/` with smalldocs, a pure-Python site builder that reads Quarto's
project conventions (`_quarto.yml`, `sidebar.yml`, notebooks with their saved outputs) — one page per
notebook, `index.html` from `nbs/index.ipynb`.

    python scripts/docs.py [--out _docs]
"""
import argparse, os, shutil, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def run_only_the_imports_of_mixed_cells():
    """nbdev's show_doc pass executes export cells and any cell that contains an import. A hidden cell of ours that
    imports a module and then tests with names an earlier, unexecuted cell made (`small` in 33_build) would raise
    there. show_doc needs only the import, so of such a cell only its top-level import statements run."""
    import ast, copy, warnings
    from nbdev import processors as P
    warnings.filterwarnings("ignore", message="Found cells containing imports and other code")
    full_call = P.exec_show_docs.__call__

    def call(self, cell):
        trees = cell.parsed_() if cell.cell_type == "code" and P.cell_lang(cell) == "python" else None
        show_dirs = {"export", "exports", "exporti", "exec_doc"}
        if trees and not cell.directives_.keys() & show_dirs and not P._show_docs(trees):
            nodes = trees                                        # a cell's top-level statements
            imports = [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))]
            if imports and len(imports) < len(nodes):
                cell = copy.copy(cell)                           # the notebook keeps its cell and outputs
                cell.set_source("\n".join(ast.unparse(n) for n in imports))
        return full_call(self, cell)
    P.exec_show_docs.__call__ = call


def process_in_own_folder(job):
    "nbdev's per-notebook step, run from the notebook's folder so relative fixture paths resolve as under nbdev_test."
    import nbdev.serve_drv
    src, dst, cb = job
    here = os.getcwd(); os.chdir(Path(src).parent)
    try: nbdev.serve_drv.main((src, dst, cb))
    finally: os.chdir(here)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="_docs", help="where the site is written (default: %(default)s)")
    a = ap.parse_args(argv)
    os.chdir(ROOT)
    from nbdev.quarto import refresh_quarto_yml, nbdev_sidebar
    from nbdev.serve import _proc_file
    from nbdev.doclinks import _build_modidx, nbglob
    refresh_quarto_yml()
    _build_modidx()
    nbdev_sidebar.__wrapped__(path="nbs")
    nbs, proc = ROOT / "nbs", ROOT / "_proc"
    if proc.exists(): shutil.rmtree(proc)
    files = nbglob(nbs, func=Path, file_glob="", file_re="") + [nbs / "_quarto.yml", nbs / "styles.css"]
    files += [f for f in nbs.rglob("*") if f.is_file() and "fixtures" in f.relative_to(nbs).parts]
    jobs = [j for j in (_proc_file(f.resolve(), cache=proc, path=nbs) for f in files) if j]
    jobs = [(Path(s).resolve(), Path(d).resolve(), cb) for s, d, cb in jobs]
    run_only_the_imports_of_mixed_cells()
    for job in jobs: process_in_own_folder(job)   # one process: each notebook runs in a fresh shell of its own
    shutil.copytree(ROOT / "figures", proc / "figures", dirs_exist_ok=True)   # the index page (the README) embeds them
    r = subprocess.run([str(Path(sys.executable).with_name("smalldocs")), "render", str(proc)], capture_output=True, text=True)
    # nbdev writes Quarto-only keys (output-file, keep-md, commonmark) that smalldocs notes and ignores; the rest is shown
    known = ("output-file is not read by smalldocs", "format.html.keep-md is ignored", "format commonmark is not built")
    shown = [l for l in (r.stdout + r.stderr).splitlines() if not any(k in l for k in known)]
    if shown: print("\n".join(shown))
    if r.returncode: sys.exit(f"docs: smalldocs render failed (exit {r.returncode})")
    site, out = proc / "_docs", ROOT / a.out
    if out.exists(): shutil.rmtree(out)
    shutil.copytree(site, out)
    pages = sorted(p.relative_to(out) for p in out.rglob("*.html"))
    wanted = ["index.html"] + [str(n.relative_to(nbs).with_suffix(".html")) for n in nbs.rglob("*.ipynb")
                               if not {"analysis", "fixtures", "_proc"} & set(n.relative_to(nbs).parts) and n.name != "index.ipynb"]
    missing = [p for p in wanted if Path(p) not in pages]
    print(f"docs: {len(pages)} pages in {out} (open {out / 'index.html'})" + (f"; missing {missing}" if missing else ""))
    if missing: sys.exit(1)

if __name__ == "__main__": main()
