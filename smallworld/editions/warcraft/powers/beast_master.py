"""Beast Master (§9.3, §6.1 step 5, AMB-25, AMB-46, AMB-12): Beasts, one per Hill region.

* At the start of each of its turns when expanding, and right after picking (§6.1 step 5), the race
  discards every Beast (board and hand; a region held only by Beasts is emptied, AMB-25), then takes
  into hand 1 Beast per Hill region it controls, at most the 5 in the box (§1.1).
* A Beast is a troop piece (`engine.hooks.Piece`): it counts as a race token for "at least 1 token in
  hand" (§6.4), pays conquest costs after the race tokens (AMB-46), defends (+1 each, §6.6),
  occupies its region (§4), is readied and redeployed like a token (§6.2, §6.12) and is withdrawn
  when its region is conquered (§6.9); the engine does all of that from the piece's flags.
* When a region holding a Beast is conquered (or bombed, §8.7), one of its Beasts is discarded as the
  loss instead of a race token (`prevent_loss`, after the Chapel and the Champion and before Holy
  Light, AMB-12).
* Beasts leave when the race declines (the engine removes troops, AMB-25) and never count for the
  tie-break (§7, which counts race tokens only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Cause, Piece, Unit
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

BEAST = "beast"
SUPPLY = 5
# AMB-12 order of the loss exceptions: Chapel > Champion (20) > Beast > Holy Light (900) > normal.
LOSS_PRIORITY = 30


def discard_all(st: State, seat: int) -> None:
    """Every Beast of the seat back to the box; regions left with no occupant are emptied (AMB-25).
    A Tauren token left alone goes to hand, as it must leave its region at once (§8.14)."""
    s = st.seats[seat]
    race = s.active
    st.discard_held(seat, BEAST, s.held.get(BEAST, 0))
    keep = st.min_per_region(race)
    for r in bits(st.occupied_mask(race)):
        if not st.remove_piece(r, BEAST):
            continue
        occupants = st.tokens[r] + sum(st.troops_in(r).values())
        if occupants >= keep:
            continue
        s.hand += st.tokens[r]
        for kind, n in st.troops_in(r).items():
            st.lift_piece(r, seat, kind, n)
        st.set_region(r, None, 0)
        st.clear_pieces(r, "removed_when_emptied")


class BeastMaster(Unit):
    id = "beast_master"
    kind = "power"
    section = "§9.3"
    loss_priority = LOSS_PRIORITY
    loss_is_piece = True  # the Beast discarded instead of a token is a loss all the same (AMB-31)
    pieces = (
        Piece(BEAST, supply=SUPPLY, defense=1, occupies=True, troop=True, pays=True, displaceable=True),
    )
    event_specs = (
        EventSpec(
            "beasts",
            "the Beast Master's race took its Beasts for the turn",
            (seat_field(), Field("beasts", FieldType.INT, "Beasts taken into hand")),
        ),
    )

    def expand_start(self, st: State, seat: int) -> None:
        discard_all(st, seat)
        hills = st.game.map.terrain_mask.get("Hill", 0) & st.occupied_mask(st.seats[seat].active)
        n = min(hills.bit_count(), st.supply.get(BEAST, 0))
        if n:
            st.supply[BEAST] -= n
            held = st.seats[seat].held
            held[BEAST] = held.get(BEAST, 0) + n
        if n:
            st.event("beasts", seat=seat, beasts=n)

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        # Intimidating moves or discards the very token it takes: a Beast is no substitute there.
        if cause == Cause.TAKEN:
            return False
        return st.remove_piece(region, BEAST, 1) == 1


UNIT = BeastMaster()
