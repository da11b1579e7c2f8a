"""What a user outside the checkout gets: a wheel built from this tree, installed into a fresh virtualenv and run
from an empty directory, carries its data and works — the build is byte-identical to the shipped benchmark."""
import os, subprocess, sys, sysconfig, venv
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent

@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp / "dist", ROOT],
                   check=True, capture_output=True, cwd=tmp)
    wheel = next((tmp / "dist").glob("ifhier-*.whl"))
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", wheel], check=True, capture_output=True)
    # the dependencies come from the project's venv (read-only, via a .pth); ifhier itself only from the wheel
    site = Path(subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_project_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    empty = tmp / "empty"; empty.mkdir()
    return env_dir / "bin" / "ifhier", py, empty, wheel

def _run(exe, *args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    return subprocess.run([str(exe), *map(str, args)], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)

def test_wheel_carries_the_data(installed):
    import zipfile
    names = zipfile.ZipFile(installed[3]).namelist()
    for f in ("ifhier/data/seed_tasks.jsonl", "ifhier/data/ifhierbench.jsonl", "ifhier/data/wise/items.jsonl",
              "ifhier/data/wise/forms.yaml", "ifhier/data/paper/wise_table11_audit_summary.csv"):
        assert f in names, f

def test_installed_package_is_the_wheel(installed):
    _, py, empty, _ = installed
    r = subprocess.run([py, "-c", "import ifhier, ifhier.io; print(ifhier.__file__); print(ifhier.io.DATA_DIR)"],
                       cwd=empty, capture_output=True, text=True, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert r.returncode == 0, r.stderr
    assert str(ROOT) not in r.stdout and "site-packages" in r.stdout, r.stdout

def test_build_from_an_empty_directory_is_byte_identical(installed):
    exe, _, empty, _ = installed
    r = _run(exe, "build", "--seed", 0, "--out", "b.jsonl", cwd=empty)
    assert r.returncode == 0, r.stderr
    assert (empty / "b.jsonl").read_bytes() == (ROOT / "ifhier/data/ifhierbench.jsonl").read_bytes()

def test_wise_wording_and_paper_figures_from_an_empty_directory(installed):
    exe, _, empty, _ = installed
    r = _run(exe, "wise", "build", "--out", "p.jsonl", "--repeats", 1, cwd=empty)
    assert r.returncode == 0 and (empty / "p.jsonl").stat().st_size > 0, r.stderr
    r = _run(exe, "wise", "demo", "--constraint", "markdown.has_heading", "--depth", 2, "--max-prompts", 8, "--reps", 200, "--out", "w", cwd=empty)
    assert r.returncode == 0 and (empty / "w" / "contrasts.csv").exists(), r.stderr
    r = _run(exe, "wise", "paper", "--out", "f", cwd=empty)
    assert r.returncode == 0, r.stderr
    pngs = sorted((empty / "f").glob("*.png"))
    assert len(pngs) >= 7 and all(p.read_bytes()[:4] == b"\x89PNG" and p.stat().st_size > 10_000 for p in pngs)
