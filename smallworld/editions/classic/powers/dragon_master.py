"""Dragon Master (§8, CL-AMB-10): once per turn, conquer a legal target with 1 token whatever its
defenders (`conquer REGION dragon_master`), and put the Dragon there: the region is immune until a
new Dragon conquest moves it. Unused, the Dragon stays where it is; it goes back to its owner when
its region is abandoned, and leaves when the race declines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import ConquestInfo, Piece, Unit
from smallworld.engine.model.protocol import Field, FieldType

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

DRAGON = "dragon"
EVERYTHING = 1000  # reduces any cost to the minimum of 1


def _remove_dragon(st: State) -> None:
    for r in range(st.game.map.n):
        if st.pieces[r] and DRAGON in st.pieces[r]:  # type: ignore[operator]
            st.remove_piece(r, DRAGON)


class DragonMaster(Unit):
    id = "dragon_master"
    kind = "power"
    section = "§8"
    pieces = (Piece(DRAGON, supply=1, immune=True, removed_when_emptied=True),)
    turn_fields = (Field("used", FieldType.BOOL, "the Dragon conquest of this turn was made", optional=True),)

    def conquest_options(self, st: State, seat: int, region: int) -> Iterable[str]:
        return () if st.turn.data.get(self.id, {}).get("used") else (self.id,)

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return EVERYTHING if option == self.id else 0

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        if info.option != self.id:
            return
        st.turn_data(self.id)["used"] = True
        _remove_dragon(st)
        st.add_piece(info.region, DRAGON)

    def on_decline(self, st: State, seat: int) -> None:
        _remove_dragon(st)

    def explain(self, st: State, action: Action) -> Why | None:
        if action.arg == self.id and st.turn.data.get(self.id, {}).get("used"):
            return self.why(
                self.section, "the Dragon conquers once per turn, and it has conquered this turn", "used"
            )
        return None


UNIT = DragonMaster()
