"""Ashes of Al'ar (§10.2, §6.5 c, §6.6, §6.10, AMB-30, AMB-50).

Once per turn its owner may conquer any region on any board, paying the normal cost as if the region
were adjacent (so never the travel cost). Seas and Lakes stay out of reach except for a race that
may conquer them (the Naga: a race whose own targeting reaches water), and immune regions and the
owner's own Active regions stay out of reach too. The actions, in the conquest step:

* `ashes REF [option]`: a conquest paid in full from hand; the turn goes on;
* `ashes_final REF [option]`: the final attempt with the reinforcement die (§6.10: shortfall 1..3,
  payments at declaration); conquests end whatever the roll.

`option` is any named option of the conquest (Frostmourne, the Ethereals' discount). The Ashes are
used up when declared and move into the region they helped conquer; after a failed final attempt they
stay where they were (AMB-50). They are never the race's first conquest: a race owns them only by
occupying their region (AMB-30).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.editions.warcraft.relics._common import USED_FIELD, use, used
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import ActionSpec, Arg
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "ashes_of_alar"
ASHES = "ashes"
ASHES_FINAL = "ashes_final"


def _swims(st: State, seat: int, att: conquest.Attack) -> bool:
    """The race may conquer Seas and Lakes: its own targeting can reach water (the Naga, §8.10)."""
    game = st.game
    water = game.map.water
    return any(
        game.overrides(u, "extra_targets") and u.extra_targets(st, seat, True) & water for u in att.units
    )


class Ashes(Unit):
    id = ID
    kind = "relic"
    section = "§10.2"
    action_specs = (
        ActionSpec(
            ASHES,
            "conquer any region as if it were adjacent, paid in full from hand (once per turn)",
            region=True,
            args=(Arg.NONE, Arg.OPTION),
            conquest=True,
        ),
        ActionSpec(
            ASHES_FINAL,
            "the final die attempt on any region as if it were adjacent (once per turn)",
            region=True,
            args=(Arg.NONE, Arg.OPTION),
            conquest=True,
        ),
    )
    turn_fields = (USED_FIELD,)

    def _attack(self, st: State, seat: int) -> conquest.Attack:
        att = conquest.Attack(st, seat)
        # "As if it were adjacent": every region counts as adjacent, so no travel cost (§6.6).
        att.adjacent = st.game.map.all_mask
        return att

    def _reach(self, st: State, seat: int, att: conquest.Attack) -> int:
        m = st.game.map
        reach = m.all_mask & ~att.own & ~st.immune
        return reach if _swims(st, seat, att) else reach & ~m.water

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if self.why_closed(st, seat) is not None:
            return ()
        hand = conquest.available(st, seat)
        att = self._attack(st, seat)
        out = []
        for r in bits(self._reach(st, seat, att)):
            if not conquest.can_pay(st, seat, r):
                continue
            for opt in conquest.options(st, att, r):
                kind = self._kind(st, att, r, opt, hand)
                if kind is not None:
                    out.append(Action(kind, r, opt))
        return out

    def why_closed(self, st: State, seat: int) -> Why | None:
        """Why the Ashes can take nothing now, whatever the region (None: they may)."""
        if not conquest.conquests_open(st, seat):
            return Why("§6.10", "conquests are over for this turn", "conquests_over")
        if used(st, ID):
            return self.why("§10.2", "the Ashes of Al'ar were already used this turn", "used")
        if conquest.available(st, seat) < 1:
            return Why("§6.4", "a conquest needs at least 1 race token in hand", "no_token")
        return None

    def _kind(self, st: State, att: conquest.Attack, r: int, opt: str | None, hand: int) -> str | None:
        c = conquest.cost(st, att, r, opt)
        if c <= hand:
            return ASHES
        if c - hand <= st.game.options.max_final_shortfall and hand >= att.minimum:
            return ASHES_FINAL
        return None

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        r = action.region
        assert r is not None
        opt = action.arg if isinstance(action.arg, str) else None
        att = self._attack(st, seat)
        c = conquest.cost(st, att, r, opt)
        use(st, ID)
        if conquest.attempt(st, att, r, opt, c, final=action.kind == ASHES_FINAL):
            st.move_marker(ID, r)  # it stays where it was after a failed attempt (AMB-50)

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind not in (ASHES, ASHES_FINAL):
            return None
        seat = st.acting_seat
        closed = self.why_closed(st, seat)
        if closed is not None:
            return closed
        if self not in st.units(seat):
            return self.why(
                "§10.2",
                "only the owner of the face-up Ashes of Al'ar (its region's Active race) may use them",
                "owner_only",
            )
        r = action.region
        assert r is not None
        name = st.game.map.regions[r].name
        att = self._attack(st, seat)
        if not (self._reach(st, seat, att) >> r) & 1:
            if (att.own >> r) & 1:
                return Why(
                    "§6.5", f"{name} is already held by your Active race", "own", region=st.game.map.ref(r)
                )
            if (st.immune >> r) & 1:
                return Why("§9.6", f"{name} is immune to conquest", "immune", region=st.game.map.ref(r))
            return Why(
                "§6.5",
                f"{name} is a Sea or Lake: your race may not enter it",
                "water",
                region=st.game.map.ref(r),
                terrain=st.game.map.regions[r].terrain,
            )
        if not conquest.can_pay(st, seat, r):
            return Why(
                "§6.7",
                f"the conquest of {name} requires paying first",
                "unpaid_any",
                region=st.game.map.ref(r),
            )
        opt = action.arg if isinstance(action.arg, str) else None
        if opt not in conquest.options(st, att, r):
            return Why(
                "§6.6",
                f"option {opt!r} is not available for {name}",
                "option",
                option=str(opt),
                region=st.game.map.ref(r),
            )
        kind = self._kind(st, att, r, opt, conquest.available(st, seat))
        if kind is None:
            return self.why(
                "§6.10",
                f"{name} is more tokens short than a final attempt allows",
                "too_far",
                region=st.game.map.ref(r),
            )
        return self.why(
            "§10.2",
            f"{name} takes '{kind}', not '{action.kind}'",
            "other_kind",
            region=st.game.map.ref(r),
            final=kind == ASHES_FINAL,
        )


UNIT = Ashes()
