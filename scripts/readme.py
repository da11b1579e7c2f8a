"""`nbs/index.ipynb` is the README's source (as in nbdev): the site's front page and README.md say the same.

    python scripts/readme.py            # write README.md from nbs/index.ipynb
    python scripts/readme.py --check    # exit 1 if README.md is not what nbs/index.ipynb gives
    python scripts/readme.py --from-readme   # one-off: (re)write nbs/index.ipynb from README.md

nbdev's own `nbdev_readme` renders the notebook with Quarto, which the package registries do not carry;
the index is Markdown cells (the commands are shown, not run), so the README is their text joined.
"""
import hashlib, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX, README = ROOT / "nbs" / "index.ipynb", ROOT / "README.md"

def readme_text(index: Path = INDEX) -> str:
    cells = json.loads(index.read_text())["cells"]
    parts = ["".join(c["source"]).strip("\n") for c in cells if c["cell_type"] == "markdown"]
    return "\n\n".join(p for p in parts if p) + "\n"

def index_from_readme(readme: Path = README, index: Path = INDEX):
    "Split README.md into one Markdown cell per `##` section (fences kept whole)."
    cells, buf, fence = [], [], False
    for line in readme.read_text().split("\n"):
        if line.startswith("```"): fence = not fence
        if not fence and line.startswith("## ") and buf: cells.append(buf); buf = []
        buf.append(line)
    if buf: cells.append(buf)
    nb = {"cells": [], "metadata": {"kernelspec": {"display_name": "python3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    for lines in cells:
        src = "\n".join(lines).strip("\n")
        nb["cells"].append({"cell_type": "markdown", "id": hashlib.sha1(src.encode()).hexdigest()[:8], "metadata": {},
                            "source": src.splitlines(keepends=True)})
    index.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    arg = sys.argv[1] if len(sys.argv) > 1 else ""
    if arg == "--from-readme": index_from_readme(); print(f"wrote {INDEX.relative_to(ROOT)}")
    elif arg == "--check":
        if README.read_text() != readme_text():
            sys.exit("README.md is not what nbs/index.ipynb gives: edit nbs/index.ipynb, then run `python scripts/readme.py`")
        print("README.md matches nbs/index.ipynb")
    else: README.write_text(readme_text()); print("wrote README.md from nbs/index.ipynb")
