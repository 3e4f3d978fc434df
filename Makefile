# Catan Arena — every command sets itself up first (a virtualenv in .venv).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

PORT ?= 8000

.PHONY: setup services play serve test test-fast lint typecheck pytest bench bench-sandbox bench-strength train-policy bench-catanatron bench-platform bench-ladder bench-trust bench-load bench-pages bench-validation bench-bank-zero clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		apt-get install -y -qq bubblewrap >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq bubblewrap) ; } || \
		echo "warning: bubblewrap is missing: bots will run in a weaker sandbox tier, or not at all"
	@test -x /usr/bin/chromium || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		(apt-get install -y -qq chromium >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq chromium >/dev/null)) ; } || \
		echo "warning: /usr/bin/chromium is missing: the browser tests need Debian's chromium"
	@/usr/bin/python3.11 -c 'import venv' 2>/dev/null || { [ "$$(id -u)" = 0 ] && \
		command -v apt-get >/dev/null && (apt-get update -qq && \
		apt-get install -y -qq python3.11 python3.11-venv >/dev/null) ; } || \
		echo "warning: bots run on /usr/bin/python3.11 (Debian's python3.11 + python3.11-venv): install it"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip==26.3
	PYTHONWARNINGS=ignore $(PY) -m pip install --quiet -e ".[dev,gym]"  # no setuptools banner
	$(PY) -c 'import sys; from arena_runner.sandbox.botenv import main; sys.exit(main([]))'
	touch $(STAMP)

## The platform's tests start a PostgreSQL and a Redis of their own on free ports
## (tests/support/services.py), never this machine's: Debian's packages, installed when missing.
services:
	@{ ls /usr/lib/postgresql/*/bin/initdb && command -v redis-server && command -v psql; } \
		>/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		(apt-get update -qq && apt-get install -y -qq postgresql redis-server >/dev/null) ; } || \
		echo "warning: the platform's tests need Debian's postgresql and redis-server: install them"

## What tests/platform/test_compose.py validates docker-compose.yml with (docker-compose, the schema).
$(VENV)/.compose-validator: .ci/compose-validator $(STAMP)
	./.ci/compose-validator
	touch $@

## The main job: a round-robin tournament among the built-in bots on the embedded default
## (SQLite in .data/, no broker; each bot in its own sandboxed process), then the standings.
## A 0.1 s decision clock: the search bot thinks as long as its clock allows (~30 s in all).
play: setup
	$(PY) manage.py migrate --verbosity 0
	$(PY) manage.py tournament --cycles 8 --decision-seconds 0.1

## The whole platform on the embedded default (site, workers, scheduler) until Ctrl-C.
serve: setup
	$(PY) manage.py serve --port $(PORT)

## Lint, type-check and run the whole test suite (what CI runs).
test: lint typecheck pytest

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check engine bots arena_cli arena_runner platform tests benchmarks manage.py

typecheck: setup
	$(VENV)/bin/mypy --strict engine arena_runner arena_cli bots platform/catan_arena benchmarks

## The fast tier, under a minute: the engine, the bots, the runner and the competition math
## (no Django, no PostgreSQL or Redis; not the slow, serial or own-process tests).
test-fast: setup
	$(PY) -m pytest -n 2 -q -p no:django -W "ignore::pytest.PytestConfigWarning" \
		-m "not slow and not serial and not own_process" tests/engine tests/bots tests/runner tests/competition

pytest: setup services $(VENV)/.compose-validator
	$(PY) -m pytest -n 2 -q -m "not serial and not own_process"
	$(PY) -m pytest -q -m "serial and not own_process"
	$(PY) -m pytest -q -m own_process

## Engine speed, side by side with catanatron.
bench: setup
	$(VENV)/bin/catan-arena bench

## Sandbox overhead: spawn, decision round trip, whole game (sandboxed vs in-process).
bench-sandbox: setup
	$(PY) benchmarks/sandbox_overhead.py

## Matches per minute through Celery (Redis, PostgreSQL, 1 and 2 workers) beside the bare runner.
bench-platform: setup
	$(PY) benchmarks/platform_throughput.py

## Ladder matches per minute through the real scheduler beside the bare runner (docs/RATINGS.md).
bench-ladder: setup
	$(PY) benchmarks/ladder_throughput.py $(ARGS)

## Seconds from an upload to its verdict while every match worker is busy (both modes).
bench-validation: setup
	$(PY) benchmarks/validation_latency.py $(ARGS)

## How far the ratings can be trusted: a simulation with bots of known strength (docs/RATINGS.md).
bench-trust: setup
	$(PY) benchmarks/trust_simulation.py $(ARGS)

## No innocent forfeits: 1,000 games of four sandboxed random bots at bank 0, every core
## loaded by a CPU burner (docs/RELIABILITY.md). ~6 s a game on 2 loaded cores.
bench-bank-zero: setup
	$(PY) -m benchmarks.bank_zero $(ARGS)

## The platform under load (docs/RELIABILITY.md): 1,000 ladder matches through Redis to two
## workers while 20 spectators browse 10,000 matches of history; nothing lost. ~10 minutes.
bench-load: setup
	$(PY) benchmarks/load_test.py $(ARGS)

## Each page's server time and queries on 10,000 matches of history, idle.
bench-pages: setup
	$(PY) benchmarks/page_profile.py $(ARGS)

## Bot strength with 95% intervals, every figure of issue 22 in one run (long, on two idle
## cores: ~4 minutes per 200 games of search at 100 ms a decision, ~26 at 1 s; the pairings
## with catanatron's players, where a checkout of it is in .cache/catanatron-src, ~1 hour).
## The two clocks of search play the same fresh seeds, compared game by game.
STRENGTH_100MS := .cache/strength/search-100ms.json
STRENGTH_1S := .cache/strength/search-1s.json

bench-strength: setup
	$(PY) benchmarks/strength.py heuristic random --games 100 --decision-ms 100
	$(PY) benchmarks/strength.py bots/examples/first_bot.py random --games 100 --decision-ms 100
	seed=$$(od -An -N6 -tu8 /dev/urandom | tr -d ' '); \
	$(PY) benchmarks/strength.py search heuristic --games 200 --decision-ms 100 --seed $$seed --save $(STRENGTH_100MS) && \
	$(PY) benchmarks/strength.py search heuristic --games 200 --decision-ms 1000 --seed $$seed --save $(STRENGTH_1S)
	$(PY) benchmarks/strength_difference.py $(STRENGTH_100MS) $(STRENGTH_1S)
	$(PY) benchmarks/strength.py bots/examples/trained_policy heuristic --games 1000 --decision-ms 100
	@if [ -d .cache/catanatron-src ]; then \
		$(PY) benchmarks/strength_vs_catanatron.py search --games 200 --decision-ms 100; \
	else echo "catanatron pairings skipped: no checkout in .cache/catanatron-src"; fi

## The trained-policy example's weights, by imitation of search's default policy (~2 minutes;
## docs/bot-guide.md, "Train and ship a policy"): bots/examples/trained_policy/weights.json.
train-policy: setup
	$(PY) benchmarks/train_policy.py --games 400 --seed 1 $(ARGS)

## search 1-vs-3 against catanatron's AlphaBeta and ValueFunction players, and back (a
## catanatron checkout in .cache/catanatron-src; ARGS="--games 200" for the issue's count).
bench-catanatron: setup
	$(PY) benchmarks/strength_vs_catanatron.py search $(ARGS)

clean:
	rm -rf $(VENV) .cache .pytest_cache .mypy_cache .ruff_cache
