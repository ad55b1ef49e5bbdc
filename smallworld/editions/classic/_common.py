"""Shared by the classic races and powers: counting the non-empty regions conquered this turn
(§5.3: Orcs, Pillaging, Skeletons) and the +1 VC per region of one kind.

The registry skips this module (its name starts with "_").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import Field, FieldType

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

NONEMPTY_FIELDS = (Field("nonempty", FieldType.INT, "non-empty regions conquered this turn", optional=True),)


class NonEmptyCounter(Unit):
    """Counts the non-empty regions its race conquers this turn (§5.3): Lost Tribes, other races
    and, by CL-AMB-39 (option `own_decline_nonempty`), the player's own In-Decline tokens. Sorcerer
    conversions are conquests too (CL-AMB-08); failed die attempts are not conquests at all."""

    turn_fields = NONEMPTY_FIELDS

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        if not info.was_nonempty:
            return
        if info.own_declined and not st.game.options.own_decline_nonempty:
            return
        data = st.turn_data(self.id)
        data["nonempty"] = data.get("nonempty", 0) + 1

    def nonempty(self, st: State) -> int:
        # Read without creating the namespace: scoring is also asked for hints (the terminal game).
        return int(st.turn.data.get(self.id, {}).get("nonempty", 0))


class RegionScore(Unit):
    """+1 VC at the end of the turn per region of the Active race with `terrain` or `feature`."""

    terrain: ClassVar[str] = ""
    feature: ClassVar[str] = ""

    def scored(self, st: State, race: str | None) -> int:
        m = st.game.map
        mask = m.terrain_mask.get(self.terrain, 0) if self.terrain else m.feature(self.feature)
        return (st.occupied_mask(race) & mask).bit_count()

    def score(self, st: State, seat: int) -> int:
        return self.scored(st, st.seats[seat].active)
