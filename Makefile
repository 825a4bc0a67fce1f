# Two entry points for a fresh machine: `make crawl` (the main job) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/scrapy-cetd: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

.PHONY: install test lint
install: $(BIN)/scrapy-cetd

test: install
	$(BIN)/ruff check scrapy_cetd tests
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check scrapy_cetd tests
