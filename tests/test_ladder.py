"""`smallworld ladder` (smallworld/sim/ladder.py): every table plays every deal in every seating, a
stopped run resumes, result files merge with each game once, and ratings depend on the games only
(not on the order they were played in). No strength is asserted here: docs/ladder.md measures it."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from smallworld.cli import main
from smallworld.sim import runner
from smallworld.sim.ladder import (
    RESULTS,
    game_key,
    ladder_jobs,
    ranks,
    rate,
    read_results,
    run_ladder,
    table_name,
    table_rates,
)
from smallworld.sim.runner import SimulationError


def test_every_table_plays_every_deal_in_every_seating() -> None:
    jobs = ladder_jobs(["random", "greedy", "mcts"], 2, deals=3, seed=40, options={}, edition="warcraft")
    assert len(jobs) == 3 * 3 * 2  # three pairs, three deals, two seatings
    assert len({k for k, _ in jobs}) == len(jobs)
    for seed in (40, 41, 42):
        seated = [j.bots for _, j in jobs if j.seed == seed]
        for bot in ("random", "greedy", "mcts"):
            assert Counter(s.index(bot) for s in seated if bot in s) == {0: 2, 1: 2}
    four = ladder_jobs(["a", "b", "c", "d", "e"], 4, deals=1, seed=0, options={}, edition="warcraft")
    assert len(four) == 5 * 4  # every set of four bots, each rotated through the four seats
    for table in {tuple(sorted(j.bots)) for _, j in four}:
        rotations = [j.bots for _, j in four if tuple(sorted(j.bots)) == table]
        for bot in table:
            assert sorted(r.index(bot) for r in rotations) == [0, 1, 2, 3]


def test_places_put_the_winners_first_and_share_equal_scores() -> None:
    assert ranks([30, 41, 41, 12], [1]) == [2, 0, 1, 3]  # seat 2 lost the tie-break to seat 1
    assert ranks([30, 41, 41, 30], [1, 2]) == [1, 0, 0, 1]


def _game(a: str, b: str, seed: int, winner: int) -> dict:
    scores = [50, 40] if winner == 0 else [40, 50]
    return {"key": game_key(2, sorted((a, b)), 0 if a < b else 1, seed), "seed": seed, "bots": [a, b],
            "scores": scores, "winners": [winner], "decisions": 1}  # fmt: skip


def test_ratings_follow_the_results_not_the_order_they_came_in() -> None:
    games = [_game("strong", "weak", s, 0) for s in range(8)]
    games += [_game("weak", "strong", s, 1) for s in range(8)]
    by_key = {g["key"]: g for g in games}
    first = rate(by_key)
    assert first["strong"]["mu"] > first["weak"]["mu"]
    assert first["strong"]["low"] < first["strong"]["mu"] < first["strong"]["high"]
    shuffled = list(by_key.items())
    random.Random(3).shuffle(shuffled)
    assert rate(dict(shuffled)) == first


def test_a_stopped_run_resumes_and_files_merge_each_game_once(tmp_path: Path) -> None:
    one = run_ladder(["random", "greedy"], [2], deals=2, out_dir=tmp_path / "a", seed=5, progress=False)
    assert one["run"]["played"] == 4 and one["games"] == 4
    path = tmp_path / "a" / RESULTS
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # stopped after two games
    again = run_ladder(["random", "greedy"], [2], deals=2, out_dir=tmp_path / "a", seed=5, progress=False)
    assert again["run"]["played"] == 2
    assert again["by_players"] == one["by_players"]  # the same games, so the same ratings
    # Another machine played later deals; merged in, each game counts once (its copy of deal 5 too).
    other = run_ladder(["random", "greedy"], [2], deals=3, out_dir=tmp_path / "b", seed=5, progress=False)
    assert other["games"] == 6
    merged = run_ladder(["random", "greedy"], [2], deals=2, out_dir=tmp_path / "a", seed=5, progress=False,
                        merge=[tmp_path / "b" / RESULTS])  # fmt: skip
    assert merged["run"]["played"] == 0 and merged["games"] == 6
    assert len(read_results([path])) == 6 == len(path.read_text().splitlines())


def test_results_of_another_budget_are_not_mixed_in(tmp_path: Path) -> None:
    bots = ["random", "greedy"]
    run_ladder(bots, [2], deals=1, out_dir=tmp_path, options={"playouts": 50}, progress=False)
    with pytest.raises(SimulationError, match="other search options"):
        run_ladder(bots, [2], deals=2, out_dir=tmp_path, options={"playouts": 9}, progress=False)


def test_a_corrupt_results_file_is_named(tmp_path: Path) -> None:
    (tmp_path / RESULTS).write_text('{"key": "2|a,b|0|1", "bots": []}\nnot json\n')
    with pytest.raises(SimulationError, match=r"results.jsonl:2: not a ladder result"):
        read_results([tmp_path / RESULTS])


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--bots", "random,greedy", "--games", "1", "--out", str(tmp_path), "--json",
                 "--no-progress"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and set(out["by_players"]["2"]["ratings"]) == {"random", "greedy"}
    assert json.loads((tmp_path / "ladder.json").read_text())["games"] == 2
    report = (tmp_path / "ladder.md").read_text()
    assert "## 2 players" in report and "| greedy |" in report and "| greedy vs random |" in report
    assert main(["ladder", "--bots", "random", "--out", str(tmp_path)]) == 2
    assert "at least two different bots" in capsys.readouterr().err
    assert main(["ladder", "--players", "2,7", "--out", str(tmp_path)]) == 2


def test_a_fixed_table_replaces_the_round_robin_and_seats_each_bot_everywhere() -> None:
    table = ["mcts", "greedy", "greedy", "greedy"]
    jobs = ladder_jobs(["random", "greedy", "mcts"], 4, deals=2, seed=7, options={}, edition="warcraft",
                       fixed=[table, ["random", "greedy"]])  # fmt: skip
    assert len(jobs) == 2 * 4 and len({k for k, _ in jobs}) == 8  # the 2-seat table is for 2 players
    for seed in (7, 8):
        assert sorted(j.bots.index("mcts") for _, j in jobs if j.seed == seed) == [0, 1, 2, 3]
        assert all(sorted(j.bots) == sorted(table) for _, j in jobs)
    assert table_name(("greedy", "greedy", "greedy", "mcts")) == "greedy ×3, mcts"


def test_a_table_counts_the_games_each_bot_won_with_any_of_its_seats() -> None:
    def game(bots: list[str], winners: list[int], seed: int) -> dict:
        return {"key": f"{seed}", "seed": seed, "bots": bots, "scores": [1] * len(bots), "winners": winners,
                "decisions": 1}  # fmt: skip

    g = {"0": game(["mcts", "greedy", "greedy", "greedy"], [0], 0),
         "1": game(["greedy", "mcts", "greedy", "greedy"], [2], 1),
         "2": game(["greedy", "greedy", "mcts", "greedy"], [2, 3], 2),  # a shared win counts for both
         "3": game(["greedy", "greedy", "greedy", "mcts"], [0], 3),
         "4": game(["mcts", "greedy"], [0], 4)}  # fmt: skip
    rows = {r["bot"]: r for r in table_rates(g)}  # the 2-player game is head to head's, not a table's
    assert (rows["mcts"]["wins"], rows["mcts"]["games"], rows["mcts"]["chance"]) == (2, 4, 0.25)
    assert (rows["greedy"]["wins"], rows["greedy"]["games"], rows["greedy"]["chance"]) == (3, 4, 0.75)
    assert rows["mcts"]["low"] < 0.5 < rows["mcts"]["high"]


def test_each_game_is_kept_as_soon_as_it_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = runner.play_game

    def stops_at_the_third(job: runner.GameJob) -> dict:
        if job.index == 2:
            raise KeyboardInterrupt  # the run stopped in the middle of its third game
        return real(job)

    monkeypatch.setattr(runner, "play_game", stops_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        run_ladder(["random", "greedy"], [2], deals=2, out_dir=tmp_path, seed=5, progress=False)
    kept = read_results([tmp_path / RESULTS])
    assert len(kept) == 2 and all(len(g["scores"]) == 2 for g in kept.values())
    monkeypatch.setattr(runner, "play_game", real)
    again = run_ladder(["random", "greedy"], [2], deals=2, out_dir=tmp_path, seed=5, progress=False)
    assert again["run"]["played"] == 2 and again["games"] == 4


def test_the_command_with_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--table", "random,greedy,greedy", "--games", "1", "--out", str(tmp_path),
                 "--no-progress"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "3 players: 3 games" in out and "random at (greedy ×2, random): 0/3" in out
    assert "| greedy ×2, random | greedy | 3/3 |" in (tmp_path / "ladder.md").read_text()
    assert main(["ladder", "--table", "greedy,greedy", "--out", str(tmp_path / "x")]) == 2
    assert "at least two different bots" in capsys.readouterr().err


def test_two_player_counts_in_one_run_keep_each_game_under_its_own_key(tmp_path: Path) -> None:
    s = run_ladder(["random", "greedy"], [2], deals=1, out_dir=tmp_path, seed=3, progress=False,
                   fixed=[["random", "greedy", "greedy"]])  # fmt: skip
    assert s["games"] == 2 + 3
    for key, g in read_results([tmp_path / RESULTS]).items():
        players, table, seating, seed = key.split("|")
        assert int(players) == len(g["bots"]) and int(seed) == g["seed"] == 3
        seats = table.split(",")
        assert g["bots"] == [seats[(i + int(seating)) % len(seats)] for i in range(len(seats))]


def test_two_settings_of_one_bot_meet_at_a_table(tmp_path: Path) -> None:
    """A bot spec carries its own options (`mcts:gains=false`), so the MCTS of today can play the one
    it replaced; each spec is rated as its own bot, and the spec's options win over the budget's."""
    from smallworld.bots import make_bot, parse_bot

    assert parse_bot("mcts:gains=false:margin_scale=16") == ("mcts", {"gains": False, "margin_scale": 16})
    assert make_bot("mcts:gains=false").gains is False and make_bot("mcts").gains is True
    assert make_bot("mcts:playouts=5", playouts=200).playouts == 5
    out = run_ladder(["mcts", "mcts:gains=false"], [2], deals=1, out_dir=tmp_path, options={"playouts": 4},
                     progress=False)  # fmt: skip
    assert out["games"] == 2 and set(out["by_players"]["2"]["ratings"]) == {"mcts", "mcts:gains=false"}
    for spec, said in [
        ("mcts:gains", "is not KEY=JSON"),
        ("mcts:gains=nope", "is not JSON"),
        ("greedy:depth=2", "greedy takes no options"),
        ("mcts:depth=2", "unexpected keyword argument 'depth'"),
        ("mcts:rollout_policy=\"smart\"", "rollout_policy: one of"),
        ("deep:x=1", "unknown bot 'deep'"),
    ]:
        with pytest.raises(SimulationError, match=said):
            run_ladder(["greedy", spec], [2], deals=1, out_dir=tmp_path / "bad", progress=False)
    assert not (tmp_path / "bad").exists()  # refused before anything was written
