"""Invariants every reachable state keeps (§1.2 tray limits, §1.3 coins, §4 one race per region).

`check_invariants(st)` raises AssertionError naming what broke; the property tests call it after
every action, and researchers can call it on states their own code builds.
"""

from __future__ import annotations

from smallworld.engine.model import derived
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.state import State
from smallworld.engine.rules.losses import badge_kept


def check_invariants(st: State) -> None:
    """§1.2 tray limits, §1.3 coins, one race per region, a decision for the seat to move."""
    game = st.game
    on_board: dict[str, int] = {}
    for r, race in enumerate(st.race):
        if race is None:
            assert st.tokens[r] == 0, f"region {r} has tokens but no race"
            continue
        on_board[race] = on_board.get(race, 0) + st.tokens[r]
        assert st.tokens[r] >= 1 or st.pieces[r], f"region {r} is held by {race} with nothing in it"
        owned = race == game.natives or st.owner_seat(race) is not None
        assert owned, f"{race} in region {r} belongs to nobody"
        assert (st.race_mask[race] >> r) & 1, "race_mask out of step"
    for race, size in game.tray_size.items():
        hand = sum(n for i in range(len(st.seats)) for r, n in st.hands(i) if r == race)
        total = on_board.get(race, 0) + hand + st.tray[race]
        if race == game.natives:
            assert total <= size, "more Murlocs than the box holds"
        else:
            assert total == size, f"{race}: {total} tokens accounted for, tray holds {size}"
        assert st.tray[race] >= 0
    seen: set[str] = set()
    for s in st.seats:
        assert s.coins >= 0, "negative coins"
        for race in (s.active, s.declined):
            if race:
                assert race not in seen, f"{race} held twice"
                seen.add(race)
        assert s.hand >= 0
    visible = {c[0] for c in st.row} | set(st.race_stack)
    if st.offer is not None:  # team variant: the faction columns and their stacks (§11.2)
        visible |= {race for key, items in st.offer.items() if key != "powers" for race in items}
    assert not (visible & seen), "a banner in play is also on offer"
    for s in st.seats:  # AMB-65: a badge kept beside its In-Decline banner is not in the discards
        kept = [p for _r, p in [(s.declined, s.declined_power), *s.more_declined] if badge_kept(st, p)]
        assert not set(kept) & set(st.power_discard), "a badge kept beside its banner is also discarded"
    for _field, problem in banner_and_badge_problems(st):
        raise AssertionError(problem)
    for k, left in st.supply.items():
        assert left >= 0, f"supply of {k} negative"
    for kind, piece in game.pieces.items():
        placed = sum((p or {}).get(kind, 0) for p in st.pieces)
        held = sum(s.held.get(kind, 0) for s in st.seats)
        total = placed + held + st.supply.get(kind, 0)
        assert total == piece.supply, f"{kind}: {total} pieces accounted for, the box holds {piece.supply}"
    if st.phase in ("pick", "start"):
        for s in st.seats:
            if s.active:
                for r in bits(st.occupied_mask(s.active)):
                    units = st.tokens[r] + sum(st.troops_in(r).values())
                    assert units >= st.min_per_region(s.active), f"region {r} below its minimum"
    seen_markers = [m[0] for here in st.markers.values() for m in here] + list(st.spare_markers)
    assert len(seen_markers) == len(set(seen_markers)), "a marker is in two places"
    assert set(seen_markers) <= set(game.relics), "an unknown marker"
    derived.check(st)  # every derived index the state and its game keep is its rebuild from scratch
    if st.is_over():
        assert st.legal_actions() == []
        assert st.result is not None
    else:
        assert st.legal_actions(), f"seat {st.acting_seat} has no legal action in phase {st.phase}"


def banner_and_badge_places(st: State) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Where each banner and each badge lies, as the fields of the JSON form that hold it: the row,
    the stacks, the discards, a variant's offer, a seat's Active combo, its In-Decline banners and
    the badges kept beside them (AMB-65, classic Spirit). The badge of an In-Decline race whose
    badge was discarded is not there any more: it lies in the discards or went back into play."""
    banners: dict[str, list[str]] = {}
    badges: dict[str, list[str]] = {}

    def put(where: dict[str, list[str]], uid: str | None, field: str) -> None:
        if uid is not None:
            where.setdefault(uid, []).append(field)

    for i, (race, power, _coins) in enumerate(st.row):
        put(banners, race, f"position.row[{i}].race")
        put(badges, power, f"position.row[{i}].power")
    for i, race in enumerate(st.race_stack):
        put(banners, race, f"position.race_stack[{i}]")
    for i, power in enumerate(st.power_stack):
        put(badges, power, f"position.power_stack[{i}]")
    for i, power in enumerate(st.power_discard):
        put(badges, power, f"position.power_discard[{i}]")
    for key, items in (st.offer or {}).items():
        for i, uid in enumerate(items):
            put(badges if uid in st.game.power_value else banners, uid, f"position.offer.{key}[{i}]")
    for i, s in enumerate(st.seats):
        where = f"position.seats[{i}]"
        put(banners, s.active, f"{where}.active")
        put(badges, s.power, f"{where}.power")
        put(banners, s.declined, f"{where}.declined")
        if badge_kept(st, s.declined_power):
            put(badges, s.declined_power, f"{where}.declined_power")
        for k, (race, power) in enumerate(s.more_declined):
            put(banners, race, f"{where}.more_declined[{k}].race")
            if badge_kept(st, power):
                put(badges, power, f"{where}.more_declined[{k}].power")
    return banners, badges


def banner_and_badge_problems(st: State) -> list[tuple[str, str]]:
    """(field, message) for each banner or badge of the game that is not in exactly one place
    (`banner_and_badge_places`); the banners a variant leaves in the box are in none."""
    game = st.game
    banners, badges = banner_and_badge_places(st)
    boxed = game.variant.banners_in_the_box(game)
    out: list[tuple[str, str]] = []
    for what, places, pool in (("banner", banners, game.race_pool), ("badge", badges, game.power_pool)):
        for uid in pool:
            here = places.get(uid, [])
            want = 0 if what == "banner" and uid in boxed else 1
            if len(here) > want:
                out.append((here[-1], f"the {what} {uid} is in {len(here)} places: {', '.join(here)}"))
            elif len(here) < want:
                stack = "position.race_stack" if what == "banner" else "position.power_stack"
                out.append((stack, f"the {what} {uid} is nowhere (neither on offer nor in play)"))
        key = "races" if what == "banner" else "powers"
        for uid, here in sorted(places.items()):
            if uid not in pool:
                out.append((here[0], f"the {what} {uid} is not one of this game's (settings.{key})"))
    return out
