"""`smallworld bench` and `tools/bench-compare`: the figures they report are measured, not made up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from smallworld.cli import main
from smallworld.engine.api.game import Game
from smallworld.engine.model.settings import Settings
from smallworld.measure.costs import deep_size
from smallworld.measure.engine import EngineSampler, bench

ROOT = Path(__file__).resolve().parent.parent


def test_bench_reports_state_costs() -> None:
    out = bench(3, 2, seed=7)
    # A 3-player state holds three seats, 80-odd regions and the stacks: kilobytes, not bytes.
    assert 2_000 < out["state_bytes"] < 1_000_000
    assert 0 < out["clone_bytes"] < 1_000_000
    assert out["view_us"] > 0 and out["replay_ms"] > 0
    assert out["replay_actions"] > 50
    assert "state_bytes" not in bench(3, 1, seed=7, costs=False)


def test_the_engine_sampler_measures_decisions_in_a_process_of_its_own() -> None:
    sampler = EngineSampler(2, share=0.5, seed=3)
    decisions, cpu = sampler.result()  # at once: a started sampler has measured one slice at least
    assert decisions > 0 and cpu > 0
    assert not sampler._proc.is_alive()


def test_deep_size_counts_what_a_state_holds_and_not_the_game() -> None:
    st = Game(Settings(players=2, seed=1)).new_initial_state()
    small = deep_size(st)
    st.rolls = list(range(10_000))
    assert deep_size(st) > small + 10_000 * 8
    assert deep_size(st.game) == 0  # the shared Game is never entered


def test_bench_cli_prints_the_costs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "1", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "one state:" in text and "replay:" in text


def test_bench_compare_same_commit_has_same_decisions() -> None:
    """Comparing HEAD with itself: the same games, so the same decision counts, and a ratio that
    was measured. Its size is not asserted: speed is the benchmark's business, and on a loaded
    machine one run of two games can take 5 times as long as the next."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench-compare"), "HEAD", "--workloads", "random2",
         "--runs", "1", "--size", "2", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    (row,) = json.loads(out.stdout)
    assert row["ref_decisions"] == row["work_decisions"] > 0
    assert isinstance(row["ratio"], float) and row["ratio"] > 0


def test_bench_compare_measures_the_game_service_in_both_trees() -> None:
    """The `service2` workload: the server's own work (`Service.act`) in process, the same actions
    in both trees, and a ratio that was measured."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench-compare"), "HEAD", "--workloads", "service2",
         "--runs", "1", "--size", "60", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    (row,) = json.loads(out.stdout)
    assert row["unit"] == "actions/s" and row["ref_decisions"] == row["work_decisions"] == 60
    assert isinstance(row["ratio"], float) and row["ratio"] > 0


def test_bench_compare_measures_observations_and_the_learned_search() -> None:
    """`observe2` encodes the same views in both trees (its "decisions" are a checksum of the
    vectors: equal only if both trees made the same ones); `learned2` counts the learned bot's
    playouts, 200 a position."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench-compare"), "HEAD", "--workloads", "observe2,learned2",
         "--runs", "1", "--size", "1", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    observe, learned = json.loads(out.stdout)
    assert observe["unit"] == "obs/s" and observe["ref_decisions"] == observe["work_decisions"] != 0
    assert learned["unit"] == "playouts/s" and learned["ref_decisions"] == learned["work_decisions"] == 200
    assert all(isinstance(r["ratio"], float) and r["ratio"] > 0 for r in (observe, learned))


def test_bench_compare_refuses_an_unknown_commit() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench-compare"), "no-such-commit-xyz"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert out.returncode != 0 and "not a commit" in out.stderr
