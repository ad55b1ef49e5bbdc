"""Elves (§7, CL-AMB-21): an Active Elf race never discards a token when one of its regions is
conquered, a lone Elf included; every token goes to hand for redeployment. A Sorcerer conversion
still removes the Elf (it does not go through the losses), and In-Decline Elves lose as usual (the
engine asks a defender's loss exceptions of its Active race only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Cause, Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class Elves(Unit):
    id = "elves"
    kind = "race"
    section = "§7"

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        return cause == Cause.CONQUEST and st.seats[owner].active == self.id


UNIT = Elves()
