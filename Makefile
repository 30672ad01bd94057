# Two commands for a fresh machine: `make demo` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml examples/plugins/sim-duel/pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]' -e examples/plugins/sim-duel
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/sim demo

# Checks, then tests: lint (with docstrings on the public API), types (pyproject.toml), pytest.
test: $(STAMP)
	$(VENV)/bin/ruff check sim tests benchmarks
	$(VENV)/bin/mypy
	$(PY) -m pytest

# The benchmarks' own extra (Mesa, for the movement case), then every engine case.
bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) sim-demo .pytest_cache .mypy_cache .ruff_cache
