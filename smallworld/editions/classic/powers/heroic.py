"""Heroic (§8, §6, CL-AMB-11): at the end of each own turn while Active (the pick turn included),
the 2 Heroes go into 2 different regions of the race (`hero REGION`, one at a time; 1 Hero when it
holds a single region). Those regions are immune until the Heroes move. A Hero whose region is
abandoned goes back to its owner; the Heroes leave when the race declines."""

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

HERO = "hero"
PLACE = "hero"


def _take_back(st: State) -> None:
    for r in range(st.game.map.n):
        p = st.pieces[r]
        if p and p.get(HERO):
            st.remove_piece(r, HERO)


class Heroic(Unit):
    id = "heroic"
    kind = "power"
    section = "§8"
    pieces = (Piece(HERO, supply=2, immune=True, removed_when_emptied=True),)
    action_specs = (ActionSpec(PLACE, "put a Hero in this region", region=True, step="prompt"),)
    prompt_specs = (
        PromptSpec("heroes", "put the Heroes in 2 different regions of yours", (PLACE,), rule="§8"),
    )

    def _free(self, st: State, seat: int) -> list[int]:
        return [
            r for r in bits(st.occupied_mask(st.seats[seat].active)) if not (st.pieces[r] or {}).get(HERO)
        ]

    def turn_end(self, st: State, seat: int) -> None:
        _take_back(st)
        if self._free(st, seat):
            st.push_prompt(self.id, seat, "heroes")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(PLACE, r) for r in self._free(st, prompt["seat"])]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        assert action.region is not None
        st.add_piece(action.region, HERO)
        if not st.supply.get(HERO, 0) or not self._free(st, prompt["seat"]):
            st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind == PLACE:
            return self.why(
                "§8",
                "a Hero goes in a region of your Active race without one, at the end of your turn",
                "place_where",
            )
        return None

    def on_decline(self, st: State, seat: int) -> None:
        _take_back(st)


UNIT = Heroic()
