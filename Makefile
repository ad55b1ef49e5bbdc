# `make play` and `make test` each build the virtual environment first when it is missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make play` needs the package and its server (no development tools), `make tui` the package alone:
# each has its own stamp.
PLAY_STAMP := $(VENV)/.installed-play
TUI_STAMP := $(VENV)/.installed-tui
ARGS ?=

.PHONY: play tui test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(PLAY_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[server]'
	touch $(PLAY_STAMP)

$(TUI_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	touch $(TUI_STAMP)

# The web app on 127.0.0.1 with its embedded SQLite store; prints its address and opens the browser.
# make play ARGS="--port 8080"
play: $(PLAY_STAMP)
	$(BIN)/smallworld serve --open $(ARGS)

# The game in the terminal: make tui ARGS="--players 3 --bots greedy --lang pt"
tui: $(TUI_STAMP)
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
