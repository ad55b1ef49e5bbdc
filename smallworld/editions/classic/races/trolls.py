"""Trolls (§7, §6, CL-AMB-35): a Troll's Lair in every region they conquer (+1 defence). Lairs stay
In Decline; they go when the region is conquered (a Sorcerer conversion included) or abandoned, and
when the Trolls leave the map. 10 Lairs are in the box."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import ConquestInfo, Piece, Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

LAIR = "troll_lair"


class Trolls(Unit):
    id = "trolls"
    kind = "race"
    section = "§7"
    pieces = (Piece(LAIR, supply=10, defense=1, removed_on_conquest=True, removed_when_emptied=True),)

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        if st.supply.get(LAIR, 0):
            st.add_piece(info.region, LAIR)


UNIT = Trolls()
