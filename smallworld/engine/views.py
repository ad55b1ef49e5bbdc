"""Per-seat views: the state minus what that seat may not know (§1.3, §3.2, §10.1).

Hidden: other players' coin totals until the game ends (allies share theirs in team play, §11.1),
the order of the stacks, the seeded generator and scripted rolls; content units hide their own
secrets (face-down markers, bombs). Clients get views, never the full state.
"""

from __future__ import annotations

from typing import Any

from smallworld.engine.serialize import state_to_json
from smallworld.engine.state import State


def view_for(st: State, seat: int | None) -> dict[str, Any]:
    """The state as `seat` sees it; `seat=None` is a spectator."""
    v = state_to_json(st)
    over = st.result is not None
    v["viewer"] = seat
    variant = st.game.variant
    seen = variant.coins_seen_by(st, seat)
    for i, s in enumerate(v["seats"]):
        if not over and i not in seen:
            s["coins"] = None
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
    for unit in st.game.units.values():
        unit.hide(v, seat)
    variant.hide(v, seat)
    return v
