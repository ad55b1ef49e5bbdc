"""tools/mcts_study.py: the strength study's counting (summary and the paired comparison)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("smallworld_mcts_study", ROOT / "tools" / "mcts_study.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


study = _load_tool()


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
