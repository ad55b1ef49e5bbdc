"""Forsaken (§8.5, §6.11, AMB-31; test vectors §14.7 and §14.12).

Each token whose loss the Forsaken forced this turn lets the player buy one more Forsaken token from
the tray for 1 VC. The purchase is one decision after the last conquest and before redeployment
(`buy k`, k = 0 .. the most allowed); the tokens go to hand and are placed in this turn's
redeployment, so they cannot conquer before the next turn. The count is capped by the tray (20 tokens,
§1.2) and by the player's coins.

AMB-31: every discarded token counts (Active or In Decline, all tokens of a multi-token In-Decline
region, Murlocs, and a Beast discarded in place of a race token), except tokens of the player's own
In-Decline race and losses that were prevented (Chapel, Champion, Holy Light). The count lives in
`st.turn.data["forsaken_losses"]`, cleared with the turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.actions import Action
from smallworld.engine.hooks import ConquestInfo, Unit

if TYPE_CHECKING:
    from smallworld.engine.game import Game
    from smallworld.engine.state import State

BUY = "buy"  # prompt answer: `buy k`
PRICE = 1
LOSSES = "forsaken_losses"


def forced_losses(game: Game, info: ConquestInfo) -> int:
    """Tokens (and Beasts) a conquest made its defenders discard, as AMB-31 counts them: a unit that
    prevents a loss by discarding a piece of its own (`loss_is_piece`, §9.3) still lost one."""
    if info.own_declined:
        return 0
    prevented = game.units[info.prevented] if info.prevented is not None else None
    return info.lost + (1 if prevented is not None and prevented.loss_is_piece else 0)


class Forsaken(Unit):
    id = "forsaken"
    kind = "race"
    section = "§8.5"

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        self.losses_forced(st, seat, forced_losses(st.game, info))

    def losses_forced(self, st: State, seat: int, count: int) -> None:
        if count:
            st.turn.data[LOSSES] = st.turn.data.get(LOSSES, 0) + count

    def most(self, st: State, seat: int) -> int:
        """Tokens the player may buy now: losses forced, capped by the tray and the coins (§1.2)."""
        return min(st.turn.data.get(LOSSES, 0), st.tray.get(self.id, 0), st.seats[seat].coins // PRICE)

    def after_conquests(self, st: State, seat: int) -> None:
        k = self.most(st, seat)
        if k > 0:
            st.push_prompt(
                self.id,
                seat,
                text=f"Forsaken: buy up to {k} extra tokens from the tray, {PRICE} coin each",
                rule="§8.5",
                most=k,
            )

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(BUY, None, k) for k in range(int(prompt["most"]) + 1)]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        k = int(action.arg or 0)
        if k:
            st.pay(seat, None, k * PRICE)
            st.tray[self.id] -= k
            st.seats[seat].hand += k
            st.event("forsaken_buy", seat=seat, tokens=k)
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> tuple[str, str] | None:
        if not st.pending or st.pending[0]["unit"] != self.id:
            return None
        most = int(st.pending[0]["most"])
        if action.kind == BUY:
            return "§8.5", (
                f"at most {most} token(s) may be bought now: one per token whose loss the Forsaken forced "
                f"this turn, at {PRICE} VC each, while the tray has them (§1.2)"
            )
        return "§8.5", f"decide the Forsaken purchase first: '{BUY} k' with k from 0 to {most}"


UNIT = Forsaken()
