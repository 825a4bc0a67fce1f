# Two entry points for a fresh machine: `make crawl` (the main job) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/scrapy-cetd: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

.PHONY: install test lint golden quality-gate quality-baseline crawl crawl-distributed redis-server
install: $(BIN)/scrapy-cetd

# redis-server is tried first (the distributed tests need it; without it they are skipped, saying so).
test: install
	-@$(MAKE) --no-print-directory redis-server
	$(BIN)/ruff check scrapy_cetd tests
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check scrapy_cetd tests

# Rewrite the golden pages' expected files from the output now; review with git diff (docs/testing.md).
golden: install
	$(BIN)/python -m tests.golden --update

# Measure the pinned quality scores and compare (quality-gate), or pin them (quality-baseline:
# refuses to lower a pin; lower one with .venv/bin/python -m tests.quality_gate --update --allow-lower).
quality-gate: install
	$(BIN)/python -m tests.quality_gate

quality-baseline: install
	$(BIN)/python -m tests.quality_gate --update

# The main job: serve the bundled sample news site on 127.0.0.1, crawl it, print the corpus.
crawl: install
	$(BIN)/python example_project/run_offline.py

# The same crawl with WORKERS processes sharing a scrapy-redis frontier in a loopback Redis.
WORKERS ?= 2
crawl-distributed: install redis-server
	$(BIN)/python example_project/run_distributed.py --workers $(WORKERS)

# redis-server for crawl-distributed and the tests: installed with apt-get when root, else a hint.
redis-server:
	@command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; } || \
	  { echo "redis-server is missing: install it (sudo apt-get install redis-server; brew install redis)"; exit 1; }
