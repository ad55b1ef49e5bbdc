"""Bivouacking (§8, §6, CL-AMB-12): the 5 Encampments are troops of the race that move with its
tokens: they come into hand when the race is picked, are lifted with the troops when they are
readied, and are placed during redeployment (`deploy REGION encampment`, several per region
allowed). Each adds 1 to its region's defence and protects a lone token from the Sorcerers.

An Encampment is never lost: when its region is conquered it goes back to its owner's hand, and the
owner places it again at the end of that turn with the tokens they withdrew (§5.2 step 4). One that
an In-Decline Ghoul phase caught (no per-conquest hook runs there) goes back to its owner when the
next turn starts. The Encampments leave when the race declines (the engine discards troops then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import ConquestInfo, Piece, Unit
from smallworld.engine.rules.losses import note_withdrawn

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

CAMP = "encampment"


class Bivouacking(Unit):
    id = "bivouacking"
    kind = "power"
    section = "§8"
    pieces = (Piece(CAMP, supply=5, defense=1, troop=True),)

    def expand_start(self, st: State, seat: int) -> None:
        # Those still in the box (the pick turn, or sent back) join the troops to be placed.
        n = st.supply.get(CAMP, 0)
        if n:
            st.supply[CAMP] = 0
            held = st.seats[seat].held
            held[CAMP] = held.get(CAMP, 0) + n

    def any_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        p = st.pieces[info.region]
        owner = info.defender_seat
        if not p or not p.get(CAMP) or owner is None or owner == seat:
            return
        st.lift_piece(info.region, owner, CAMP, p[CAMP])  # back to its owner, placed this turn
        note_withdrawn(st, owner)

    def turn_start(self, st: State, seat: int, owner: int) -> None:
        race = st.seats[owner].active
        for r in range(st.game.map.n):
            p = st.pieces[r]
            if p and p.get(CAMP) and st.race[r] != race:
                st.lift_piece(r, owner, CAMP, p[CAMP])


UNIT = Bivouacking()
