"""The bot levels of the lobby chosen from the ladder (issue 30, item 3; docs/ladder.md): the shipped
levels are the project's ladder's ratings, easiest first, and `smallworld ladder --levels` writes
them."""

from __future__ import annotations

import json
from pathlib import Path

from smallworld.bots.levels import DIFFICULTIES, from_ladder, shipped
from smallworld.cli import main
from smallworld.sim.ladder import read_results, summary

ROOT = Path(__file__).resolve().parent.parent


# The levels' ladder: the bots as a server plays them (the MCTS at 1 s a decision), on the strength
# targets' deals (docs/ladder.md, "The lobby's levels").
ONE_SECOND = ROOT / "data" / "ladder" / "1s"
LEVEL_GAMES = [ONE_SECOND / f"results-{p}-{t}.jsonl" for p in ("2p", "4p") for t in ("gains", "random")]


def test_the_shipped_levels_are_the_ratings_of_the_projects_ladder() -> None:
    assert all(path.exists() for path in LEVEL_GAMES)  # (read_results passes over a missing file)
    s = summary(read_results(LEVEL_GAMES))
    levels = shipped()["levels"]
    assert [lv["level"] for lv in levels] == ["random", "greedy", "mcts"]
    assert [lv["difficulty"] for lv in levels] == ["easy", "medium", "hard"]
    for lv in levels:
        for players, r in lv["ratings"].items():
            rated = s["by_players"][players]["ratings"][lv["level"]]
            assert (r["mu"], r["sigma"], r["games"]) == (
                round(rated["mu"], 3), round(rated["sigma"], 3), rated["games"]
            )
    two = [lv["ratings"]["2"] for lv in levels]
    conservative = [r["mu"] - 3 * r["sigma"] for r in two]
    assert conservative == sorted(conservative)  # easiest first


def test_levels_are_ordered_by_rating_and_only_of_offered_bots() -> None:
    part = {"seeds": [1, 2], "ratings": {
        "a": {"mu": 30.0, "sigma": 2.0, "conservative": 24.0, "games": 8},
        "b": {"mu": 20.0, "sigma": 1.0, "conservative": 17.0, "games": 8},
        "c": {"mu": 40.0, "sigma": 1.0, "conservative": 37.0, "games": 8},
    }}  # fmt: skip
    out = from_ladder({"by_players": {"4": part, "2": part}}, ["a", "b", "z"], "test")
    assert [(lv["level"], lv["difficulty"]) for lv in out["levels"]] == [("b", "easy"), ("a", "medium")]
    assert out["levels"][0]["ratings"]["2"] == {"mu": 20.0, "sigma": 1.0, "games": 8, "seeds": [1, 2]}
    assert len(DIFFICULTIES) == 4
    assert from_ladder({"by_players": {}}, ["a"], "none")["levels"] == []


def test_the_ladder_command_writes_levels(tmp_path: Path) -> None:
    out = tmp_path / "levels.json"
    code = main(["ladder", "--bots", "random,greedy", "--games", "1", "--players", "2", "--seed", "5",
                 "--out", str(tmp_path / "lad"), "--levels", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {lv["level"] for lv in data["levels"]} == {"random", "greedy"}
    assert data["levels"][0]["difficulty"] == "easy" and data["levels"][0]["ratings"]["2"]["games"] == 2
    assert "--bots random,greedy" in data["source"]
