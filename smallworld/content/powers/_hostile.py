"""Shared by the powers that act on other players' regions without conquering them (Intimidating
§9.13, Portal Mage §9.17): the payments such an effect needs (§6.7) and the Pandaren's record of it.

§6.7 charges a hostile effect the Aegis of Aggramar's 2 VC (AMB-19) and the Harmony 2 VC (AMB-10),
but the Marshdweller's toll only "before conquering" a Swamp (§9.14), so that toll is left out here.
The registry skips this module (its name starts with "_").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.content.races.pandaren import ATTACKED as PANDAREN_ATTACKED
from smallworld.content.races.pandaren import UNIT as PANDAREN_UNIT
from smallworld.engine import conquest

if TYPE_CHECKING:
    from smallworld.engine.state import State

Due = tuple[int | None, int, str]

# Units whose `defender_payments` are tolls on conquests only (§9.14: "before conquering").
CONQUEST_ONLY_DUES = frozenset({"marshdweller"})


def dues(st: State, actor: int, region: int) -> list[Due]:
    """Coins `actor` must pay before a hostile effect on `region` (§6.7): (payee, VC, why)."""
    owner = st.owner_seat(st.race[region])
    if owner is None or owner == actor:
        return []
    out: list[Due] = []
    game = st.game
    for u in st.units(owner):
        if u.id not in CONQUEST_ONLY_DUES and game.overrides(u, "defender_payments"):
            out.extend(u.defender_payments(st, actor, region, owner))
    return out


def dues_for(st: State, actor: int, regions: list[int]) -> list[Due]:
    """The dues of one effect on several regions: a due asked twice by the same payee for the same
    reason is paid once (Harmony is paid once per turn, §6.7)."""
    out: list[Due] = []
    seen: set[tuple[int | None, str]] = set()
    for r in regions:
        for payee, amount, why in dues(st, actor, r):
            if (payee, why) not in seen:
                seen.add((payee, why))
                out.append((payee, amount, why))
    return out


def affordable(st: State, actor: int, regions: list[int]) -> bool:
    return sum(d[1] for d in dues_for(st, actor, regions)) <= st.seats[actor].coins


def pay(st: State, actor: int, region: int) -> None:
    """Pay the dues of a hostile effect on `region` and tell the defenders' units (Harmony notes it
    was paid this turn), as `conquest.pay_dues` does for a conquest."""
    due = dues(st, actor, region)
    if not due:
        return
    conquest.pay_all(st, actor, due)
    owner = st.owner_seat(st.race[region])
    if owner is None:
        return
    game = st.game
    for u in st.units(owner):
        if game.overrides(u, "dues_paid"):
            u.dues_paid(st, actor, region, owner)


def note_attack(st: State, actor: int, region: int) -> None:
    """An Active Pandaren forcing a token of another player's Active race out of its region has
    attacked that player: no Harmony token for them at the end of the turn (AMB-10)."""
    if st.seats[actor].active != PANDAREN_UNIT.id:
        return
    race = st.race[region]
    target = st.owner_seat(race)
    if target is None or target == actor or st.seats[target].active != race:
        return
    # A fresh list: turn data is copied shallowly when states are cloned.
    st.turn.data[PANDAREN_ATTACKED] = sorted({*st.turn.data.get(PANDAREN_ATTACKED, ()), target})
