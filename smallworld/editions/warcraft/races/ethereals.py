"""Ethereals (§8.4, §6.6, §10.1, AMB-29, AMB-36). Once per turn, during the conquest step, one of:

* (a) steal, `steal REGION ARTIFACT`: take a face-up Artifact from a region adjacent to one of
  their Active regions and move it into REGION, one of their Active regions next to it; they own it
  at once and may use it within the Artifact's own once-per-turn limit. AMB-29: a Watch Tower
  region is immune to it, it needs the Aegis of Aggramar's 2 VC when the Artifact lies in the
  Aegis's region (also when it is the Aegis itself), and it is no attack on the Pandaren (no
  Harmony payment, and it does not count as attacking them);
* (b) the conquest option `conquer REF ethereals`: an adjacent region holding a face-up Legendary
  Place costs 2 fewer tokens (minimum 1, §6.6); normal targeting applies. It adds up with
  Frostmourne on the same conquest: `conquer REF ethereals+frostmourne`.

Face-down markers are eligible for neither (AMB-29). The choice is made when the steal is done or
the conquest declared (a failed final attempt uses it up).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.editions.warcraft.relics._common import (
    ARTIFACT,
    OPTION_JOIN,
    PLACE,
    face_up,
    group,
    has_option,
)
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Effect, Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
    region_field,
    seat_field,
)
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "ethereals"
STEAL = "steal"
DISCOUNT = 2


class Ethereals(Unit):
    id = ID
    kind = "race"
    section = "§8.4"
    action_specs = (
        ActionSpec(
            STEAL,
            "steal a face-up Artifact next to the Ethereals into this region of theirs",
            region=True,
            args=(Arg.RELIC,),
        ),
    )
    event_specs = (
        EventSpec(
            STEAL,
            "the Ethereals stole an Artifact",
            (
                seat_field(),
                Field("relic", FieldType.UNIT, "the Artifact"),
                region_field("where it lay", "source"),
                region_field("where it went"),
                Field("paid", FieldType.INT, "coins paid for the Aegis of Aggramar"),
            ),
        ),
    )
    turn_fields = (
        Field(
            "used",
            FieldType.CHOICE,
            "the once-per-turn choice made",
            choices=("steal", "place"),
            optional=True,
        ),
    )

    # --- (b) the discount on a Legendary Place -----------------------------------------------
    def conquest_options(self, st: State, seat: int, region: int) -> Iterable[str]:
        if _used(st) or st.seats[seat].active != ID:
            return ()
        if not any(group(st, rid) == PLACE for rid in face_up(st, region)):
            return ()
        m = st.game.map
        if not (m.adjacent_to(st.occupied_mask(ID)) >> region) & 1:
            return ()
        out = [ID]
        # A plain reduction of another unit (Frostmourne) adds up with every other one (§6.6): offer
        # both at once when the player has it.
        game = st.game
        for u in st.units(seat):
            if u is not self and u.option_stacks and game.overrides(u, "conquest_options"):
                out.extend(f"{ID}{OPTION_JOIN}{o}" for o in u.conquest_options(st, seat, region))
        return out

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return DISCOUNT if has_option(option, ID) else 0

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        if has_option(option, ID):
            st.turn_data(ID)["used"] = "place"

    # --- (a) stealing an Artifact ------------------------------------------------------------
    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if st.turn.done or _used(st) or st.seats[seat].active != ID:
            return ()
        own = st.occupied_mask(ID)
        adj = st.game.map.adj
        out: list[Action] = []
        for src in sorted(st.markers):  # region order: the same after any round trip
            if (own >> src) & 1 or (st.immune >> src) & 1:
                continue
            homes = adj[src] & own
            if not homes:
                continue
            for rid in face_up(st, src):
                if group(st, rid) != ARTIFACT or not conquest.can_affect(st, seat, [src], Effect.PLACEMENT):
                    continue
                out.extend(Action(STEAL, d, rid) for d in bits(homes))
        return out

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        rid = str(action.arg)
        src = st.marker_region(rid)
        assert src is not None and action.region is not None
        before = st.seats[seat].coins
        conquest.pay_placement(st, seat, src)
        st.move_marker(rid, action.region)
        st.turn_data(ID)["used"] = "steal"
        st.event(
            STEAL, seat=seat, relic=rid, source=src, region=action.region, paid=before - st.seats[seat].coins
        )

    def explain(self, st: State, action: Action) -> Why | None:
        opt = action.arg if isinstance(action.arg, str) else None
        if action.kind != STEAL and not has_option(opt, ID):
            return None  # another unit's option or action: its own answer fits
        seat = st.acting_seat
        if st.seats[seat].active != ID:
            return self.why(
                "§8.4",
                "only the Active Ethereals may steal an Artifact or use their Place discount",
                "steal_active_only",
            )
        if _used(st):
            return self.why(
                "§8.4",
                "the Ethereals already stole or used their discount this turn (once per turn)",
                "steal_used",
            )
        if action.kind != STEAL:
            return self.why(
                "§8.4",
                "the Ethereals' discount is only for a region next to one of theirs that holds a face-up "
                "Legendary Place (AMB-29)",
                "discount_where",
            )
        if not st.in_conquest_step(seat):
            return self.why("§8.4", "the Ethereals steal only during their conquests", "steal_when")
        rid = str(action.arg)
        src = st.marker_region(rid)
        m = st.game.map
        if src is None or group(st, rid) != ARTIFACT or rid not in face_up(st, src):
            return self.why(
                "§8.4",
                f"{rid!r} is not a face-up Artifact on the boards (AMB-29: not a face-down one)",
                "steal_not_artifact",
                relic=rid,
            )
        if action.region is None or not (st.occupied_mask(ID) >> action.region) & 1:
            return self.why(
                "§8.4", "a stolen Artifact goes into one of the Ethereals' own regions", "steal_into_own"
            )
        if (st.occupied_mask(ID) >> src) & 1:
            return self.why(
                "§8.4", f"{rid!r} already lies in a region of the Ethereals", "steal_already_own", relic=rid
            )
        if not (m.adj[src] >> action.region) & 1:
            return self.why(
                "§8.4",
                f"{m.regions[src].name} is not next to {m.regions[action.region].name}",
                "steal_not_adjacent",
                source_region=m.ref(src),
                region=m.ref(action.region),
            )
        if (st.immune >> src) & 1:
            return Why(
                "§9.6",
                f"{m.regions[src].name} is immune to all powers (Watch Tower)",
                "immune_powers",
                region=m.ref(src),
            )
        return Why(
            "§6.7",
            f"stealing from {m.regions[src].name} requires paying the Aegis's 2 VC first",
            "unpaid_any",
            region=m.ref(src),
        )


def _used(st: State) -> bool:
    return "used" in st.turn.data.get(ID, {})


UNIT = Ethereals()
