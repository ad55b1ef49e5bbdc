"""`flow.is_legal` (the legality of one action, worked out for it alone) gives the same answer as
membership in `legal_actions` on every action of random games, legal ones and a sample of illegal
ones made by changing a legal action (its kind, region or argument), and a checked `apply`, which
asks `is_legal`, plays the same games as the listing and `apply_unchecked`."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from smallworld.engine import Action, Game, Settings, State
from smallworld.engine.flow.turn import apply_unchecked, is_legal, legal_actions
from smallworld.engine.model.actions import Kind
from smallworld.engine.model.errors import MalformedActionError
from smallworld.engine.model.protocol import check_action


def _mutations(st: State, a: Action, rnd: random.Random) -> Iterator[Action]:
    """Actions near a legal one: another region, another argument, another kind."""
    game = st.game
    n = game.map.n
    kinds = list(game.action_specs)
    args = [None, "all", 0, 1, 2, *sorted(game.pieces)]
    args += [o for u in game.units.values() for spec in u.action_specs for o in spec.choices]
    args += sorted(game.tables.hooked["conquest_options"])
    if a.region is not None:
        yield a._replace(region=(a.region + 1) % n)
        yield a._replace(region=rnd.randrange(n))
        yield a._replace(region=None)
    else:
        yield a._replace(region=rnd.randrange(n))
    yield a._replace(arg=rnd.choice(args))
    for _ in range(3):
        yield a._replace(kind=rnd.choice(kinds))
    yield Action(rnd.choice(kinds), rnd.choice([None, rnd.randrange(n)]), rnd.choice(args))


def _games(edition: str, players: int, seed: int, games: int) -> Iterator[tuple[State, list[Action]]]:
    for g in range(games):
        st = Game(Settings(players=players, seed=seed + g, edition=edition)).new_initial_state()
        rnd = random.Random(seed * 31 + g)
        while not st.is_over():
            legal = legal_actions(st)
            yield st, legal
            apply_unchecked(st, legal[rnd.randrange(len(legal))])


@pytest.mark.parametrize(
    ("edition", "players", "seed"),
    [("warcraft", 2, 1), ("warcraft", 3, 2), ("warcraft", 5, 3), ("classic", 2, 4), ("classic", 4, 5)],
)
def test_is_legal_answers_as_the_list(edition: str, players: int, seed: int) -> None:
    rnd = random.Random(seed)
    legal_seen = illegal_seen = 0
    kinds: set[str] = set()
    for st, legal in _games(edition, players, seed, 2):
        listed = set(legal)
        for a in legal:
            assert is_legal(st, a), (st.phase, a)
            legal_seen += 1
            kinds.add(a.kind)
        for a in legal if len(legal) <= 6 else rnd.sample(legal, 6):
            for m in _mutations(st, a, rnd):
                try:
                    m = check_action(st.game, m)
                except MalformedActionError:
                    assert not st.is_legal(m)
                    continue
                assert is_legal(st, m) == (m in listed), (st.phase, m, legal)
                assert st.is_legal(m) == (m in listed)
                illegal_seen += m not in listed
    assert legal_seen > 1000 and illegal_seen > 1000
    assert {"conquer", "deploy", "end", "pick", "decline"} <= kinds
    assert len(kinds - set(Kind)) >= 2  # units' own actions (Airborne, Portal, Berserk, ...)


@pytest.mark.parametrize(
    ("edition", "players", "seed"), [("warcraft", 3, 11), ("warcraft", 4, 12), ("classic", 3, 13)]
)
def test_a_checked_apply_plays_the_games_of_the_listing(edition: str, players: int, seed: int) -> None:
    """`apply` checks with `is_legal` (and keeps its conquest's context as a listing does): the same
    games, state for state, as the listing and `apply_unchecked`."""
    settings = Settings(players=players, seed=seed, edition=edition)
    listed, checked = Game(settings).new_initial_state(), Game(settings).new_initial_state()
    rnd = random.Random(seed)
    while not listed.is_over():
        legal = legal_actions(listed)
        a = legal[rnd.randrange(len(legal))]
        apply_unchecked(listed, a)
        checked.apply(a, seat=checked.acting_seat)
        assert checked.to_json() == listed.to_json()
