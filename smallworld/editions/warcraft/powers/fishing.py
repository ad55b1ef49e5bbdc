"""Fishing (§9.10): +1 VC at the end of the turn for each region the Active race occupies that is
adjacent to a Sea or a Lake.

A Sea or Lake held by Naga counts only if it borders another Sea or Lake: adjacency exists only
inside one board (§2.1) and a region is not adjacent to itself. Only the Active race scores it
(§9.0, §6.14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Fishing(Unit):
    id = "fishing"
    kind = "power"
    section = "§9.10"

    def score(self, st: State, seat: int) -> int:
        m = st.game.map
        return (st.occupied_mask(st.seats[seat].active) & m.adjacent_to(m.water)).bit_count()


UNIT = Fishing()
