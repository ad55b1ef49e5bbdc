"""What a test needs from outside Python (a PostgreSQL, a Redis, a browser): whether this machine has
it, and what a test that needs a missing one does. Locally it is skipped, with the reason; under
CI=true (`.ci/run`) it fails, so a green CI run never hides a test that did not run.

The tests say what they need with markers (registered in pyproject.toml): `postgres`, `redis`,
`browser`. `tests/conftest.py` checks them before each test; the fixtures that start a service or a
browser check again, so a test that forgot its marker is still told why. `make test` installs what
is missing when it can (tools/install-chromium.sh, tools/test-services.sh install); `make check`
leaves these tests out (README.md, "Tests")."""

from __future__ import annotations

import functools
import glob
import importlib.util
import os
import pwd
import shutil
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"  # Debian's (tools/install-chromium.sh), driven by Playwright

# The session's PostgreSQL and Redis (the `services` fixture, tools/test-services.sh) start
# together: a test that takes them needs both.
SERVICES = (pytest.mark.postgres, pytest.mark.redis)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _pg_bin() -> str | None:
    """The folder of PostgreSQL's initdb and pg_ctl, as tools/test-services.sh looks for them."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin")):
        if os.access(f"{d}/initdb", os.X_OK) and os.access(f"{d}/pg_ctl", os.X_OK):
            return d
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb and shutil.which("pg_ctl") else None


@functools.cache
def missing(what: str) -> str | None:
    """Why `what` cannot run on this machine, or None when it can."""
    if what == "postgres":
        if _pg_bin() is None:
            return "PostgreSQL is not installed (no initdb and pg_ctl): apt-get install postgresql"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")  # tools/test-services.sh runs it as that user
            except KeyError:
                return "PostgreSQL runs as the user postgres, which this machine lacks"
        if importlib.util.find_spec("psycopg") is None:
            return "the psycopg package is not installed: pip install -e '.[dev]'"
        return None
    if what == "redis":
        if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
            return "Redis is not installed (no redis-server and redis-cli): apt-get install redis-server"
        return None
    if what == "browser":
        if not os.access(CHROMIUM, os.X_OK):
            return f"{CHROMIUM} is missing: run tools/install-chromium.sh (make test does)"
        if importlib.util.find_spec("playwright") is None:
            return "the playwright package is not installed: pip install -e '.[dev]'"
        return None
    raise ValueError(f"unknown need {what!r}")


def require(*needs: str) -> None:
    """Skip the running test (fail it under CI=true) when this machine lacks one of `needs`."""
    reasons = [r for r in map(missing, needs) if r is not None]
    if not reasons:
        return
    text = "; ".join(reasons)
    if in_ci():
        pytest.fail(f"CI=true and this test cannot run: {text}", pytrace=False)
    pytest.skip(text)


def uses_browser(item: Any) -> bool:
    """A test that drives Chromium: marked `browser`, or taking the `browser` fixture (`page` and
    `new_page` take it too)."""
    return item.get_closest_marker("browser") is not None or "browser" in getattr(item, "fixturenames", [])
