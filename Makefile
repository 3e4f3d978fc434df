# Catan Arena — every command sets itself up first (a virtualenv in .venv).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup play test lint typecheck pytest bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip==26.3
	$(PY) -m pip install --quiet -e ".[dev,gym]"
	$(PY) -m arena_runner.sandbox.botenv
	touch $(STAMP)

## The main job: a tournament among the built-in bots (each in its own process), with a progress bar.
play: setup
	$(VENV)/bin/catan-arena play heuristic heuristic random random --games 40 --seed 1

## Lint, type-check and run the whole test suite (what CI runs).
test: lint typecheck pytest

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check engine bots arena_cli arena_runner tests benchmarks

typecheck: setup
	$(VENV)/bin/mypy --strict engine

pytest: setup
	$(PY) -m pytest -n 2 -q

bench: setup
	$(VENV)/bin/catan-arena bench

clean:
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache
