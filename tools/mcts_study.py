#!/usr/bin/env python3
"""MCTS against greedy, 2 players, seats rotating: the strength study of issue 15.

    python tools/mcts_study.py run --games 192 --workers 16 --seed 10001 --seconds 1 --out games.jsonl
    python tools/mcts_study.py summary games.jsonl
    python tools/mcts_study.py compare default.jsonl variant.jsonl   # paired, on the seeds both played
    PYTHONPATH=build/compiled python -P tools/mcts_study.py run ...   # on the optional mypyc build

Each game line records `build`: "compiled" when the engine's modules were the mypyc build
(tools/build-compiled), else "pure".

`run` appends one JSON line per finished game (flushed at once), so a run stopped by a time limit
keeps every game it finished; games are independent (`smallworld.sim.runner.make_jobs`: game i has
seed S+i and the bot list rotated by i), so the set of finished games is no biased choice of seeds
beyond which ones ended first. `summary` counts MCTS wins (a shared win counts as a win for each
winner, as `smallworld simulate` counts it) with the Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import multiprocessing as mp
import sys
from pathlib import Path
from typing import Any

# The checkout's package unless one is already on the path (the compiled build, put first).
if importlib.util.find_spec("smallworld") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import smallworld.engine.flow
from smallworld.sim.runner import make_jobs, play_game
from smallworld.sim.stats import wilson

BUILD = "compiled" if not str(smallworld.engine.flow.__file__).endswith(".py") else "pure"


def bot_option(text: str) -> tuple[str, object]:
    """`--bot-option KEY=JSON`, e.g. `cutoff_win=0` or `coin_ledger=true`."""
    key, eq, value = text.partition("=")
    try:
        if not key or not eq:
            raise ValueError
        return key, json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=JSON, e.g. cutoff_win=0") from None


def run(args: argparse.Namespace) -> None:
    options: dict[str, object] = (
        {"seconds": args.seconds} if args.playouts is None else {"playouts": args.playouts}
    )
    options.update(args.bot_option)
    jobs = make_jobs(2, args.games, ["mcts", "greedy"], seed=args.seed, bot_options=options)
    with open(args.out, "a", encoding="utf-8") as out, mp.get_context("spawn").Pool(args.workers) as pool:
        for res in pool.imap_unordered(play_game, jobs, chunksize=1):
            res["mcts"] = options
            res["build"] = BUILD
            out.write(json.dumps(res) + "\n")
            out.flush()


def summary(path: str, prefix: bool = False) -> dict[str, object]:
    games = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]
    if prefix:
        # Only the unbroken run of seeds from the first: a run stopped by a time limit would
        # otherwise keep more of the short games among the last ones started.
        by_seed = {g["seed"]: g for g in games}
        seed = min(by_seed, default=0)
        games = []
        while seed in by_seed:
            games.append(by_seed[seed])
            seed += 1
    wins = sum(1 for g in games if g["bots"].index("mcts") in g["winners"])
    seat0 = sum(1 for g in games if g["bots"][0] == "mcts")
    lo, hi = wilson(wins, len(games))
    mean = [
        sum(g["scores"][g["bots"].index(b)] for g in games) / max(len(games), 1) for b in ("mcts", "greedy")
    ]
    spent = [g["search"][g["bots"].index("mcts")] for g in games if g.get("search")]
    spent = [x for x in spent if x]
    return {
        "games": len(games),
        "mcts_first_seat": seat0,
        "mcts_wins": wins,
        "win_rate": round(wins / max(len(games), 1), 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "mean_score_mcts": round(mean[0], 2),
        "mean_score_greedy": round(mean[1], 2),
        "seeds": sorted(g["seed"] for g in games),
        "mean_seconds_per_game": round(sum(g["seconds"] for g in games) / max(len(games), 1), 1),
        # Playouts per searched MCTS decision (games recorded before the simulator counted them: none).
        "mean_playouts_per_decision": (
            round(sum(x["playouts"] for x in spent) / sum(x["decisions"] for x in spent)) if spent else None
        ),
    }


def _games(path: str) -> dict[int, dict[str, object]]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return {g["seed"]: g for g in (json.loads(line) for line in lines if line)}


def _mcts_won(g: dict[str, Any]) -> bool:
    return g["bots"].index("mcts") in g["winners"]


def sign_test(a: int, b: int) -> float:
    """Exact two-sided sign test: the chance of a split of the a + b discordant games at least this
    uneven when each is a fair coin."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(first: str, second: str) -> dict[str, object]:
    """Two studies on the games both played (same seed, same seats; a seed seated the other way
    round is another game and is left out): each one's wins, the games only one of them won, and
    the sign test on those."""
    a, b = _games(first), _games(second)
    common = sorted(set(a) & set(b))
    seeds = [s for s in common if a[s]["bots"] == b[s]["bots"]]
    only_a = sum(1 for s in seeds if _mcts_won(a[s]) and not _mcts_won(b[s]))
    only_b = sum(1 for s in seeds if _mcts_won(b[s]) and not _mcts_won(a[s]))
    return {
        "games": len(seeds),
        "seeds": [seeds[0], seeds[-1]] if seeds else [],
        "seated_otherwise": len(common) - len(seeds),
        "first_wins": sum(1 for s in seeds if _mcts_won(a[s])),
        "second_wins": sum(1 for s in seeds if _mcts_won(b[s])),
        "only_first": only_a,
        "only_second": only_b,
        "sign_test_p": round(sign_test(only_a, only_b), 4),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--games", type=int, default=192)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--seed", type=int, default=10001)
    r.add_argument("--seconds", type=float, default=1.0)
    r.add_argument("--playouts", type=int, default=None)
    r.add_argument("--out", required=True)
    r.add_argument(
        "--bot-option", action="append", type=bot_option, default=[], metavar="KEY=JSON",
        help="another MCTS option",
    )
    s = sub.add_parser("summary")
    s.add_argument("file")
    s.add_argument("--prefix", action="store_true", help="only the unbroken run of seeds from the first")
    c = sub.add_parser("compare", help="two studies on the seeds both played, paired")
    c.add_argument("first")
    c.add_argument("second")
    a = p.parse_args()
    if a.cmd == "run":
        run(a)
    elif a.cmd == "compare":
        print(json.dumps(compare(a.first, a.second), indent=1))
    else:
        print(json.dumps(summary(a.file, a.prefix), indent=1))


if __name__ == "__main__":
    main()
