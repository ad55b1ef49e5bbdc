"""Marshdweller (§9.14): opponents pay the Marshdweller player 1 VC before conquering a Swamp region
held by this race, Active or In Decline (§6.7, §6.14, §6.16 step 2).

AMB-33: the toll is due when the conquest is declared, final die attempts included, once per region
attacked, and it is not refunded when the attempt fails; a player who cannot pay cannot declare it
(the engine leaves such conquests out of the legal actions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Effect, Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Marshdweller(Unit):
    id = "marshdweller"
    kind = "power"
    section = "§9.14"
    badge_kept_in_decline = True  # AMB-65: its toll works In Decline, so the badge stays too
    # The toll is the one effect that outlives the badge (§6.16 step 2); the only hook here is the
    # toll, so nothing else can leak into the In-Decline race.
    works_in_decline = True
    dues_on = frozenset({Effect.CONQUEST})  # "before conquering" (§9.14): not for bombs or Intimidating

    def defender_payments(
        self, st: State, attacker: int, region: int, owner: int
    ) -> Iterable[tuple[int | None, int, str]]:
        if not (st.game.map.terrain_mask.get("Swamp", 0) >> region) & 1:
            return ()
        s = st.seats[owner]
        race = st.race[region]
        # Only the race this badge belongs to collects: the player's other race may hold a Swamp too.
        if (s.power == self.id and race == s.active) or (s.declined_power == self.id and race == s.declined):
            return ((owner, 1, self.id),)
        return ()


UNIT = Marshdweller()
