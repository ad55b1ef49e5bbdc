"""Blood Elves (§8.1): +1 VC at the end of the turn for each Magic region the Active race occupies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class BloodElves(Unit):
    id = "blood_elves"
    kind = "race"
    section = "§8.1"

    # Only `score` (Active race) is overridden, not `score_declined`: the bonus stops on decline.
    def score(self, st: State, seat: int) -> int:
        return (st.occupied_mask(st.seats[seat].active) & st.game.map.feature("Magic")).bit_count()


UNIT = BloodElves()
