"""Suite-wide rules: a skipped test is a failure here (CI must run everything it claims to run)."""
import os, signal
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# A suite launched in the background by a shell without job control (`cmd &` in a script, nohup) inherits SIGINT
# ignored, and so would every process it starts: the Ctrl-C tests would send a SIGINT nobody hears. Python-level
# handlers are reset to the default on exec, so installing Python's own here gives every child the default again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN: signal.signal(signal.SIGINT, signal.default_int_handler)

_skipped = []

def pytest_runtest_logreport(report):
    if report.skipped: _skipped.append(report.nodeid)

def pytest_sessionfinish(session, exitstatus):
    if _skipped and exitstatus == 0:
        print(f"\nFAILED: {len(_skipped)} test(s) were skipped; this suite runs everything or fails:", *_skipped, sep="\n  ")
        session.exitstatus = 1
