# Entry points (see README.md). Each target creates the isolated environment it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORES ?= all
PYTEST_ARGS ?=

.PHONY: help install reproduce data test lint clean

help:
	@echo "make reproduce   create .venv, install, run the whole pipeline (snakemake --cores $(CORES))"
	@echo "make test        create .venv, install, run the test suite"
	@echo "make data        only fetch, verify and parse the UCI datasets"
	@echo "make lint        snakemake --lint"
	@echo "Set REPRO_MIRROR=/path/to/data-mirror to read raw inputs from a local mirror."

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/.installed

reproduce: install
	$(BIN)/snakemake --cores $(CORES)

data: install
	$(BIN)/snakemake --cores $(CORES) data

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/snakemake --lint

clean:
	rm -rf .snakemake logs benchmarks data/raw data/processed
