"""Author notebooks as plain text: `py2nb SRC.py NB.ipynb` and `nb2py NB.ipynb SRC.py`.

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

if __name__ == "__main__":
    {"py2nb": py2nb, "nb2py": nb2py}[sys.argv[1]](sys.argv[2], sys.argv[3])
