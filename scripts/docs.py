"""Build the documentation site offline: nbdev processes the notebooks, smalldocs renders the site.

nbdev's own `nbdev_docs` shells out to the Quarto binary, and Quarto is not on the package registries
this project may use (PyPI's `quarto-cli` is an sdist that downloads the binary from GitHub while it
builds). So this script runs nbdev's public processing steps — `refresh_quarto_yml` (nbdev.yml from
settings.ini), `nbdev_sidebar`, and `proc_nbs` (every notebook through nbdev's processors into `_proc/`:
`show_doc` for each export, `#| hide` cells dropped, outputs kept) — and renders `_proc/` with smalldocs, a
pure-Python site builder that reads Quarto's project conventions (`_quarto.yml`, `sidebar.yml`, notebooks with
their saved outputs): one page per notebook, `index.html` from `nbs/index.ipynb`.

nbdev's show_doc pass executes export cells and every cell holding an import, so imports stand in cells of
their own (`scripts/import_cells.py --check` keeps it so; CI runs it).

    python scripts/docs.py [--out _docs]
"""
import argparse, os, shutil, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="_docs", help="where the site is written (default: %(default)s)")
    a = ap.parse_args(argv)
    os.chdir(ROOT)
    from nbdev.quarto import refresh_quarto_yml, nbdev_sidebar
    from nbdev.serve import proc_nbs
    refresh_quarto_yml()
    nbdev_sidebar(path="nbs")
    proc = proc_nbs(path="nbs", n_workers=min(2, os.cpu_count() or 1), force=True)
    for f in (ROOT / "nbs").rglob("*"):               # fixtures the notebooks link to travel with the pages
        if f.is_file() and "fixtures" in f.relative_to(ROOT / "nbs").parts:
            (proc / f.relative_to(ROOT / "nbs")).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, proc / f.relative_to(ROOT / "nbs"))
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
    nbs = ROOT / "nbs"
    wanted = ["index.html"] + [str(n.relative_to(nbs).with_suffix(".html")) for n in nbs.rglob("*.ipynb")
                               if not {"analysis", "fixtures", "_proc", ".ipynb_checkpoints"} & set(n.relative_to(nbs).parts) and n.name != "index.ipynb"]
    missing = [p for p in wanted if Path(p) not in pages]
    print(f"docs: {len(pages)} pages in {out} (open {out / 'index.html'})" + (f"; missing {missing}" if missing else ""))
    if missing: sys.exit(1)

if __name__ == "__main__": main()
