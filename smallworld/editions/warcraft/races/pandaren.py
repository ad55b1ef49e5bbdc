"""Pandaren (§8.13, §6.1 step 2, §6.7, §6.13 step 7, §6.16 step 4, AMB-10): Harmony.

At the end of each Pandaren turn (Active race; no tokens are handed out on the decline turn), every
opponent whose Active race the Pandaren did not attack this turn receives a Harmony token, opponents
with no Active race included. "Attacked" (AMB-10) = the Pandaren declared a conquest, successful or
not, on a region of that opponent's Active race; attacks on an In-Decline race do not count.

A Harmony holder pays the Pandaren player 2 VC before attacking a region of the Active Pandaren, once
per turn however many Pandaren regions it attacks (§13: [PT] "once per turn"); a holder who cannot
pay cannot attack them (§6.7). All Harmony tokens return at the start of each Pandaren turn and when
the Pandaren decline.

The Harmony holders are public: they are kept as a sorted list of seats in the Pandaren seat's
`ext["harmony"]`, which every view shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State

HARMONY = "harmony"  # Pandaren seat's ext: seats holding a Harmony token
TOKENS = 4  # §1.1: one per opponent in a 5-player game
PRICE = 2
ATTACKED = "harmony_attacked"  # turn data: seats whose Active race the Pandaren attacked
PAID = "harmony_paid"  # turn data: seats that paid for Harmony this turn


def holders(st: State, pandaren_seat: int) -> list[int]:
    return list(st.seats[pandaren_seat].ext.get(HARMONY, ()))


def _noted(st: State, key: str, seat: int) -> None:
    # A fresh list each time: turn data is copied shallowly when states are cloned.
    st.turn.data[key] = sorted({*st.turn.data.get(key, ()), seat})


class Pandaren(Unit):
    id = "pandaren"
    kind = "race"
    section = "§8.13"

    def turn_start(self, st: State, seat: int, owner: int) -> None:
        if seat == owner:
            st.seats[owner].ext.pop(HARMONY, None)

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        race = st.race[region]
        target = st.owner_seat(race)
        if target is not None and target != seat and st.seats[target].active == race:
            _noted(st, ATTACKED, target)

    def hostile_effect(self, st: State, seat: int, region: int) -> None:
        # Forcing a token out by other means is an attack too (AMB-10).
        self.declare_conquest(st, seat, region, None)

    def turn_end(self, st: State, seat: int) -> None:
        attacked = set(st.turn.data.get(ATTACKED, ()))
        given = [o for o in range(len(st.seats)) if o != seat and o not in attacked][:TOKENS]
        if given:
            st.seats[seat].ext[HARMONY] = given
            st.event("harmony", seat=seat, holders=given)
        else:
            st.seats[seat].ext.pop(HARMONY, None)

    def defender_payments(
        self, st: State, attacker: int, region: int, owner: int
    ) -> Iterable[tuple[int | None, int, str]]:
        if st.race[region] != self.id or attacker not in holders(st, owner):
            return ()
        if attacker in st.turn.data.get(PAID, ()):
            return ()
        return ((owner, PRICE, "§8.13 Harmony"),)

    def dues_paid(self, st: State, attacker: int, region: int, owner: int) -> None:
        if st.race[region] == self.id and attacker in holders(st, owner):
            _noted(st, PAID, attacker)

    def on_decline(self, st: State, seat: int) -> None:
        st.seats[seat].ext.pop(HARMONY, None)


UNIT = Pandaren()
