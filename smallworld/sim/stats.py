"""Statistics of simulated games: win rates with Wilson intervals, scores, picks.

A shared victory counts as a win for each winner. A bot's "games" are seat-games: a bot that fills
two seats of one game counts twice. A race, power or combo counts once per seat that picked it in a
game (a seat picking the same race twice in one game counts once), with that seat's result.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from typing import Any

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def distribution(values: Iterable[float]) -> dict[str, float]:
    xs = sorted(values)
    if not xs:
        return {"n": 0}
    q = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [xs[0]] * 3
    return {
        "n": len(xs),
        "mean": round(statistics.fmean(xs), 3),
        "sd": round(statistics.stdev(xs), 3) if len(xs) > 1 else 0.0,
        "min": xs[0],
        "q1": round(q[0], 3),
        "median": round(q[1], 3),
        "q3": round(q[2], 3),
        "max": xs[-1],
    }


class _Tally:
    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.scores: list[int] = []

    def add(self, won: bool, score: int) -> None:
        self.games += 1
        self.wins += int(won)
        self.scores.append(score)

    def to_json(self, with_scores: bool = False) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        out: dict[str, Any] = {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(statistics.fmean(self.scores), 3) if self.scores else 0.0,
        }
        if with_scores:
            out["scores"] = distribution(self.scores)
        return out


def summarise(results: list[dict[str, Any]], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON summary of game results (in job order, so it is the same for any worker count)."""
    bots: dict[str, _Tally] = {}
    seats: dict[int, _Tally] = {}
    races: dict[str, _Tally] = {}
    powers: dict[str, _Tally] = {}
    combos: dict[str, _Tally] = {}
    all_scores: list[int] = []
    decisions = 0
    for res in results:
        winners = set(res["winners"])
        scores = res["scores"]
        decisions += res["decisions"]
        for seat, name in enumerate(res["bots"]):
            won = seat in winners
            bots.setdefault(name, _Tally()).add(won, scores[seat])
            seats.setdefault(seat, _Tally()).add(won, scores[seat])
            all_scores.append(scores[seat])
        seen: set[tuple[str, int, str]] = set()
        for seat, race, power in res["picks"]:
            won, score = seat in winners, scores[seat]
            for kind, tally, key in (
                ("race", races, race),
                ("power", powers, power),
                ("combo", combos, f"{race}+{power}"),
            ):
                if key is None or (kind, seat, key) in seen:
                    continue
                seen.add((kind, seat, key))
                tally.setdefault(key, _Tally()).add(won, score)

    def table(t: dict[Any, _Tally]) -> dict[str, Any]:
        ordered = sorted(t.items(), key=lambda kv: (-kv[1].games, str(kv[0])))
        return {str(k): v.to_json() for k, v in ordered}

    out: dict[str, Any] = dict(meta or {})
    out.update(
        {
            "games": len(results),
            "bots": {k: v.to_json(with_scores=True) for k, v in sorted(bots.items())},
            "seats": {str(k): v.to_json() for k, v in sorted(seats.items())},
            "scores": distribution(all_scores),
            "races": table(races),
            "powers": table(powers),
            "combos": table(combos),
            "decisions": decisions,
            "ties_count_as_wins_for_each_winner": True,
        }
    )
    return out


def _names(edition: str = "warcraft") -> dict[str, str]:
    """Display names of races and powers ("blood_elves" -> "Blood Elves") for the text report."""
    from smallworld.engine.model.edition import get_edition

    ed = get_edition(edition)
    return {k: e.name for table in (ed.races, ed.powers) for k, e in table.items()}


def format_table(summary: dict[str, Any]) -> str:
    """The human-readable report of `summarise`."""
    names = _names(summary.get("edition", "warcraft"))
    lines: list[str] = []
    head = (
        f"{summary['games']} games, {summary.get('players', '?')} players, "
        f"variant {summary.get('variant', 'standard')}, seed {summary.get('seed', 0)}"
        + (f", edition {summary['edition']}" if "edition" in summary else "")
    )
    lines.append(head)
    lines.append("")

    def label(key: str) -> str:
        return " + ".join(names.get(part, part) for part in key.split("+"))

    def rows(title: str, data: dict[str, Any], limit: int | None = None, by_rate: bool = False) -> None:
        lines.append(f"{title:<34} {'games':>6} {'wins':>6} {'win%':>6}  {'95% CI':>15} {'mean score':>11}")
        items = list(data.items())
        if by_rate:
            items.sort(key=lambda kv: -kv[1]["win_rate"])
        for key, v in items[:limit] if limit else items:
            lo, hi = v["ci95"]
            lines.append(
                f"  {label(key):<32} {v['games']:>6} {v['wins']:>6} {100 * v['win_rate']:>5.1f}%"
                f"  [{100 * lo:5.1f}, {100 * hi:5.1f}] {v['mean_score']:>11.1f}"
            )
        if limit and len(items) > limit:
            lines.append(f"  ... {len(items) - limit} more (--json lists all)")
        lines.append("")

    rows("bot", summary["bots"])
    rows("seat (0 = first player)", summary["seats"])
    lines.append(
        f"{'final scores':<34} {'mean':>7} {'sd':>7} {'min':>5} {'q1':>7} {'median':>7} {'q3':>7} {'max':>5}"
    )
    dists = [("all", summary["scores"])] + [(k, v["scores"]) for k, v in summary["bots"].items()]
    for key, d in dists:
        if d.get("n"):
            lines.append(
                f"  {key:<32} {d['mean']:>7.1f} {d['sd']:>7.1f} {d['min']:>5} {d['q1']:>7.1f}"
                f" {d['median']:>7.1f} {d['q3']:>7.1f} {d['max']:>5}"
            )
    lines.append("")
    rows("race picked (best win rate first)", summary["races"], by_rate=True)
    rows("power picked (best win rate first)", summary["powers"], by_rate=True)
    rows("race + power (most picked first)", summary["combos"], limit=20)
    lines.append("A shared victory counts as a win for each winner; a pick counts once per seat and game.")
    return "\n".join(lines)
