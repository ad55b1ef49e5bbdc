"""Garrisoned (§9.11, AMB-27): Forts, +1 defence each, at most one per region and 10 in the box.

At the end of each of the Active race's turns (§6.13 step 1) a Fort goes into every region the race
occupies that has none, including regions conquered this turn, while the supply lasts; when it runs
short the owner chooses which regions get the last ones (a prompt answered with `fort REGION`).
A Fort adds +1 to the conquest cost of whoever attacks its region (§6.6), goes when the region is
conquered or emptied (§6.8 step 2, §6.2), and stays when the race declines (§6.16 steps 2 and 4).

The badge needs no `works_in_decline`: a Fort is a piece the engine counts in the region's defence,
so Forts keep defending the In-Decline race with no hook of this unit being asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Piece, Unit
from smallworld.engine.model.protocol import ActionSpec, EventSpec, PromptSpec, region_field, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

FORT = "fort"
PLACE_FORT = "fort"  # the prompt answer: `fort REGION`


def _unfortified(st: State, seat: int) -> list[int]:
    out = []
    for r in bits(st.occupied_mask(st.seats[seat].active)):
        p = st.pieces[r]
        if p is None or FORT not in p:
            out.append(r)
    return out


class Garrisoned(Unit):
    id = "garrisoned"
    kind = "power"
    section = "§9.11"
    badge_kept_in_decline = True  # AMB-65: its Forts stay In Decline, so the badge stays too
    turn_end_step = 1  # §6.13 step 1: Forts
    pieces = (Piece(FORT, supply=10, defense=1, removed_on_conquest=True, removed_when_emptied=True),)
    action_specs = (
        ActionSpec(PLACE_FORT, "put one of the last Forts in this region", region=True, step="prompt"),
    )
    prompt_specs = (
        PromptSpec("forts", "choose the regions that get the last Forts", (PLACE_FORT,), rule="§9.11"),
    )
    event_specs = (
        EventSpec("fort_placed", "a Fort was put in a region of the race", (seat_field(), region_field())),
    )

    def _place(self, st: State, seat: int, r: int) -> None:
        st.add_piece(r, FORT)
        st.event("fort_placed", seat=seat, region=r)

    def turn_end(self, st: State, seat: int) -> None:
        need = _unfortified(st, seat)
        left = st.supply.get(FORT, 0)
        if not need or not left:
            return
        if len(need) <= left:
            for r in need:
                self._place(st, seat, r)
            return
        st.push_prompt(self.id, seat, "forts")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(PLACE_FORT, r) for r in _unfortified(st, prompt["seat"])]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        assert action.region is not None
        self._place(st, prompt["seat"], action.region)
        if not st.supply.get(FORT, 0) or not _unfortified(st, prompt["seat"]):
            st.pop_prompt()


UNIT = Garrisoned()
