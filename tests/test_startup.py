"""`ifhier` starts fast and behaves like a Unix tool: no heavy import for the parser, quiet broken pipes, one-line SIGINT.

Timings live in `make bench` (scripts/bench_cli.py); these are the non-timing versions of the same claims,
run against the venv's real `ifhier` console script in subprocesses."""
import os, signal, subprocess, sys, time
from pathlib import Path

IFHIER = str(Path(sys.executable).parent / "ifhier")
FIX = Path(__file__).resolve().parent.parent / "nbs" / "fixtures"
HEAVY = ("pandas", "scipy", "nltk", "litellm", "altair", "numpy")

def test_parser_imports_no_heavy_library():
    code = ("import sys, ifhier.cli; ifhier.cli.build_parser(); "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout == "[]\n", r.stdout

def _closed_pipe_run(*argv)->subprocess.CompletedProcess:
    "Run `ifhier *argv` with stdout a pipe whose reader is gone before anything is written (`| head -0`)."
    rd, wr = os.pipe()
    os.close(rd)
    try: p = subprocess.Popen([IFHIER, *map(str, argv)], stdout=wr, stderr=subprocess.PIPE, text=True)
    finally: os.close(wr)
    _, err = p.communicate(timeout=120)
    return subprocess.CompletedProcess(p.args, p.returncode, "", err)

def _head_1(*argv)->tuple:
    "`ifhier *argv | head -1`: read one line, close the pipe, let the command run on. (first line, exit code, stderr)"
    p = subprocess.Popen([IFHIER, *map(str, argv)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = p.stdout.readline(); p.stdout.close()
    err = p.stderr.read(); p.wait(timeout=120)
    return first, p.returncode, err

def test_broken_pipes_exit_quietly(tmp_path):
    r = _closed_pipe_run("catalog", "--json")
    assert (r.returncode, r.stderr) == (141, "")
    first, code, err = _head_1("catalog", "--json")
    assert first == "[\n" and code in (0, 141) and err == ""
    score = ("ifeval", "score", "--input", FIX / "ifeval_input.jsonl", "--responses", FIX / "ifeval_responses.jsonl",
             "--out-dir", tmp_path)
    r = _closed_pipe_run(*score)
    assert r.returncode == 141 and "Traceback" not in r.stderr and "Error" not in r.stderr, r.stderr
    assert r.stderr.startswith("ifhier ifeval score: warning: 1 of 25 prompts have no response")   # the real warning, only
    assert len((tmp_path / "eval_results_loose.jsonl").read_text().splitlines()) == 25          # the results were written
    first, code, err = _head_1(*score)
    assert first == "strict prompt-level accuracy: 0.5600 (14/25)\n" and code in (0, 141) and "Traceback" not in err

def _cpu_seconds(pid:int)->float:
    "CPU time used so far by process `pid` (Linux /proc; 0 if it is gone)."
    try: fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError: return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def test_sigint_prints_one_line_and_exits_130(tmp_path):
    p = subprocess.Popen([IFHIER, "build", "--per-depth", "150", "--out", str(tmp_path / "b.jsonl")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    deadline = time.monotonic() + 30
    while _cpu_seconds(p.pid) < 0.5 and time.monotonic() < deadline: time.sleep(0.1)   # past startup even on a busy machine
    assert p.poll() is None, "the build finished before the interrupt"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, (p.returncode, err)
    assert err.count("\n") == 1 and err.startswith("ifhier: interrupted") and "Traceback" not in err, err

def test_ifeval_score_loads_only_what_the_records_need(tmp_path):
    "No pandas/NumPy/SciPy ever; langdetect only when some record has a langdetect instruction."
    lang = ("language:response_language", "change_case:english_capital", "change_case:english_lowercase")
    import json
    recs = [json.loads(l) for l in (FIX / "ifeval_input.jsonl").read_text().splitlines() if l.strip()]
    (tmp_path / "nolang.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs if not set(r["instruction_id_list"]) & set(lang)))
    code = ("import sys; from ifhier.cli import main; main(['ifeval', 'score', '--input', sys.argv[1], '--responses', sys.argv[2], "
            "'--out-dir', sys.argv[3]]); print(sorted(m for m in ('pandas', 'numpy', 'scipy', 'nltk.metrics', 'langdetect', 'langdetect_rs') if m in sys.modules))")
    run = lambda inp: subprocess.run([sys.executable, "-c", code, str(inp), str(FIX / "ifeval_responses.jsonl"), str(tmp_path / "o")],
                                     capture_output=True, text=True, check=True).stdout.splitlines()[-1]
    assert run(tmp_path / "nolang.jsonl") == "[]"
    assert run(FIX / "ifeval_input.jsonl") == "['langdetect_rs']"   # langdetect-rs alone, never langdetect itself
