# The two commands of the README: `make run` and `make test`. Both are idempotent.
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast lint format demo vendor clean chromium loadtest

# A Python of 3.12 or newer: the one .python-version selects, else the newest found on PATH.
PYTHON := $(shell for p in python3.13 python3.12 python3 python; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null \
	&& { command -v $$p; break; }; done)

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Shanghai Scorekeeper needs Python 3.12 or newer; none was found on PATH." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.requirements: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.requirements-dev: requirements-dev.txt requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	@touch $@

# On a laptop the app runs with DEBUG on unless DJANGO_DEBUG says otherwise.
run: export DJANGO_DEBUG ?= true
# A task worker runs beside the server (it reads the photos); Ctrl-C stops both.
run: $(VENV)/.requirements
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py task_workers --processes 1 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

demo: export DJANGO_DEBUG ?= true
demo: $(VENV)/.requirements
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py seed_demo

# Browser tests drive Debian's Chromium headless shell (the engine without the desktop browser: half
# the CPU a page); it is installed when missing (never a downloaded browser).
chromium:
	@command -v chromium-headless-shell >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium-headless-shell; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq chromium-headless-shell; fi; }

# The suite runs on three workers for two cores (pytest-xdist, tests/conftest.py); `make test-fast` leaves out what is
# marked slow (property, browser and process tests, and the modules that build much) and runs a worker a core: a loop
# of seconds.
# Python's bytecode cache stays on for the tests, whatever the shell says: with
# PYTHONDONTWRITEBYTECODE each worker, and each process a test starts, compiles anew.
test test-fast: export PYTHONDONTWRITEBYTECODE :=
test: $(VENV)/.requirements-dev chromium
	$(BIN)/python -m pytest -n auto --dist worksteal

test-fast: $(VENV)/.requirements-dev
	$(BIN)/python -m pytest -n auto --dist worksteal -m "not slow and not postgres_server"

# A club night at 5, 20, 50 and 100 tables, a stress level, the ceilings and a fault run, on
# gunicorn with a PostgreSQL and a Redis of its own (about 19 minutes; needs root and Debian's
# PostgreSQL and redis-server, installed when missing). `--cache database` plays it without Redis.
# Writes loadtest-report.md; fails if anything accepted was lost or anything refused was saved.
# Photos: `$(BIN)/python -m tools.loadtest.run --photo-share 0.25 --photos-in-request-too
# --worker-stop 30` (see README, Performance).
loadtest: $(VENV)/.requirements-dev
	$(BIN)/python -m tools.loadtest.run

lint: $(VENV)/.requirements-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(VENV)/.requirements-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Refresh the vendored front-end files from the npm registry (they are committed; nothing runs npm).
HTMX_VERSION := 2.0.11
PICO_VERSION := 2.1.1
# axe-core is for the accessibility tests only: it lies beside them, never among the static files.
AXE_VERSION := 4.14.1
vendor:
	rm -rf .vendor && mkdir .vendor
	cd .vendor && npm pack --silent htmx.org@$(HTMX_VERSION) @picocss/pico@$(PICO_VERSION) axe-core@$(AXE_VERSION)
	cd .vendor && for f in *.tgz; do mkdir -p "$${f%.tgz}" && tar xzf "$$f" -C "$${f%.tgz}"; done
	cp .vendor/htmx.org-$(HTMX_VERSION)/package/dist/htmx.min.js static/vendor/htmx/
	cp .vendor/htmx.org-$(HTMX_VERSION)/package/LICENSE static/vendor/htmx/
	cp .vendor/picocss-pico-$(PICO_VERSION)/package/css/pico.jade.min.css static/vendor/pico/
	cp .vendor/picocss-pico-$(PICO_VERSION)/package/LICENSE.md static/vendor/pico/
	mkdir -p tests/scorekeeper/browser/vendor/axe-core
	cp .vendor/axe-core-$(AXE_VERSION)/package/axe.min.js .vendor/axe-core-$(AXE_VERSION)/package/LICENSE \
		tests/scorekeeper/browser/vendor/axe-core/
	rm -rf .vendor

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
