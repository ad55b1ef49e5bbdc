"""Worgen (§8.16, AMB-24, §6.1 step 5, §6.6): at the start of each turn they expand, and right
after being picked, the Worgen player must choose a form for the turn:

* human: +2 VC at once;
* worgen: pay 1 VC to the stash; every conquest this turn costs 1 fewer token (minimum 1, adding up
  with every other reduction, §6.6).

AMB-24: there is no choice on the turn they go into decline (the engine never calls `expand_start`
then), and the worgen form needs at least 1 VC. The choice is kept in the Worgen's turn data
(`form`), which the engine clears at the start of every turn, so the discount cannot outlive it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    seat_field,
)

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "worgen"
FORM = "form"  # prompt answer: `form human` or `form worgen`
HUMAN, WORGEN = "human", "worgen"
HUMAN_GAIN = 2
WORGEN_PRICE = 1


class Worgen(Unit):
    id = ID
    kind = "race"
    section = "§8.16"
    action_specs = (
        ActionSpec(
            FORM,
            "the Worgen's form for this turn",
            args=(Arg.CHOICE,),
            choices=(HUMAN, WORGEN),
            step="prompt",
        ),
    )
    prompt_specs = (
        PromptSpec(
            "form",
            "the human form (+2 VC) or the worgen form (1 VC; conquests cost 1 fewer)",
            (FORM,),
            rule="§8.16",
        ),
    )
    event_specs = (
        EventSpec(
            "worgen_form",
            "the Worgen chose their form",
            (seat_field(), Field("form", FieldType.CHOICE, "the form", choices=(HUMAN, WORGEN))),
        ),
    )
    turn_fields = (
        Field("form", FieldType.CHOICE, "the form of this turn", choices=(HUMAN, WORGEN), optional=True),
    )

    def expand_start(self, st: State, seat: int) -> None:
        st.push_prompt(self.id, seat, "form")

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [
            a
            for a in (Action(FORM, None, HUMAN), Action(FORM, None, WORGEN))
            if self._why(st, prompt, a) is None
        ]

    def _why(self, st: State, prompt: dict[str, Any], action: Action) -> Why | None:
        if action.kind != FORM or action.arg not in (HUMAN, WORGEN):
            return self.why(
                "§8.16",
                f"choose the form first: '{FORM} {HUMAN}' (+2 VC) or '{FORM} {WORGEN}' (pay 1 VC)",
                "form_prompt",
            )
        if action.arg == WORGEN and st.seats[prompt["seat"]].coins < WORGEN_PRICE:  # AMB-24
            return self.why(
                "§8.16",
                "the Worgen form costs 1 VC and you have none: choose the human form (AMB-24)",
                "form_no_coin",
            )
        return None

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        form = str(action.arg)
        if form == WORGEN:
            paid = st.pay(seat, None, WORGEN_PRICE)
            st.event("payment", seat=seat, payee=None, coins=paid, why=ID)
        else:
            st.gain(seat, HUMAN_GAIN, ID)
        st.turn_data(ID)["form"] = form
        st.event("worgen_form", seat=seat, form=form)
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        if not st.pending or st.pending[0]["unit"] != self.id:
            return (
                None
                if action.kind != FORM
                else (self.why("§8.16", "the Worgen choose a form only when they expand", "form_when"))
            )
        return self._why(st, st.pending[0], action)

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        # The form belongs to the Worgen player's own turn; `turn_seat` guards against a cost asked
        # for this seat while another seat's turn data is current.
        return 1 if st.turn_seat == seat and st.turn.data.get(ID, {}).get("form") == WORGEN else 0


UNIT = Worgen()
