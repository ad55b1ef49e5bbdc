"""Perft oracle: legal-move counts to a fixed depth from fixed positions (tests/perft/perft.json).

The counts were worked out once by tools/perft.py (not by random play) and frozen. A count changes
only when a rule changes what is legal or what follows an action: then regenerate the file with
`python tools/perft.py --write` and explain the rule change in the commit. See tests/perft/README.md.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("smallworld_perft_tool", ROOT / "tools" / "perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


perft = _load_tool()
ORACLE: dict[str, Any] = perft.load_oracle()
ENTRIES: list[dict[str, Any]] = ORACLE["positions"]
REGENERATE = (
    "a perft count changes only when a rule changes; if this change is intended, regenerate with "
    "`python tools/perft.py --write` and explain the rule change in the commit"
)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_perft(entry: dict[str, Any]) -> None:
    source = entry["source"]
    if "scenario" in source:
        digest = perft.scenario_digest(source["scenario"], source["applied"])
        assert digest == source["sha256"], (
            f"perft position {entry['id']}: tests/scenarios/{source['scenario']} (first {source['applied']} "
            f"actions) is no longer the position whose counts were frozen (sha256 {source['sha256']}, now "
            f"{digest}); regenerate with `python tools/perft.py --write` and say why in the commit"
        )
    expected: list[int] = entry["counts"]
    got = perft.perft_counts(perft.build(source), len(expected))
    for depth, (want, have) in enumerate(zip(expected, got, strict=True), 1):
        assert have == want, (
            f"perft position {entry['id']} ({entry['description']}), depth {depth}: "
            f"expected {want}, got {have} (all depths: expected {expected}, got {got}); {REGENERATE}"
        )


def test_oracle_shape() -> None:
    """At least 25 positions, unique ids, depth >= 2 wherever the game is not over, counts that
    never shrink with depth (every position that is not over has a legal action)."""
    assert ORACLE["format"] == perft.FORMAT
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) >= 25, f"the perft oracle has {len(ids)} positions; it should have at least 25"
    assert len(set(ids)) == len(ids), "duplicate position ids"
    for e in ENTRIES:
        counts = e["counts"]
        assert counts and all(isinstance(n, int) and n >= 1 for n in counts), e["id"]
        game_over = all(n == 1 for n in counts) and perft.build(e["source"]).is_over()
        assert len(counts) >= 2 or game_over, f"{e['id']}: record at least depth 2"
        assert counts == sorted(counts), f"{e['id']}: perft shrinks with depth: {counts}"
        assert e["description"], f"{e['id']}: describe why the position is interesting"


def test_oracle_matches_catalogue() -> None:
    """The frozen file holds the positions and depths of tools/perft.py's CATALOGUE."""
    frozen = [
        (e["id"], {k: v for k, v in e["source"].items() if k != "sha256"}, len(e["counts"])) for e in ENTRIES
    ]
    catalogue = [(p.id, p.source, p.depth) for p in perft.CATALOGUE]
    assert frozen == catalogue, f"tests/perft/perft.json is stale; {REGENERATE}"


def test_one_walk_counts_every_depth() -> None:
    """perft_counts (one walk) agrees with perft (one walk per depth), game-over leaves included."""
    by_id = {p.id: p for p in perft.CATALOGUE}
    for pid in ("game-end-2p", "gnomes-airborne-prompt"):
        st = perft.build(by_id[pid].source)
        assert perft.perft_counts(st, 4) == [perft.perft(st, d) for d in range(1, 5)], pid
    over = perft.build(by_id["game-end-2p"].source)
    while not over.is_over():
        over.apply(over.legal_actions()[0])
    assert perft.perft_counts(over, 3) == [1, 1, 1]
    assert perft.perft(over, 3) == 1


def test_classic_positions_cover_each_map_and_each_unit_that_adds_actions() -> None:
    """Issue 27 item 7: classic Small World has a new game on each map (one per player count), and
    a position where a seat holds each classic race and power that adds decisions or targets: its
    own actions or prompts, named conquest options, extra targets, troops to place, an In-Decline
    phase, a decline after scoring, no target-first final attempt."""
    from smallworld.engine.model.edition import get_edition
    from smallworld.engine.model.hooks import Unit

    ed = get_edition("classic")
    classic = [
        e
        for e in ENTRIES
        if e["source"].get("new_game", {}).get("edition") == "classic"
        or str(e["source"].get("scenario", "")).startswith("classic/")
    ]
    maps = {
        e["source"]["new_game"]["players"]
        for e in classic
        if "new_game" in e["source"] and "plies" not in e["source"]
    }
    assert maps == {2, 3, 4, 5}, f"classic new games for {sorted(maps)} players only"
    hooks = ("actions", "conquest_options", "extra_targets", "prompt_actions")

    def adds_actions(u: Unit) -> bool:
        return (
            bool(u.action_specs or u.prompt_specs)
            or any(getattr(type(u), h) is not getattr(Unit, h) for h in hooks)
            or any(p.troop for p in u.pieces)
            or u.conquers_in_decline
            or u.declines_after_scoring
            or not u.final_attempt
        )

    wanted = {uid for uid, u in ed.units.items() if u.kind in ("race", "power") and adds_actions(u)}
    held: set[str] = set()
    for e in classic:
        for s in perft.build(e["source"]).seats:
            held.update(x for x in (s.active, s.power, s.declined, s.declined_power) if x)
    missing = sorted(wanted - held)
    assert not missing, f"classic units that add actions with no perft position: {missing}"
