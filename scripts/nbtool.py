"""Author notebooks as plain text: `py2nb SRC.py NB.ipynb` and `nb2py NB.ipynb SRC.py`;
keep their example outputs: `outputs NB.ipynb …` (executes each notebook from its own folder and saves
what every cell printed or returned, as nbdev's docs show it).

The text form is a `.py` file whose cells start with a line `# %%` (code) or `# %% [md]` (markdown;
each line of the cell body is prefixed with `# `). Notebooks stay the source of truth: this only
makes them easy to write and diff-review; run `nbdev_export` and `nbdev_clean` afterwards."""
import hashlib, json, sys
from pathlib import Path

def _cell(kind, lines):
    src = "\n".join(lines).strip("\n")
    if kind == "markdown":
        src = "\n".join(l[2:] if l.startswith("# ") else l.lstrip("#") for l in src.split("\n"))
    cell = {"cell_type": kind, "metadata": {}, "source": src.splitlines(keepends=True)}
    if kind == "code": cell.update(execution_count=None, outputs=[])
    return cell

def py2nb(src: str, dst: str):
    cells, kind, buf = [], None, []
    for line in Path(src).read_text().split("\n"):
        if line.startswith("# %%"):
            if kind: cells.append(_cell(kind, buf))
            kind, buf = ("markdown" if "[md]" in line else "code"), []
        elif kind: buf.append(line)
    if kind: cells.append(_cell(kind, buf))
    old = {}  # a cell whose source is unchanged keeps the outputs it had (py2nb must not wipe the docs)
    if Path(dst).exists():
        for c in json.loads(Path(dst).read_text())["cells"]:
            if c["cell_type"] == "code" and c.get("outputs"): old.setdefault("".join(c["source"]), c["outputs"])
    for c in cells:
        if c["cell_type"] == "code" and "".join(c["source"]) in old: c["outputs"] = old["".join(c["source"])]
    seen = set()
    for i, c in enumerate(cells):  # content-derived ids keep notebook diffs to the cells that really changed
        cid = hashlib.sha1(f"{Path(dst).stem}:{''.join(c['source'])}".encode()).hexdigest()[:8]
        c["id"] = cid if cid not in seen else hashlib.sha1(f"{cid}:{i}".encode()).hexdigest()[:8]
        seen.add(c["id"])
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "python3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    Path(dst).parent.mkdir(parents=True, exist_ok=True)
    Path(dst).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")

def nb2py(src: str, dst: str):
    out = []
    for c in json.loads(Path(src).read_text())["cells"]:
        body = "".join(c["source"])
        if c["cell_type"] == "markdown":
            out += ["# %% [md]"] + ["# " + l if l else "#" for l in body.split("\n")]
        else: out += ["# %%", body]
        out.append("")
    Path(dst).write_text("\n".join(out))

def outputs(*nbs: str):
    """Execute each notebook top to bottom in a fresh shell whose working folder is the notebook's own
    (as `nbdev_test` runs it) and write it back with every cell's outputs; cells tagged `#| eval: false`
    or with a `tst_flags` flag (e.g. `#| live`) are skipped. Run `nbdev_clean` afterwards: it strips
    execution counts and volatile metadata and keeps the outputs."""
    import os
    from execnb.nbio import read_nb, write_nb
    from execnb.shell import CaptureShell
    from nbdev.config import get_config
    flags = set(get_config().get("tst_flags", "").split())
    os.environ.setdefault("IN_TEST", "1")
    failed = []
    for path in map(Path, nbs):
        nb = read_nb(path)
        def skip(cell):
            first = [l for l in cell.source.splitlines() if l.startswith("#|")]
            opts = " ".join(first)
            return "eval: false" in opts or any(f"#| {f}" in opts or f"#|{f}" in opts for f in flags)
        here = os.getcwd(); os.chdir(path.parent)
        try:
            shell = CaptureShell(path=path.parent.resolve())
            shell.run_all(nb, exc_stop=True, preproc=skip)
        except Exception as e:
            failed.append(path); print(f"{path}: not saved, a cell raised {type(e).__name__}: {str(e)[:300]}"); continue
        finally: os.chdir(here)
        write_nb(nb, path)
        print(f"{path}: outputs saved")
    if failed: sys.exit(f"{len(failed)} notebook(s) raised and kept their old outputs: {', '.join(map(str, failed))}")

_IMPORT = __import__("re").compile(r"(from\s+\S+\s+)?import\s")

def split_imports(*nbs: str):
    """Give the import lines of a cell that also holds other code a cell of their own, just before it,
    with the same `#|` directives. nbdev's docs build runs only the cells it needs for `show_doc` (exports
    and imports), so a cell mixing the two ran without the cells it depends on."""
    for path in map(Path, nbs):
        nb = json.loads(path.read_text()); out, changed = [], 0
        for c in nb["cells"]:
            lines = "".join(c["source"]).split("\n")
            directives = [l for l in lines if l.startswith("#|")]
            if c["cell_type"] != "code" or any("export" in d for d in directives):
                out.append(c); continue
            body = [l for l in lines if not l.startswith("#|")]
            imports = [l for l in body if _IMPORT.match(l) and not l.rstrip().endswith(("(", "\\"))]
            rest = [l for l in body if l not in imports]
            if not imports or not any(l.strip() and not l.lstrip().startswith("#") for l in rest):
                out.append(c); continue
            src = "\n".join(directives + imports)
            cid = hashlib.sha1(f"{c.get('id', '')}:imports".encode()).hexdigest()[:8]
            out.append({"cell_type": "code", "execution_count": None, "id": cid, "metadata": {}, "outputs": [],
                        "source": src.splitlines(keepends=True)})
            c["source"] = "\n".join(directives + rest).strip("\n").splitlines(keepends=True)
            out.append(c); changed += 1
        if changed:
            nb["cells"] = out
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
            print(f"{path}: {changed} cell(s) split")

if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"py2nb": py2nb, "nb2py": nb2py, "outputs": outputs, "split-imports": split_imports}[cmd](*args)
