"""What every test shares: a test marked `postgres`, `redis` or `browser` is skipped, with the reason,
on a machine that lacks it, and fails instead under CI=true (tests/needs.py)."""

from __future__ import annotations

import os

import pytest
from needs import in_ci, missing, require, uses_browser

# Commands the tests start run on the build the suite runs on: none of them may build or switch to
# a compiled build of its own (smallworld/compiled.py; tests/test_compiled.py tests that path).
os.environ["SMALLWORLD_BUILD"] = "pure"

NEEDS = ("postgres", "redis", "browser")


def pytest_configure(config: pytest.Config) -> None:
    # `make test-compiled` asks for the compiled build: every process of the run (each test worker
    # too) must have imported it, not the working tree's modules, or the pass tests pure Python twice.
    if os.environ.get("SMALLWORLD_TESTS_COMPILED") == "1":
        import smallworld.engine.flow.turn as turn

        if not turn.__file__ or not turn.__file__.endswith(".so"):
            raise pytest.UsageError(f"the compiled pass imported {turn.__file__}, not the compiled build")


def pytest_runtest_setup(item: pytest.Item) -> None:
    require(*(need for need in NEEDS if item.get_closest_marker(need) is not None))


def pytest_report_header(config: pytest.Config) -> list[str]:
    found = ", ".join(f"{n}: {(missing(n) and 'missing') or 'found'}" for n in NEEDS)
    mode = "CI=true: a missing one fails its tests" if in_ci() else "a missing one skips its tests"
    return [f"services and browser: {found} ({mode})"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests first, then the slow ones, then the rest (no test depends on the order):
    the test workers take work in this order (`make test`, tools/test-pure), so the longest tests
    start at once rather than last."""
    browser = [i for i in items if uses_browser(i)]
    first = set(browser)
    slow = [i for i in items if i not in first and i.get_closest_marker("slow")]
    first.update(slow)
    items[:] = browser + slow + [i for i in items if i not in first]
