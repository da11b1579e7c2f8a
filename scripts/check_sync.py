"""Fail if the notebooks and the generated `ifhier/` package are out of sync, or notebooks are not clean.

Exports and cleans a copy of the tree in a temporary folder and compares it with the working tree,
so running the check never modifies the checkout."""
import filecmp, shutil, subprocess, sys, tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[1]
bindir = Path(sys.executable).parent

def _diff(a: Path, b: Path) -> list[str]:
    "Relative paths of files that differ or exist on one side only."
    out = []
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out += [str(a / n) for n in cmp.left_only + cmp.right_only + cmp.diff_files]
    for sub in cmp.common_dirs: out += _diff(a / sub, b / sub)
    return out

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    for name in ["nbs", "ifhier", "settings.ini"]:
        src = root / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp / name)
    for cmd in ["nbdev_export", "nbdev_clean"]:
        subprocess.run([str(bindir / cmd)], cwd=tmp, check=True, capture_output=True)
    bad = [p for p in _diff(root / "ifhier", tmp / "ifhier") + _diff(root / "nbs", tmp / "nbs")]
    bad = [p.replace(str(root) + "/", "") for p in bad if ".ipynb_checkpoints" not in p]
    if bad:
        print("Out of sync: nbdev_export / nbdev_clean would change:", *bad[:20], sep="\n  ")
        print("Run `make export` and commit the notebooks together with ifhier/.")
        sys.exit(1)
index = root / "nbs" / "index.ipynb"
if index.exists():  # the README is generated from the index notebook (scripts/readme.py), as nbdev_readme would
    sys.path.insert(0, str(root / "scripts"))
    from readme import readme_text
    if (root / "README.md").read_text() != readme_text(index):
        print("README.md is not what nbs/index.ipynb gives: edit nbs/index.ipynb, then run `python scripts/readme.py`")
        sys.exit(1)
print("notebooks and ifhier/ are in sync and clean" + (", README.md matches nbs/index.ipynb" if index.exists() else ""))
