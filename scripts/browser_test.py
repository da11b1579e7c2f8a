"""Real-browser test of the workbench: JupyterLab + Chromium (Playwright) run the IFHierBench notebook,
click Next on the tree stepper, check that the node, its verdicts and the highlighted slice change,
and save a screenshot to out/screenshots/workbench.png; then the same for the stepper's compare mode in
nbs/analysis/compare.ipynb (Next moves to the next node where the two answers differ), screenshot
out/screenshots/workbench_compare.png. Nothing tracked changes: the notebooks are never saved and their figures
go to a temporary folder; `make screenshots` writes the two screenshots the README shows, in figures/.

    python scripts/browser_test.py [--notebook nbs/analysis/ifhierbench.ipynb] [--timeout 150]

Installs Debian's Chromium with apt-get if /usr/bin/chromium is missing (never `playwright install`).
JupyterLab listens on 127.0.0.1 only, on a random free port, behind a random token, with its own
temporary config, data-less runtime and workspace folders; each notebook opens alone, in its own reset workspace
(JupyterLab would otherwise bring back the tab an earlier page left open); everything it started is shut down at the end.
"""
from __future__ import annotations
import argparse, collections, contextlib, os, secrets, shutil, socket, subprocess, sys, tempfile, threading, time, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

def ensure_chromium():
    "Install Debian's chromium package unless it is already there (idempotent)."
    if Path(CHROMIUM).exists(): return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(sudo + ["apt-get", "install", "-y", "chromium"], check=True, env=env, stdout=subprocess.DEVNULL)

def free_port()->int:
    with socket.socket() as s: s.bind(("127.0.0.1", 0)); return s.getsockname()[1]

def start_lab(tmp:Path, port:int, token:str)->subprocess.Popen:
    "JupyterLab on 127.0.0.1:`port`, serving the project, with its own config/runtime/workspace dirs under `tmp`."
    # the test changes nothing tracked: JupyterLab never autosaves the notebooks it runs, and their figures go to `tmp`
    settings = tmp / "settings" / "@jupyterlab" / "docmanager-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "plugin.jupyterlab-settings").write_text('{"autosave": false}')
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTER_TOKEN=token, PYTHONPATH=str(ROOT), LITELLM_LOCAL_MODEL_COST_MAP="True", PYTHONHASHSEED="0",
               IFHIER_FIGURES_DIR=str(tmp / "figures"))
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
           f"--ServerApp.root_dir={ROOT}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}", f"--LabApp.user_settings_dir={tmp / 'settings'}", "--LabApp.news_url=",
           "--ServerApp.disable_check_xsrf=False"] + (["--allow-root"] if os.geteuid() == 0 else [])
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    proc.log = collections.deque(maxlen=40)      # kept in memory only: the server prints its token
    threading.Thread(target=lambda: [proc.log.append(l.decode(errors="replace").replace(token, "<token>")) for l in proc.stdout], daemon=True).start()
    return proc

def wait_ready(port:int, token:str, proc:subprocess.Popen, timeout:float=60):
    url = f"http://127.0.0.1:{port}/api/status"
    t0 = time.time()
    while time.time() - t0 < timeout:
        if proc.poll() is not None: raise RuntimeError("JupyterLab exited early")
        try:
            req = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
            with urllib.request.urlopen(req, timeout=2) as r:
                if r.status == 200: return
        except OSError: time.sleep(0.5)
    raise TimeoutError("JupyterLab did not start")

def stop_lab(port:int, token:str, proc:subprocess.Popen):
    "Ask the server to shut down (it stops its kernels), then make sure the process we started is gone."
    try:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/shutdown", method="POST", headers={"Authorization": f"token {token}"})
        urllib.request.urlopen(req, timeout=5)
    except OSError: pass
    try: proc.wait(timeout=20)
    except subprocess.TimeoutExpired: proc.terminate(); proc.wait(timeout=10)

def state(stepper)->dict:
    "What the first stepper shows: node header, verdict pane text, highlighted slice."
    return dict(node=stepper.locator(".ifhier-node").inner_text().strip(),
                verdicts=stepper.locator(".ifhier-verdict-pane").inner_text().strip(),
                mark=stepper.locator(".ifhier-answer mark").first.inner_text())

def accept_kernel_dialog(page, wait_s:float=8):
    "JupyterLab sometimes asks which kernel to start (a slow machine, a fresh session): take the proposed one."
    try: page.locator(".jp-Dialog .jp-mod-accept").first.wait_for(state="visible", timeout=wait_s * 1000)
    except Exception: return
    page.locator(".jp-Dialog .jp-mod-accept").first.click()

def wait_visible(page, selector:str, timeout_ms:int=60_000):
    "Wait until some element matching `selector` is shown (not merely the first match, which may sit in a hidden tab)."
    page.wait_for_function("(sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null)",
                           arg=selector, timeout=timeout_ms)

def lab_url(port:int, token:str, notebook:str, workspace:str)->str:
    "JupyterLab's URL for `notebook` alone: its own workspace, reset, so no tab an earlier page left open comes back."
    return f"http://127.0.0.1:{port}/lab/workspaces/{workspace}/tree/{notebook}?reset&token={token}"

@contextlib.contextmanager
def notebook_widget(url:str, selector:str, timeout_s:float, failure_png:str):
    "Open `url` in Chromium, Run All, wait for the widget `selector`; yield (page, widget). A page screenshot names a timeout."
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 1600})
        page.goto(url, timeout=60_000)
        # wait on the notebook in view: a hidden tab's toolbar (one a restored workspace brought back) never shows
        wait_visible(page, ".jp-Notebook .jp-Cell")
        wait_visible(page, ".jp-Notebook-ExecutionIndicator[data-status='idle'], .jp-DebuggerBugButton, .jp-KernelStatus")
        time.sleep(2)
        accept_kernel_dialog(page)
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()
        widget = page.locator(selector).first
        try: widget.wait_for(state="attached", timeout=timeout_s * 1000)
        except Exception:
            page.screenshot(path=str(Path(tempfile.gettempdir()) / failure_png), full_page=True); raise
        yield page, widget
        browser.close()

def screenshot(page, widget, shot:Path):
    "Dismiss JupyterLab's news toast (it would cover the widget) and save the widget's screenshot to `shot`."
    no = page.locator(".jp-toast-button", has_text="No")
    if no.count(): no.first.click()
    widget.scroll_into_view_if_needed()
    shot.parent.mkdir(parents=True, exist_ok=True)
    widget.screenshot(path=str(shot))

def drive(url:str, shot:Path, timeout_s:float)->tuple:
    with notebook_widget(url, ".ifhier-stepper", timeout_s, "ifhier-browser-failure.png") as (page, stepper):
        stepper.locator(".ifhier-answer mark").first.wait_for(timeout=30_000)
        stepper.scroll_into_view_if_needed()
        before = state(stepper)
        stepper.locator(".ifhier-next").click()
        page.wait_for_function("(b) => { const s = document.querySelector('.ifhier-stepper .ifhier-node');"
                               " return s && s.innerText.trim() !== b; }", arg=before["node"], timeout=20_000)
        stepper.locator(".ifhier-answer mark").first.wait_for(state="attached", timeout=10_000)
        after = state(stepper)
        screenshot(page, stepper, shot)
    return before, after

def drive_compare(url:str, shot:Path, timeout_s:float)->tuple:
    "Run the compare notebook, click Next on the compare stepper; (node header before, after, side A text, side B text)."
    with notebook_widget(url, ".ifhier-compare", timeout_s, "ifhier-browser-compare-failure.png") as (page, cs):
        cs.locator(".ifhier-compare-side-a mark, .ifhier-compare-side-b mark").first.wait_for(timeout=30_000)
        cs.scroll_into_view_if_needed()
        head = lambda: cs.locator(".ifhier-compare-node").inner_text().strip()
        before = head()
        cs.locator(".ifhier-compare-next").click()
        page.wait_for_function("(b) => { const s = document.querySelector('.ifhier-compare .ifhier-compare-node');"
                               " return s && s.innerText.trim() !== b; }", arg=before, timeout=20_000)
        after, a, b = head(), cs.locator(".ifhier-compare-side-a").inner_text(), cs.locator(".ifhier-compare-side-b").inner_text()
        screenshot(page, cs, shot)
    return before, after, a, b

def main()->int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notebook", default="nbs/analysis/ifhierbench.ipynb")
    ap.add_argument("--timeout", type=float, default=150, help="seconds for the notebook to reach the stepper")
    ap.add_argument("--screenshot", default=str(ROOT / "out" / "screenshots" / "workbench.png"),
                    help="where the stepper's screenshot goes (`make screenshots` writes the README's, in figures/)")
    ap.add_argument("--compare-notebook", default="nbs/analysis/compare.ipynb")
    ap.add_argument("--compare-screenshot", default=str(ROOT / "out" / "screenshots" / "workbench_compare.png"))
    a = ap.parse_args()
    t0 = time.time()
    ensure_chromium()
    tmp, port, token = Path(tempfile.mkdtemp(prefix="ifhier-lab-")), free_port(), secrets.token_hex(16)
    proc = start_lab(tmp, port, token)
    try:
        wait_ready(port, token, proc)
        before, after = drive(lab_url(port, token, a.notebook, "ifhier-stepper"), Path(a.screenshot), a.timeout)
        cmp = drive_compare(lab_url(port, token, a.compare_notebook, "ifhier-compare"), Path(a.compare_screenshot), a.timeout)
    except Exception:
        print("JupyterLab log (last lines):\n" + "".join(proc.log), file=sys.stderr); raise
    finally:
        stop_lab(port, token, proc)
        shutil.rmtree(tmp, ignore_errors=True)
    fails = [k for k in ("node", "verdicts", "mark") if before[k] == after[k]]
    print(f"before Next: {before['node']!r}; mark {before['mark'][:60]!r}")
    print(f"after  Next: {after['node']!r}; mark {after['mark'][:60]!r}")
    if fails:
        print(f"browser test FAILED: {', '.join(fails)} did not change after Next", file=sys.stderr); return 1
    print(f"compare mode: before Next {cmp[0]!r}; after {cmp[1]!r}")
    if cmp[0] == cmp[1] or "differing node" not in cmp[1] or "passes this node" not in cmp[2] or "fails this node" not in cmp[3]:
        print("browser test FAILED: the compare stepper did not move to the next differing node with A passing and B failing it", file=sys.stderr); return 1
    print(f"browser test passed in {time.time() - t0:.0f}s; screenshots {a.screenshot}, {a.compare_screenshot}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
