"""Doomhammer (§10.2, §6.6, §6.7, AMB-20, AMB-50).

Once per turn its owner may conquer one region with exactly 1 token (Tauren 2, AMB-11), after paying
2 VC to the player whose tokens (Active or In Decline) are in it, or to the stash when it is empty
or held by Murlocs (AMB-20, [PT] "the player occupying that region"). It is the conquest option
`conquer REF doomhammer`:

* normal targeting (adjacent, or an Entry region; AMB-20): the option is not offered on regions
  that only another effect makes reachable (Ashes of Al'ar, the Gnomes' airborne assault);
* the 1-token cost replaces the whole formula, travel cost included (§6.6): the unit takes
  everything off, and the engine's minimum (1, or the Tauren's 2) is what is placed;
* immunity and the defenders' payments still apply (§6.7): the option is only offered when the
  player can pay both;
* the 2 VC are paid when it is declared, and the Doomhammer moves into the region it conquered
  (after a failed attempt it would stay, AMB-50).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.editions.warcraft.relics._common import USED_FIELD, has_option, use, used
from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, region_field, seat_field
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "doomhammer"
PRICE = 2
EVERYTHING = 1_000  # taken off the cost: what remains is the engine's minimum (§6.6)


class Doomhammer(Unit):
    id = ID
    kind = "relic"
    section = "§10.2"
    turn_fields = (USED_FIELD,)
    event_specs = (
        EventSpec(
            ID,
            "the Doomhammer was used: its owner paid the region's occupant (or the stash) 2 VC",
            (
                seat_field(),
                region_field(),
                Field("payee", FieldType.SEAT, "who was paid (null: the stash)", nullable=True),
                Field("paid", FieldType.INT, "coins paid"),
            ),
        ),
    )

    def conquest_options(self, st: State, seat: int, region: int) -> Iterable[str]:
        if used(st, ID):
            return ()
        # asked for every target of a listing: the listing's own Attack when it holds
        if not (conquest.targets(st, conquest.current_attack(st, seat)) >> region) & 1:
            return ()
        dues = sum(d[1] for d in conquest.payments(st, seat, region)) if st.race[region] else 0
        return (ID,) if st.seats[seat].coins >= PRICE + dues else ()

    def explain(self, st: State, action: Action) -> Why | None:
        if not has_option(action.arg if isinstance(action.arg, str) else None, ID):
            return None
        if used(st, ID):
            return self.why("§10.2", "the Doomhammer has already been used this turn", "used")
        return self.why(
            "§6.7",
            f"the Doomhammer needs {PRICE} VC for the occupant, plus any other dues, first",
            "unpaid",
            coins=PRICE,
        )

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        return EVERYTHING if has_option(option, ID) else 0

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        if not has_option(option, ID):
            return
        use(st, ID)
        payee = st.owner_seat(st.race[region])  # None: the stash (empty region, Murlocs)
        paid = st.pay(seat, payee, PRICE)
        st.event("payment", seat=seat, payee=payee, coins=paid, why=ID)
        st.event(ID, seat=seat, region=region, payee=payee, paid=paid)

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        if has_option(info.option, ID):
            st.move_marker(ID, info.region)


UNIT = Doomhammer()
