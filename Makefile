# `make play` and `make test` each build the virtual environment first when it is missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make play` needs the package, its server and mypyc for the compiled build it makes and uses
# (smallworld/compiled.py), no development tools; `make tui` the package alone: each has its own stamp.
PLAY_STAMP := $(VENV)/.installed-play
TUI_STAMP := $(VENV)/.installed-tui
ARGS ?=
# The tests `make test` runs on pure Python only (below, at `test`): those that reach no compiled path
# of their own.
SERVER_ONLY := outages processes migrations fuzz_openapi malformed client_limits resilience secrets \
	accounts ratings pairing tournaments digest leaving chat chat_migration listing profiles \
	session_cache bench_ratings clocks openapi serve_command errors health store
PURE_ONLY := architecture code_map docs readme_commands needs words refusal_words templates tui \
	schema loader ladder mcts_study content_cli
COMPILED_SKIP := --ignore=tests/web $(foreach t,cli render render_save validate,--ignore=tests/boards/test_board_$(t).py) $(foreach t,$(SERVER_ONLY),--ignore=tests/server/test_$(t).py) \
	$(foreach t,$(PURE_ONLY),--ignore=tests/test_$(t).py)

# Test workers (pytest-xdist) beside the browser tests (tools/test-pure): the server and outage
# tests spend much of their time waiting on other processes. make test JOBS=0 runs in one process.
JOBS ?= 2

# `make check` runs the tests marked none of these (pyproject.toml, tests/needs.py): no PostgreSQL,
# Redis or browser, none of the slow server-process tests.
FAST := not postgres and not redis and not browser and not slow

.PHONY: play tui test check lint bench clean compiled test-compiled

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(PLAY_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[server,speed]'
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

# The full gate (CI's, through .ci/run): every test, on pure Python and then on the optional compiled
# build (docs/engine.md), by tools/test-all, which runs side by side what can share the cores (the
# compiled build beside the installations, lint and types) and times each part. It installs the
# browser and the services when they are missing; a test whose service is still missing is skipped
# with the reason, and fails under CI=true (tests/needs.py).
# Pure Python is the reference and the compiled modules must agree with it. The browser tests drive
# the page, not the engine's compiled paths: once is enough for them. So are the server tests that
# only drive `smallworld serve` processes (outages, several processes, migrations, the fuzz), which
# run the working tree's pure Python whichever pass starts them, and those of the server's own input,
# limits, outages, clocks and tokens, and of its players' side (accounts, ratings, quick games,
# tournaments, the digest, chat, the lists), which reach no compiled path of their own; nor do the
# boards' data and drawing, the words, the terminal game, the docs and the code's own layout, the
# position files' schema and loader, and the ladder's and studies' bookkeeping (PURE_ONLY).
test: $(STAMP)
	JOBS=$(JOBS) PY=$(BIN)/python COMPILED_SKIP="$(COMPILED_SKIP)" tools/test-all $(ARGS)

# The inner loop: lint, types and the fast tests, a few minutes on two cores (README.md, "Tests").
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -m "$(FAST)" $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/smallworld bench --players 3 --games 200

# The compiled build by hand (docs/engine.md, "Compiled build"): the hot modules compiled by mypyc
# into build/compiled/, for the tests and benchmarks (play, serve and simulate make their own in the
# user's cache). PYTHONSAFEPATH (`-P`, inherited by the test workers) keeps the working tree (the
# current folder) off the front of sys.path, so the compiled copy is the one imported; the tests'
# conftest.py checks that it is, in every worker.
compiled: $(STAMP)
	sh tools/build-compiled

test-compiled: compiled
	PYTHONPATH=build/compiled $(BIN)/python -P -c 'import smallworld.engine.flow.turn as m; assert m.__file__.endswith(".so"), m.__file__'
	SMALLWORLD_TESTS_COMPILED=1 PYTHONSAFEPATH=1 $(BIN)/python -m pytest -o pythonpath="build/compiled tests" $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build/compiled
