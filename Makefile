# Two commands for a fresh machine: `make demo` and `make test`.
# Two stamps: the demo installs the package with its `demo` extra (what `sim demo` needs: its
# plots); the tests add the test extras (every other extra, pytest, notebooks, the checkers)
# and the example plug-ins (the tests run them as installed distributions; mypy checks them
# strictly).
VENV ?= .venv
PY := $(VENV)/bin/python
DEMO_STAMP := $(VENV)/.installed-demo
STAMP := $(VENV)/.installed

.PHONY: demo test docs bench clean chromium

$(DEMO_STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[demo]'
	touch $(DEMO_STAMP)

$(STAMP): $(DEMO_STAMP) pyproject.toml examples/plugins/sim-duel/pyproject.toml \
		examples/plugins/sim-mgbeam/pyproject.toml examples/plugins/sim-minefield/pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]' -e examples/plugins/sim-duel -e examples/plugins/sim-mgbeam \
		-e examples/plugins/sim-minefield
	touch $(STAMP)

demo: $(DEMO_STAMP)
	$(VENV)/bin/sim demo

# The replay and report tests load pages in a real browser: Debian's chromium, which pip
# cannot install. Installed when missing: as root with apt-get, otherwise through sudo.
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
	    if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	    echo "installing Debian's chromium (for the browser tests)"; \
	    $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; \
	fi
	@command -v chromium >/dev/null || { echo "chromium is still missing" >&2; exit 1; }

# The documentation site, docs/_build/html/index.html (opens offline): the lessons executed,
# the API from the docstrings; any warning (a broken link or reference too) fails it.
docs: $(STAMP)
	$(VENV)/bin/sphinx-build -W --keep-going -n -b html docs docs/_build/html

# Checks, then the site, then tests: lint (with docstrings on the public API), types
# (pyproject.toml: strict over the public API, the core and both example plug-ins), pytest
# (tests/test_docs_site.py reads the site just built).
test: $(STAMP) chromium docs
	$(VENV)/bin/ruff check sim tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest

# The benchmarks' own extra (Mesa, for the movement case), then every engine case.
bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) sim-demo .pytest_cache .mypy_cache .ruff_cache docs/_build docs/jupyter_execute
