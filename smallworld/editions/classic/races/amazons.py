"""Amazons (§7, CL-AMB-07): 4 of their tokens attack but do not defend.

After each redeployment of an Active Amazon turn (the end-of-turn placements, §5.2 step 3) up to 4
tokens leave the board, keeping 1 per region; they come back into hand at the next Ready-troops
(`expand_start`). While aside they are neither on the board nor in hand: they wait in the tray,
counted in the seat's `aside` (only the Amazons take Amazon tokens from the tray, so they are
there when they come back). On a decline they simply stay in the tray (CL-AMB-40).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import Field, FieldType

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ASIDE = 4


class Amazons(Unit):
    id = "amazons"
    kind = "race"
    section = "§7"
    seat_fields = (
        Field("aside", FieldType.INT, "tokens set aside until the next Ready-troops", optional=True),
    )

    def turn_end(self, st: State, seat: int) -> None:
        race = st.seats[seat].active
        left = ASIDE
        # The fullest regions give first, so every region keeps at least 1 token.
        for r in sorted(bits(st.occupied_mask(race)), key=lambda r: (-st.tokens[r], r)):
            while left and st.tokens[r] > 1:
                st.tokens[r] -= 1
                left -= 1
        taken = ASIDE - left
        if taken:
            st.tray[self.id] += taken
            st.seat_data(seat, self.id)["aside"] = taken

    def expand_start(self, st: State, seat: int) -> None:
        data = st.seat_data(seat, self.id)
        back = min(int(data.pop("aside", 0)), st.tray[self.id])
        st.tray[self.id] -= back
        st.seats[seat].hand += back

    def on_decline(self, st: State, seat: int) -> None:
        st.seat_data(seat, self.id).pop("aside", None)  # they stay in the tray (CL-AMB-40)


UNIT = Amazons()
