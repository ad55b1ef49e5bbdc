"""Shared by the Artifacts and Legendary Places (§10): groups, once-per-turn uses, named conquest
options and the end-of-turn placement of the Aegis of Aggramar and the Heart of Azeroth (§6.13 steps
5 and 6, in the engine's end-of-turn order, `Unit.turn_end_step`).

The edition skips this module (its name starts with "_").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

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

ARTIFACT, PLACE = "artifact", "place"
OPTION_JOIN = "+"  # `conquer REF ethereals+frostmourne`: two once-per-turn options on one conquest
USED_FIELD = Field("used", FieldType.BOOL, "the marker was used in this turn of its owner", optional=True)


def group(st: State, relic: str) -> str | None:
    """The marker's group, artifact or place (the icon on its face, §10.1)."""
    entry = st.game.relics.get(relic)
    return entry.group if entry is not None else None


def face_up(st: State, region: int) -> list[str]:
    """The face-up markers in `region`; face-down ones are nobody's to use (§10.1, AMB-29)."""
    return [rid for rid, up in st.markers.get(region, ()) if up]


def has_option(option: str | None, name: str) -> bool:
    return option is not None and name in option.split(OPTION_JOIN)


def used(st: State, relic: str) -> bool:
    """Once per turn means once in each turn of the owner (§10.1 RES): turn data is cleared at the
    start of every turn."""
    return bool(st.turn.data.get(relic, {}).get("used"))


def use(st: State, relic: str) -> None:
    st.turn_data(relic)["used"] = True


class Placed(Unit):
    """An Artifact its owner puts in one of their Active regions at the end of their turn (§6.13
    steps 5-6, AMB-19): asked as a prompt `VERB REGION` when there is a choice.

    §6.13 orders the placements: the Aegis (step 5) before the Heart (step 6), each after every
    earlier step's prompt is answered (`turn_end_step`, run in order by the engine)."""

    kind = "relic"
    section = "§10.2"
    verb: ClassVar[str] = ""  # the prompt's answer kind
    rule: ClassVar[str] = "§6.13"
    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if cls.verb:
            cls.action_specs = (
                ActionSpec(
                    cls.verb, "put the marker in this region of your Active race", region=True, step="prompt"
                ),
            )
            cls.prompt_specs = (
                PromptSpec(
                    "place",
                    "choose the region of your Active race where the marker goes",
                    (cls.verb,),
                    rule=cls.rule,
                ),
            )
            cls.event_specs = (
                EventSpec(
                    f"{cls.verb}_placed",
                    "the marker was put in a region of its owner",
                    (seat_field("its owner"), region_field()),
                ),
                *cls.extra_events(),
            )
            cls.action_kinds = frozenset()

    @classmethod
    def extra_events(cls) -> tuple[EventSpec, ...]:
        return ()

    def _choices(self, st: State, seat: int) -> list[int]:
        return list(bits(st.occupied_mask(st.seats[seat].active)))

    def turn_end(self, st: State, seat: int) -> None:
        self.begin(st, seat)

    def begin(self, st: State, seat: int) -> None:
        """Place the marker now when there is one choice, else ask the owner where."""
        choices = self._choices(st, seat)
        if len(choices) == 1:  # no choice to ask for
            self._place(st, seat, choices[0])
        elif choices:
            st.push_prompt(self.id, seat, "place")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(self.verb, r) for r in self._choices(st, prompt["seat"])]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        st.pop_prompt()
        assert action.region is not None
        self._place(st, prompt["seat"], action.region)

    def _place(self, st: State, seat: int, region: int) -> None:
        st.move_marker(self.id, region)
        st.event(f"{self.verb}_placed", seat=seat, region=region)
        self.placed(st, seat, region)

    def placed(self, st: State, seat: int, region: int) -> None:
        """What follows the placement (the Heart collects its coins)."""
