"""Losses (§6.9): a region emptied of its defenders, a token lost, a region left empty, a race
leaving play. Every effect that takes tokens away (conquests, bombs, Intimidating) goes through
these, so the loss exceptions (`prevent_loss`, AMB-12) and the last-token rules apply alike."""

from __future__ import annotations

from smallworld.engine.model.hooks import ConquestInfo
from smallworld.engine.model.state import State


def occupying_pieces(st: State, region: int) -> int:
    """Pieces that stand for race tokens in `region` (Beasts, the Champion: §4, AMB-32)."""
    p = st.pieces[region]
    if not p:
        return 0
    kinds = st.game.pieces
    return sum(c for k, c in p.items() if k in kinds and kinds[k].occupies)


def occupants(st: State, region: int) -> int:
    """Race tokens and occupying pieces in `region`."""
    return st.tokens[region] + occupying_pieces(st, region)


def add_to_hand(st: State, seat: int, n: int) -> None:
    """Active-race tokens go back to their owner's hand; during the seat's own In-Decline phase the
    Active race's hand is set aside (`Turn.stash`), so they go there."""
    if st.turn.race is not None and seat == st.turn_seat:
        st.turn.stash += n
    else:
        st.seats[seat].hand += n


def note_withdrawn(st: State, owner: int) -> None:
    if owner not in st.turn.withdrawn:
        st.turn.withdrawn.append(owner)


def prevented_by(st: State, owner: int, region: int, cause: str) -> str | None:
    """Ask the owner's loss exceptions in their order (§6.9, AMB-12); the id of the unit that takes
    the loss instead of a race token, or None."""
    game = st.game
    spared: str | None = None
    hooked = st.seat_hooks(owner)
    if not hooked.lists["prevent_loss"] and not hooked.lists["loss_spared"]:
        return None  # the hot path: most seats have no loss exception at all
    for u in hooked.loss_order:
        if spared is None:
            if game.overrides(u, "prevent_loss") and u.prevent_loss(st, owner, region, cause):
                spared = u.id
        elif game.overrides(u, "loss_spared"):  # the order decides only who spares the token (AMB-61)
            u.loss_spared(st, owner, region, cause, spared)
    return spared


def badge_kept(st: State, power: str | None) -> bool:
    """Whether the badge of `power` stays beside its In-Decline banner (AMB-65, `declined_badge`;
    a unit whose own rules keep it, `badge_always_kept`: classic Spirit)."""
    if power is None:
        return False
    unit = st.game.units[power]
    return unit.badge_always_kept or (unit.badge_kept_in_decline and st.game.options.declined_badge == "kept")


def release_badge(st: State, power: str | None) -> None:
    """An In-Decline race leaves play: a badge kept beside its banner goes to the discard pile now
    (AMB-65); any other badge was discarded at the decline (§6.16 step 2)."""
    if badge_kept(st, power):
        assert power is not None
        st.discard_badge(power)


def leave_play_if_gone(st: State, race: str, owner: int | None) -> None:
    """An In-Decline race whose last token left the map leaves play (§6.17)."""
    if owner is None or st.race_mask.get(race):
        return
    s = st.seats[owner]
    if s.declined == race:
        release_badge(st, s.declined_power)
        s.declined = s.declined_power = None
        if s.more_declined:  # the next In-Decline race takes its place
            r, p = s.more_declined.pop(0)
            s.declined, s.declined_power = r, p
    elif any(r == race for r, _p in s.more_declined):
        for r, p in s.more_declined:
            if r == race:
                release_badge(st, p)
        s.more_declined = [x for x in s.more_declined if x[0] != race]
    else:
        return
    st.event("left_play", race=race, seat=owner)
    st.return_banner(race)


def region_emptied(st: State, region: int) -> None:
    """A region with no token or occupying piece left: nobody holds it, its pieces that need a
    holder go (§6.2), and an In-Decline race that held nothing else leaves play (§6.17)."""
    race = st.race[region]
    owner = st.owner_seat(race)
    st.set_region(region, None, 0)
    st.clear_pieces(region, "removed_when_emptied")
    if race is not None:
        leave_play_if_gone(st, race, owner)


def lose_token(st: State, region: int, cause: str) -> bool:
    """One race token of `region` is discarded by an effect other than a conquest (Intimidating):
    the owner's loss exceptions may save it to hand (withdrawn, §6.9). True when it was lost."""
    race = st.race[region]
    assert race is not None
    owner = st.owner_seat(race)
    if owner is not None and st.seats[owner].active == race and prevented_by(st, owner, region, cause):
        st.tokens[region] -= 1
        add_to_hand(st, owner, 1)
        note_withdrawn(st, owner)
        return False
    st.tokens[region] -= 1
    if race != st.game.natives:  # natives never come back (§6.9)
        st.tray[race] += 1
    return True


def remove_defenders(st: State, region: int, attacker: int | None, cause: str) -> ConquestInfo:
    """Empty `region` of its defenders with their losses (§6.9); returns what was there."""
    race = st.race[region]
    n = st.tokens[region]
    owner = st.owner_seat(race)
    held = occupying_pieces(st, region)
    info = ConquestInfo(
        region=region,
        attacker=attacker if attacker is not None else -1,
        defender_race=race,
        defender_seat=owner,
        defender_tokens=n + held,
        was_nonempty=race is not None or held > 0,
        own_declined=owner is not None and owner == attacker and st.seats[owner].active != race,
    )
    if race is None:
        st.clear_pieces(region, "removed_on_conquest")
        return info
    if race == st.game.natives:
        st.set_region(region, None, 0)  # natives never come back (§6.9)
        info.lost = n
    elif owner is not None and st.seats[owner].active == race:
        info.prevented = prevented_by(st, owner, region, cause)
        # Beasts and the Champion are withdrawn with the tokens (§9.3, §9.5) only now, so the loss
        # exceptions above saw which of them stood in this region (the hand may hold others).
        if held:
            for kind, k in st.troops_in(region).items():
                st.lift_piece(region, owner, kind, k)
        st.set_region(region, None, 0)
        add_to_hand(st, owner, n)
        in_hand = (
            st.turn.stash if (st.turn.race is not None and owner == st.turn_seat) else st.seats[owner].hand
        )
        if info.prevented is None and in_hand > 0:
            add_to_hand(st, owner, -1)
            st.tray[race] += 1
            info.lost = 1
        note_withdrawn(st, owner)
    else:
        st.set_region(region, None, 0)
        st.tray[race] += n
        info.lost = n
        leave_play_if_gone(st, race, owner)

    st.clear_pieces(region, "removed_on_conquest")
    return info
