"""Shared checks of the server tests: what a message may show a seat, against the engine itself."""

from __future__ import annotations

import json
from typing import Any

from smallworld.engine.game import Game
from smallworld.engine.settings import Settings
from smallworld.engine.state import State
from smallworld.server.store import Store


def replayed(store: Store, gid: str, upto: int | None = None) -> State:
    """The game rebuilt from the store (with its secret seed), at ply `upto` (default: the end)."""
    g = store.game(gid)
    assert g is not None
    st = Game(Settings.from_json({**g["settings"], "seed": g["seed"]})).new_initial_state()
    for row in store.actions(gid):
        if upto is not None and row.ply >= upto:
            break
        st.apply(row.action, seat=row.seat)
    return st


def keys(obj: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            out |= keys(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= keys(v)
    return out


def assert_hides(msg: dict[str, Any], seat: int | None, seed: int) -> None:
    """Nothing in `msg` (any answer or socket message) that `seat` may not know before the end."""
    text = json.dumps(msg)
    assert str(seed) not in text and format(seed, "x") not in text, "the seed leaked"
    assert not {"seed", "rolls"} & keys(msg), "the seed or scripted rolls leaked"
    view = msg.get("view")
    if view is None:
        return
    assert "rng" not in view, "the generator's state leaked"
    if view.get("result") is not None:
        return
    for i, s in enumerate(view["seats"]):
        if i != seat:
            assert s["coins"] is None, f"seat {i}'s coins shown to {seat}"
    for stack in ("race_stack", "power_stack", "spare_markers"):
        assert set(view[stack]) == {"count"}, f"the order of {stack} shown"
    for here in view["markers"].values():
        for m in here:
            assert m["face_up"] or m["id"] is None, "a face-down marker shown"
    for entry in view["regions"].values():
        for tag in entry.get("tags", {}).get("bomb", []):
            assert tag.get("kind") is None, "a bomb's kind shown"
