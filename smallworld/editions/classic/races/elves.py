"""Elves (§7, CL-AMB-21): an Active Elf race never discards a token when one of its regions is
conquered, a lone Elf included; every token goes to hand for redeployment. A Sorcerer conversion
still removes the Elf (it does not go through the losses), and In-Decline Elves lose as usual (the
engine asks a defender's loss exceptions of its Active race only). Option `elves_lone_token`:
'discarded' makes a lone Elf lost like any lone defender."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Cause, Unit
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.rules.losses import occupants

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Elves(Unit):
    id = "elves"
    kind = "race"
    section = "§7"
    options = (
        OptionSpec(
            "elves_lone_token",
            "kept",
            "CL-AMB-21 (classic §7): a lone Active Elf whose region is conquered goes to hand like the "
            "others, or is discarded as a lone defender is ('discarded').",
            choices=("kept", "discarded"),
            unit="elves",
        ),
    )

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        if cause != Cause.CONQUEST or st.seats[owner].active != self.id:
            return False
        # Asked while the region still holds its defenders: a lone Elf is one token there.
        return st.game.options.elves_lone_token == "kept" or occupants(st, region) > 1


UNIT = Elves()
