"""Skeletons (§7, CL-AMB-20): at the start of redeployment, 1 new token from the tray for every 2
non-empty regions conquered this turn (rounded down), as far as the tray holds them; they are
redeployed with the others."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.editions.classic._common import NonEmptyCounter
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Skeletons(NonEmptyCounter):
    id = "skeletons"
    kind = "race"
    section = "§7"
    event_specs = (
        EventSpec(
            "skeletons_rise",
            "new Skeleton tokens from the tray",
            (seat_field(), Field("tokens", FieldType.INT, "new tokens")),
        ),
    )

    def redeploy_start(self, st: State, seat: int) -> None:
        n = min(self.nonempty(st) // 2, st.tray[self.id])
        if n and st.occupied_mask(self.id):
            st.tray[self.id] -= n
            st.seats[seat].hand += n
            st.event("skeletons_rise", seat=seat, tokens=n)


UNIT = Skeletons()
