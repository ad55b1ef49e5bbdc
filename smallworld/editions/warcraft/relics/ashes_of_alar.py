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

from smallworld.editions.warcraft.relics._common import use, used
from smallworld.engine import conquest
from smallworld.engine.actions import Action
from smallworld.engine.board_map import bits
from smallworld.engine.flow import available, die_attempt, place_conquest
from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State

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
    action_kinds = frozenset({ASHES, ASHES_FINAL})

    def _attack(self, st: State, seat: int) -> conquest.Attack:
        att = conquest.Attack(st, seat)
        # "As if it were adjacent": every region counts as adjacent, so no travel cost (§6.6).
        att.adjacent = st.game.map.all_mask
        return att

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if st.turn.done or used(st, ID):
            return ()
        hand = available(st, seat)
        if hand < 1:  # §6.4
            return ()
        att = self._attack(st, seat)
        game = st.game
        m = game.map
        reach = m.all_mask & ~att.own & ~st.immune
        if not _swims(st, seat, att):
            reach &= ~m.water
        max_short = game.options.max_final_shortfall
        out = []
        for r in bits(reach):
            if not conquest.can_pay(st, seat, r):
                continue
            for opt in conquest.options(st, att, r):
                c = conquest.cost(st, att, r, opt)
                if c <= hand:
                    out.append(Action(ASHES, r, opt))
                elif c - hand <= max_short and hand >= att.minimum:
                    out.append(Action(ASHES_FINAL, r, opt))
        return out

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        r = action.region
        assert r is not None
        opt = action.arg if isinstance(action.arg, str) else None
        att = self._attack(st, seat)
        c = conquest.cost(st, att, r, opt)
        use(st, ID)
        conquest.declare(st, att, r, opt)
        if action.kind == ASHES:
            place_conquest(st, seat, r, opt, c)
            st.move_marker(ID, r)
        elif die_attempt(st, seat, r, opt, c):
            st.move_marker(ID, r)  # it stays where it was after a failed attempt (AMB-50)

    def explain(self, st: State, action: Action) -> tuple[str, str] | None:
        if used(st, ID):
            return "§10.2", "the Ashes of Al'ar were already used this turn"
        return "§10.2", "the Ashes of Al'ar cannot take that region now (cost, immunity, water or payments)"


UNIT = Ashes()
