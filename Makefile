# ifhier: `make run` runs the main job offline end to end; `make test` runs everything CI runs.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export LITELLM_LOCAL_MODEL_COST_MAP := True
export PYTHONHASHSEED := 0
OUT ?= out

.PHONY: install run test test-browser lab sync-check nbtest pytest bench export docs outputs screenshots clean

$(STAMP): settings.ini setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

## the main job, offline: build the benchmark, answer it with the embedded responders, score, report
run: install
	$(BIN)/python scripts/run_all.py --out $(OUT)

## everything CI runs: exports in sync, notebook tests, the pytest suite, the real-browser workbench test
test: install sync-check nbtest pytest test-browser

sync-check: install
	$(BIN)/python scripts/check_sync.py
	$(BIN)/python scripts/import_cells.py --check

## every notebook's cells as tests; figures go to a temporary folder, so nothing tracked is rewritten
nbtest: install
	fig=$$(mktemp -d) && IFHIER_FIGURES_DIR=$$fig $(BIN)/nbdev_test --n_workers 2 --do_print --timing; rc=$$?; rm -rf $$fig; exit $$rc

pytest: install
	$(BIN)/python -m pytest -q tests

## real-browser test of the workbench (JupyterLab + Debian's Chromium via Playwright); screenshot in figures/workbench.png
test-browser: install
	$(BIN)/python scripts/browser_test.py

## refresh the README's two workbench screenshots (figures/workbench.png, figures/workbench_compare.png)
screenshots: install
	$(BIN)/python scripts/browser_test.py --screenshot figures/workbench.png --compare-screenshot figures/workbench_compare.png

## the workbench: JupyterLab on 127.0.0.1 (token-protected), opened on nbs/analysis
lab: install
	PYTHONPATH=$(CURDIR) $(BIN)/jupyter lab --ip=127.0.0.1 --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/nbs/analysis

## the documentation site (nbdev + smalldocs, offline): _docs/index.html and one page per notebook
docs: install
	$(BIN)/python scripts/docs.py --out _docs

## re-execute the library notebooks and keep their example outputs (then nbdev_clean)
outputs: install
	$(BIN)/python scripts/nbtool.py outputs $$(find nbs -name '*.ipynb' -not -path 'nbs/analysis/*' | sort) && $(BIN)/nbdev_clean

bench: install
	$(BIN)/python scripts/bench.py

export: install
	$(BIN)/nbdev_export && $(BIN)/nbdev_clean

clean:
	rm -rf $(VENV) $(OUT) _proc _docs
