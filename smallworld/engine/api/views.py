"""Per-seat views: the state minus what that seat may not know (§1.3, §3.2, §10.1).

Hidden: other players' coin totals until the game ends (allies share theirs in team play, §11.1),
the order of the stacks, the seeded generator and scripted rolls, face-down markers, prompts
addressed to other seats, and every field that a unit declares secret (`Field.secret`): in its
seat and turn data, in the tags of its pieces (a bomb's kind) and in its events. A secret field is
replaced by null (a list by as many nulls), so a view keeps its shape. Clients get views, never
the full state.

A view is made in two steps: `PublicView` (the state's JSON with what no seat may know removed, and
both forms of each part that depends on the viewer) and `PublicView.view` (one seat's view: a new
top-level object whose parts are the public part's, picked by what the seat may see). A server
makes the public part once per ply and every seat's view from it; views made from one public part
share their values, so nothing may change one in place.
"""

from __future__ import annotations

from typing import Any

from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import Field, redact_event
from smallworld.engine.model.state import State


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


class PublicView:
    """What every viewer of `st` shares: built once, then `view(seat)` for each seat."""

    def __init__(self, st: State) -> None:
        game = st.game
        self.state = st
        self.turn_seat = st.turn_seat
        v = state_to_json(st)
        over = st.result is not None
        units = game.units
        n = len(v["seats"])
        # What the views hide, kept for `undo.hidden_parts` (which finds a viewer's secrets from these
        # alone, without comparing views with the state's JSON): each part hidden from every viewer
        # as a pair (the state's JSON of it, what every view has instead), and each seat's `ext` as
        # the state holds it (None: not redacted). References, not copies; the state's JSON of the
        # turn stays in `base`.
        self.redacted: list[tuple[Any, Any]] = []
        self.seat_ext: list[dict[str, Any] | None] = [None] * n
        # Each seat as its allies see it and as everyone else does (the same once the game is over).
        self.shown: list[dict[str, Any]] = v["seats"]
        self.hidden: list[dict[str, Any]] = v["seats"]
        if not over:
            self.shown, self.hidden = [], []
            for i, s in enumerate(v["seats"]):
                ext = s["ext"]
                mine, other = s, {**s, "coins": None}
                if ext:
                    self.seat_ext[i] = ext
                    mine["ext"] = {u: _redact(units[u].seat_fields, d, True) for u, d in ext.items()}
                    other["ext"] = {u: _redact(units[u].seat_fields, d, False) for u, d in ext.items()}
                self.shown.append(mine)
                self.hidden.append(other)
        # The turn as the seat to play and its allies see it, and as the others do.
        self.turn_mine: dict[str, Any] = v["turn"]
        self.turn_other: dict[str, Any] = v["turn"]
        data = v["turn"]["data"]
        if not over and data:
            mine_d = {u: _redact(units[u].turn_fields, d, True) for u, d in data.items()}
            other_d = {u: _redact(units[u].turn_fields, d, False) for u, d in data.items()}
            self.turn_mine = {**v["turn"], "data": mine_d}
            self.turn_other = {**v["turn"], "data": other_d}
        # Each event as its own seat's allies see it, and as the others do.
        self.events: list[tuple[Any, dict[str, Any], dict[str, Any]]] = []
        for e in v["events"]:
            owner = e.get("seat")
            mine_e = redact_event(game, e, owner, [owner], over)
            other_e = redact_event(game, e, owner, [], over)
            self.events.append((owner, mine_e, mine_e if other_e == mine_e else other_e))
        self.pending: list[dict[str, Any]] = v["pending"]
        if not over:
            for entry in v["regions"].values():
                for kind, tags in entry.get("tags", {}).items():
                    fields = game.pieces[kind].tag_fields
                    entry["tags"][kind] = shown_tags = [_redact(fields, t, False) for t in tags]
                    self.redacted.append((tags, shown_tags))
        for key, count in (("race_stack", len(st.race_stack)), ("power_stack", len(st.power_stack))):
            self.redacted.append((v[key], {"count": count}))
            v[key] = self.redacted[-1][1]
        # §3.2 step 7, §10.1: face-down markers and the markers left out of the game stay unseen.
        for here in v["markers"].values():
            for m in here:
                if not m["face_up"]:
                    self.redacted.append((m["id"], None))
                    m["id"] = None
        self.redacted.append((v["spare_markers"], {"count": len(st.spare_markers)}))
        v["spare_markers"] = self.redacted[-1][1]
        del v["rng"]
        del v["rolls"]
        v["viewer"] = None
        self.base = v
        self.n = n
        hiders = game.implementers("hide")
        self.hiders: list[Unit] = [u for uid, u in units.items() if uid in hiders]

    def view(self, seat: int | None) -> dict[str, Any]:
        """`seat`'s view (None: a spectator's). Its values are shared with the other views made here:
        a unit's or a variant's `hide` replaces a key of the view, never changes a value in place."""
        st = self.state
        variant = st.game.variant
        seen = variant.coins_seen_by(st, seat)
        v = dict(self.base)  # the same keys in the same order as the state's JSON
        v["seats"] = [self.shown[i] if i in seen else self.hidden[i] for i in range(self.n)]
        v["turn"] = self.turn_mine if self.turn_seat in seen else self.turn_other
        v["pending"] = [p for p in self.pending if p.get("public") or p.get("seat") == seat]
        v["events"] = [mine if owner in seen else other for owner, mine, other in self.events]
        v["viewer"] = seat
        for unit in self.hiders:
            unit.hide(v, seat)
        variant.hide(v, seat)
        return v


def view_for(st: State, seat: int | None) -> dict[str, Any]:
    """The state as `seat` sees it; `seat=None` is a spectator."""
    return PublicView(st).view(seat)
