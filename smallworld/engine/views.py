"""Per-seat views: the state minus what that seat may not know (§1.3, §3.2, §10.1).

Hidden: other players' coin totals until the game ends (allies share theirs in team play, §11.1),
the order of the stacks, the seeded generator and scripted rolls, face-down markers, prompts
addressed to other seats, and every field that a unit declares secret (`Field.secret`): in its
seat and turn data, in the tags of its pieces (a bomb's kind) and in its events. A secret field is
replaced by null (a list by as many nulls), so a view keeps its shape. Clients get views, never
the full state.
"""

from __future__ import annotations

from typing import Any

from smallworld.engine.protocol import Field, redact_event
from smallworld.engine.serialize import state_to_json
from smallworld.engine.state import State


def _hidden(f: Field, value: Any, mine: bool) -> Any:
    if f.secret is None or (f.secret == "others" and mine):
        return value
    return [None] * len(value) if isinstance(value, list) else None


def _redact(fields: tuple[Field, ...], data: dict[str, Any], mine: bool) -> dict[str, Any]:
    out = dict(data)
    for f in fields:
        if f.secret is not None and f.name in out:
            out[f.name] = _hidden(f, out[f.name], mine)
    return out


def view_for(st: State, seat: int | None) -> dict[str, Any]:
    """The state as `seat` sees it; `seat=None` is a spectator."""
    game = st.game
    v = state_to_json(st)
    over = st.result is not None
    v["viewer"] = seat
    variant = game.variant
    seen = variant.coins_seen_by(st, seat)
    for i, s in enumerate(v["seats"]):
        if not over and i not in seen:
            s["coins"] = None
        if not over and s["ext"]:
            s["ext"] = {u: _redact(game.units[u].seat_fields, d, i in seen) for u, d in s["ext"].items()}
    if not over and v["turn"]["data"]:
        mine = st.turn_seat in seen
        v["turn"]["data"] = {
            u: _redact(game.units[u].turn_fields, d, mine) for u, d in v["turn"]["data"].items()
        }
    if not over:
        for entry in v["regions"].values():
            for kind, tags in entry.get("tags", {}).items():
                fields = game.pieces[kind].tag_fields
                entry["tags"][kind] = [_redact(fields, t, False) for t in tags]
    v["race_stack"] = {"count": len(st.race_stack)}
    v["power_stack"] = {"count": len(st.power_stack)}
    # §3.2 step 7, §10.1: face-down markers and the markers left out of the game stay unseen.
    for here in v["markers"].values():
        for m in here:
            if not m["face_up"]:
                m["id"] = None
    v["spare_markers"] = {"count": len(st.spare_markers)}
    del v["rng"]
    del v["rolls"]
    v["pending"] = [p for p in v["pending"] if p.get("public") or p.get("seat") == seat]
    v["events"] = [redact_event(game, e, seat, seen, over) for e in v["events"]]
    for unit in game.units.values():
        unit.hide(v, seat)
    variant.hide(v, seat)
    return v
