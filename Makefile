# One entry point. Each target creates .venv and installs the project when
# missing, so every README command works on a fresh machine by itself.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export DAGSTER_HOME ?= $(CURDIR)/.dagster_home
export RELIABILITY_DATA_DIR ?= $(CURDIR)/data


.PHONY: home install test lint typecheck pytest demo rehearse ui daemon api pools clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# DAGSTER_HOME is always set (never a temporary instance) so dynamic partitions
# persist between commands; the instance config is the repo's dagster.yaml.
# The instance is created (and migrated) once here, before any run: Dagster's
# first-time SQLite migration is not safe when several runs race to do it.
$(DAGSTER_HOME)/dagster.yaml: dagster.yaml $(STAMP)
	mkdir -p $(DAGSTER_HOME)
	cp dagster.yaml $(DAGSTER_HOME)/dagster.yaml
	$(BIN)/dagster instance migrate >/dev/null

home: $(DAGSTER_HOME)/dagster.yaml

# lint-imports checks the layers contract of pyproject.toml ([tool.importlinter]): the
# core's layers only point down, the core imports no shell, the API no orchestration.
lint: $(STAMP)
	$(BIN)/ruff check reliability_core reliability_cli reliability_rehearsal reliability_dagster reliability_api tests benchmarks tools
	$(BIN)/lint-imports --no-logo

typecheck: $(STAMP)
	$(BIN)/mypy reliability_core reliability_cli reliability_rehearsal reliability_dagster reliability_api tools

# pytest on every core (pytest-xdist; PYTEST_WORKERS=0 runs in one process). loadfile keeps a
# file's tests on one worker, so a module-scoped fixture is built once; without the reorder
# the longest files (tests/durations.json, else those with a slow test) start first.
# PYTEST_ARGS narrows the run (`make pytest PYTEST_ARGS=tests/scores`).
PYTEST_WORKERS ?= auto
PYTEST_ARGS ?=
pytest: $(STAMP) home
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# Lint and typecheck run beside pytest, not before it: with a cold .mypy_cache mypy is ~35 s
# of CPU that the test workers' tail leaves idle anyway (warm, all three linters take ~2 s).
# Output is synchronised by line (pytest's progress stays live); any failure fails `make test`.
test: $(STAMP) home
	$(MAKE) --no-print-directory -j 3 --output-sync=line lint typecheck pytest

# Provider pools: each bounds one API's calls in flight across all runs on the
# instance (reliability_dagster/pools.py). Limits are instance state in OSS
# Dagster (dagster.yaml sets only the default). Their defaults live in one place,
# reliability_cli/orchestration.py (DEFAULT_POOL_LIMITS), which `reliability pools`
# sets, as `reliability demo`, `ui` and `daemon` do before they start;
# `make pools POOL_LIMITS="openai=4 ..."` (or `dagster instance concurrency set <pool> <n>`) changes them.
export POOL_LIMITS
pools: $(STAMP) home
	$(BIN)/reliability pools

# The main job on the embedded default: offline providers over the demo corpus,
# SQLite instance in DAGSTER_HOME, warehouse in data/warehouse.
# `reliability demo` finds the instance (DAGSTER_HOME, exported above) and sets the
# pools' limits (POOL_LIMITS) itself, as every orchestration verb of the CLI does.
demo: $(STAMP)
	$(BIN)/reliability demo $(ARGS)

# The live rehearsal: the demo subjects on the live provider classes (Anthropic,
# OpenAI, Perplexity) against local vendor servers on loopback that answer from a
# scripted model (labelled "rehearsal" everywhere); prints each subject's summary,
# then calls, tokens and cost per step and per checked claim. No keys, no network;
# its own ephemeral Dagster instance, warehouse in data/rehearsal.
rehearse: $(STAMP)
	$(BIN)/reliability rehearse $(ARGS)

# The Dagster UI on the same instance: asset graph, subject partitions, reports.
# Started from inside DAGSTER_HOME, whose dagster.yaml (the repository's, copied by `home`)
# is the one in use: started from the repository, `dagster dev` warns that the
# repository's dagster.yaml "will not be used". workspace.yaml paths are relative to it.
# `dagster dev` also starts the daemon, which launches queued runs. UI_PORT chooses the port.
UI_PORT ?= 3000
ui: $(STAMP)
	$(BIN)/reliability ui --port $(UI_PORT)

# The daemon alone: launches queued runs (a CLI backfill, sensors, schedules),
# watches running ones and frees the pool slots of dead ones. Without it (or
# `make ui`) a submitted run stays QUEUED.
daemon: $(STAMP)
	$(BIN)/reliability daemon

# The read-only Reliability API over the warehouse (http://127.0.0.1:8000/docs).
API_HOST ?= 127.0.0.1
API_PORT ?= 8000
api: $(STAMP)
	$(BIN)/reliability api --host $(API_HOST) --port $(API_PORT)

clean:
	rm -rf $(VENV) .dagster_home .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
