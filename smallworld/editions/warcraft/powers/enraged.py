"""Enraged (§9.7): a conquest of a region with 2 or more defending tokens pays +1 VC per defending
token, at once (AMB-09).

AMB-32: race tokens of any race count (Active or In Decline, Murlocs included), and so do Beasts and
the Champion; Mountains, Wisp Walls and Forts do not, as they are markers, not defenders. Taking a
region of one's own In-Decline race earns nothing (AMB-43).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import ConquestInfo, Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Enraged(Unit):
    id = "enraged"
    kind = "power"
    section = "§9.7"

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        # defender_tokens is counted before the defenders left and includes occupying pieces.
        if info.defender_tokens >= 2 and not info.own_declined:
            st.gain(seat, info.defender_tokens, self.id)


UNIT = Enraged()
