"""What every test shares: a test marked `postgres`, `redis` or `browser` is skipped, with the reason,
on a machine that lacks it, and fails instead under CI=true (tests/needs.py)."""

from __future__ import annotations

import os

import pytest
from needs import in_ci, missing, require

# Commands the tests start run on the build the suite runs on: none of them may build or switch to
# a compiled build of its own (smallworld/compiled.py; tests/test_compiled.py tests that path).
os.environ["SMALLWORLD_BUILD"] = "pure"

NEEDS = ("postgres", "redis", "browser")


def pytest_runtest_setup(item: pytest.Item) -> None:
    require(*(need for need in NEEDS if item.get_closest_marker(need) is not None))


def pytest_report_header(config: pytest.Config) -> list[str]:
    found = ", ".join(f"{n}: {(missing(n) and 'missing') or 'found'}" for n in NEEDS)
    mode = "CI=true: a missing one fails its tests" if in_ci() else "a missing one skips its tests"
    return [f"services and browser: {found} ({mode})"]
