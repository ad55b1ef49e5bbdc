"""Explorer (§9.8): +1 VC at the end of the turn for each board on which the Active race occupies at
least one region.

A board is one island side of the game (§2.1, §2.3 "Board identity"); Seas and Lakes held by Naga
count like any region. Only the Active race scores it (§9.0, §6.14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Explorer(Unit):
    id = "explorer"
    kind = "power"
    section = "§9.8"

    def score(self, st: State, seat: int) -> int:
        own = st.occupied_mask(st.seats[seat].active)
        return sum(1 for board in st.game.map.board_mask if own & board)


UNIT = Explorer()
