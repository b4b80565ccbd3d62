# The two commands that matter: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
DEMO   ?= $(CURDIR)/.demo-workspace
# No offscreen default: on a machine without a display `make run` says so (tests, screenshots and
# dist-check set QT_QPA_PLATFORM=offscreen themselves).

.PHONY: run test lint setup bench screenshots clean dist dist-check claude-code i18n i18n-qm

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $@

setup: $(VENV)/.installed i18n-qm

## Translations (Qt Linguist): resources/i18n/lorekeeper_<lang>.ts are the sources, kept in git;
## the .qm the app loads are compiled from them here (setup, run, test, dist all depend on it).
## `make i18n`: refresh the .ts from the UI's tr()/translate() calls (translations are kept), then
## compile. tests/ui/test_i18n.py fails when a string has no finished French translation.
I18N_LANGS   := fr
# English needs only its plural forms (%n): the source strings are the English texts
I18N_ALL     := en $(I18N_LANGS)
I18N_TS      := $(foreach l,$(I18N_ALL),resources/i18n/lorekeeper_$(l).ts)
I18N_QM      := $(I18N_TS:.ts=.qm)
I18N_SOURCES  = $(shell find desktop/lorekeeper/ui -name '*.py' | LC_ALL=C sort)
resources/i18n/%.qm: resources/i18n/%.ts $(VENV)/.installed
	$(VENV)/bin/pyside6-lrelease -silent $< -qm $@
i18n-qm: $(I18N_QM)
i18n: $(VENV)/.installed
	@for l in $(I18N_LANGS); do \
	  $(VENV)/bin/pyside6-lupdate -silent -locations none -no-obsolete -target-language $$l \
	    $(I18N_SOURCES) -ts resources/i18n/lorekeeper_$$l.ts || exit 1; done
	$(VENV)/bin/pyside6-lupdate -silent -locations none -no-obsolete -pluralonly -target-language en \
	  $(I18N_SOURCES) -ts resources/i18n/lorekeeper_en.ts
	$(MAKE) --no-print-directory i18n-qm

## make run: set up, create the demo workspace (outside the tracked tree) and open the app
run: setup
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ] && { [ -z "$$QT_QPA_PLATFORM" ] || [ "$$QT_QPA_PLATFORM" = offscreen ]; }; then \
	  echo "make run: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the app would run invisibly." >&2; \
	  echo "  Headless? Render every panel to PNG instead: make screenshots (writes screenshots/*.png)." >&2; \
	  echo "  Remote? Use ssh -X, or a VNC/X server, then make run." >&2; \
	  exit 2; fi
	@test -f $(DEMO)/lorekeeper.toml || $(VENV)/bin/lorekeeper init $(DEMO) --demo
	$(VENV)/bin/lorekeeper --workspace $(DEMO)

## make test: set up and run the whole suite (tests start the servers they need), pytest-xdist workers
## one per core and one more (at most 4, see tests/conftest.py), a test file per worker at a time.
## PYTEST_ARGS overrides, e.g. `make test PYTEST_ARGS="-n0 -x"` for one process that stops early.
## Tests marked `serial` (a measured bound: the GUI-stall heartbeat) run afterwards, alone.
## --no-loadscope-reorder: files are handed out longest first (LONG_FILES in tests/conftest.py).
PYTEST_ARGS ?= -n auto --dist loadfile --no-loadscope-reorder
## The suite runs under eatmydata when the machine has it (Debian package eatmydata; .ci/run installs
## it): fsync and friends become no-ops for the test processes, as the throwaway PostgreSQL cluster
## already runs with fsync=off. Every signed write fsyncs its database, its log and its witness, and
## the suite makes tens of thousands of them: on a machine whose disk is busy, waiting for it was a
## large part of the suite's time (on a quiet machine it makes no measurable difference). What
## the tests check is unchanged: a killed process (kill -9) never loses the page cache, so crash
## tests mean the same; power loss is something no test here can check. `make test EATMYDATA=` runs
## with real fsyncs.
EATMYDATA ?= $(shell command -v eatmydata 2>/dev/null)
test: setup
	@test -n "$$LOREKEEPER_TEST_NO_NPM" || $(PY) tests/helpers/claude_code.py >/dev/null \
	  || echo "make test: the Claude Code CLI is not installed; its end-to-end test will say why" >&2
	QT_QPA_PLATFORM=offscreen $(EATMYDATA) $(PY) -m pytest -q $(PYTEST_ARGS) -m "not serial"
	QT_QPA_PLATFORM=offscreen $(EATMYDATA) $(PY) -m pytest -q -p no:xdist -m serial

## make claude-code: install the real Claude Code CLI (npm, scripts disabled) into
## ~/.cache/lorekeeper-tests/claude-code ($LOREKEEPER_TEST_CACHE) for the plugin's end-to-end test;
## `make test` installs it first when it is missing, as a set-up step like `make setup` (best effort:
## offline, the test says why; LOREKEEPER_TEST_NO_NPM=1: skip the install and the test).
claude-code:
	$(PYTHON) tests/helpers/claude_code.py

## make lint: the house rules a clean checkout must pass (CI runs it before the tests);
## mypy reads [tool.mypy] in pyproject.toml (strict on the Qt-free packages, lighter on ui/)
lint: setup
	$(VENV)/bin/ruff check desktop tests
	$(VENV)/bin/ruff format --check desktop tests
	PYTHONPATH=$(CURDIR)/desktop $(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

bench: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -s tests/bench -p no:cacheprovider -o norecursedirs=

screenshots: setup
	@test -f $(DEMO)/lorekeeper.toml || $(VENV)/bin/lorekeeper init $(DEMO) --demo
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/lorekeeper --workspace $(DEMO) gui --screenshot screenshots

## make dist: the one-folder desktop bundle dist/lorekeeper/ (executable dist/lorekeeper/lorekeeper)
$(VENV)/.dist-installed: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test,dev,dist]'
	touch $@

dist: $(VENV)/.dist-installed i18n-qm
	@start=$$(date +%s); \
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/lorekeeper.spec && \
	echo "bundle: $$(du -sh dist/lorekeeper | cut -f1) in dist/lorekeeper, built in $$(( $$(date +%s) - start )) s"

## make dist-check: build the bundle and run its smoke test (CI runs it after make test)
dist-check: dist
	LOREKEEPER_BUNDLE=$(CURDIR)/dist/lorekeeper/lorekeeper QT_QPA_PLATFORM=offscreen \
	  $(PY) -m pytest -q -p no:cacheprovider -m bundle tests/packaging

clean:
	rm -rf $(VENV) $(DEMO) build dist screenshots
