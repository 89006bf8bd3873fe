# playtester: `make demo` runs the main job on a bundled game, `make test` runs the test suite.
# Each bootstraps its own virtual environment in .venv (Python 3.11+).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: demo test test-slow bench lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "playtester needs Python 3.11+"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	touch $@

$(VENV)/.dev: $(VENV)/.installed
	$(PIP) -e '.[dev]'
	touch $@

# Exit status 1 means "bugs found", which is what a demo on a game with injected bugs should show.
demo: $(VENV)/.installed
	$(VENV)/bin/playtester run blockmaze --steps 3000 --workers 2; test $$? -le 1

test: $(VENV)/.dev
	$(PY) -m pytest

test-slow: $(VENV)/.dev
	$(PY) -m pytest -m slow

bench: $(VENV)/.dev
	$(PY) bench/driver_overhead.py

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check src tests bench

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache
