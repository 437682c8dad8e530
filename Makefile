# The two commands a new user needs: `make demo` and `make test`. Each installs what it needs:
# Java (and, for the tests, PostgreSQL and MariaDB servers) through apt-get when missing, pinned Python
# packages in .venv.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

export SPARK_CONF_DIR := $(CURDIR)/profiles/spark-conf
export DBT_PROFILES_DIR := $(CURDIR)/profiles
export DBT_SEND_ANONYMOUS_USAGE_STATS := false

.PHONY: demo test unit lint bench setup java postgres mariadb chromium clean

# The demo also writes its report page, demo/target/parity_report.html. The var is given here, not
# in demo/dbt_project.yml: the tests run copies of the demo, and would each write the page.
demo: setup
	cd demo && $(BIN)/dbt deps --quiet && $(BIN)/dbt build --vars '{parity_html_report: true}'

# On a worker per core, four at most (pytest-xdist): each worker's JVM keeps to one core
# (tests/conftest.py). tests/scheduling.py hands each worker whole files, the longest first.
test: lint postgres mariadb chromium
	$(BIN)/pytest -n auto --maxprocesses 4

# The fast lane: the pure-Python and small Spark tests (markers by folder, tests/conftest.py), with
# no lint, no dbt run and no PostgreSQL or MariaDB; property tests draw a tenth of their examples
# (tests/examples.py), and the Spark tests marked `scale` wait for `make test`. Only the lanes'
# folders are collected: importing the integration modules (dbt's CLI) cost each worker 4 s. Two
# workers: each starts its own Spark, and most of a Spark test's time is its JVM waiting on small
# jobs, which two overlap.
unit: setup
	PARITY_FEW_EXAMPLES=1 $(BIN)/pytest tests/unit tests/spark -n auto --maxprocesses 2 -m "unit or spark"

# The demo's models and tests are linted from demo/: demo/.sqlfluff points the dbt templater at the demo
# project, on top of the settings of ./.sqlfluff. On every core (--processes 0). Of the canonical
# selects the analyses render, only those of the dialects parity renders but never runs are linted:
# sqlfluff's parse is their only check. The others run on their engines in the tests (the type,
# time, MySQL and decimal matrices), against golden files; parsing them was 50 s of the lint's 85.
# They go first: sqlfluff takes the files in the order given, and a long one taken last keeps one
# core busy alone.
UNRUN_SELECTS := analyses/canonical_select/snowflake.sql analyses/canonical_select/bigquery.sql
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/sqlfluff lint --processes 0 $(UNRUN_SELECTS) models tests
	cd demo && $(BIN)/dbt deps --quiet && $(BIN)/sqlfluff lint models tests

# `make bench BENCH=tolerant_hashing` runs the tolerance benchmark instead; BENCH=engines,
# parity against Reladiff on PostgreSQL and DuckDB's own diff; BENCH=pull_requests, a pull-request
# check of 50 models against the plain join of each (bench/README.md lists them all).
BENCH ?= run_bench
bench: setup .venv-reladiff/.installed
	$(BIN)/python -m bench.$(BENCH) $(BENCH_ARGS)

# Reladiff, in an environment of its own: the engines benchmark runs it, parity never imports it.
.venv-reladiff/.installed:
	$(PYTHON) -m venv .venv-reladiff
	.venv-reladiff/bin/pip install --quiet reladiff==0.6.0 psycopg2-binary==2.9.13
	touch $@

setup: java $(VENV)/.installed

java:
	@command -v java >/dev/null 2>&1 || { \
		echo "Installing Java (OpenJDK 17) for Spark"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends openjdk-17-jre-headless; }

# The tests start their own throwaway PostgreSQL server on 127.0.0.1.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		echo "Installing PostgreSQL for the tests"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends postgresql; }

# And their own throwaway MariaDB server (the mysql dialect), as the unprivileged mysql user.
mariadb:
	@ls /usr/sbin/mariadbd >/dev/null 2>&1 || { \
		echo "Installing MariaDB for the tests"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends mariadb-server; }

# And Debian's Chromium, which the report page's test opens the page in (headless, through
# Playwright, which is told where it is and never downloads a browser of its own).
chromium:
	@ls /usr/bin/chromium >/dev/null 2>&1 || { \
		echo "Installing Chromium for the report page's test"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends chromium; }

# The packages go in through uv, pinned here: pyspark comes as a source archive of 300 MB, which pip
# builds and installs in 78 s on a machine with no cache of it (44 to 54 s with one), uv in 31 s.
# An index that serves it without caching headers makes uv keep a new 1.4 GB build of it per
# install; pruning after each install keeps the cache to the build in use. uv, unlike pip, leaves
# the packages uncompiled: every process then compiles dbt's and Spark's modules as it imports
# them (and writes nothing where PYTHONDONTWRITEBYTECODE is set), 1.5 s of each dbt command.
UV := uv==0.13.9
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check $(UV)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -r requirements.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/uv cache prune --quiet
	touch $@

clean:
	rm -rf $(VENV) target dbt_packages logs spark-warehouse metastore_db metastore_db.lock derby.log \
		demo/target demo/dbt_packages demo/logs demo/spark-warehouse demo/metastore_db demo/metastore_db.lock demo/derby.log
