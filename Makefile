# `make play` and `make test` each build the virtual environment first when it is missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make play` needs only the package itself (no dependencies): its own stamp, no development tools.
PLAY_STAMP := $(VENV)/.installed-play
ARGS ?=

.PHONY: play test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(PLAY_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

# make play ARGS="--players 3 --bots greedy --lang pt"
play: $(PLAY_STAMP)
	$(BIN)/smallworld play $(ARGS)

test: $(STAMP)
	sh tools/install-chromium.sh
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/smallworld bench --players 3 --games 200

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
