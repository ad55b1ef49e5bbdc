"""`smallworld bench server --ratings` (issue 29's load check): rated games of accounts measured
against casual ones in one run, on one server, and what the server rated during it. No speed is
asserted: that is the benchmark's business (docs/players.md, "Load check")."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import httpx
import pytest

from smallworld.cli import build_parser
from smallworld.measure.server import POOL, LocalServer, Stats, Window, _plan, bench_server
from smallworld.server import ratings


def test_both_alternates_halves_of_each_mode() -> None:
    assert _plan("off", 10) == [("off", 10)]
    assert _plan("on", 10) == [("on", 10)]
    assert _plan("both", 10) == [("off", 5), ("on", 5), ("off", 5), ("on", 5)]
    with pytest.raises(ValueError, match="ratings"):
        _plan("sometimes", 10)


def test_a_window_with_min_ended_stays_open_past_its_time_until_games_end() -> None:
    stats = Stats(ended={"a"})  # a game that ended before the window opened counts for none
    window = Window(stats, time.perf_counter() - 1, min_ended=2)
    assert not window.over()
    stats.ended.add("b")
    assert not window.over()
    stats.ended.add("c")
    assert window.over()
    length = window.seconds()
    assert window.over() and window.seconds() == length  # closed once, its length kept
    assert Window(Stats(), time.perf_counter() - 1).over()  # without min_ended: the clock alone


def test_the_command_takes_ratings_off_by_default() -> None:
    parse = build_parser().parse_args
    assert parse(["bench", "server"]).ratings == "off"
    assert parse(["bench", "server", "--ratings", "both"]).ratings == "both"
    assert parse(["bench", "server"]).min_ended == 0
    assert parse(["bench", "server", "--min-ended", "3"]).min_ended == 3
    with pytest.raises(SystemExit):
        parse(["bench", "server", "--ratings", "maybe"])


@pytest.mark.slow  # a `smallworld serve` process under load
def test_bench_server_ratings_both_rates_the_games_that_end() -> None:
    with tempfile.TemporaryDirectory(prefix="sw-bench-test-") as tmp:
        server = LocalServer(f"sqlite:///{Path(tmp) / 'bench.db'}")
        try:
            out = bench_server(
                games=2,
                think_ms=0,
                seconds=4,
                url=server.url,
                players=2,
                ratings="both",
                min_ended=1,
            )
            board = httpx.get(server.url + "/api/ratings", params={"pool": POOL, "limit": 50}).json()
        finally:
            server.stop()
    both = out["ratings"]
    off, on = both["off"], both["on"]
    for phase in (off, on):
        assert phase["actions"] > 0 and phase["errors"] == 0 and phase["lost"] == 0
        assert phase["games_ended"] > 0
    assert both["ratio"] == round(on["actions_per_second"] / off["actions_per_second"], 3)
    # Casual games rate no one; each rated game that ended rated both its players, once.
    assert "ratings_updated" not in off
    assert on["rated_games_ended"] == on["games_ended"] > 0
    assert on["rated_games"] >= on["rated_games_ended"]
    assert on["ratings_updated"] == 2 * on["rated_games"]
    # The server's leaderboard: the benchmark's accounts only (no bot, no anonymous player), their
    # games adding up to the updates, each one's uncertainty down from a newcomer's.
    rated = board["players"]
    assert rated and all(e["player"]["name"].startswith("bench ") for e in rated)
    assert sum(e["games"] for e in rated) == on["ratings_updated"]
    assert all(e["sigma"] < ratings.SIGMA for e in rated)
