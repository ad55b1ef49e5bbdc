"""Fortified (§8, §6, CL-AMB-13): once per turn while Active (the pick turn included, not the decline
turn), after the tokens are placed, it may put 1 Fortress in one of its regions (`fortress REGION`,
or `fortress_skip`): 1 per region, 6 in the box. A Fortress adds 1 to the region's defence, also In
Decline, and scores +1 VC per turn while the race is Active; it goes when its region is conquered or
abandoned, and when its race leaves the map (CL-AMB-35)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Piece, Unit
from smallworld.engine.model.protocol import ActionSpec, PromptSpec

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

FORTRESS = "fortress"
PLACE, SKIP = "fortress", "fortress_skip"


def _has(st: State, r: int) -> bool:
    p = st.pieces[r]
    return bool(p and p.get(FORTRESS))


class Fortified(Unit):
    id = "fortified"
    kind = "power"
    section = "§8"
    pieces = (Piece(FORTRESS, supply=6, defense=1, removed_on_conquest=True, removed_when_emptied=True),)
    action_specs = (
        ActionSpec(PLACE, "put a Fortress in this region", region=True, step="prompt"),
        ActionSpec(SKIP, "put no Fortress this turn", step="prompt"),
    )
    prompt_specs = (
        PromptSpec("fortress", "put this turn's Fortress in one of your regions", (PLACE, SKIP), rule="§8"),
    )

    def _free(self, st: State, seat: int) -> list[int]:
        return [r for r in bits(st.occupied_mask(st.seats[seat].active)) if not _has(st, r)]

    def turn_end(self, st: State, seat: int) -> None:
        if st.supply.get(FORTRESS, 0) and self._free(st, seat):
            st.push_prompt(self.id, seat, "fortress")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [*(Action(PLACE, r) for r in self._free(st, prompt["seat"])), Action(SKIP)]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        if action.kind == PLACE and action.region is not None:
            st.add_piece(action.region, FORTRESS)
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind in (PLACE, SKIP):
            return self.why(
                "§8",
                "a Fortress goes in a region of your Active race without one, at the end of your turn",
                "place_where",
            )
        return None

    def score(self, st: State, seat: int) -> int:
        return sum(1 for r in bits(st.occupied_mask(st.seats[seat].active)) if _has(st, r))


UNIT = Fortified()
