"""The engine's fast paths give exactly what their plain definitions give (issue 15: speed without
changing any game). `conquest.listing` lists what `conquest.judge` allows of every target and option
(§6.5-§6.10); `State.units` / `State.hook_units`, cached per races and powers, are the seat's units
as §3 and the hook rules define them, in the same order."""

from __future__ import annotations

import random

import pytest

from smallworld.bots.greedy import light_action
from smallworld.engine import Game, Settings
from smallworld.engine.flow import turn as flow
from smallworld.engine.flow.turn import apply_unchecked, conquest_actions, legal_actions
from smallworld.engine.model import derived
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.state import Phase, State
from smallworld.engine.rules import conquest


def _listing_by_judge(st: State, att: conquest.Attack, hand: int) -> list[Action]:
    """The reference: every target and option judged one at a time."""
    coins = st.seats[att.seat].coins
    defended = conquest.defended_mask(st, att.seat)
    out = []
    for r in bits(conquest.targets(st, att)):
        for opt in conquest.options(st, att, r):
            k = conquest.judge(st, att, r, opt, hand, coins, defended)
            if k in ("conquer", "final"):
                out.append(Action(k, r, opt))
    return out


def _units_by_definition(st: State, seat: int) -> list[Unit]:
    """The reference: the hook rule worked out from scratch (`derived.rebuild`, no table read)."""
    units: list[Unit] = derived.rebuild(st)["seats"][seat]["units"]
    return units


def _random_states(players: int, seed: int, every: int = 3, games: int = 3) -> list[State]:
    """Copies of about one state in `every` of `games` random games."""
    out = []
    for g in range(games):
        st = Game(Settings(players=players, seed=seed + 100 * g)).new_initial_state()
        rnd = random.Random(seed + g)
        while not st.is_over():
            if rnd.randrange(every) == 0:
                out.append(st.clone())
            la = legal_actions(st)
            apply_unchecked(st, la[rnd.randrange(len(la))])
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_conquest_listing_is_what_judge_allows(players: int, seed: int) -> None:
    checked = 0
    for st in _random_states(players, seed):
        if st.phase != Phase.CONQUER or st.pending or st.turn.done:
            continue
        seat = st.acting_seat
        hand = conquest.available(st, seat)
        if hand <= 0:
            continue
        att = conquest.Attack(st, seat)
        fast = conquest.listing(st, att, hand, st.seats[seat].coins, conquest.defended_mask(st, seat))
        assert fast == _listing_by_judge(st, att, hand)
        checked += 1
    assert checked > 10  # the games reached enough conquest steps to mean something


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 6), (5, 7)])
def test_cached_units_are_the_units_by_definition(players: int, seed: int) -> None:
    markers_up = 0
    for st in _random_states(players, seed, every=2):
        game = st.game
        for seat in range(players):
            want = _units_by_definition(st, seat)
            assert st.units(seat) == want
            for hook in ("defender_payments", "cost_reduction", "score", "turn_end", "on_conquest"):
                assert list(st.hook_units(seat, hook)) == derived.hook_list(want, hook)
            markers_up += sum(1 for u in want if u.kind == "relic")
        assert game.units_hooked(st.units(0))["score"] == derived.hook_list(st.units(0), "score")
    assert markers_up > 0  # some face-up marker counted for its seat: the marker part was checked


def test_a_replaced_unit_is_seen_at_once() -> None:
    """`Game.set_unit` empties the caches: the seat's units are the new one from then on."""
    st = _random_states(3, 8, games=1)[-1]
    game = st.game
    race = next(s.active for s in st.seats if s.active)
    seat = next(i for i, s in enumerate(st.seats) if s.active == race)
    before = st.units(seat)
    replacement = type(game.units[race])()
    game.set_unit(race, replacement)
    after = st.units(seat)
    assert replacement in after and game.units[race] is replacement
    assert len(after) == len(before)


def test_the_table_a_seat_keeps_follows_its_races_and_powers() -> None:
    """`Seat.hooked` is looked up again when the seat's race or power changes, even by hand (a
    position edited in a test), and a clone's seat may keep it (the tables belong to the game)."""
    st = _random_states(3, 8, games=1)[-1]
    seat = next(i for i, s in enumerate(st.seats) if s.active and s.power)
    game = st.game
    st.units(seat)  # the seat keeps its table now
    other = next(p for p in game.edition.powers if p != st.seats[seat].power)
    st.seats[seat].power = other
    assert game.units[other] in st.units(seat)
    assert st.hook_units(seat, "score") == derived.hook_list(st.units(seat), "score")
    twin = st.clone()
    twin.seats[seat].active = None
    assert st.seats[seat].active is not None and game.units[st.seats[seat].active] in st.units(seat)
    assert all(u.kind != "race" for u in twin.units(seat))


def test_rollout_conquest_choice_is_the_cheapest_of_the_whole_legal_list() -> None:
    """`light_action` picks among `conquest_actions` alone: the same conquest, with the same random
    draws, as the cheapest conquest of the whole legal list (its documented rule)."""
    checked = 0
    for st in _random_states(3, 9):
        if st.phase != Phase.CONQUER or st.pending:
            continue
        legal = legal_actions(st)
        conquests = [a for a in legal if a.kind == "conquer"]
        if not conquests:
            continue
        assert conquest_actions(st) == legal[: len(conquest_actions(st))]
        ref = random.Random(checked)
        terrain = st.game.map.defence
        costs = [st.tokens[a.region] + st.defense[a.region] + terrain[a.region] for a in conquests]
        keyed = [c + ref.random() for c in costs]
        want = conquests[keyed.index(min(keyed))]
        rng = random.Random(checked)
        assert light_action(st, rng) == want
        assert rng.random() == ref.random()  # as many draws as the reference made
        checked += 1
    assert checked > 10


def test_a_conquest_applied_after_its_listing_is_the_conquest_of_a_fresh_state() -> None:
    """`flow._declare` reuses the context of the listing just made (issue 15); a state listed and a
    copy never listed end the same after the same conquest, and a state changed by hand between
    the listing and the apply (a region of the attacker's taken away) is judged afresh (§6.5-§6.6)."""
    checked = changed = 0
    for st in _random_states(3, 11):
        if st.phase != Phase.CONQUER or st.pending:
            continue
        fresh = st.clone()
        legal = legal_actions(st)
        conquests = [a for a in legal if a.kind in ("conquer", "final")]
        if not conquests:
            continue
        a = conquests[-1]
        apply_unchecked(st, a)
        apply_unchecked(fresh, a)
        assert st.to_json() == fresh.to_json()
        checked += 1
    for st in _random_states(3, 12):
        if st.phase != Phase.CONQUER or st.pending:
            continue
        seat = st.acting_seat
        race = conquest.conquering_race(st, seat)
        own = list(bits(st.occupied_mask(race)))
        a = next((a for a in legal_actions(st) if a.kind == "conquer"), None)
        if len(own) < 2 or a is None:
            continue
        st.set_region(own[0], None, 0)  # by hand, after the listing: its context no longer holds
        st.ply += 1  # as `apply_unchecked` does before it declares the conquest
        att = flow._declare(st, a)[0]
        assert att.own == conquest.Attack(st, seat).own == st.occupied_mask(race)
        changed += 1
    assert checked > 10 and changed > 3
