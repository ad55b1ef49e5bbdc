"""Humans (§8.8, §6.8 step 4, §6.13 step 4, AMB-28, AMB-51, AMB-09, AMB-36): Military Objectives.

At the end of each Human turn (Active race, not on the decline turn) the Human player takes back the
two Military Objectives (MO) still on the boards and places up to 2 of them (AMB-51), one step at a
time (`objective REF`, then `objective_done`), each in a different region that no Alliance race
occupies: empty, Murloc, Horde or Neutral regions on any board. Immune regions (Watch Tower, §9.6,
AMB-36) cannot receive one, and a region holding another player's Aegis of Aggramar only after its
owner is paid 2 VC (AMB-19, AMB-36: placing it is an effect on the region). An empty Sea or Lake
is an empty region, so it may receive one too (only the Naga can take it there). The faction of the
occupant is its banner's (an In-Decline race keeps its faction, §6.15).

When a non-Horde player (Alliance or Neutral Active race, the Humans included) conquers an MO
region, that player gains 2 VC at once (AMB-09) and the MO goes back to the Human player; the Human
player also gains 2 VC when someone else conquered it. A Horde conqueror gets nothing and the MO
stays. The conqueror's faction is the one it fights for this turn (`scoring.effective_faction`, so a
Neutral race fighting for the Horde through the Battleground counts as Horde). The MOs leave the
boards when the Humans decline (§6.16 step 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.editions.warcraft.factions import ALLIANCE, HORDE
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import ConquestInfo, Effect, Piece, Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    region_field,
    seat_field,
)
from smallworld.engine.rules import conquest
from smallworld.engine.rules.scoring import effective_faction

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

OBJECTIVE = "military_objective"
PLACE, DONE = "objective", "objective_done"
REWARD = 2


def _has_objective(st: State, region: int) -> bool:
    p = st.pieces[region]
    return bool(p and p.get(OBJECTIVE))


def eligible(st: State, seat: int) -> int:
    """Mask of the regions that may receive a Military Objective from `seat` now (§8.8, AMB-36): no
    Alliance race there, not immune, no objective yet, and the Aegis paid where it protects."""
    out = 0
    # Only where an owner's unit may ask dues is there anything to pay (asked once, not per region).
    defended = conquest.defended_mask(st, seat)
    for r in range(st.game.map.n):
        if why_not(st, seat, r, defended) is None:
            out |= 1 << r
    return out


def why_not(st: State, seat: int, r: int, defended: int = -1) -> Why | None:
    """The one answer to "may a Military Objective go into region `r` now" (listing and errors).
    `defended`: `conquest.defended_mask` of the seat when known (every region may ask dues else)."""
    name = st.game.map.regions[r].name
    race = st.race[r]
    if race is not None and st.game.faction.get(race) == ALLIANCE:
        return Why(
            "§8.8",
            f"{name} is occupied by an Alliance race ({race}): no Military Objective there",
            "humans.objective_alliance",
            region=st.game.map.ref(r),
            race=race,
        )
    if (st.immune >> r) & 1:
        return Why(
            "§9.6",
            f"{name} is immune to all powers (Watch Tower, AMB-36)",
            "immune_powers",
            region=st.game.map.ref(r),
        )
    if _has_objective(st, r):
        return Why(
            "§8.8",
            f"{name} already holds a Military Objective (each goes to a different region)",
            "humans.objective_there",
            region=st.game.map.ref(r),
        )
    if (defended >> r) & 1 and not conquest.can_affect(st, seat, [r], Effect.PLACEMENT):
        return Why(
            "§6.7",
            f"a Military Objective in {name} requires paying the Aegis of Aggramar's 2 VC first",
            "unpaid_any",
            region=st.game.map.ref(r),
        )
    return None


def take_back(st: State) -> None:
    for r in range(st.game.map.n):
        if _has_objective(st, r):
            st.remove_piece(r, OBJECTIVE)


class Humans(Unit):
    id = "humans"
    kind = "race"
    section = "§8.8"
    turn_end_step = 4  # §6.13 step 4: Military Objectives
    # Not removed by conquest or emptying: only a non-Horde conquest sends an MO back (`any_conquest`),
    # and an MO may sit in an empty region.
    pieces = (Piece(OBJECTIVE, supply=2),)
    action_specs = (
        ActionSpec(PLACE, "put a Military Objective in this region", region=True, step="prompt"),
        ActionSpec(DONE, "place no more Military Objectives", step="prompt"),
    )
    prompt_specs = (
        PromptSpec(
            "objectives",
            "place up to 2 Military Objectives, each where no Alliance race stands",
            (PLACE, DONE),
            rule="§8.8",
        ),
    )
    event_specs = (
        EventSpec("objective_placed", "a Military Objective was placed", (seat_field(), region_field())),
        EventSpec(
            "objective_taken",
            "a non-Horde conqueror took a Military Objective: 2 VC to it and the Humans",
            (
                seat_field("the conqueror"),
                region_field(),
                Field("humans", FieldType.SEAT, "the Humans' seat", nullable=True),
            ),
        ),
    )

    def turn_end(self, st: State, seat: int) -> None:
        take_back(st)
        if st.supply.get(OBJECTIVE, 0) and eligible(st, seat):
            st.push_prompt(self.id, seat, "objectives")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        out = [Action(PLACE, r) for r in bits(eligible(st, prompt["seat"]))]
        out.append(Action(DONE))
        return out

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        if action.kind == PLACE and action.region is not None:
            # Placing it is a power used on the region: the Aegis asks 2 VC (AMB-19, AMB-36).
            conquest.pay_placement(st, seat, action.region)
            st.add_piece(action.region, OBJECTIVE)
            st.event("objective_placed", seat=seat, region=action.region)
            if st.supply.get(OBJECTIVE, 0) and eligible(st, seat):
                return  # the prompt stays: one more may be placed
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        if not st.pending or st.pending[0]["unit"] != self.id:
            if action.kind in (PLACE, DONE):
                return self.why(
                    "§8.8",
                    "Military Objectives are placed at the end of an Active Human turn",
                    "objective_when",
                )
            return None
        if action.kind != PLACE or action.region is None:
            return self.why(
                "§8.8",
                f"place a Military Objective first ('{PLACE} REGION') or stop ('{DONE}')",
                "objective_prompt",
            )
        why = why_not(st, st.pending[0]["seat"], action.region)
        return why or (self.why("§8.8", "both Military Objectives are on the boards", "objective_none_left"))

    def any_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        r = info.region
        if not _has_objective(st, r) or effective_faction(st, seat) == HORDE:
            return
        owner = next((i for i, s in enumerate(st.seats) if s.active == self.id), None)
        st.remove_piece(r, OBJECTIVE)
        st.gain(seat, REWARD, self.id)
        if owner is not None and owner != seat:
            st.gain(owner, REWARD, self.id)
        st.event("objective_taken", seat=seat, region=r, humans=owner)

    def on_decline(self, st: State, seat: int) -> None:
        take_back(st)


UNIT = Humans()
