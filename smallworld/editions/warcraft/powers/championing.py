"""Championing (§9.5, §6.3 step 5, §6.4, §6.6, AMB-26, AMB-47, AMB-11, AMB-12): the Champion.

* The race has one Champion, a troop piece (`engine.hooks.Piece`) received into hand with the combo
  (`on_pick`). Like a race token it occupies its region, defends as 1 token (§6.6), is readied and
  redeployed (§6.2, §6.12) and counts towards the Tauren minimum (AMB-11); it never pays a
  conquest's cost. Readying keeps race tokens first, so a region holding the Champion alone, or
  the Champion and a single Tauren token, keeps it; before the turn's first conquest the engine's
  `ready REF champion` picks it up, a race token from hand taking its place (§6.2, AMB-26), so the
  free conquest is not lost. The engine removes it when the race declines (AMB-26).
* Once per turn, `champion REF` conquers a region for free and puts the Champion there. It targets a
  region adjacent to the Active race (AMB-47: counting what the race's own rule makes adjacent, the
  Kobolds' Caverns; an Entry region reached only by travel is not adjacent), never the first conquest,
  never an immune region (Watch Tower, §9.6); the payments of §6.7 (Aegis, Harmony, Marshdweller) are
  still made. The Champion in hand is enough to start it (§6.4 RES). Tauren still place 2 (AMB-11):
  the Champion counts as one, so one Tauren token from hand goes with it. Otherwise it is a normal
  conquest: defenders' losses (§6.9), Faction Bonus (§6.15) and per-conquest bonuses (§6.8).
* Captured (§6.9 exception 2, AMB-12): when another player conquers the Champion's region, or a
  Goblin bomb explodes there (§8.7), no defending race token is discarded; the owner pays 1 VC ransom
  at once (nothing with 0 VC, AMB-26) and the Champion is withdrawn to hand with the tokens, to be
  redeployed like one. The ransom goes to the player whose turn it is: the conqueror, or the Goblin
  player, whose bombs go off at the start of their own turn (§6.1 step 3). AMB-61: the capture and
  ransom happen even when Light's Hope Chapel, asked first, spares the race's loss (`loss_spared`);
  the option `chapel_spares_ransom` lets the Chapel spare them too.
* Intimidating cannot move it (§9.13); Portal Mage swaps do (§9.17).
* AMB-81: the unused Champion keeps the conquest step open (AMB-53) only while it has a legal target
  now; with none, conquests close as they would without it, and nothing that needs the conquest step
  (the Ethereals' steal, Intimidating, Portal Mage) is offered after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Cause, Piece, Unit
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.model.protocol import ActionSpec, EventSpec, Field, FieldType, region_field, seat_field
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "championing"
CHAMPION = "champion"
FREE = "champion"  # action kind: `champion REF`
RANSOM = 1
# AMB-12 order of the loss exceptions: Chapel > Champion > Beast (30) > Holy Light (900) > normal.
LOSS_PRIORITY = 20


def _tokens_needed(att: conquest.Attack) -> int:
    """Race tokens that go in with the Champion: Tauren keep 2 per region, the Champion being one."""
    return max(att.minimum - 1, 0)


class Championing(Unit):
    id = "championing"
    kind = "power"
    section = "§9.5"
    loss_priority = LOSS_PRIORITY
    pieces = (Piece(CHAMPION, supply=1, defense=1, occupies=True, troop=True),)
    options = (
        OptionSpec(
            "chapel_spares_ransom",
            False,
            "AMB-61 (§6.9, §9.5, §10.3): the Champion in a conquered or bombed region is captured and "
            "ransomed (1 VC) even when Light's Hope Chapel spares the race's loss; true: the Chapel "
            "spares the capture and the ransom too.",
            "bool",
            unit="championing",
        ),
    )
    action_specs = (
        ActionSpec(
            FREE, "the Champion conquers this region for free (once per turn)", region=True, conquest=True
        ),
    )
    event_specs = (
        EventSpec(
            "champion_conquest", "the Champion conquered a region for free", (seat_field(), region_field())
        ),
        EventSpec(
            "champion_captured",
            "the Champion was captured: its owner paid the ransom",
            (
                seat_field("the Champion's owner"),
                region_field(),
                Field("captor", FieldType.SEAT, "who captured it"),
                Field("ransom", FieldType.INT, "coins paid"),
            ),
        ),
    )
    turn_fields = (Field("used", FieldType.BOOL, "the free conquest of this turn was made", optional=True),)

    def on_pick(self, st: State, seat: int) -> None:
        if st.supply.get(CHAMPION, 0) > 0:
            st.supply[CHAMPION] -= 1
            held = st.seats[seat].held
            held[CHAMPION] = held.get(CHAMPION, 0) + 1

    # --- the free conquest -------------------------------------------------------------------
    # One check answers both the listing and the errors: `_closed` (no free conquest at all now)
    # and `_why_not` (this region): the listing walks only the regions `_reach` lets through.
    def _closed(self, st: State, seat: int) -> Why | None:
        s = st.seats[seat]
        if s.power != self.id:
            return self.why("§9.5", "only a race with Championing has the Champion", "not_yours")
        if not st.in_conquest_step(seat):
            return self.why(
                "§9.5", "the Champion's free conquest is only possible in your conquest step", "when"
            )
        if _used(st):
            return self.why("§9.5", "the Champion conquers for free once per turn", "used")
        if not s.held.get(CHAMPION):
            return self.why("§9.5", "the Champion must be in hand", "not_in_hand")
        att = conquest.current_attack(st, seat)
        if att.first:
            return self.why(
                "§9.5", "the Champion's free conquest cannot be the race's first conquest", "not_first"
            )
        if s.hand < _tokens_needed(att):
            return self.why(
                "§8.14", "Tauren need a token in hand to go with the Champion (2 per region)", "tauren_token"
            )
        return None

    def _why_not(
        self, st: State, seat: int, att: conquest.Attack, r: int, defended: int = -1
    ) -> Why | None:
        """Why the Champion may not conquer `r` now; `defended`: `conquest.defended_mask` of the seat
        when known (every region may ask dues else)."""
        name = st.game.map.regions[r].name
        if (st.immune >> r) & 1:
            return Why(
                "§9.6",
                f"{name} is immune to all powers and conquest attempts",
                "immune",
                region=st.game.map.ref(r),
            )
        if not (_reach(st, att) >> r) & 1:
            if (att.own >> r) & 1:
                return Why(
                    "§6.5", f"{name} is already held by your Active race", "own", region=st.game.map.ref(r)
                )
            if (st.game.map.water >> r) & 1:
                return Why(
                    "§6.5",
                    f"{name} is a Sea or Lake: only the Naga may conquer it",
                    "water",
                    region=st.game.map.ref(r),
                    terrain=st.game.map.regions[r].terrain,
                )
            if (st.game.reach_mask >> r) & 1:
                return self.why(
                    "§9.5",
                    f"{name} is an Entry region reached only by travel, not adjacent (AMB-47)",
                    "entry_travel",
                    region=st.game.map.ref(r),
                )
            return Why(
                "§6.5",
                f"{name} is not adjacent to your Active race",
                "unreachable",
                region=st.game.map.ref(r),
            )
        if (defended >> r) & 1 and not conquest.can_pay(st, seat, r):
            return Why(
                "§6.7",
                f"the conquest of {name} requires paying first",
                "unpaid_any",
                region=st.game.map.ref(r),
            )
        return None

    def free_conquest_left(self, st: State, seat: int) -> bool:
        # The Champion in hand, unused this turn, keeps conquests open (AMB-53), but only while it
        # has a legal target now (AMB-81): an unused Champion with nowhere to go leaves nothing open.
        return self._closed(st, seat) is None and bool(self.actions(st, seat))

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if self._closed(st, seat) is not None:
            return []
        att = conquest.current_attack(st, seat)
        defended = conquest.dues_regions(st, att)  # only there may dues be asked
        reach = bits(_reach(st, att))
        return [Action(FREE, r) for r in reach if self._why_not(st, seat, att, r, defended) is None]

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        r = action.region
        assert r is not None
        att = conquest.Attack(st, seat)
        st.turn_data(ID)["used"] = True
        conquest.free_conquest(st, att, r, _tokens_needed(att), {CHAMPION: 1}, event="champion_conquest")

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind != FREE:
            return None
        seat = st.acting_seat
        closed = self._closed(st, seat)
        if closed is not None:
            return closed
        if action.region is None:
            return self.why("§9.5", "the Champion's free conquest needs a target region", "no_target")
        why = self._why_not(st, seat, conquest.Attack(st, seat), action.region)
        return why or (
            self.why("§9.5", "the Champion's free conquest is not possible there now", "not_there")
        )

    # --- capture -------------------------------------------------------------------------------
    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        return self._capture(st, owner, region, cause)

    def loss_spared(self, st: State, owner: int, region: int, cause: str, by: str) -> None:
        # AMB-61: the Chapel spared the race's loss; the Champion is captured and ransomed anyway,
        # unless the rule option lets that exception spare the ransom too.
        if not st.game.options.chapel_spares_ransom:
            self._capture(st, owner, region, cause)

    def _capture(self, st: State, owner: int, region: int, cause: str) -> bool:
        """The Champion in a conquered or bombed region is captured: 1 VC ransom to the player
        whose turn it is (AMB-26). Intimidating never takes it (§9.13)."""
        p = st.pieces[region]
        if cause == Cause.TAKEN or not p or not p.get(CHAMPION):
            return False
        captor = st.turn_seat
        paid = st.pay(owner, captor, RANSOM) if captor != owner else 0
        if paid:
            st.event("payment", seat=owner, payee=captor, coins=paid, why=ID)
        st.event("champion_captured", seat=owner, region=region, captor=captor, ransom=paid)
        return True


def _reach(st: State, att: conquest.Attack) -> int:
    """The free conquest's targets (§9.5, AMB-47, AMB-26, AMB-73): regions adjacent to the Active
    race, counting what the race's own lasting rule makes adjacent (the Kobolds' Caverns), never an
    Entry region reached only by travel, nor what a paid conquest (airborne, Ashes) could reach."""
    return conquest.targets(st, att) & (att.adjacent | att.extra)


def _used(st: State) -> bool:
    return bool(st.turn.data.get(ID, {}).get("used"))


UNIT = Championing()
