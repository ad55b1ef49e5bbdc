"""Dark Portal (§10.3, §6.14): the Active race holding its region scores +2 VC at the end of the turn.

In Decline it gives nothing (§10.1 RES: a marker in an In-Decline region has no owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

BONUS = 2


class DarkPortal(Unit):
    id = "dark_portal"
    kind = "relic"
    section = "§10.3"

    def score(self, st: State, seat: int) -> int:
        return BONUS


UNIT = DarkPortal()
