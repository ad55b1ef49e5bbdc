"""Meeting Stone (§10.3, §6.5, §6.6, AMB-30): the Active race holding it pays no +1 travel cost for
non-adjacent Entry regions, from the moment it conquers the Stone. It never helps a race entering the
map: a race owns it only by occupying its region.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class MeetingStone(Unit):
    id = "meeting_stone"
    kind = "relic"
    section = "§10.3"

    def waives_travel(self, st: State, seat: int, region: int, first: bool) -> bool:
        return True


UNIT = MeetingStone()
