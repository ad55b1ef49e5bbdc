"""PNG charts of a simulation summary (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from smallworld.sim.runner import SimulationError


def write_plots(summary: dict[str, Any], results: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    """Write win_rates.png, scores.png, races.png and powers.png into `out_dir`; returns the paths."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimulationError("--plots needs matplotlib: pip install 'smallworld[sim]'") from None
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def rate_bars(data: dict[str, Any], title: str, name: str, horizontal: bool = False) -> None:
        keys = list(data)
        rates = [data[k]["win_rate"] for k in keys]
        lo = [max(0.0, r - data[k]["ci95"][0]) for k, r in zip(keys, rates, strict=True)]
        hi = [max(0.0, data[k]["ci95"][1] - r) for k, r in zip(keys, rates, strict=True)]
        labels = [f"{k} (n={data[k]['games']})" for k in keys]
        height = max(3.0, 0.35 * len(keys) + 1.5) if horizontal else 4.0
        fig, ax = plt.subplots(figsize=(8, height))
        if horizontal:
            ax.barh(labels, rates, xerr=[lo, hi], capsize=3, color="tab:blue")
            ax.invert_yaxis()
            ax.set_xlabel("win rate (95% Wilson CI)")
            ax.set_xlim(0, 1)
        else:
            ax.bar(labels, rates, yerr=[lo, hi], capsize=4, color="tab:blue")
            ax.set_ylabel("win rate (95% Wilson CI)")
            ax.set_ylim(0, 1)
        ax.set_title(title)
        fig.tight_layout()
        path = out_dir / name
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    rate_bars(summary["bots"], f"Win rate per bot ({summary['games']} games)", "win_rates.png")

    fig, ax = plt.subplots(figsize=(8, 4))
    by_bot: dict[str, list[int]] = {}
    for res in results:
        for seat, name in enumerate(res["bots"]):
            by_bot.setdefault(name, []).append(res["scores"][seat])
    all_scores = [x for xs in by_bot.values() for x in xs]
    if all_scores:
        bins = range(
            min(all_scores), max(all_scores) + 2, max(1, (max(all_scores) - min(all_scores)) // 30 or 1)
        )
        for name in sorted(by_bot):
            ax.hist(by_bot[name], bins=list(bins), alpha=0.55, label=name)
        ax.legend()
    ax.set_xlabel("final score (VC)")
    ax.set_ylabel("seat-games")
    ax.set_title("Score distribution per bot")
    fig.tight_layout()
    path = out_dir / "scores.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)

    rate_bars(summary["races"], "Win rate by race picked", "races.png", horizontal=True)
    rate_bars(summary["powers"], "Win rate by power picked", "powers.png", horizontal=True)
    return written
