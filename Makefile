# Entry points (see README.md). Each target creates the isolated environment it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORES ?= all
# Python writes each module's bytecode the first time a process imports it, even where the
# environment sets PYTHONDONTWRITEBYTECODE (this machine does): the install does not compile
# the whole environment (about 13 of uv's 15 s on a 2-core machine, for the 3,100 of its modules
# that a run and the suite import; docs/running.md, "No bytecode at install")
unexport PYTHONDONTWRITEBYTECODE
PYTEST_ARGS ?=
# the suite's processes (pytest-xdist): one per core and one more, since about a third of the
# suite's time is spent waiting (for a SLURM queue, a killed run, a Snakemake's jobs); on 2
# cores 3 took 4:09, 2 took 5:55 and 4 took 4:29 (docs/performance.md, "The test suite"). Each
# test file stays in one process, so that a file's shared fixtures (a finished run, the one-node
# SLURM) are built once, in the order of tests/conftest.py (long files first)
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# uv, the resolver of `make lock` and the default installer of `make install`: a tool, not part
# of the environment it locks; tools.lock pins its version with hashes (`make tools-lock
# UV_VERSION=x.y.z` moves it)
TOOLS_LOCK := tools.lock
# who installs requirements.lock into .venv: uv (default) downloads and unpacks in parallel,
# many times faster than pip (docs/running.md, "The locked environment"); if uv cannot be
# installed or fails, pip installs the lock instead.
# INSTALLER=pip: pip only (pip reads its own configuration, e.g. a local wheel house; uv does not)
INSTALLER ?= uv
INSTALL_UV = $(BIN)/python -m pip install --quiet --require-hashes -r $(TOOLS_LOCK)
PIP_INSTALL_LOCK = $(BIN)/python -m pip install --quiet --no-compile --require-hashes \
	-r requirements.lock
UV_INSTALL_LOCK = $(INSTALL_UV) && $(BIN)/uv pip install --python $(BIN)/python --quiet \
	--require-hashes -r requirements.lock
ifeq ($(filter $(INSTALLER),uv pip),)
$(error INSTALLER must be uv or pip, got '$(INSTALLER)')
endif
LOCK_COMMAND = uv pip compile pyproject.toml --extra test --extra build --extra cluster --generate-hashes \
	--universal --python-version 3.11 --custom-compile-command 'make lock' -o requirements.lock

.PHONY: help install lock tools-lock reproduce data report readme test lint regression golden \
	check-full clean

help:
	@echo "make reproduce   create .venv, install, run the whole pipeline (snakemake --cores $(CORES))"
	@echo "make install     create .venv with exactly the versions of requirements.lock (hash-checked)"
	@echo "                 by uv, or pip if uv fails (INSTALLER=pip: pip only)"
	@echo "make lock        re-resolve requirements.lock after editing pyproject.toml (UPGRADE=1: newest)"
	@echo "make test        create .venv, install, run the test suite"
	@echo "make data        only fetch, verify and parse the UCI datasets"
	@echo "make report      rebuild reports/ and the article from the tables under results/ (no recomputation)"
	@echo "make readme      rewrite the named values of README.md from the tables"
	@echo "make lint        snakemake --lint"
	@echo "make regression  re-run the reduced 'ci' profile and diff its tables with tests/golden/ci"
	@echo "make golden      re-run the 'ci' profile and overwrite tests/golden/ci (review the diff!)"
	@echo "make check-full  re-run the full default config elsewhere and diff with results/"
	@echo "Set REPRO_MIRROR=/path/to/data-mirror to read raw inputs from a local mirror."

# A venv holds the editable install of one checkout: with VENV shared by two clones, the last
# `make install` would silently make the other clone run its code. Every target that uses the
# venv first checks that its install is this checkout's (or that it has none yet).
define CHECK_VENV_OWNER
import json, pathlib, sys, urllib.parse
from importlib import metadata
try:
    text = metadata.distribution("weightboost-repro").read_text("direct_url.json")
except metadata.PackageNotFoundError:
    sys.exit(0)
url = json.loads(text or "{}").get("url", "")
there = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(url).path)).resolve()
here = pathlib.Path.cwd().resolve()
if url and there != here:
    sys.exit(f"make: the venv {sys.prefix} holds the editable install of {there}, not of this "
             f"checkout ({here}): a venv serves one checkout. Use a venv of its own "
             f"(VENV=<new directory>), or remove {sys.prefix} first")
endef
export CHECK_VENV_OWNER
VENV_OWNER = test ! -x $(BIN)/python || $(BIN)/python -c "$$CHECK_VENV_OWNER"

# Every package comes from the lock with its hash checked; the project itself is then installed
# without resolving anything, built with the locked setuptools. (No bytecode is compiled here:
# the first process to import a module writes it, see PYTHONDONTWRITEBYTECODE above.)
$(BIN)/.installed: requirements.lock pyproject.toml $(TOOLS_LOCK)
	@$(VENV_OWNER)
	$(PYTHON) -m venv $(VENV)
ifeq ($(INSTALLER),uv)
	$(UV_INSTALL_LOCK) || { echo "uv could not install requirements.lock: installing it with pip"; \
		$(PIP_INSTALL_LOCK); }
else
	$(PIP_INSTALL_LOCK)
endif
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

install: $(BIN)/.installed
	@$(VENV_OWNER)

# Keeps every pin that still satisfies pyproject.toml; UPGRADE=1 moves all of them to the newest
# releases (then run `make regression`: new versions may move the tables).
lock:
	$(PYTHON) -m venv $(VENV)
	$(INSTALL_UV)
	$(BIN)/$(LOCK_COMMAND) $(if $(UPGRADE),--upgrade)

# pins uv (all platforms' wheels, with hashes) at UV_VERSION
tools-lock:
	@test -n "$(UV_VERSION)" || { echo "usage: make tools-lock UV_VERSION=x.y.z"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(INSTALL_UV)
	echo "uv==$(UV_VERSION)" | $(BIN)/uv pip compile - --generate-hashes --universal \
		--python-version 3.11 --custom-compile-command 'make tools-lock' -o $(TOOLS_LOCK).new
	mv $(TOOLS_LOCK).new $(TOOLS_LOCK)

reproduce: install
	$(BIN)/python -m weightboost.run --cores $(CORES)

data: install
	$(BIN)/python -m weightboost.run --cores $(CORES) data

report: install
	$(BIN)/snakemake --cores $(CORES) report article

test: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: install
	$(BIN)/snakemake --lint

# every <!--v:NAME--> value of README.md from the committed tables (weightboost.report.values,
# names defined in workflow/article/values.yaml); a test fails while one differs
readme: install
	$(BIN)/python -m weightboost.report.values README.md

regression: install
	$(BIN)/python -m weightboost.regression run --config ci

golden: install
	$(BIN)/python -m weightboost.regression golden --config ci

check-full: install
	$(BIN)/python -m weightboost.regression run --config full

clean:
	rm -rf .snakemake logs benchmarks data/raw data/processed
