"""Going into decline (§6.16)."""

from __future__ import annotations

from smallworld.engine.model.board_map import bits
from smallworld.engine.model.state import State
from smallworld.engine.rules.losses import badge_kept, occupying_pieces, release_badge


def remove_race(st: State, race: str) -> None:
    """Take every token of `race` off the boards; emptied regions lose their pieces (§6.16 step 1)."""
    for r in bits(st.occupied_mask(race)):
        st.tray[race] += st.tokens[r]
        for kind, n in st.troops_in(r).items():
            st.remove_piece(r, kind, n)
        st.set_region(r, None, 0)
        st.clear_pieces(r, "removed_when_emptied")


def decline_slot(st: State, race: str | None, power: str | None) -> str | None:
    """The In-Decline slot a race takes: None for the usual one, or a unit's own (classic Spirit
    keeps its race beside the player's other In-Decline race)."""
    units = st.game.units
    for uid in (race, power):
        if uid and units[uid].decline_slot is not None:
            return units[uid].decline_slot
    return None


def go_into_decline(st: State, seat: int) -> None:
    s = st.seats[seat]
    game = st.game
    race, power = s.active, s.power
    assert race is not None and power is not None
    slot = decline_slot(st, race, power)
    # Step 1: the In-Decline race in the same slot leaves play (one per player, unless a unit gives
    # its race a slot of its own).
    staying: list[list[str | None]] = []
    for old, old_power in ([[s.declined, s.declined_power]] if s.declined else []) + s.more_declined:
        if decline_slot(st, old, old_power) == slot:
            assert old is not None
            remove_race(st, old)
            release_badge(st, old_power)  # a badge kept beside it goes now (AMB-65)
            st.event("left_play", race=old, seat=seat)
            st.return_banner(old)
        else:
            staying.append([old, old_power])
    s.declined = s.declined_power = None
    s.more_declined = staying
    for u in st.hook_units(seat, "on_decline"):  # step 4: units remove the pieces that stop working
        u.on_decline(st, seat)
    # Troops (Beasts, the Champion) never serve an In-Decline race (AMB-25, AMB-26).
    for r in bits(st.occupied_mask(race)):
        for kind, n in st.troops_in(r).items():
            st.remove_piece(r, kind, n)
    for kind in list(s.held):
        st.discard_held(seat, kind, s.held[kind])
    keep = game.units[race].decline_keep
    for r in bits(st.occupied_mask(race)):  # step 3
        n = st.tokens[r]
        k = min(n, keep)
        st.tray[race] += n - k
        if k == 0 and not occupying_pieces(st, r):
            st.set_region(r, None, 0)
            st.clear_pieces(r, "removed_when_emptied")
        else:
            st.tokens[r] = k
    st.tray[race] += s.hand
    s.hand = 0
    s.declined, s.declined_power = race, power  # step 2
    s.active = s.power = None
    if not badge_kept(st, power):  # step 2; a power still in effect keeps its badge (AMB-65)
        st.discard_badge(power)
    if not st.occupied_mask(race):  # nothing left on the map: the banner returns (§6.17)
        release_badge(st, power)
        s.declined = s.declined_power = None
        if s.more_declined:
            r0, p0 = s.more_declined.pop(0)
            s.declined, s.declined_power = r0, p0
        st.event("left_play", race=race, seat=seat)
        st.return_banner(race)
