"""MCTS against greedy, 2 players, seats rotating: the strength study of issue 15.

    tools/mcts_study.py run --games 192 --workers 16 --seed 10001 --seconds 1 --out games.jsonl
    tools/mcts_study.py summary games.jsonl
    tools/mcts_study.py compare default.jsonl variant.jsonl   # paired, on the seeds both played
    tools/mcts_study.py run --games 150 --workers 16 --seed 30001 --out arms.jsonl \\
        --arm 'default={}' --arm 'ledger={"coin_ledger": true}'     # arms on the same seeds, interleaved
    tools/mcts_study.py compare arms.jsonl arms.jsonl --first-arm default --second-arm ledger
    PYTHONPATH=build/compiled python -P tools/mcts_study.py run ...   # on the optional mypyc build

(`python -m smallworld.measure.study` is the same command; tools/mcts_study.py runs this module.)
Each game line records `build`: "compiled" when the engine's modules were the mypyc build
(tools/build-compiled), else "pure". The recorded studies are in data/studies/ (docs/bots.md).

`run` appends one JSON line per finished game (flushed at once), so a run stopped by a time limit
keeps every game it finished; games are independent (`smallworld.sim.runner.make_jobs`: game i has
seed S+i and the bot list rotated by i), so the set of finished games is no biased choice of seeds
beyond which ones ended first. `summary` counts MCTS wins (a shared win counts as a win for each
winner, as `smallworld simulate` counts it) with the Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
from pathlib import Path
from typing import Any

import smallworld.engine.flow.turn
from smallworld.bots import key_json
from smallworld.sim.runner import GameJob, make_jobs, play_game
from smallworld.sim.stats import wilson

BUILD = "compiled" if not str(smallworld.engine.flow.turn.__file__).endswith(".py") else "pure"


def bot_option(text: str) -> tuple[str, object]:
    """`--bot-option KEY=JSON`, e.g. `gains=false` or `coin_ledger=true`."""
    try:
        return key_json(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=JSON, e.g. gains=false") from None


def arm(text: str) -> tuple[str, dict[str, object]]:
    """`--arm NAME=JSON`: an MCTS configuration to play on the same seeds as the others, e.g.
    `ledger={"coin_ledger": true}` or `default={}`."""
    try:
        name, options = key_json(text)
        if not isinstance(options, dict):
            raise ValueError(text)
        return name, options
    except ValueError:
        raise argparse.ArgumentTypeError(
            f'{text!r}: expected NAME=JSON object, e.g. ledger={{"coin_ledger": true}}'
        ) from None


def study_jobs(args: argparse.Namespace) -> list[tuple[str | None, GameJob]]:
    """The games to play, each with its arm (None without `--arm`). With arms, game i of every arm
    comes before game i + 1 of any, so a run stopped early leaves the arms paired seed by seed."""
    options: dict[str, object] = (
        {"seconds": args.seconds} if args.playouts is None else {"playouts": args.playouts}
    )
    options.update(args.bot_option)
    arms: list[tuple[str | None, dict[str, object]]] = [
        (name, {**options, **extra}) for name, extra in args.arm
    ]
    names = [name for name, _ in arms]
    if len(set(names)) != len(names):
        raise SystemExit(f"--arm: each arm needs its own name, got {names}")
    per_arm = [
        (name, make_jobs(2, args.games, ["mcts", "greedy"], seed=args.seed, bot_options=opts))
        for name, opts in (arms or [(None, options)])
    ]
    return [(name, jobs[i]) for i in range(args.games) for name, jobs in per_arm]


def play_arm(item: tuple[str | None, GameJob]) -> tuple[str | None, dict[str, Any]]:
    name, job = item
    res = play_game(job)
    res["mcts"] = dict(job.bot_options)
    return name, res


def run(args: argparse.Namespace) -> None:
    jobs = study_jobs(args)
    with open(args.out, "a", encoding="utf-8") as out, mp.get_context("spawn").Pool(args.workers) as pool:
        for name, res in pool.imap_unordered(play_arm, jobs, chunksize=1):
            if name is not None:
                res["arm"] = name
            res["build"] = BUILD
            out.write(json.dumps(res) + "\n")
            out.flush()


def _lines(path: str, arm_name: str | None = None) -> list[dict[str, Any]]:
    """The games of a study file; with `arm_name`, only that arm's."""
    games = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]
    arms = sorted({g["arm"] for g in games if "arm" in g})
    if arm_name is None and arms:
        raise SystemExit(f"{path} holds the games of arms {', '.join(arms)}: name one (--arm)")
    if arm_name is not None and arm_name not in arms:
        raise SystemExit(f"{path} holds no games of arm {arm_name!r} (arms: {', '.join(arms) or 'none'})")
    return [g for g in games if arm_name is None or g.get("arm") == arm_name]


def summary(path: str, prefix: bool = False, arm_name: str | None = None) -> dict[str, object]:
    games = _lines(path, arm_name)
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


def _games(path: str, arm_name: str | None = None) -> dict[int, dict[str, Any]]:
    return {g["seed"]: g for g in _lines(path, arm_name)}


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


def compare(
    first: str, second: str, first_arm: str | None = None, second_arm: str | None = None
) -> dict[str, object]:
    """Two studies on the games both played (same seed, same seats; a seed seated the other way
    round is another game and is left out): each one's wins, the games only one of them won, and
    the sign test on those."""
    a, b = _games(first, first_arm), _games(second, second_arm)
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


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--games", type=int, default=192)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--seed", type=int, default=10001)
    r.add_argument("--seconds", type=float, default=1.0)
    r.add_argument("--playouts", type=int, default=None)
    r.add_argument("--out", required=True)
    r.add_argument(
        "--bot-option",
        action="append",
        type=bot_option,
        default=[],
        metavar="KEY=JSON",
        help="another MCTS option",
    )
    r.add_argument(
        "--arm",
        action="append",
        type=arm,
        default=[],
        metavar="NAME=JSON",
        help="an MCTS configuration played on the same seeds as the other arms, interleaved",
    )
    s = sub.add_parser("summary")
    s.add_argument("file")
    s.add_argument("--prefix", action="store_true", help="only the unbroken run of seeds from the first")
    s.add_argument("--arm", help="only this arm's games")
    c = sub.add_parser("compare", help="two studies (or two arms) on the games both played, paired")
    c.add_argument("first")
    c.add_argument("second", help="a second file (may be the first, with arms)")
    c.add_argument("--first-arm")
    c.add_argument("--second-arm")
    a = p.parse_args(argv)
    if a.cmd == "run":
        run(a)
    elif a.cmd == "compare":
        print(json.dumps(compare(a.first, a.second, a.first_arm, a.second_arm), indent=1))
    else:
        print(json.dumps(summary(a.file, a.prefix, a.arm), indent=1))


if __name__ == "__main__":
    main()
