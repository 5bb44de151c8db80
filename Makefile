# One entry point. Each target creates .venv and installs the project when
# missing, so every README command works on a fresh machine by itself.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export DAGSTER_HOME ?= $(CURDIR)/.dagster_home
export RELIABILITY_DATA_DIR ?= $(CURDIR)/data


.PHONY: home install test lint typecheck pytest demo ui api bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# DAGSTER_HOME is always set (never a temporary instance) so dynamic partitions
# persist between commands; the instance config is the repo's dagster.yaml.
$(DAGSTER_HOME)/dagster.yaml: dagster.yaml
	mkdir -p $(DAGSTER_HOME)
	cp dagster.yaml $(DAGSTER_HOME)/dagster.yaml

home: $(DAGSTER_HOME)/dagster.yaml

lint: $(STAMP)
	$(BIN)/ruff check reliability_core reliability_dagster tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy reliability_core reliability_dagster

pytest: $(STAMP) home
	$(BIN)/pytest -q

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .dagster_home .pytest_cache .mypy_cache .ruff_cache
