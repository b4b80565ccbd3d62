# The two commands that matter: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
DEMO   ?= $(CURDIR)/.demo-workspace
export QT_QPA_PLATFORM ?= $(if $(DISPLAY)$(WAYLAND_DISPLAY),,offscreen)

.PHONY: run test lint setup bench screenshots clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $@

setup: $(VENV)/.installed

## make run: set up, create the demo workspace (outside the tracked tree) and open the app
run: setup
	@test -f $(DEMO)/lorekeeper.toml || $(VENV)/bin/lorekeeper init $(DEMO) --demo
	$(VENV)/bin/lorekeeper --workspace $(DEMO)

## make test: set up and run the whole suite (tests start the servers they need), one pytest-xdist
## worker per core (at most 4, see tests/conftest.py), a test file per worker at a time.
## PYTEST_ARGS overrides, e.g. `make test PYTEST_ARGS="-n0 -x"` for one process that stops early.
PYTEST_ARGS ?= -n auto --dist loadfile
test: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q $(PYTEST_ARGS)

## make lint: the house rules a clean checkout must pass (CI runs it before the tests)
lint: setup
	$(VENV)/bin/ruff check desktop tests
	$(VENV)/bin/ruff format --check desktop tests
	PYTHONPATH=$(CURDIR)/desktop $(VENV)/bin/lint-imports

bench: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -s tests/bench -p no:cacheprovider -o norecursedirs=

screenshots: setup
	@test -f $(DEMO)/lorekeeper.toml || $(VENV)/bin/lorekeeper init $(DEMO) --demo
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/lorekeeper --workspace $(DEMO) gui --screenshot screenshots

clean:
	rm -rf $(VENV) $(DEMO) build dist screenshots
