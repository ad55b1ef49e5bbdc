"""Sorcerers (§7, CL-AMB-08): once per turn per opponent, conquer a region by replacing that
opponent's lone Active token with a Sorcerer token from the tray (`convert REGION`).

The region must be adjacent to a Sorcerer region (never a first conquest), not immune, and hold a
single token of the opponent's Active race; Troll Lairs, Fortresses and Mountains do not protect it,
an Encampment does (a piece that adds defence and stays when its region is conquered). It needs a
Sorcerer token in the tray and at least 1 token in hand, which is not used. The replaced token goes
to the tray (an Elf too); nothing is withdrawn. It is a conquest of a non-empty region for every
purpose (Orcs, Pillaging, Skeletons, the Diplomat) and removes the region's Lair or Fortress.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import ActionSpec, EventSpec, Field, FieldType, region_field, seat_field
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

CONVERT = "convert"


def _protected(st: State, region: int) -> bool:
    """An Encampment counts as a token (§7): a defending piece that stays when the region falls."""
    pieces = st.pieces[region]
    if not pieces:
        return False
    kinds = st.game.pieces
    return any(n and kinds[k].defense and not kinds[k].removed_on_conquest for k, n in pieces.items())


class Sorcerers(Unit):
    id = "sorcerers"
    kind = "race"
    section = "§7"
    action_specs = (
        ActionSpec(CONVERT, "replace a lone Active enemy token with a Sorcerer", region=True, conquest=True),
    )
    turn_fields = (Field("converted", FieldType.SEATS, "opponents converted this turn", optional=True),)
    event_specs = (
        EventSpec(
            "conversion",
            "the Sorcerers replaced a lone enemy token",
            (seat_field(), region_field(), Field("race", FieldType.UNIT, "the race replaced")),
        ),
    )

    def why_not(self, st: State, seat: int, region: int) -> Why | None:
        """The one answer to "may the Sorcerers convert `region` now" (listing and errors)."""
        if st.seats[seat].active != self.id or not conquest.conquests_open(st, seat) or st.turn.race:
            return self.why("§7", "conversions happen during the Sorcerers' conquests", "convert_when")
        if st.seats[seat].hand < 1:
            return self.why(
                "§7", "a conversion needs at least 1 token in hand (§5.2, CL-AMB-08)", "convert_token"
            )
        if st.tray[self.id] < 1:
            return self.why("§7", "no Sorcerer token is left in the tray (§1)", "convert_tray")
        own = st.occupied_mask(self.id)
        if not (st.game.map.adj[region] & own):
            return self.why(
                "§7",
                "the region must be adjacent to a Sorcerer region (never a first conquest)",
                "convert_adjacent",
            )
        race = st.race[region]
        owner = st.owner_seat(race)
        if race is None or owner is None or owner == seat or st.seats[owner].active != race:
            return self.why(
                "§7", "only a token of an opponent's Active race may be converted", "convert_opponent"
            )
        if st.tokens[region] != 1 or _protected(st, region):
            return self.why(
                "§7",
                "the token must be alone in its region (an Encampment counts as a token)",
                "convert_alone",
            )
        att = conquest.Attack(st, seat)
        if (st.immune >> region) & 1 or (att.shield >> region) & 1:
            return self.why(
                "§7",
                "the region is immune (§6, CL-AMB-30) or at peace with the Sorcerers (Diplomat)",
                "convert_immune",
            )
        if owner in st.turn.data.get(self.id, {}).get("converted", []):
            return self.why("§7", "one conversion per opponent per turn", "convert_once")
        return None

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if (
            st.seats[seat].active != self.id
            or st.seats[seat].hand < 1
            or not conquest.conquests_open(st, seat)
        ):
            return []
        near = st.game.map.adjacent_to(st.occupied_mask(self.id))
        return [Action(CONVERT, r) for r in bits(near) if self.why_not(st, seat, r) is None]

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        r = action.region
        assert r is not None
        race = st.race[r]
        assert race is not None
        owner = st.owner_seat(race)
        att = conquest.Attack(st, seat)
        conquest.declare(st, att, r, None)  # an attack, for the Diplomat (CL-AMB-09)
        st.tray[race] += 1
        st.set_region(r, self.id, 1)
        st.tray[self.id] -= 1
        st.clear_pieces(r, "removed_on_conquest")
        data = st.turn_data(self.id)
        data["converted"] = sorted({*data.get("converted", []), owner})
        st.event("conversion", seat=seat, region=r, race=race)
        info = ConquestInfo(
            region=r, attacker=seat, defender_race=race, defender_seat=owner, defender_tokens=1,
            was_nonempty=True, own_declined=False, lost=1,
        )  # fmt: skip
        conquest.finish(st, seat, info)

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind != CONVERT or action.region is None:
            return None
        return self.why_not(st, st.acting_seat, action.region) or self.why(
            "§7", "not possible now", "convert_not_now"
        )


UNIT = Sorcerers()
