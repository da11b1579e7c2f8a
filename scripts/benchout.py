"""The figures of one `make bench` run: each bench script calls `record(...)`; `scripts/bench.py` writes them all to
`out/bench.json` (one object per figure: name, value, unit, compared_with), so a change can be compared with the
last run. (Not a `bench_*.py` file, so `bench.py` does not run it as a bench.)"""
import json, os, platform
from pathlib import Path

FIGURES: list = []

def record(name:str, value:float, unit:str, compared_with:str|None=None, **extra):
    "Keep one figure of this run: `value` in `unit`, and what it was compared with (a baseline, or None)."
    FIGURES.append(dict(name=name, value=value, unit=unit, compared_with=compared_with, **extra))

def write(path:Path):
    "Write the recorded figures to `path` as one JSON document."
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = dict(machine=dict(python=platform.python_version(), cores=os.cpu_count(), arch=platform.machine()), figures=FIGURES)
    path.write_text(json.dumps(doc, indent=1) + "\n")
