"""Refresh the generated parts of the docs from the code. Tests compare the docs with the code
(`tests/test_docs.py`, and the tables in `tests/test_schema.py` and `tests/test_env.py`); this
rewrites them.

    python tools/regenerate_docs.py            # everything (the simulation: about 30 s of one core)
    python tools/regenerate_docs.py --fast     # everything but the simulation
    python tools/regenerate_docs.py --check    # write nothing: say what is out of date (exit 1)

The generated parts:
- blocks between `<!-- BEGIN GENERATED: ... -->` and `<!-- END GENERATED -->`: the protocol tables
  of docs/protocol.md (`smallworld.engine.api.schema.markdown_tables`), the RL tables of docs/rl.md
  (`smallworld.env.layout_doc.markdown`) and the greedy-against-random table of docs/bots.md (a
  seeded `smallworld simulate` run, the same on any machine and for any number of workers: slow);
- figures in the text, `<!-- figure NAME -->VALUE<!-- /figure -->` (`FIGURES` below), in any
  docs/*.md;
- the definitions of a position in docs/position.schema.json (`position`, `seat`, `region_state`,
  ...), made from the state's shape (`smallworld.engine.api.schema.position_defs`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FIGURE = re.compile(r"<!-- figure (?P<name>[a-z0-9_.-]+) -->(?P<value>.*?)<!-- /figure -->")


@dataclass(frozen=True)
class Block:
    """A generated block: `path` from the line `begin` to the line `end` after it (both included)."""

    name: str
    path: Path
    begin: str
    end: str
    make: Callable[[], str]
    slow: bool = False


# --- the greedy-against-random table of docs/bots.md ------------------------------------------------
SIM_BEGIN = "<!-- BEGIN GENERATED: python tools/regenerate_docs.py (greedy against random) -->"
GENERATED_END = "<!-- END GENERATED -->"
SIM_PLAYERS, SIM_GAMES, SIM_BOTS, SIM_SEED = 2, 100, ("greedy", "random"), 7


def _percent(x: float) -> str:
    return f"{round(100 * x, 1):g}%"


def greedy_against_random() -> str:
    from smallworld.sim import simulate

    summary, _ = simulate(
        players=SIM_PLAYERS,
        games=SIM_GAMES,
        bots=list(SIM_BOTS),
        seed=SIM_SEED,
        workers=max(1, min(4, os.cpu_count() or 1)),
        progress=False,
    )
    command = (
        f"smallworld simulate --players {SIM_PLAYERS} --games {SIM_GAMES} "
        f"--bots {','.join(SIM_BOTS)} --seed {SIM_SEED}"
    )
    lines = [SIM_BEGIN, "", "```sh norun", command, "```", ""]
    lines += ["| bot | games | wins | win rate | 95% CI | mean score |", "|---|---|---|---|---|---|"]
    for bot in SIM_BOTS:
        b: dict[str, Any] = summary["bots"][bot]
        low, high = b["ci95"]
        lines.append(
            f"| {bot} | {b['games']} | {b['wins']} | {_percent(b['win_rate'])} | "
            f"[{_percent(low)}, {_percent(high)}] | {b['mean_score']:.1f} |"
        )
    return "\n".join([*lines, "", GENERATED_END])


def _protocol() -> str:
    from smallworld.engine.api import schema

    return schema.markdown_tables("warcraft")


def _rl() -> str:
    from smallworld.env import layout_doc

    return layout_doc.markdown()


def blocks() -> list[Block]:
    from smallworld.engine.api import schema
    from smallworld.env import layout_doc

    return [
        Block("protocol tables", DOCS / "protocol.md", schema.BEGIN, schema.END, _protocol),
        Block("rl tables", DOCS / "rl.md", layout_doc.BEGIN, layout_doc.END, _rl),
        Block(
            "greedy against random", DOCS / "bots.md", SIM_BEGIN, GENERATED_END, greedy_against_random, True
        ),
    ]


# --- figures ------------------------------------------------------------------------------------------
def _num_actions() -> str:
    from smallworld.env.encoding import ActionEncoder

    return str(ActionEncoder().num_actions)


def _observation_size() -> str:
    from smallworld.env.encoding import ActionEncoder
    from smallworld.env.observation import ObservationEncoder

    return str(ObservationEncoder(ActionEncoder().max_regions).size)


FIGURES: dict[str, Callable[[], str]] = {
    "rl.num_actions": _num_actions,
    "rl.observation_size": _observation_size,
}


# --- refreshing -----------------------------------------------------------------------------------------
def _replace_block(text: str, block: Block) -> str:
    i = text.index(block.begin)
    j = text.index(block.end, i) + len(block.end)
    return text[:i] + block.make() + text[j:]


def _replace_figures(text: str, values: dict[str, str], where: Path) -> str:
    def one(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in FIGURES:
            raise SystemExit(f"{where}: unknown figure {name!r}; known: {', '.join(FIGURES)}")
        if name not in values:
            values[name] = FIGURES[name]()
        return f"<!-- figure {name} -->{values[name]}<!-- /figure -->"

    return FIGURE.sub(one, text)


def refresh(slow: bool = True, write: bool = True) -> list[str]:
    """Bring the generated parts up to date (`write`) or only compare; the names of those that were
    (or are) out of date. `slow`: the simulation too."""
    stale: list[str] = []
    texts = {path: path.read_text(encoding="utf-8") for path in sorted(DOCS.glob("*.md"))}
    new = dict(texts)
    for block in blocks():
        if block.slow and not slow:
            continue
        updated = _replace_block(new[block.path], block)
        if updated != new[block.path]:
            stale.append(f"{block.path.relative_to(ROOT)}: {block.name}")
            new[block.path] = updated
    values: dict[str, str] = {}
    for path in new:
        updated = _replace_figures(new[path], values, path)
        if updated != new[path]:
            stale.append(f"{path.relative_to(ROOT)}: figures")
            new[path] = updated
    if write:
        for path, text in new.items():
            if text != texts[path]:
                path.write_text(text, encoding="utf-8")
    from smallworld.engine.api import schema

    path = ROOT / schema.POSITION_SCHEMA
    text = path.read_text(encoding="utf-8")
    updated = schema.position_schema_text(text)
    if updated != text:
        stale.append(f"{schema.POSITION_SCHEMA}: the position's definitions")
        if write:
            path.write_text(updated, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Refresh the generated parts of the docs from the code.")
    p.add_argument("--fast", action="store_true", help="leave the simulation as it is")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 when something is out of date")
    args = p.parse_args(argv)
    stale = refresh(slow=not args.fast, write=not args.check)
    for name in stale:
        print(("out of date: " if args.check else "updated: ") + name)
    if not stale:
        print("up to date")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
