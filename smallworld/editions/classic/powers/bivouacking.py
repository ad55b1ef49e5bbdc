"""Bivouacking (§8, §6, CL-AMB-12): at the end of each own turn while Active the 5 Encampments are
taken back and placed again in the race's regions (`camp REGION`, one at a time, several per region
allowed; `camp_done` to stop). Each adds 1 to its region's defence and protects a lone token from
the Sorcerers. An Encampment is never lost: when its region is conquered or abandoned it goes back
to its owner, who places it again at the end of their next turn. They leave when the race declines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.actions import Action
from smallworld.engine.board_map import bits
from smallworld.engine.hooks import ConquestInfo, Piece, Unit
from smallworld.engine.protocol import ActionSpec, PromptSpec

if TYPE_CHECKING:
    from smallworld.engine.state import State

CAMP = "encampment"
PLACE, DONE = "camp", "camp_done"


def _take_back(st: State) -> None:
    for r in range(st.game.map.n):
        p = st.pieces[r]
        if p and p.get(CAMP):
            st.remove_piece(r, CAMP)


class Bivouacking(Unit):
    id = "bivouacking"
    kind = "power"
    section = "§8"
    pieces = (Piece(CAMP, supply=5, defense=1, removed_when_emptied=True),)
    action_specs = (
        ActionSpec(PLACE, "put an Encampment in this region", region=True, step="prompt"),
        ActionSpec(DONE, "place no more Encampments", step="prompt"),
    )
    prompt_specs = (
        PromptSpec("camps", "place up to 5 Encampments in your regions", (PLACE, DONE), rule="§8"),
    )

    def turn_end(self, st: State, seat: int) -> None:
        _take_back(st)
        if st.occupied_mask(st.seats[seat].active):
            st.push_prompt(self.id, seat, "camps")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        regions = bits(st.occupied_mask(st.seats[prompt["seat"]].active))
        return [*(Action(PLACE, r) for r in regions), Action(DONE)]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        if action.kind == PLACE and action.region is not None:
            st.add_piece(action.region, CAMP)
            if st.supply.get(CAMP, 0):
                return  # the prompt stays: another may be placed
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> tuple[str, str] | None:
        if action.kind in (PLACE, DONE):
            return "§8", "Encampments go in regions of your Active race, at the end of your turn"
        return None

    def any_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        # Never lost (§8): an Encampment in a conquered region goes back to its owner.
        p = st.pieces[info.region]
        if p and p.get(CAMP):
            st.remove_piece(info.region, CAMP)

    def on_decline(self, st: State, seat: int) -> None:
        _take_back(st)


UNIT = Bivouacking()
