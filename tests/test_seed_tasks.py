"""The shipped seed tasks obey every rule in data/seed_tasks.md (the validator is the single statement of them)."""
import subprocess, sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]

def test_seed_tasks_validate():
    r = subprocess.run([sys.executable, str(root / "scripts/validate_seed_tasks.py"), str(root / "ifhier/data/seed_tasks.jsonl")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK: all seed task rules pass" in r.stdout

def test_validator_rejects_a_bad_task(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "t0001", "task": "Write a poem in at least 50 words.", "context": null, '
                   '"genre": "poem", "keywords": ["rain"], "formats": ["json"]}\n')
    r = subprocess.run([sys.executable, str(root / "scripts/validate_seed_tasks.py"), str(bad)], capture_output=True, text=True)
    assert r.returncode == 1
