"""Well of Eternity (§10.3, §2.1, §6.14, AMB-17).

* When revealed it moves to the Sea or Lake region of the same board. With several (§2.1 RES), the
  player whose race revealed it chooses (a prompt `well REGION`). With none, the Well leaves the game
  and a Legendary Place drawn at random (the game's generator) from the markers left out at setup is
  put face up in the region instead (AMB-17); with no such Place left, nothing is put there.
* At the end of each player's own turn, each of their races, Active and In Decline alike, that
  occupies strictly more of the regions adjacent to the Well than every other race (each player's
  Active and In-Decline races apart, Murlocs as one race) scores +2 VC. A tie gives nothing, and the
  Well's own region does not count (AMB-17).

The Well works for everyone whoever holds its region (`everywhere`): only its scoring hooks exist.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.editions.warcraft.relics._common import PLACE, group
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    region_field,
    seat_field,
)

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "well_of_eternity"
MOVE = "well"  # the prompt's answer kind
BONUS = 2


def _waters(st: State, region: int) -> list[int]:
    m = st.game.map
    return list(bits(m.water & m.board_mask[m.regions[region].board]))


class Well(Unit):
    id = ID
    kind = "relic"
    section = "§10.3"
    everywhere = True
    action_specs = (
        ActionSpec(MOVE, "the Sea or Lake the Well of Eternity moves to", region=True, step="prompt"),
    )
    prompt_specs = (
        PromptSpec(
            "move",
            "choose the Sea or Lake of this island the Well of Eternity moves to",
            (MOVE,),
            (region_field("where the Well was revealed"),),
            rule="§10.3",
            public=True,
        ),
    )
    event_specs = (
        EventSpec(
            ID,
            "the Well of Eternity was revealed: it moved, or left the game for another Place",
            (
                seat_field("whose race revealed it"),
                region_field("where it is now (or was revealed)"),
                Field(
                    "replaced_by",
                    FieldType.UNIT,
                    "the Place drawn in its stead",
                    nullable=True,
                    optional=True,
                ),
            ),
        ),
    )

    def on_reveal(self, st: State, seat: int, region: int) -> None:
        waters = _waters(st, region)
        if len(waters) == 1:
            self._move(st, seat, waters[0])
        elif waters:
            st.push_prompt(ID, seat, "move", region=region)
        else:
            self._replace(st, seat, region)

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(MOVE, r) for r in _waters(st, st.game.map.index(prompt["region"]))]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        st.pop_prompt()
        assert action.region is not None
        self._move(st, prompt["seat"], action.region)

    def _move(self, st: State, seat: int, region: int) -> None:
        st.move_marker(ID, region)
        st.event(ID, seat=seat, region=region)

    def _replace(self, st: State, seat: int, region: int) -> None:
        st.move_marker(ID, None)
        places = [x for x in st.spare_markers if group(st, x) == PLACE]
        if not places:
            st.event(ID, seat=seat, region=region, replaced_by=None)
            return
        drawn = places[st.rng.randbelow(len(places))]
        st.spare_markers = [x for x in st.spare_markers if x != drawn]
        st.move_marker(drawn, region, face_up=False)
        st.event(ID, seat=seat, region=region, replaced_by=drawn)
        st.reveal(region, seat)  # face up at once, with whatever the new Place does on arrival

    def _wins(self, st: State, race: str | None) -> bool:
        home = st.marker_region(ID)
        if home is None or race is None:
            return False
        around = st.game.map.adj[home]
        mine = (around & st.occupied_mask(race)).bit_count()
        return mine > 0 and all(
            (around & mask).bit_count() < mine for other, mask in st.race_mask.items() if other != race
        )

    def score(self, st: State, seat: int) -> int:
        return BONUS if self._wins(st, st.seats[seat].active) else 0

    def score_declined(self, st: State, seat: int) -> int:
        return BONUS if self._wins(st, st.seats[seat].declined) else 0


UNIT = Well()
