"""Halflings (§7, CL-AMB-24): they may enter the map through any land region, and put a
Hole-in-the-Ground in each of the first 2 regions they conquer over the race's life. A Hole makes
its region immune (CL-AMB-30, also to the owner's own In-Decline Ghouls, CL-AMB-41); it goes when
the region is abandoned or the Halflings decline, and is never replaced."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import ConquestInfo, Piece, Unit
from smallworld.engine.model.protocol import Field, FieldType

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

HOLE = "hole_in_the_ground"
HOLES = 2


class Halflings(Unit):
    id = "halflings"
    kind = "race"
    section = "§7"
    pieces = (Piece(HOLE, supply=HOLES, immune=True, removed_on_conquest=True, removed_when_emptied=True),)
    seat_fields = (Field("holes", FieldType.INT, "Holes placed over the race's life", optional=True),)

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        if not first:
            return 0
        m = st.game.map
        return ((1 << m.n) - 1) & ~m.water

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        data = st.seat_data(seat, self.id)
        used = int(data.get("holes", 0))
        if used < HOLES and st.supply.get(HOLE, 0):
            st.add_piece(info.region, HOLE)
            data["holes"] = used + 1

    def on_decline(self, st: State, seat: int) -> None:
        for r in bits(st.occupied_mask(self.id)):
            if st.pieces[r] and HOLE in st.pieces[r]:  # type: ignore[operator]
                st.remove_piece(r, HOLE)
        st.seat_data(seat, self.id).pop("holes", None)


UNIT = Halflings()
