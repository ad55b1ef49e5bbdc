"""Portal Mage (§9.17, §6.11, §10.1, AMB-16, AMB-36, AMB-19, AMB-10): swap two Magic regions.

Twice per turn, during the conquest step only (§6.11), `portal REF OTHER` (OTHER = the second region:
`SIDE:ID` in text, a flat index in the Action; the lower index comes first) swaps every piece between
two Magic regions of any boards, whoever holds them (AMB-16):

* What moves: race tokens of any player, Active or In Decline, Murlocs, Beasts, the Champion, Wisp
  Walls, Forts, bombs (the Goblin player's record of where each bomb lies follows it), Military
  Objectives and face-up Artifacts. Mountains (terrain) and Legendary Places stay, and so do
  face-down markers, which are revealed when an Active race's tokens arrive (§10.1).
* Control follows the tokens. It is not a conquest: no losses, no Faction Bonus, no per-conquest
  bonus (AMB-38).
* Not allowed when either region is immune (Watch Tower, §9.6, AMB-36). The Aegis (2 VC) and Harmony
  (2 VC, once per turn) are paid for the regions of other players (§6.7); the Marshdweller toll is for
  conquests only.
* Non-Naga tokens never end up in a Sea or Lake (§8.10).
* An Active Pandaren with this power that swaps a region of another player's Active race has
  attacked that player (AMB-10).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.model.protocol import ActionSpec, Arg, EventSpec, Field, FieldType, seat_field
from smallworld.engine.model.state import CONQUER
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "portal_mage"
PORTAL = "portal"
USES = 2


def _artifacts(st: State, region: int) -> list[str]:
    """The face-up Artifacts in `region`: they move with the pieces, unlike Legendary Places and
    face-down markers (AMB-16)."""
    relics = st.game.relics
    return [rid for rid, up in st.markers.get(region, ()) if up and relics[rid].group == "artifact"]


def _movable(st: State, region: int) -> bool:
    return st.race[region] is not None or bool(st.pieces[region]) or bool(_artifacts(st, region))


def _into_water(st: State, a: int, b: int) -> bool:
    """True when the swap would put non-Naga tokens in a Sea or Lake (§8.10): only a race whose unit
    `holds_water` may stand there (Murlocs have no unit)."""
    water = st.game.map.water
    units = st.game.units
    for src, dst in ((a, b), (b, a)):
        race = st.race[src]
        if race is not None and (water >> dst) & 1 and not (race in units and units[race].holds_water):
            return True
    return False


def _uses(st: State) -> int:
    return int(st.turn.data.get(ID, {}).get("uses", 0))


class PortalMage(Unit):
    id = "portal_mage"
    kind = "power"
    section = "§9.17"
    action_specs = (
        ActionSpec(
            PORTAL, "swap everything in two Magic regions (twice per turn)", region=True, args=(Arg.REGION,)
        ),
    )
    event_specs = (
        EventSpec(
            "portal",
            "two Magic regions swapped what they held",
            (seat_field(), Field("regions", FieldType.REGIONS, "the two regions")),
        ),
    )
    turn_fields = (Field("uses", FieldType.INT, "swaps made this turn", optional=True),)
    options = (
        OptionSpec(
            "portal_pairs",
            "any",
            "AMB-16 (§9.17): Portal Mage swaps any two Magic regions, or only pairs where one region is the "
            "Portal Mage race's own ('one_own').",
            choices=("any", "one_own"),
            unit="portal_mage",
        ),
    )

    def _ready(self, st: State, seat: int) -> bool:
        power = st.seats[seat].power
        return st.in_conquest_step(seat) and power == self.id and _uses(st) < USES

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if not self._ready(st, seat):
            return []
        magic = list(bits(st.game.map.feature("Magic") & ~st.immune))
        # Only where an owner's unit may ask dues is there anything to pay (asked once, not per pair).
        defended = conquest.defended_mask(st, seat)
        # Two empty regions never swap: only pairs with something to move are asked (`_why_not`).
        movable = [_movable(st, r) for r in magic]
        out = []
        for i, a in enumerate(magic):
            for j in range(i + 1, len(magic)):
                b = magic[j]
                if (movable[i] or movable[j]) and self._why_not(st, seat, a, b, defended) is None:
                    out.append(Action(PORTAL, a, b))
        return out

    def _why_not(self, st: State, seat: int, a: int, b: int, defended: int = -1) -> Why | None:
        """The one answer to "may these two regions be swapped now" (listing and errors).
        `defended`: `conquest.defended_mask` of the seat when known (every region may ask dues else)."""
        m = st.game.map
        magic = m.feature("Magic")
        if not ((magic >> a) & 1 and (magic >> b) & 1) or a == b:
            return self.why("§9.17", "both regions must be different Magic regions", "magic_only")
        if ((st.immune >> a) | (st.immune >> b)) & 1:
            return self.why("§9.6", "a Watch Tower region is immune to all powers", "immune_tower")
        if not (_movable(st, a) or _movable(st, b)):
            return self.why("§9.17", "nothing to swap between two empty regions", "both_empty")
        if _into_water(st, a, b):
            return self.why("§8.10", "only Naga tokens may end up in a Sea or Lake", "into_water")
        if a > b:
            return self.why("§9.17", "name the region with the lower index first", "order")
        own = st.occupied_mask(st.seats[seat].active)
        # AMB-16 option: one of the two regions must be the Portal Mage race's own.
        if st.game.options.portal_pairs == "one_own" and not ((own >> a) & 1 or (own >> b) & 1):
            return self.why(
                "§9.17", "with this game's rule option one of the two regions must be your own", "one_own"
            )
        if ((defended >> a) | (defended >> b)) & 1 and not conquest.can_affect(st, seat, [a, b]):
            return self.why("§6.7", "this swap requires paying first", "unpaid")
        return None

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        a, b = action.region, action.arg
        assert a is not None and isinstance(b, int)
        st.turn_data(ID)["uses"] = _uses(st) + 1
        for r in (a, b):
            conquest.hostile_effect(st, seat, r)  # Harmony asks only once: its units note the payment
        st.swap_regions(a, b)  # tokens, pieces and their tags (a bomb keeps its kind)
        moving = [(rid, b) for rid in _artifacts(st, a)] + [(rid, a) for rid in _artifacts(st, b)]
        for rid, dst in moving:
            st.move_marker(rid, dst)
        st.event("portal", seat=seat, regions=[a, b])
        for r in (a, b):
            race = st.race[r]
            owner = st.owner_seat(race)
            if owner is not None and st.seats[owner].active == race:
                st.reveal(r, owner)

    def explain(self, st: State, action: Action) -> Why | None:
        if action.kind != PORTAL:
            return None
        seat = st.acting_seat
        if st.seats[seat].power != self.id:
            return self.why("§9.17", "only a race with the Portal Mage power swaps regions", "not_yours")
        if not self._ready(st, seat):
            if _uses(st) >= USES and st.phase == CONQUER:
                return self.why("§9.17", "Portal Mage swaps at most twice per turn", "used_up", most=USES)
            return self.why("§6.11", "Portal Mage swaps only during your conquest step", "when")
        a, b = action.region, action.arg
        if a is None or not isinstance(b, int) or not 0 <= b < st.game.map.n:
            return self.why("§9.17", "a swap names two Magic regions: portal REF OTHER", "two_regions")
        return self._why_not(st, seat, a, b) or (
            self.why("§9.17", "this swap is not possible now", "not_now")
        )


UNIT = PortalMage()
