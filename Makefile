# Entry points (see README.md). Each target creates the isolated environment it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORES ?= all
PYTEST_ARGS ?=

.PHONY: help install reproduce data report test lint regression golden check-full clean

help:
	@echo "make reproduce   create .venv, install, run the whole pipeline (snakemake --cores $(CORES))"
	@echo "make test        create .venv, install, run the test suite"
	@echo "make data        only fetch, verify and parse the UCI datasets"
	@echo "make report      rebuild reports/ from the tables under results/ (no recomputation)"
	@echo "make lint        snakemake --lint"
	@echo "make regression  re-run the reduced 'ci' profile and diff its tables with tests/golden/ci"
	@echo "make golden      re-run the 'ci' profile and overwrite tests/golden/ci (review the diff!)"
	@echo "make check-full  re-run the full default config elsewhere and diff with results/"
	@echo "Set REPRO_MIRROR=/path/to/data-mirror to read raw inputs from a local mirror."

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/.installed

reproduce: install
	$(BIN)/python -m weightboost.run --cores $(CORES)

data: install
	$(BIN)/python -m weightboost.run --cores $(CORES) data

report: install
	$(BIN)/snakemake --cores $(CORES) report

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/snakemake --lint

regression: install
	$(BIN)/python -m weightboost.regression run --config ci

golden: install
	$(BIN)/python -m weightboost.regression golden --config ci

check-full: install
	$(BIN)/python -m weightboost.regression run --config full

clean:
	rm -rf .snakemake logs benchmarks data/raw data/processed
