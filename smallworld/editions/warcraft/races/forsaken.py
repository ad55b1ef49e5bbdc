"""Forsaken (§8.5, §6.11, AMB-31; test vectors §14.7 and §14.12).

Each token whose loss the Forsaken forced this turn lets the player buy one more Forsaken token from
the tray for 1 VC. The purchase is one decision after the last conquest and before redeployment
(`buy k`, k = 0 .. the most allowed); the tokens go to hand and are placed in this turn's
redeployment, so they cannot conquer before the next turn. The count is capped by the tray (20 tokens,
§1.2) and by the player's coins.

AMB-31: every discarded token counts (Active or In Decline, all tokens of a multi-token In-Decline
region, Murlocs, and a Beast discarded in place of a race token), except tokens of the player's own
In-Decline race and losses that were prevented (Chapel, Champion, Holy Light). The count is the
Forsaken's turn data (`losses`), cleared with the turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
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
from smallworld.engine.model.state import Phase

if TYPE_CHECKING:
    from smallworld.engine.api.game import Game
    from smallworld.engine.model.state import State

ID = "forsaken"
BUY = "buy"  # prompt answer: `buy k`
PRICE = 1
TRAY = 20  # §1.2: the most that could ever be bought


def forced_losses(game: Game, info: ConquestInfo) -> int:
    """Tokens (and Beasts) a conquest made its defenders discard, as AMB-31 counts them: a unit that
    prevents a loss by discarding a piece of its own (`loss_is_piece`, §9.3) still lost one."""
    if info.own_declined:
        return 0
    prevented = game.units[info.prevented] if info.prevented is not None else None
    return info.lost + (1 if prevented is not None and prevented.loss_is_piece else 0)


class Forsaken(Unit):
    id = ID
    kind = "race"
    section = "§8.5"
    action_specs = (
        ActionSpec(
            BUY,
            "buy this many Forsaken tokens from the tray, 1 VC each",
            args=(Arg.COUNT,),
            most=TRAY,
            step="prompt",
        ),
    )
    prompt_specs = (
        PromptSpec(
            "buy",
            "buy up to `most` extra tokens from the tray, 1 VC each",
            (BUY,),
            (Field("most", FieldType.INT, "the most that may be bought"),),
            rule="§8.5",
        ),
    )
    event_specs = (
        EventSpec(
            "forsaken_buy",
            "the Forsaken bought tokens",
            (seat_field(), Field("tokens", FieldType.INT, "bought")),
        ),
    )
    turn_fields = (Field("losses", FieldType.INT, "losses the Forsaken forced this turn", optional=True),)

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        self.losses_forced(st, seat, forced_losses(st.game, info))

    def losses_forced(self, st: State, seat: int, count: int) -> None:
        if count:
            data = st.turn_data(ID)
            data["losses"] = data.get("losses", 0) + count

    def losses(self, st: State) -> int:
        return int(st.turn.data.get(ID, {}).get("losses", 0))

    def most(self, st: State, seat: int) -> int:
        """Tokens the player may buy now: losses forced, capped by the tray and the coins (§1.2)."""
        return min(self.losses(st), st.tray.get(self.id, 0), st.seats[seat].coins // PRICE)

    def after_conquests(self, st: State, seat: int) -> None:
        k = self.most(st, seat)
        if k > 0:
            st.push_prompt(self.id, seat, "buy", most=k)

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        return [Action(BUY, None, k) for k in range(int(prompt["most"]) + 1)]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        k = int(action.arg or 0)
        if k:
            paid = st.pay(seat, None, k * PRICE)
            st.event("payment", seat=seat, payee=None, coins=paid, why=self.id)
            st.tray[self.id] -= k
            st.seats[seat].hand += k
            st.event("forsaken_buy", seat=seat, tokens=k)
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        pending = st.pending[0] if st.pending else None
        if pending is not None and pending["unit"] == self.id:
            most = int(pending["most"])
            if action.kind == BUY:
                return self.why(
                    "§8.5",
                    f"at most {most} token(s) may be bought now: one per token whose loss the Forsaken "
                    f"forced this turn, at {PRICE} VC each, while the tray has them (§1.2)",
                    "buy_most",
                    most=most,
                    price=PRICE,
                )
            return self.why(
                "§8.5",
                f"decide the Forsaken purchase first: '{BUY} k' with k from 0 to {most}",
                "buy_prompt",
                most=most,
            )
        if action.kind != BUY:
            return None
        # No purchase is being asked: say why (a purchase step that is not available).
        seat = st.acting_seat
        s = st.seats[seat]
        if s.active != self.id:
            return self.why("§8.5", "only the Active Forsaken buy tokens", "buy_active_only")
        if (
            seat != st.turn_seat
            or st.phase in (Phase.PICK, Phase.START)
            or (st.phase == Phase.CONQUER and not st.turn.done)
        ):
            return self.why(
                "§8.5", "the Forsaken buy tokens after their last conquest, before redeployment", "buy_when"
            )
        if not self.losses(st):
            return self.why(
                "§8.5", "the Forsaken forced no loss this turn: there is nothing to buy", "buy_no_loss"
            )
        if st.tray.get(self.id, 0) <= 0:
            return self.why("§1.2", "no Forsaken token is left in the tray", "buy_tray_empty")
        if s.coins < PRICE:
            return self.why(
                "§8.5", f"a Forsaken token costs {PRICE} VC and you have none", "buy_no_coins", price=PRICE
            )
        return self.why("§8.5", "the Forsaken purchase of this turn is over", "buy_over")


UNIT = Forsaken()
