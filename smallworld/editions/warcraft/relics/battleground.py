"""Battleground (§10.3, §6.1 step 5, §6.15, AMB-22, AMB-77).

* Doubled Faction Bonus: while the Active race holds it at the end-of-turn scoring (AMB-22: all of
  the turn's conquests count if it holds it then), each opposing-faction race it took regions from
  this turn gives min(regions taken, 2) VC instead of 1. The engine pays the first VC of each race
  ("faction_bonus"); this unit scores the second one ("battleground").
* A Neutral race holding it may fight for the Alliance or the Horde for the turn: it chooses when it
  takes the Battleground (a prompt after the conquest) or at the start of its turn if it already
  holds it (§6.1 step 5), with `faction Alliance`, `faction Horde` or `faction Neutral` (stay). The
  choice is kept in the turn data, so it is Neutral again once the turn is over. It applies to every
  faction-based rule of that turn from the moment it is made (the `faction` hook: Faction Bonus,
  Military Objectives).
* A Neutral race that comes to hold it by a Portal swap in its own turn counts as taking it and
  chooses at once (AMB-77, the `after_action` hook); arriving in another player's turn, it chooses at
  the start of its own turn. Should a Neutral holder still have no choice at the end of its turn, it
  is asked then, before the placements that depend on it (§6.13).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.editions.warcraft.factions import ALLIANCE, HORDE, NEUTRAL, OPPOSED
from smallworld.engine.model.actions import Action
from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    seat_field,
)
from smallworld.engine.rules.scoring import effective_faction

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "battleground"
FIGHT_FOR = "fight_for"  # the prompt's answer kind
FACTION = "faction"  # the turn data: the faction chosen this turn
_ANSWERS = tuple(Action(FIGHT_FOR, None, f) for f in (ALLIANCE, HORDE, NEUTRAL))
PER_RACE = 2


def _neutral(st: State, seat: int) -> bool:
    race = st.seats[seat].active
    return race is not None and st.game.faction.get(race) == NEUTRAL


class Battleground(Unit):
    id = ID
    kind = "relic"
    section = "§10.3"
    turn_end_step = 0  # §6.13: the faction is chosen before every placement that depends on it
    action_specs = (
        ActionSpec(
            FIGHT_FOR,
            "the faction a Neutral race holding the Battleground fights for this turn",
            args=(Arg.CHOICE,),
            choices=(ALLIANCE, HORDE, NEUTRAL),
            step="prompt",
        ),
    )
    prompt_specs = (
        PromptSpec(
            "faction",
            "fight for the Alliance or the Horde this turn, or stay Neutral",
            (FIGHT_FOR,),
            rule="§10.3",
        ),
    )
    event_specs = (
        EventSpec(
            ID,
            "a Neutral race holding the Battleground chose its faction for the turn",
            (
                seat_field(),
                Field("faction", FieldType.CHOICE, "the faction", choices=(ALLIANCE, HORDE, NEUTRAL)),
            ),
        ),
    )
    turn_fields = (
        Field(
            FACTION,
            FieldType.CHOICE,
            "the faction chosen this turn",
            choices=(ALLIANCE, HORDE, NEUTRAL),
            optional=True,
        ),
    )

    def _ask(self, st: State, seat: int) -> None:
        if st.turn_seat != seat or FACTION in st.turn.data.get(ID, {}) or not _neutral(st, seat):
            return
        if any(p["unit"] == ID for p in st.pending):
            return
        st.push_prompt(ID, seat, "faction")

    def expand_start(self, st: State, seat: int) -> None:
        self._ask(st, seat)

    def on_enter(self, st: State, seat: int, info: ConquestInfo) -> None:
        # AMB-22: chosen on taking it, before the region's Military Objective is judged (§6.8).
        if st.marker_region(ID) == info.region:
            self._ask(st, seat)

    def after_action(self, st: State, seat: int) -> None:
        # AMB-77: a Portal swap in the race's own turn that brings it onto the Battleground counts
        # as taking it: the faction is chosen at once (this hook is asked only while it holds it).
        self._ask(st, seat)

    def turn_end(self, st: State, seat: int) -> None:
        self._ask(st, seat)

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return _ANSWERS

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        st.pop_prompt()
        st.turn_data(ID)[FACTION] = str(action.arg)
        st.event(ID, seat=prompt["seat"], faction=action.arg)

    def faction(self, st: State, seat: int, base: str | None) -> str | None:
        if base == NEUTRAL and st.turn_seat == seat:
            return st.turn.data.get(ID, {}).get(FACTION, base)
        return base

    def score(self, st: State, seat: int) -> int:
        enemy = OPPOSED.get(effective_faction(st, seat) or "")
        if not enemy:
            return 0
        faction = st.game.faction
        return sum(min(n, PER_RACE) - 1 for race, n in st.turn.took.items() if faction.get(race) == enemy)


UNIT = Battleground()
