"""Differential test against smawg, another engine of classic Small World's core rules written
outside this project: each of its 60 games (traces/, docs/engine.md "A second engine") is played
again in our core-rules edition with the same board, deck and dice, and at every decision of ours
the state and the legal choices must be smawg's."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import jsonschema
import pytest

from differential.smawg_replay import NO_CHOICE, SMAWG_OPTIONS, Replay, load_trace, trace_paths
from smallworld.engine import Game, Settings
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.hooks import HOOK_NAMES

PATHS = trace_paths()


def test_the_traces_are_all_there() -> None:
    """15 games for each player count, with the format's README and schema beside them."""
    assert len(PATHS) == 60
    for players in (2, 3, 4, 5):
        assert len([p for p in PATHS if p.name.startswith(f"smawg-{players}p-")]) == 15
    here = PATHS[0].parent
    assert (here / "README.md").exists() and (here / "trace.schema.json").exists()


def test_the_copies_are_the_shared_traces() -> None:
    """The traces are copied from the shared folder beside the checkout (gzip-compressed); a clean
    clone without that folder tests its own copies."""
    shared = Path(__file__).resolve().parents[3] / "shared" / "smawg-traces"
    if not shared.is_dir():
        pytest.skip("no ../shared/smawg-traces beside this checkout")
    assert sorted(p.name.removesuffix(".gz") for p in PATHS) == sorted(
        p.name for p in shared.glob("smawg-*.json")
    )
    for path in PATHS:
        assert gzip.decompress(path.read_bytes()) == (shared / path.name.removesuffix(".gz")).read_bytes()
    for name in ("README.md", "trace.schema.json"):
        assert (PATHS[0].parent / name).read_bytes() == (shared / name).read_bytes()


def test_a_trace_keeps_its_schema() -> None:
    """The format the replay reads (one file: validating all 60 would take longer than replaying)."""
    path = PATHS[0]
    schema = json.loads((path.parent / "trace.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(load_trace(path), schema)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_our_engine_plays_smawgs_game(path: Path) -> None:
    trace = load_trace(path)
    # The traces stay where smawg and the rulebook agree (traces/README.md).
    assert trace["generator"]["policy"] == "common" and trace["result"]["uncommon_steps"] == 0
    report = Replay(trace, path.name).run()
    assert not report.problems, report.problems[0]
    # Every smawg step was a decision of ours, a step ours makes by itself, or a withdrawal.
    assert report.decisions + report.forced + report.withdrawals == report.steps
    assert report.decisions > report.steps // 2


def test_the_comparison_sees_a_difference() -> None:
    """With the rulebook's base cost (2) the very first conquests already differ from smawg's."""
    trace = load_trace(PATHS[0])
    rep = Replay(trace, options={**SMAWG_OPTIONS, "conquest_base": 2}).run()
    assert rep.problems and "state before step" in rep.problems[0]
    rep = Replay(trace, options={**SMAWG_OPTIONS, "discarded_badges": "discard_pile"}).run()
    assert rep.problems and "power_stack" in rep.problems[0]


def test_the_core_edition_has_no_effect() -> None:
    """classic_core: the classic edition's races and powers, maps and citations, and no unit that
    implements any hook or brings pieces, actions or options."""
    core, classic = get_edition("classic_core"), get_edition("classic")
    assert set(core.races) == set(classic.races) and set(core.powers) == set(classic.powers)
    assert all(not core.hooked[h] for h in HOOK_NAMES)
    assert not core.pieces and not core.unit_options and not core.options
    assert all(not u.action_specs and not u.seat_fields and not u.turn_fields for u in core.units.values())
    assert core.citations == classic.citations and core.boards is classic.boards
    # Values and trays from data: the classic rows, Amazons without their 4 conquest-only tokens.
    for uid, e in core.races.items():
        assert e.tray == classic.races[uid].tray
        assert e.value == (6 if uid == "amazons" else classic.races[uid].value)
    assert {uid: e.value for uid, e in core.powers.items()} == {
        uid: e.value for uid, e in classic.powers.items()
    }


def test_the_new_options_default_to_the_rulebook_and_are_saved() -> None:
    game = Game(Settings.from_json({"edition": "classic_core", "players": 3}))
    assert game.options.conquest_base == 2 and game.options.discarded_badges == "discard_pile"
    assert "options" not in game.settings.to_json()
    smawg = Settings.from_json({"edition": "classic_core", "players": 3, "options": SMAWG_OPTIONS})
    assert smawg.to_json()["options"] == SMAWG_OPTIONS
    assert NO_CHOICE["decline"] is False
