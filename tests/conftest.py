"""Suite-wide rules: a skipped test is a failure here (CI must run everything it claims to run)."""
import os
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

_skipped = []

def pytest_runtest_logreport(report):
    if report.skipped: _skipped.append(report.nodeid)

def pytest_sessionfinish(session, exitstatus):
    if _skipped and exitstatus == 0:
        print(f"\nFAILED: {len(_skipped)} test(s) were skipped; this suite runs everything or fails:", *_skipped, sep="\n  ")
        session.exitstatus = 1
