"""Orcs (§8.12, AMB-09, AMB-42, AMB-43): +1 VC at once for each conquest of a region held by an
Alliance race, Active or In Decline, on top of the Faction Bonus (§6.15). Murlocs have no faction
(AMB-05), and a region of the Orc player's own In-Decline race earns nothing (AMB-43, option
`own_decline_bonus`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.editions.warcraft.factions import ALLIANCE
from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, region_field, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Orcs(Unit):
    id = "orcs"
    kind = "race"
    section = "§8.12"
    event_specs = (
        EventSpec(
            "orcs_coin",
            "the Orcs took a region of an Alliance race: +1 VC",
            (seat_field(), region_field(), Field("race", FieldType.UNIT, "the Alliance race")),
        ),
    )

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        race = info.defender_race
        if race is None or st.game.faction.get(race) != ALLIANCE:
            return
        if info.own_declined and not st.game.options.own_decline_bonus:
            return
        st.gain(seat, 1, self.id)
        st.event("orcs_coin", seat=seat, region=info.region, race=race)


UNIT = Orcs()
