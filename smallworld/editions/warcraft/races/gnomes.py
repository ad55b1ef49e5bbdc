"""Gnomes (§8.6, §6.5, §6.6, §6.10, AMB-23): the airborne assault, once per turn.

`airborne REGION [option]` in the conquest step, with at least 1 token in hand: the target may be
any region on any board except Seas/Lakes, immune regions and the Gnomes' own regions; it counts as
adjacent (no travel cost) and may be the race's first conquest (AMB-23). Payments (§6.7) are made
when it is declared. Then the die is rolled for free and its result comes off the cost (minimum 1,
on top of every other reduction).

* Enough tokens in hand for the reduced cost: a normal conquest, and the turn goes on.
* Short by 1..3 (§6.10): a prompt asks `airborne_final` (it becomes the final attempt: a second
  roll, success if tokens in hand + that roll >= the reduced cost, then all tokens in hand go in;
  on failure they stay in hand; conquests end either way) or `airborne_cancel` (the assault is used
  up and other conquests may continue).
* Short by more: the assault is cancelled at once and used up.

The rolls and the outcome are public in the Gnomes' turn data (`airborne`; the turn's `die` holds
the second roll, as for any final attempt) and in the events of the action.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action, at_regions
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    region_field,
    seat_field,
)
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "gnomes"
AIRBORNE = "airborne"  # action kind, and the turn data of this turn's assault
FINAL = "airborne_final"
CANCEL = "airborne_cancel"
_PROMPT_ACTIONS = (Action(FINAL), Action(CANCEL))
OUTCOMES = ("conquered", "pending", "cancelled", "final_won", "final_lost")


class Gnomes(Unit):
    id = ID
    kind = "race"
    section = "§8.6"
    action_specs = (
        ActionSpec(
            AIRBORNE,
            "an airborne assault on any region; a free die roll comes off its cost (once per turn)",
            region=True,
            args=(Arg.NONE, Arg.OPTION),
            conquest=True,
        ),
        ActionSpec(FINAL, "roll again: the assault becomes the final attempt", step="prompt", conquest=True),
        ActionSpec(CANCEL, "call off the assault (it is used up) and go on conquering", step="prompt"),
    )
    prompt_specs = (
        PromptSpec(
            "short",
            "still short after the free die: roll again as the final attempt, or call it off",
            (FINAL, CANCEL),
            (
                region_field("the assault's target"),
                Field("option", FieldType.TEXT, "its named option", nullable=True),
                Field("cost", FieldType.INT, "its cost after the free die"),
            ),
            rule="§8.6",
        ),
    )
    event_specs = (
        EventSpec(
            AIRBORNE,
            "an airborne assault: the free roll and what came of it",
            (
                seat_field(),
                region_field(),
                Field("cost", FieldType.INT, "the cost before the roll", optional=True),
                Field("roll", FieldType.INT, "the free roll", optional=True),
                Field("reduced", FieldType.INT, "the cost after the roll", optional=True),
                Field("tokens", FieldType.INT, "tokens in hand", optional=True),
                Field("outcome", FieldType.CHOICE, "what came of it", choices=OUTCOMES),
            ),
        ),
    )
    turn_fields = (
        Field(AIRBORNE, FieldType.OBJECT, "this turn's assault: rolls and outcome", optional=True),
    )

    def _attack(self, st: State, seat: int, region: int) -> conquest.Attack:
        att = conquest.Attack(st, seat)
        # "Counts as adjacent": the travel cost is never due on the assault's target (§6.6).
        att.adjacent |= 1 << region
        return att

    def _done(self, st: State) -> bool:
        return AIRBORNE in st.turn.data.get(ID, {})

    def why_closed(self, st: State, seat: int) -> Why | None:
        """Why no assault is possible now, whatever the target (None: one is)."""
        if st.seats[seat].active != self.id:
            return self.why("§8.6", "only the Active Gnomes make airborne assaults", "airborne_active_only")
        if not conquest.conquests_open(st, seat):
            return Why("§6.10", "conquests are over for this turn", "conquests_over")
        if self._done(st):
            return self.why(
                "§8.6",
                "the airborne assault is made once per turn (a cancelled one is used up too)",
                "airborne_used",
            )
        att = conquest.Attack(st, seat)
        if conquest.available(st, seat) < max(1, att.minimum):
            return Why("§6.4", "a conquest needs at least 1 race token in hand", "no_token")
        return None

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if st.turn.done or self._done(st):
            return ()
        att = conquest.current_attack(st, seat)
        if conquest.available(st, seat) < max(1, att.minimum):
            return ()
        m = st.game.map
        out: list[Action] = []
        defended = conquest.dues_regions(st, att)  # only there may dues be asked
        plain = at_regions(AIRBORNE, m.n)
        for r in bits(m.all_mask & ~m.water & ~att.own & ~st.immune):
            # The cost is only known after the die, so any target may be declared; only the
            # payments due at declaration must be affordable (§6.7).
            if not (defended >> r) & 1 or conquest.can_pay(st, seat, r):
                if att.optional:
                    out.extend(Action(AIRBORNE, r, opt) for opt in conquest.options(st, att, r))
                else:
                    out.append(plain[r])
        return out

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        r = action.region
        assert r is not None
        opt = action.arg if isinstance(action.arg, str) else None
        att = self._attack(st, seat, r)
        full = conquest.cost(st, att, r, opt)
        conquest.declare(st, att, r, opt)
        roll = st.roll_die()
        cost = max(full - roll, 1, att.minimum)
        have = conquest.available(st, seat)  # race tokens and Beasts (AMB-46)
        record: dict[str, Any] = {
            "region": st.game.map.ref(r),
            "option": opt,
            "cost": full,
            "roll": roll,
            "reduced": cost,
            "tokens": have,
        }
        short = cost - have
        if short <= 0:
            record["outcome"] = "conquered"
        elif short <= st.game.options.max_final_shortfall and have >= att.minimum:
            record["outcome"] = "pending"
        else:
            record["outcome"] = "cancelled"
        st.turn_data(ID)[AIRBORNE] = record
        st.event(
            AIRBORNE,
            seat=seat,
            region=r,
            cost=full,
            roll=roll,
            reduced=cost,
            tokens=have,
            outcome=record["outcome"],
        )
        if short <= 0:
            conquest.place_conquest(st, seat, r, opt, cost)
        elif record["outcome"] == "pending":
            st.push_prompt(self.id, seat, "short", region=r, option=opt, cost=cost)

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return _PROMPT_ACTIONS

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        st.pop_prompt()
        seat = prompt["seat"]
        data = st.turn_data(ID)
        record = dict(data.get(AIRBORNE, {}))
        r = st.game.map.index(prompt["region"])
        if action.kind == CANCEL:
            record["outcome"] = "cancelled"
            data[AIRBORNE] = record
            st.event(AIRBORNE, seat=seat, region=r, outcome="cancelled")
            return
        cost, opt = prompt["cost"], prompt.get("option")
        # Like any final attempt (§6.10): conquests are over, won or lost.
        won = conquest.die_attempt(st, seat, r, opt, cost)
        outcome = "final_won" if won else "final_lost"
        record.update(roll2=st.turn.die, outcome=outcome)
        data[AIRBORNE] = record
        st.event(AIRBORNE, seat=seat, region=r, outcome=outcome)

    def explain(self, st: State, action: Action) -> Why | None:
        pending = st.pending[0] if st.pending else None
        if pending is not None:
            if pending["unit"] != self.id or action.kind in (FINAL, CANCEL):
                return None  # the prompt's own text says what is awaited
            return self.why(
                "§8.6",
                f"answer the airborne assault first: '{FINAL}' (roll again) or '{CANCEL}'",
                "airborne_prompt",
            )
        if action.kind in (FINAL, CANCEL):
            return self.why("§8.6", "no airborne assault is waiting for a second roll", "airborne_no_roll")
        if action.kind != AIRBORNE:
            return None
        seat = st.acting_seat
        closed = self.why_closed(st, seat)
        if closed is not None:
            return closed
        att = conquest.Attack(st, seat)
        r = action.region
        m = st.game.map
        if r is None:
            return self.why("§8.6", "the airborne assault needs a target region", "airborne_no_target")
        name = m.regions[r].name
        if (m.water >> r) & 1:
            return Why(
                "§6.5",
                f"{name} is a Sea or Lake: only the Naga may conquer it",
                "water",
                region=m.ref(r),
                terrain=m.regions[r].terrain,
            )
        if (att.own >> r) & 1:
            return Why("§6.5", f"{name} is already held by your Active race", "own", region=m.ref(r))
        if (st.immune >> r) & 1:
            return Why("§9.6", f"{name} is immune to conquest", "immune", region=m.ref(r))
        dues = conquest.payments(st, seat, r) if st.race[r] is not None else []
        if sum(d[1] for d in dues) > st.seats[seat].coins:
            return Why(
                "§6.7",
                f"the conquest of {name} requires paying {sum(d[1] for d in dues)} VC first",
                "unpaid",
                region=m.ref(r),
                coins=sum(d[1] for d in dues),
            )
        return Why(
            "§6.6",
            f"option {action.arg!r} is not available for {name}",
            "option",
            option=str(action.arg),
            region=m.ref(r),
        )


UNIT = Gnomes()
