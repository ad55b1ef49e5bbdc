"""Merchant (§8, CL-AMB-27): +1 VC per region of the Active race at the end of the turn (In-Decline
regions do not count)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Merchant(Unit):
    id = "merchant"
    kind = "power"
    section = "§8"

    def score(self, st: State, seat: int) -> int:
        return st.occupied_mask(st.seats[seat].active).bit_count()


UNIT = Merchant()
