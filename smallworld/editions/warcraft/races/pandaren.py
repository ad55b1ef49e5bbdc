"""Pandaren (§8.13, §6.1 step 2, §6.7, §6.13 step 7, §6.16 step 4, AMB-10): Harmony.

At the end of each Pandaren turn (Active race; no tokens are handed out on the decline turn), every
opponent whose Active race the Pandaren did not attack this turn receives a Harmony token, opponents
with no Active race included. "Attacked" (AMB-10) = the Pandaren declared a conquest, successful or
not, on a region of that opponent's Active race; attacks on an In-Decline race do not count.

A Harmony holder pays the Pandaren player 2 VC before attacking a region of the Active Pandaren, once
per turn however many Pandaren regions it attacks (§13: [PT] "once per turn"); a holder who cannot
pay cannot attack them (§6.7). The dues are asked for conquests and for hostile effects (bombs,
Intimidating, Portal swaps), not for placements. All Harmony tokens return at the start of each
Pandaren turn and when the Pandaren decline.

The Harmony holders are public: the Pandaren seat's data (`holders`), which every view shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Effect, Unit
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "pandaren"
TOKENS = 4  # §1.1: one per opponent in a 5-player game
PRICE = 2


def holders(st: State, pandaren_seat: int) -> list[int]:
    return list(st.seats[pandaren_seat].ext.get(ID, {}).get("holders", ()))


def _noted(st: State, key: str, seat: int) -> None:
    data = st.turn_data(ID)
    data[key] = sorted({*data.get(key, ()), seat})


class Pandaren(Unit):
    id = ID
    kind = "race"
    section = "§8.13"
    turn_end_step = 7  # §6.13 step 7: Harmony tokens
    dues_on = frozenset({Effect.CONQUEST, Effect.HOSTILE})
    seat_fields = (Field("holders", FieldType.SEATS, "the seats holding a Harmony token", optional=True),)
    turn_fields = (
        Field("attacked", FieldType.SEATS, "seats whose Active race the Pandaren attacked", optional=True),
        Field("paid", FieldType.SEATS, "seats that paid for Harmony this turn", optional=True),
    )
    event_specs = (
        EventSpec(
            "harmony",
            "the Pandaren gave Harmony tokens",
            (
                seat_field("the Pandaren player"),
                Field("holders", FieldType.SEATS, "the seats that received one"),
            ),
        ),
    )

    def _clear(self, st: State, seat: int) -> None:
        ext = st.seats[seat].ext
        if ID in ext:
            del ext[ID]

    def turn_start(self, st: State, seat: int, owner: int) -> None:
        if seat == owner:
            self._clear(st, owner)

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        race = st.race[region]
        target = st.owner_seat(race)
        if target is not None and target != seat and st.seats[target].active == race:
            _noted(st, "attacked", target)

    def hostile_effect(self, st: State, seat: int, region: int) -> None:
        # Forcing a token out by other means is an attack too (AMB-10).
        self.declare_conquest(st, seat, region, None)

    def turn_end(self, st: State, seat: int) -> None:
        attacked = set(st.turn.data.get(ID, {}).get("attacked", ()))
        given = [o for o in range(len(st.seats)) if o != seat and o not in attacked][:TOKENS]
        if given:
            st.seat_data(seat, ID)["holders"] = given
            st.event("harmony", seat=seat, holders=given)
        else:
            self._clear(st, seat)

    def defender_payments(
        self, st: State, attacker: int, region: int, owner: int
    ) -> Iterable[tuple[int | None, int, str]]:
        if st.race[region] != self.id or attacker not in holders(st, owner):
            return ()
        if attacker in st.turn.data.get(ID, {}).get("paid", ()):
            return ()
        return ((owner, PRICE, self.id),)

    def dues_paid(self, st: State, attacker: int, region: int, owner: int) -> None:
        if st.race[region] == self.id and attacker in holders(st, owner):
            _noted(st, "paid", attacker)

    def on_decline(self, st: State, seat: int) -> None:
        self._clear(st, seat)


UNIT = Pandaren()
