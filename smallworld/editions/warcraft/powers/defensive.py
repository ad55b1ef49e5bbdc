"""Defensive (§9.6, AMB-14, AMB-36): Watch Towers on Fields regions held by an adjacent majority.

At the end of each of the Active race's turns (§6.13 step 2) every Fields region F it occupies is
judged: for every race (each player's Active and In-Decline race separately, Murlocs as one race)
count the regions adjacent to F that it occupies; F qualifies when the Defensive race's count is
strictly greater than every other race's, so at least 1. Qualifying regions get a Tower, the others
lose theirs. Only 6 Towers exist; when more regions qualify, the owner chooses which 6 get one (a
prompt answered with `tower REGION`).

A Tower region is immune (the engine drops it from every target list, §6.5) until the next judgement,
even if the majority is lost in between. Towers go when the region is emptied (abandoned, §6.2) and
when the race declines (§6.16 step 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Piece, Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    region_field,
    seat_field,
)

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

TOWER = "watch_tower"
PLACE_TOWER = "tower"  # the prompt answer: `tower REGION`


def _has_tower(st: State, r: int) -> bool:
    p = st.pieces[r]
    return p is not None and TOWER in p


def qualifying(st: State, seat: int) -> list[int]:
    """The Fields regions of the seat's Active race where it holds the adjacent majority (AMB-14)."""
    race = st.seats[seat].active
    m = st.game.map
    own = st.occupied_mask(race)
    out = []
    for f in bits(own & m.terrain_mask.get("Fields", 0)):
        adj = m.adj[f]
        mine = (adj & own).bit_count()
        if mine and all((adj & mask).bit_count() < mine for r, mask in st.race_mask.items() if r != race):
            out.append(f)
    return out


class Defensive(Unit):
    id = "defensive"
    kind = "power"
    section = "§9.6"
    turn_end_step = 2  # §6.13 step 2: Watch Towers
    pieces = (Piece(TOWER, supply=6, immune=True, removed_on_conquest=True, removed_when_emptied=True),)
    action_specs = (
        ActionSpec(PLACE_TOWER, "put a Watch Tower in this Fields region", region=True, step="prompt"),
    )
    prompt_specs = (
        PromptSpec(
            "towers", "choose the Fields regions that get the Watch Towers", (PLACE_TOWER,), rule="§9.6"
        ),
    )

    event_specs = (
        EventSpec(
            "tower_moved",
            "a Watch Tower was put in or taken away from a region of the race",
            (seat_field(), region_field(), Field("placed", FieldType.BOOL, "put in (true) or taken away")),
        ),
    )

    def _set(self, st: State, seat: int, r: int, placed: bool) -> None:
        if placed:
            st.add_piece(r, TOWER)
        elif _has_tower(st, r):
            st.remove_piece(r, TOWER)
        else:
            return
        st.event("tower_moved", seat=seat, region=r, placed=placed)

    def turn_end(self, st: State, seat: int) -> None:
        good = qualifying(st, seat)
        keep = set(good)
        for r in bits(st.occupied_mask(st.seats[seat].active)):
            if r not in keep and _has_tower(st, r):
                self._set(st, seat, r, False)
        need = [r for r in good if not _has_tower(st, r)]
        if len(need) <= st.supply.get(TOWER, 0):
            for r in need:
                self._set(st, seat, r, True)
            return
        # More regions qualify than Towers exist: the owner picks among all of them, so the Towers
        # standing from last turn are lifted too and may move.
        for r in good:
            self._set(st, seat, r, False)
        if not st.supply.get(TOWER, 0):
            return
        st.push_prompt(self.id, seat, "towers")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(PLACE_TOWER, r) for r in qualifying(st, prompt["seat"]) if not _has_tower(st, r)]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        assert action.region is not None
        self._set(st, prompt["seat"], action.region, True)
        if not st.supply.get(TOWER, 0) or not any(self.prompt_actions(st, prompt)):
            st.pop_prompt()

    def on_decline(self, st: State, seat: int) -> None:
        for r in bits(st.occupied_mask(st.seats[seat].active)):
            self._set(st, seat, r, False)


UNIT = Defensive()
