"""Frostmourne (§10.2, §6.6, §6.10, AMB-40, AMB-50).

Once per turn its owner may make one conquest cost 2 fewer tokens (minimum 1), on top of every other
reduction: the conquest option `conquer REF frostmourne` (or `final REF frostmourne`, the reduction
then counting before the shortfall, AMB-40). It is used up when declared, and it moves into the
region it helped conquer; after a failed final attempt it stays where it was (AMB-50).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.editions.warcraft.relics._common import USED_FIELD, has_option, use, used
from smallworld.engine.model.hooks import ConquestInfo, Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "frostmourne"
REDUCTION = 2


class Frostmourne(Unit):
    id = ID
    kind = "relic"
    section = "§10.2"
    option_stacks = True  # a plain reduction: it adds up with another unit's option (§6.6)
    turn_fields = (USED_FIELD,)

    def conquest_options(self, st: State, seat: int, region: int) -> Iterable[str]:
        return () if used(st, ID) else (ID,)

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return REDUCTION if has_option(option, ID) else 0

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        if has_option(option, ID):
            use(st, ID)

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        if has_option(info.option, ID):
            st.move_marker(ID, info.region)


UNIT = Frostmourne()
