"""Worgen (§8.16, AMB-24, §6.1 step 5, §6.6): at the start of each turn they expand, and right
after being picked, the Worgen player must choose a form for the turn:

* human: +2 VC at once;
* worgen: pay 1 VC to the stash; every conquest this turn costs 1 fewer token (minimum 1, adding up
  with every other reduction, §6.6).

AMB-24: there is no choice on the turn they go into decline (the engine never calls `expand_start`
then), and the worgen form needs at least 1 VC. The choice is recorded in `st.turn.data["worgen_form"]`,
which the engine clears at the start of every turn, so the discount cannot outlive the turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.actions import Action
from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State

FORM = "form"  # prompt answer: `form human` or `form worgen`
HUMAN, WORGEN = "human", "worgen"
HUMAN_GAIN = 2
WORGEN_PRICE = 1


class Worgen(Unit):
    id = "worgen"
    kind = "race"
    section = "§8.16"

    def expand_start(self, st: State, seat: int) -> None:
        st.push_prompt(
            self.id,
            seat,
            text="Worgen: the human form (+2 coins) or the worgen form (1 coin; conquests cost 1 fewer)",
            rule="§8.16",
        )

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        out = [Action(FORM, None, HUMAN)]
        if st.seats[prompt["seat"]].coins >= WORGEN_PRICE:  # AMB-24: impossible with 0 VC
            out.append(Action(FORM, None, WORGEN))
        return out

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        form = str(action.arg)
        if form == WORGEN:
            st.pay(seat, None, WORGEN_PRICE)
        else:
            st.gain(seat, HUMAN_GAIN)
        st.turn.data["worgen_form"] = form
        st.event("worgen_form", seat=seat, form=form)
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> tuple[str, str] | None:
        if not st.pending or st.pending[0]["unit"] != self.id:
            return None
        if action.kind == FORM and action.arg == WORGEN:
            return "§8.16", "the Worgen form costs 1 VC and you have none: choose the human form (AMB-24)"
        return "§8.16", f"choose the form first: '{FORM} {HUMAN}' (+2 VC) or '{FORM} {WORGEN}' (pay 1 VC)"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        # The form belongs to the Worgen player's own turn; `turn_seat` guards against a cost asked
        # for this seat while another seat's turn data is current.
        return 1 if st.turn_seat == seat and st.turn.data.get("worgen_form") == WORGEN else 0


UNIT = Worgen()
