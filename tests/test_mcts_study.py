"""smallworld.measure.study (the strength study of tools/mcts_study.py: its arms, summary and paired
comparison) and smallworld.measure.trace (tools/mcts_trace.py: what the search saw at each decision
of one game)."""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smallworld.measure import study
from smallworld.measure import trace as tracer

ROOT = Path(__file__).resolve().parents[1]


def _write(path: Path, games: list[tuple[int, bool, bool]]) -> str:
    """(seed, MCTS seated first, MCTS won) as study lines."""
    with path.open("w", encoding="utf-8") as f:
        for seed, first, won in games:
            bots = ["mcts", "greedy"] if first else ["greedy", "mcts"]
            winner = bots.index("mcts") if won else bots.index("greedy")
            scores = [90, 80] if winner == 0 else [80, 90]
            line = {"seed": seed, "bots": bots, "winners": [winner], "scores": scores, "seconds": 1.0}
            f.write(json.dumps(line) + "\n")
    return str(path)


def test_sign_test_is_the_exact_binomial_tail() -> None:
    assert study.sign_test(0, 0) == 1.0
    assert study.sign_test(5, 5) == 1.0
    assert study.sign_test(0, 5) == pytest.approx(2 / 32)
    assert study.sign_test(9, 2) == pytest.approx(2 * sum(math.comb(11, i) for i in range(3)) / 2**11)


def test_compare_pairs_the_games_both_studies_played_seated_alike(tmp_path: Path) -> None:
    first = _write(
        tmp_path / "a.jsonl",
        [(1, True, True), (2, False, True), (3, True, False), (4, True, True), (5, True, True)],
    )
    # Seed 4 seated the other way round is another game; seed 6 only the second study played.
    second = _write(
        tmp_path / "b.jsonl",
        [
            (1, True, False),
            (2, False, True),
            (3, True, True),
            (4, False, False),
            (6, True, True),
            (5, True, False),
        ],
    )
    got = study.compare(first, second)
    assert got["games"] == 4 and got["seeds"] == [1, 5] and got["seated_otherwise"] == 1
    assert (got["first_wins"], got["second_wins"]) == (3, 2)
    assert (got["only_first"], got["only_second"]) == (2, 1)
    assert got["sign_test_p"] == 1.0


def test_summary_prefix_keeps_the_unbroken_run_of_seeds(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.jsonl", [(10, True, True), (11, False, False), (13, True, True)])
    got = study.summary(path, prefix=True)
    assert got["games"] == 2 and got["mcts_wins"] == 1 and got["seeds"] == [10, 11]
    assert study.summary(path)["games"] == 3


def test_arm_takes_a_name_and_a_json_object() -> None:
    assert study.arm('ledger={"coin_ledger": true}') == ("ledger", {"coin_ledger": True})
    assert study.arm("default={}") == ("default", {})
    for bad in ("ledger", "={}", "x=[1]", "x={bad json"):
        with pytest.raises(argparse.ArgumentTypeError, match="NAME=JSON object"):
            study.arm(bad)


def test_arms_play_the_same_seeds_interleaved_game_by_game() -> None:
    args = argparse.Namespace(
        seconds=1.0, playouts=None, bot_option=[("exploration", 0.5)], games=3, seed=100,
        arm=[("a", {}), ("b", {"coin_ledger": True})],
    )  # fmt: skip
    jobs = study.study_jobs(args)
    assert [(name, job.seed) for name, job in jobs] == [
        ("a", 100), ("b", 100), ("a", 101), ("b", 101), ("a", 102), ("b", 102)
    ]  # fmt: skip
    assert jobs[0][1].bots == jobs[1][1].bots != jobs[2][1].bots
    assert jobs[1][1].bot_options == {"seconds": 1.0, "exploration": 0.5, "coin_ledger": True}
    args.arm = [("a", {}), ("a", {"coin_ledger": True})]
    with pytest.raises(SystemExit, match="own name"):
        study.study_jobs(args)
    args.arm = []
    plain = study.study_jobs(args)
    assert [(name, job.seed) for name, job in plain] == [(None, 100), (None, 101), (None, 102)]


def test_a_run_with_arms_records_each_game_with_its_arm_and_options(tmp_path: Path) -> None:
    out = tmp_path / "arms.jsonl"
    cmd = [
        sys.executable, str(ROOT / "tools" / "mcts_study.py"), "run", "--games", "1", "--playouts", "2",
        "--workers", "1", "--seed", "5", "--arm", "a={}", "--arm", 'b={"rollout_rounds": 1}',
        "--out", str(out),
    ]  # fmt: skip
    # The tools/ script, on this checkout's package (PYTHONPATH: whatever else is installed).
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(cmd, check=True, capture_output=True, timeout=300, env=env)
    games = {g["arm"]: g for g in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert sorted(games) == ["a", "b"]
    assert games["a"]["mcts"] == {"playouts": 2}
    assert games["b"]["mcts"] == {"playouts": 2, "rollout_rounds": 1}
    assert games["a"]["seed"] == games["b"]["seed"] == 5 and games["a"]["bots"] == games["b"]["bots"]
    assert study.summary(str(out), arm_name="b")["games"] == 1
    assert study.compare(str(out), str(out), "a", "b")["games"] == 1


def test_a_file_of_arms_is_counted_one_arm_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "arms.jsonl"
    _write(path, [(1, True, True)])
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    text = "".join(json.dumps({**g, "arm": a}) + "\n" for g in lines for a in ("x", "y"))
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit, match="arms x, y: name one"):
        study.summary(str(path))
    with pytest.raises(SystemExit, match="no games of arm 'z'"):
        study.compare(str(path), str(path), "x", "z")
    assert study.summary(str(path), arm_name="y")["mcts_wins"] == 1


def test_the_trace_plays_the_simulators_game_and_shows_each_searched_root() -> None:
    """The trace: with a playout budget its game is the simulator's game of that seed and
    seating, and each searched decision lists the root's moves by visits, greedy's marked."""
    from smallworld.sim import GameJob, play_game

    t = tracer.trace(3, 1, {"playouts": 6})
    res = play_game(GameJob(index=0, players=2, seed=3, bots=("greedy", "mcts"), bot_options={"playouts": 6}))
    assert (t["scores"], t["winners"]) == (res["scores"], res["winners"])
    assert len(t["decisions"]) == res["search"][1]["decisions"] > 0
    for d in t["decisions"]:
        visits = [m["visits"] for m in d["moves"]]
        assert visits == sorted(visits, reverse=True) and sum(visits) <= d["playouts"] + d["reused"]
        assert sum(m["greedy"] for m in d["moves"]) <= 1
        assert all(0.0 <= m["mean"] <= 1.0 and m["sd"] >= 0.0 for m in d["moves"])
    text = tracer.render(t)
    assert f"scores {t['scores']}" in text and text.count("round ") == len(t["decisions"])


def test_the_recorded_studies_are_where_the_docs_say_and_still_read() -> None:
    """The games of the studies in docs/bots.md lie in data/studies/: every file the docs name is
    there, every file there is named, and the first study still counts as the docs report it."""
    import re

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    named: set[str] = set()
    for ref in re.findall(r"data/studies/([\w.{},-]+\.jsonl)", text):
        braces = re.search(r"\{([^}]*)\}", ref)
        alternatives = braces.group(1).split(",") if braces else [""]
        named |= {ref.replace(braces.group(0), alt) if braces else ref for alt in alternatives}
    present = {p.name for p in (ROOT / "data" / "studies").glob("*.jsonl")}
    assert named and named == present
    got = study.summary(str(ROOT / "data" / "studies" / "mcts-vs-greedy-1s-seed20001.jsonl"), prefix=True)
    assert (got["mcts_wins"], got["games"]) == (145, 206)  # "145 / 206" in docs/bots.md
