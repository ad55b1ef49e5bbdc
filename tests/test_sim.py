"""The simulator: reproducible JSON, its keys, plots, the CLI and Ray (docs/bots.md)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from smallworld.cli import main
from smallworld.sim import SimulationError, make_jobs, simulate, wilson


def _without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("timing", "plots")}


def test_wilson_interval() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 3), round(hi, 3)) == (0.490, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(200, 200)
    assert hi == 1.0 and 0.98 < lo < 0.99


def test_seats_rotate_so_every_bot_plays_every_seat() -> None:
    jobs = make_jobs(players=3, games=3, bots=["mcts", "greedy", "random"], seed=10)
    assert [j.seed for j in jobs] == [10, 11, 12]
    for seat in range(3):
        assert {j.bots[seat] for j in jobs} == {"mcts", "greedy", "random"}


def test_seeded_simulation_is_the_same_for_any_worker_count() -> None:
    # Two processes must give what one gives; the search bots' own determinism is tested in
    # tests/test_bots.py, so cheap bots suffice here.
    kw: dict[str, Any] = {
        "players": 3,
        "games": 3,
        "bots": ["greedy", "random", "greedy"],
        "seed": 4,
        "progress": False,
    }
    one, res1 = simulate(workers=1, **kw)
    two, res2 = simulate(workers=2, **kw)
    assert json.dumps(_without_timing(one), sort_keys=True) == json.dumps(
        _without_timing(two), sort_keys=True
    )
    assert [r["scores"] for r in res1] == [r["scores"] for r in res2]


def test_json_keys_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "2", "--games", "2", "--bots", "greedy,random", "--seed", "2"]
    assert main([*argv, "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("bots", "seats", "races", "powers", "combos", "games", "scores", "timing"):
        assert key in out
    assert out["games"] == 2
    assert set(out["bots"]) == {"greedy", "random"}
    for entry in out["bots"].values():
        assert {"games", "wins", "win_rate", "ci95", "mean_score"} <= set(entry)
        lo, hi = entry["ci95"]
        assert 0 <= lo <= entry["win_rate"] <= hi <= 1
    assert set(out["seats"]) == {"0", "1"}
    picked = sum(v["games"] for v in out["races"].values())
    assert picked >= 4  # each seat picks at least once per game
    assert all("+" in k for k in out["combos"])
    assert main([*argv, "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "win%" in text and "greedy" in text and "95% CI" in text


def test_team_variant_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--players", "4", "--games", "1", "--variant", "team", "--json", "--no-progress"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "team" and out["games"] == 1


def test_bad_options_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "greedy,alphago", "--no-progress"]) == 2
    assert "alphago" in capsys.readouterr().err
    with pytest.raises(SimulationError):
        simulate(players=2, games=0, bots=["random"], progress=False)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--bots", ","], "--bots"),
        (["--mcts-playouts", "0"], "--mcts-playouts"),
        (["--mcts-seconds", "-1"], "--mcts-seconds"),
        (["--mcts-seconds", "inf"], "--mcts-seconds"),
    ],
)
def test_bad_values_exit_2_with_the_option_named(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--games", "1", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_plots_folder_that_cannot_be_made_fails_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["simulate", "--games", "1", "--no-progress", "--plots", str(blocker / "plots")]) == 2
    err = capsys.readouterr().err
    assert "--plots" in err and "cannot create" in err


def test_plots_are_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    summary, _ = simulate(
        players=2, games=2, bots=["greedy", "random"], seed=1, plots=tmp_path, progress=False
    )
    names = {Path(p).name for p in summary["plots"]}
    assert names == {"win_rates.png", "scores.png", "races.png", "powers.png"}
    for name in names:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000


def test_text_report_names_races_and_powers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "2", "--games", "2", "--seed", "3", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "race picked" in text and "mean score" in text
    assert "_" not in text.split("race picked")[1]  # display names ("Blood Elves"), not ids


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_runs_the_same_jobs() -> None:
    import ray

    kw: dict[str, Any] = {
        "players": 2,
        "games": 2,
        "bots": ["greedy", "random"],
        "seed": 8,
        "progress": False,
    }
    local, _ = simulate(**kw)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        remote, _ = simulate(ray_address="local", **kw)
    finally:
        ray.shutdown()
    assert _without_timing(remote) == _without_timing(local)
    assert remote["timing"]["ray"] == "local"
