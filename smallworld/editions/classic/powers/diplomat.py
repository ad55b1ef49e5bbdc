"""Diplomat (§8, CL-AMB-09): at the end of each of its Active turns (not the decline turn) the
player names one opponent whose Active race it did not attack this turn (`make_peace SEAT`); until the
Diplomat's next turn starts, that opponent's Active race may not attack the Diplomat's Active race
(the engine's `shielded` defender hook: no conquest, no conversion). In-Decline races, the ally's
In-Decline Ghouls included, are not bound."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    seat_field,
)

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ALLY = "make_peace"


class Diplomat(Unit):
    id = "diplomat"
    kind = "power"
    section = "§8"
    action_specs = (
        ActionSpec(
            ALLY,
            "the opponent that may not attack you until your next turn",
            args=(Arg.COUNT,),
            most=4,
            step="prompt",
        ),
    )
    prompt_specs = (
        PromptSpec(
            "ally", "name the opponent who may not attack you until your next turn", (ALLY,), rule="§8"
        ),
    )
    seat_fields = (Field("ally", FieldType.SEAT, "the seat at peace with the Diplomat", optional=True),)
    turn_fields = (Field("attacked", FieldType.SEATS, "opponents attacked this turn", optional=True),)
    event_specs = (
        EventSpec(
            "peace", "the Diplomat named an ally", (seat_field(), Field("ally", FieldType.SEAT, "the ally"))
        ),
    )

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        race = st.race[region]
        owner = st.owner_seat(race)
        if owner is not None and owner != seat and st.seats[owner].active == race:
            data = st.turn_data(self.id)
            data["attacked"] = sorted({*data.get("attacked", []), owner})

    def _choices(self, st: State, seat: int) -> list[int]:
        attacked = st.turn.data.get(self.id, {}).get("attacked", [])
        return [i for i in range(len(st.seats)) if i != seat and i not in attacked]

    def turn_end(self, st: State, seat: int) -> None:
        if self._choices(st, seat):
            st.push_prompt(self.id, seat, "ally")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(ALLY, None, i) for i in self._choices(st, prompt["seat"])]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        st.seat_data(seat, self.id)["ally"] = int(action.arg)
        st.event("peace", seat=seat, ally=int(action.arg))
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind == ALLY:
            return self.why(
                "§8",
                "name an opponent whose Active race you did not attack this turn, at the end of your turn",
                "ally_who",
            )
        return None

    def turn_start(self, st: State, seat: int, owner: int) -> None:
        if seat == owner and self.id in st.seats[owner].ext:  # the peace ends when its next turn starts
            st.seats[owner].ext[self.id].pop("ally", None)

    def shielded(self, st: State, owner: int, attacker: int) -> int:
        if st.seats[owner].ext.get(self.id, {}).get("ally") != attacker:
            return 0
        return st.occupied_mask(st.seats[owner].active)

    def on_decline(self, st: State, seat: int) -> None:
        st.seat_data(seat, self.id).pop("ally", None)


UNIT = Diplomat()
