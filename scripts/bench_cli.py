"""CLI startup: wall time of `ifhier --help` and of a few `ifhier X --help`, as whole processes.

Runs the venv's own `ifhier` console script (the one a user types) in a subprocess, `RUNS` times per
command, and prints the median; the goal is under 0.3 s each. `python -c pass` is printed alongside as
the interpreter's own floor on this machine. The non-timing version of the claim is
`tests/test_startup.py`: building the parser imports none of pandas, SciPy, nltk, litellm, altair, NumPy."""
import os, statistics, subprocess, sys, time
from pathlib import Path

RUNS = 5
GOAL = 0.3
COMMANDS = [[], ["build"], ["score"], ["ifeval", "score"], ["wise", "analyze"], ["catalog"]]

def median_wall(cmd:list, runs:int=RUNS)->float:
    "Median wall time in seconds of `runs` runs of `cmd` (which must exit 0)."
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)

def main(runs:int=RUNS):
    "Print the median startup time of `ifhier [X] --help` for each of `COMMANDS`."
    ifhier = Path(sys.executable).parent / "ifhier"
    print(f"python -c pass: {median_wall([sys.executable, '-c', 'pass'], runs):.3f} s (the interpreter's floor)")
    worst = 0.0
    for sub in COMMANDS:
        t = median_wall([str(ifhier), *sub, "--help"], runs); worst = max(worst, t)
        print(f"ifhier {' '.join(sub + ['--help'])}: {t:.3f} s (median of {runs})")
    print(f"slowest: {worst:.3f} s; goal < {GOAL} s: {'met' if worst < GOAL else 'NOT met'}")

if __name__ == "__main__": main()
