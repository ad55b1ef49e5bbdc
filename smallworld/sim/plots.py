"""PNG charts of a simulation summary (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from smallworld.sim.runner import SimulationError


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimulationError("--plots needs matplotlib: pip install 'smallworld[sim]'") from None
    return plt


def prepare(out_dir: Path) -> None:
    """Check before any game is played that the charts can be written: matplotlib and the folder."""
    _pyplot()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimulationError(f"--plots: cannot create {out_dir}: {e.strerror or e}") from None


def write_plots(summary: dict[str, Any], results: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    """Write win_rates.png, scores.png, races.png and powers.png into `out_dir`; returns the paths."""
    plt = _pyplot()
    prepare(out_dir)
    from smallworld.engine.model.edition import get_edition

    ed = get_edition("warcraft")
    races = {k: e.name for k, e in ed.races.items()}
    powers = {k: e.name for k, e in ed.powers.items()}
    n = summary["games"]
    mean = _mean_rate(summary["seats"])
    charts = [
        ("win_rates.png", lambda: _rates(plt, summary["bots"], f"Win rate per bot ({n} games)", mean)),
        ("scores.png", lambda: _scores(plt, results, n)),
        (
            "races.png",
            lambda: _rates(plt, summary["races"], f"Win rate by race picked ({n} games)", mean, races),
        ),
        (
            "powers.png",
            lambda: _rates(plt, summary["powers"], f"Win rate by power picked ({n} games)", mean, powers),
        ),
    ]
    written = []
    for name, draw in charts:
        fig = draw()
        path = out_dir / name
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def _mean_rate(seats: dict[str, Any]) -> float:
    """The win rate of the average seat (1 / players without shared victories): the even-odds line."""
    games = sum(v["games"] for v in seats.values())
    return sum(v["wins"] for v in seats.values()) / games if games else 0.0


def _rates(
    plt: Any, data: dict[str, Any], title: str, mean: float, names: dict[str, str] | None = None
) -> Any:
    """Win rates with their 95% Wilson intervals, best first; one bar per key, labelled with its n.
    Bots stand as vertical bars, races and powers (many) as horizontal ones."""
    from matplotlib.ticker import PercentFormatter

    keys = sorted(data, key=lambda k: (-data[k]["win_rate"], -data[k]["games"], k))
    rates = [data[k]["win_rate"] for k in keys]
    err = [
        [max(0.0, r - data[k]["ci95"][0]) for k, r in zip(keys, rates, strict=True)],
        [max(0.0, data[k]["ci95"][1] - r) for k, r in zip(keys, rates, strict=True)],
    ]
    labels = [f"{(names or {}).get(k, k)} (n={data[k]['games']})" for k in keys]
    horizontal = names is not None
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.35 * len(keys) + 1.5) if horizontal else 4.0))
    axis = "win rate (error bars: 95% Wilson interval)"
    if horizontal:
        ax.barh(labels, rates, xerr=err, capsize=3, color="tab:blue")
        ax.invert_yaxis()
        ax.axvline(mean, color="grey", linestyle="--", linewidth=1, label=f"average seat {mean:.0%}")
        ax.set_xlabel(axis)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    else:
        ax.bar(labels, rates, yerr=err, capsize=4, color="tab:blue")
        ax.axhline(mean, color="grey", linestyle="--", linewidth=1, label=f"average seat {mean:.0%}")
        ax.set_ylabel(axis)
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend(loc="lower right" if horizontal else "upper right", fontsize=8)
    ax.set_title(title)
    return fig


def _scores(plt: Any, results: list[dict[str, Any]], games: int) -> Any:
    """Histogram of final scores, one colour per bot, on shared bins."""
    by_bot: dict[str, list[int]] = {}
    for res in results:
        for seat, name in enumerate(res["bots"]):
            by_bot.setdefault(name, []).append(res["scores"][seat])
    fig, ax = plt.subplots(figsize=(8, 4))
    scores = [x for xs in by_bot.values() for x in xs]
    if scores:
        lo, hi = min(scores), max(scores)
        bins = list(range(lo, hi + 2, max(1, (hi - lo) // 30)))
        for name in sorted(by_bot):
            ax.hist(by_bot[name], bins=bins, alpha=0.55, label=f"{name} (n={len(by_bot[name])})")
        ax.legend()
    ax.set_xlabel("final score (coins)")
    ax.set_ylabel("seat-games")
    ax.set_title(f"Final score per bot ({games} games)")
    return fig
