"""`smallworld ladder`: bots rated against each other on duplicate deals (docs/ladder.md).

Every table of the round robin (each pair of bots for 2 players, each set of P bots for P players)
plays every deal (a game seed: boards, shuffles, dice) once in each seating: the seats rotated, so
each bot sits in every seat of the same deal and luck of the deal cancels out. Each game is one line
of `DIR/results.jsonl`, keyed by (players, table, seating, seed): a run that stops resumes where it
stopped, and result files of several machines merge (`--merge`), each game counted once.

Ratings are OpenSkill's Plackett-Luce model (made for free-for-all games of any number of players),
each bot starting at mu 25, sigma 25/3, updated game by game in a fixed order (by a hash of each
game's key: tables and deals interleaved, and a merged or resumed file gives the same ratings); a
bot's interval is mu ± 2 sigma, and the table is ordered by the conservative rating mu - 3 sigma.
Head-to-head win rates (2 players) come with their Wilson 95% intervals, the measure the strength
targets of docs/bots.md are stated in.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from smallworld.bots import is_search_bot
from smallworld.compiled import running
from smallworld.sim.runner import GameJob, SimulationError, check_bots, iter_jobs
from smallworld.sim.stats import wilson

RESULTS = "results.jsonl"


def game_key(players: int, table: Sequence[str], seating: int, seed: int) -> str:
    return f"{players}|{','.join(table)}|{seating}|{seed}"


def tables(
    bots: Sequence[str], players: int, fixed: Sequence[Sequence[str]] = ()
) -> list[tuple[str, ...]]:
    """The round robin's tables: every set of `players` distinct bots (in the order given); with
    fewer bots than seats, the bots fill the table in turn. `fixed` tables (one bot a seat, a bot
    named more than once where it plays several seats: "mcts against three greedy") replace the
    round robin for their player count."""
    chosen = [tuple(t) for t in fixed if len(t) == players]
    if chosen:
        return chosen
    if len(bots) >= players:
        return list(itertools.combinations(bots, players))
    return [tuple(bots[i % len(bots)] for i in range(players))]


def ladder_jobs(
    bots: Sequence[str], players: int, deals: int, seed: int, options: dict[str, Any], edition: str,
    fixed: Sequence[Sequence[str]] = (),
) -> list[tuple[str, GameJob]]:
    """Every game of the ladder with its key: each table, each deal, each seating (rotation)."""
    out: list[tuple[str, GameJob]] = []
    for table in tables(bots, players, fixed):
        for d in range(deals):
            for rot in range(players):
                seated = tuple(table[(s + rot) % players] for s in range(players))
                job = GameJob(
                    index=len(out), players=players, seed=seed + d, bots=seated,
                    bot_options=dict(options), edition=edition,
                )  # fmt: skip
                out.append((game_key(players, table, rot, seed + d), job))
    return out


def read_results(paths: Iterable[Path]) -> dict[str, dict[str, Any]]:
    """Every game of these result files by key (a game found twice is counted once)."""
    games: dict[str, dict[str, Any]] = {}
    for path in paths:
        if not path.exists():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                games.setdefault(str(row["key"]), row)
            except (ValueError, KeyError, TypeError) as e:
                raise SimulationError(f"{path}:{n}: not a ladder result ({e})") from None
    return games


def ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Places of a finished game, 0 first: the winners (after the tie-breaks) first, the others by
    score, equal scores sharing a place."""
    out = []
    for seat, score in enumerate(scores):
        if seat in winners:
            out.append(0)
        else:
            out.append(1 + sum(1 for s, v in enumerate(scores) if v > score and s not in winners))
    return out


def rate(games: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    """OpenSkill (Plackett-Luce) ratings of every bot over `games`, in key order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise SimulationError("ratings need openskill: pip install 'smallworld[sim]'") from None
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    # One pass, in an order that depends on the games only (a hash of each key): tables, seats and
    # deals interleaved. Sorted keys would rate all of one table's games before the next table's,
    # and with an online update the tables that come early would weigh differently.
    for key in sorted(games, key=lambda k: hashlib.blake2b(k.encode(), digest_size=8).digest()):
        g = games[key]
        teams = [[ratings.setdefault(b, model.rating(name=b))] for b in g["bots"]]
        new = model.rate(teams, ranks=[float(r) for r in ranks(g["scores"], g["winners"])])
        for b, (r,) in zip(g["bots"], new, strict=True):
            ratings[b] = r
            played[b] = played.get(b, 0) + 1
    out = {}
    for b, r in ratings.items():
        out[b] = {"mu": r.mu, "sigma": r.sigma, "low": r.mu - 2 * r.sigma, "high": r.mu + 2 * r.sigma,
                  "conservative": r.mu - 3 * r.sigma, "games": played[b]}  # fmt: skip
    return out


def head_to_head(games: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """For each pair of bots met at a 2-player table: the first's wins with a Wilson interval."""
    tally: dict[tuple[str, str], list[int]] = {}
    for g in games.values():
        if len(g["bots"]) != 2 or g["bots"][0] == g["bots"][1]:
            continue
        a, b = sorted(g["bots"])
        won = [g["bots"][w] for w in g["winners"]]
        t = tally.setdefault((a, b), [0, 0])
        t[0] += 1 if won == [a] else 0
        t[1] += 1
    out = []
    for (a, b), (wins, n) in sorted(tally.items()):
        lo, hi = wilson(wins, n)
        out.append({"bot": a, "against": b, "wins": wins, "games": n, "rate": wins / n,
                    "low": lo, "high": hi})  # fmt: skip
    return out


def table_rates(games: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """For each table of 3 or more seats (by the bots at it, whatever the seating) and each bot at
    it: the games won by one of its seats (a shared win counts), with a Wilson interval; against
    `chance`, its seats' share of the table."""
    tally: dict[tuple[str, ...], dict[str, list[int]]] = {}
    for g in games.values():
        if len(g["bots"]) < 3:
            continue
        table = tuple(sorted(g["bots"]))
        won = {g["bots"][w] for w in g["winners"]}
        for b in dict.fromkeys(table):
            t = tally.setdefault(table, {}).setdefault(b, [0, 0])
            t[0] += 1 if b in won else 0
            t[1] += 1
    out = []
    for table, per_bot in sorted(tally.items()):
        for b, (wins, n) in per_bot.items():
            lo, hi = wilson(wins, n)
            out.append({"table": list(table), "bot": b, "wins": wins, "games": n, "rate": wins / n,
                        "low": lo, "high": hi, "chance": table.count(b) / len(table)})  # fmt: skip
    return out


def table_name(table: Sequence[str]) -> str:
    """"greedy ×3, mcts": each bot once, with how many seats it has."""
    return ", ".join(b if table.count(b) == 1 else f"{b} ×{table.count(b)}" for b in dict.fromkeys(table))


def summary(games: dict[str, dict[str, Any]]) -> dict[str, Any]:
    by_players: dict[int, dict[str, dict[str, Any]]] = {}
    for k, g in games.items():
        by_players.setdefault(len(g["bots"]), {})[k] = g
    # The builds that played the games (results written before rows said so count as this process's).
    builds = sorted({str(g.get("build") or running()) for g in games.values()}) or [running()]
    out: dict[str, Any] = {"games": len(games), "build": " and ".join(builds), "by_players": {}}
    for p, gs in sorted(by_players.items()):
        seeds = sorted({g["seed"] for g in gs.values()})
        out["by_players"][str(p)] = {
            "games": len(gs),
            "seeds": [seeds[0], seeds[-1]] if seeds else [],
            "ratings": dict(sorted(rate(gs).items(), key=lambda kv: -kv[1]["conservative"])),
            "head_to_head": head_to_head(gs),
            "tables": table_rates(gs),
        }
    return out


def format_summary(s: dict[str, Any]) -> str:
    lines = [f"{s['games']} games ({s['build']} build)"]
    for p, part in s["by_players"].items():
        lines.append(f"\n{p} players: {part['games']} games, seeds {part['seeds'][0]}..{part['seeds'][-1]}")
        lines.append(f"  {'bot':<28} {'rating':>7} {'mu':>6} {'95% (mu ± 2σ)':>16} {'games':>6}")
        for b, r in part["ratings"].items():
            lines.append(
                f"  {b:<28} {r['conservative']:7.2f} {r['mu']:6.2f} {r['low']:7.2f}..{r['high']:6.2f}"
                f" {r['games']:6d}"
            )
        for h in part["head_to_head"]:
            lines.append(
                f"  {h['bot']} vs {h['against']}: {h['wins']}/{h['games']} = {h['rate']:.1%}"
                f" (95% {h['low']:.1%}..{h['high']:.1%})"
            )
        for t in part.get("tables", []):
            lines.append(
                f"  {t['bot']} at ({table_name(t['table'])}): {t['wins']}/{t['games']} = {t['rate']:.1%}"
                f" (95% {t['low']:.1%}..{t['high']:.1%}; its seats' share {t['chance']:.0%})"
            )
    return "\n".join(lines)


def run_ladder(
    bots: Sequence[str],
    players: Sequence[int],
    deals: int,
    out_dir: Path,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    edition: str = "warcraft",
    merge: Sequence[Path] = (),
    progress: bool = True,
    command: str = "smallworld ladder",
    fixed: Sequence[Sequence[str]] = (),
) -> dict[str, Any]:
    """Play the games of the ladder not yet in `out_dir`'s results (after merging `merge` into
    them), append each to the results as it ends, and return the summary of all of them. `fixed`
    tables replace the round robin for their player count (`tables`)."""
    for t in fixed:
        if not 2 <= len(t) <= 5:
            raise SimulationError(f"a table seats 2 to 5 bots: {','.join(t)!r}")
        if len(set(t)) < 2:
            raise SimulationError(f"a table needs at least two different bots: {','.join(t)!r}")
    bots = list(dict.fromkeys([*bots, *(b for t in fixed for b in t)]))
    players = sorted({*players, *(len(t) for t in fixed)})
    check_bots(bots)
    if len(set(bots)) < 2:
        raise SimulationError("--bots needs at least two different bots")
    if deals < 1 or workers < 1:
        raise SimulationError("--games and --workers must be at least 1")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / RESULTS
    games = read_results([path, *merge])
    mixed = sorted({json.dumps(g.get("options", {}), sort_keys=True) for g in games.values()}
                   - {json.dumps(options or {}, sort_keys=True)})  # fmt: skip
    if mixed:
        raise SimulationError(
            f"the results in {out_dir} (or merged) were played with other search options"
            f" ({', '.join(mixed)}): a ladder compares bots at one budget; use another --out"
        )
    _write(path, games.values())  # the merged ones kept, each once
    todo = [
        (k, j) for p in players
        for k, j in ladder_jobs(bots, p, deals, seed, options or {}, edition, fixed) if k not in games
    ]  # fmt: skip
    uses_search = any(is_search_bot(b) for b in bots)
    t0 = time.perf_counter()
    # Each game appended as soon as it ends: a stopped run loses only the games still in play. Results
    # come back in the order games end, matched by index: numbered afresh here, since each player
    # count's jobs count from 0.
    jobs = [dataclasses.replace(job, index=i) for i, (_, job) in enumerate(todo)]
    with path.open("a", encoding="utf-8") as f:
        for res in iter_jobs(jobs, workers=workers, progress=progress and not uses_search):
            key = todo[res["index"]][0]
            row = {"key": key, **{k: res[k] for k in ("seed", "bots", "scores", "winners", "decisions")}}
            row["search"] = res["search"]
            row["build"] = res["build"]
            row["options"] = options or {}
            games[key] = row
            f.write(json.dumps(row) + "\n")
            f.flush()
    s = summary(games)
    s["run"] = {"played": len(todo), "seconds": round(time.perf_counter() - t0, 1), "workers": workers,
                "options": options or {}, "edition": edition}  # fmt: skip
    (out_dir / "ladder.json").write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    write_report(out_dir, s, command)
    return s


def _write(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    tmp.replace(path)


def write_report(out_dir: Path, s: dict[str, Any], command: str) -> list[Path]:
    """`ladder.md` (the command, the seeds, a table per player count) and, when matplotlib is there,
    `ladder.png` (each bot's rating with its interval) in `out_dir`; returns the files written."""
    lines = ["# Ladder", "", f"Made with `{command}` ({s['games']} games, {s['build']} build).", ""]
    for p, part in s["by_players"].items():
        lo, hi = part["seeds"]
        lines += [f"## {p} players", ""]
        lines += [f"{part['games']} games, deals (seeds) {lo} to {hi}, each in every seating.", ""]
        lines += ["| bot | rating (mu - 3σ) | mu | interval (mu ± 2σ) | games |", "|---|---:|---:|---:|---:|"]
        for b, r in part["ratings"].items():
            lines.append(
                f"| {b} | {r['conservative']:.1f} | {r['mu']:.1f} | {r['low']:.1f} to {r['high']:.1f}"
                f" | {r['games']} |"
            )
        if part["head_to_head"]:
            lines += ["", "| head to head | wins | rate | 95% interval |", "|---|---:|---:|---:|"]
            for h in part["head_to_head"]:
                lines.append(
                    f"| {h['bot']} vs {h['against']} | {h['wins']}/{h['games']} | {h['rate']:.1%}"
                    f" | {h['low']:.1%} to {h['high']:.1%} |"
                )
        if part.get("tables"):
            lines += ["", "| table | bot | games won | rate | 95% interval | its seats' share |",
                      "|---|---|---:|---:|---:|---:|"]  # fmt: skip
            for t in part["tables"]:
                lines.append(
                    f"| {table_name(t['table'])} | {t['bot']} | {t['wins']}/{t['games']} | {t['rate']:.1%}"
                    f" | {t['low']:.1%} to {t['high']:.1%} | {t['chance']:.0%} |"
                )
        lines.append("")
    written = [out_dir / "ladder.md"]
    png = _plot(out_dir / "ladder.png", s)
    if png is not None:
        lines += ["![ratings with their intervals](ladder.png)", ""]
        written.append(png)
    written[0].write_text("\n".join(lines), encoding="utf-8")
    return written


def _plot(path: Path, s: dict[str, Any]) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    parts = list(s["by_players"].items())
    fig, axes = plt.subplots(1, len(parts), figsize=(5 * len(parts), 3.2), squeeze=False)
    for ax, (p, part) in zip(axes[0], parts, strict=True):
        bots = list(part["ratings"])[::-1]
        mus = [part["ratings"][b]["mu"] for b in bots]
        err = [2 * part["ratings"][b]["sigma"] for b in bots]
        ax.errorbar(mus, range(len(bots)), xerr=err, fmt="o", capsize=4)
        ax.set_yticks(range(len(bots)), bots)
        ax.set_title(f"{p} players ({part['games']} games)")
        ax.set_xlabel("OpenSkill mu ± 2σ")
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
