"""Berserk (§8, CL-AMB-26): the die may be rolled before every conquest (`berserk`), then the
target chosen: the roll comes off its cost (minimum 1). A Berserk race uses the die only this way
(`final_attempt = False`: no target-first final attempt) and may also conquer without rolling. A roll
needs 1 token in hand and commits to one conquest of any legal target, with no 1-3 limit; with no
target it can pay for, the player ends the conquests (the tokens go to regions held before). No
second roll before that conquest."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import ActionSpec, EventSpec, Field, FieldType, seat_field
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ROLL = "berserk"


class Berserk(Unit):
    id = "berserk"
    kind = "power"
    section = "§8"
    final_attempt = False
    action_specs = (ActionSpec(ROLL, "roll the die before choosing the next conquest", conquest=True),)
    turn_fields = (Field("roll", FieldType.INT, "the roll waiting for its conquest", optional=True),)
    event_specs = (
        EventSpec(
            "berserk_roll",
            "the Berserk die was rolled",
            (seat_field(), Field("roll", FieldType.INT, "the roll")),
        ),
    )

    def _may_roll(self, st: State, seat: int) -> bool:
        return (
            st.seats[seat].power == self.id
            and st.seats[seat].hand >= 1
            and conquest.conquests_open(st, seat)
            and st.turn.race is None
            and "roll" not in st.turn.data.get(self.id, {})
        )

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        return [Action(ROLL)] if self._may_roll(st, seat) else []

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        roll = st.roll_die()
        st.turn_data(self.id)["roll"] = roll
        st.turn.die = roll
        st.event("berserk_roll", seat=seat, roll=roll)

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind != ROLL:
            return None
        return self.why(
            "§8",
            "the Berserk die is rolled once before a conquest, with at least 1 token in hand",
            "roll_when",
        )

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return int(st.turn.data.get(self.id, {}).get("roll", 0))  # listing: read, never create

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        st.turn_data(self.id).pop("roll", None)


UNIT = Berserk()
