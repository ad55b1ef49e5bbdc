"""tests/needs.py: a test whose service or browser is missing is skipped with the reason, and fails
under CI=true; each marker names a need it knows."""

from __future__ import annotations

import needs
import pytest


def test_a_missing_need_skips_with_its_reason_and_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(needs, "missing", lambda what: f"no {what} here" if what == "redis" else None)
    monkeypatch.delenv("CI", raising=False)
    needs.require("postgres")  # present: nothing happens
    with pytest.raises(pytest.skip.Exception, match="no redis here"):
        needs.require("postgres", "redis")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true and this test cannot run: no redis here"):
        needs.require("redis")


def test_every_need_marker_is_registered_and_known(pytestconfig: pytest.Config) -> None:
    registered = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    for what in ("postgres", "redis", "browser"):
        assert what in registered
        reason = needs.missing(what)
        assert reason is None or isinstance(reason, str)
    assert "slow" in registered
    with pytest.raises(ValueError):
        needs.missing("oracle")
