# Two entry points for a fresh machine: `make crawl` (the main job) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/scrapy-cetd: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

.PHONY: install test lint crawl
install: $(BIN)/scrapy-cetd

test: install
	$(BIN)/ruff check scrapy_cetd tests
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check scrapy_cetd tests

# The main job: serve the bundled sample news site on 127.0.0.1, crawl it, print the corpus.
crawl: install
	$(BIN)/python example_project/run_offline.py
