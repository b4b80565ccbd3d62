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

## make test: set up and run the whole suite (tests start the servers they need)
test: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

## make lint: the house rules a clean checkout must pass (CI runs it before the tests);
## mypy reads [tool.mypy] in pyproject.toml (strict on the Qt-free packages, lighter on ui/)
lint: setup
	$(VENV)/bin/ruff check desktop tests
	$(VENV)/bin/ruff format --check desktop tests
	$(VENV)/bin/mypy

bench: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -s tests/bench -p no:cacheprovider -o norecursedirs=

screenshots: setup
	@test -f $(DEMO)/lorekeeper.toml || $(VENV)/bin/lorekeeper init $(DEMO) --demo
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/lorekeeper --workspace $(DEMO) gui --screenshot screenshots

clean:
	rm -rf $(VENV) $(DEMO) build dist screenshots
