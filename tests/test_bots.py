"""Bots: legal play from views only, determinisation, MCTS budgets (docs/bots.md)."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from smallworld.bots import Bot, Determinizer, make_bot, public_game
from smallworld.bots.greedy import GreedyBot, active_tokens, value
from smallworld.engine import Action, Game, Settings, State, view_for
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.actions import DECLINE, EXPAND
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.hooks import Unit
from smallworld.sim import GameJob, play_game


class Spy(Bot):
    """Wraps a bot and checks what it is given at every decision."""

    def __init__(self, inner: Bot) -> None:
        super().__init__()
        self.inner = inner
        self.calls = 0

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        assert game.settings.seed == 0  # the public game: no seed to rebuild the shuffles from
        self.inner.start(game, seat)

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(view, dict) and not isinstance(view, State)
        assert "rng" not in view and "rolls" not in view
        assert view["viewer"] == self.seat
        for key in ("race_stack", "power_stack", "spare_markers"):
            assert set(view[key]) == {"count"}, key  # sizes only, never the order
        assert all(m["id"] is None for here in view["markers"].values() for m in here if not m["face_up"])
        if view["result"] is None:
            factions = view.get("factions")
            allies = (
                {i for i, f in enumerate(factions) if f == factions[self.seat]} if factions else {self.seat}
            )
            assert all(s["coins"] is None for i, s in enumerate(view["seats"]) if i not in allies)
        assert all(isinstance(a, Action) for a in legal)
        self.calls += 1
        a = self.inner.choose(view, legal, rng)
        assert a in legal
        return a


def _play(names: list[str], players: int, seed: int, variant: str = "standard", **opts: Any) -> State:
    game = Game(Settings(players=players, seed=seed, variant=variant))
    seen = public_game(game)
    bots = [
        Spy(make_bot(names[i % len(names)], **(opts if names[i % len(names)] == "mcts" else {})))
        for i in range(players)
    ]
    for seat, b in enumerate(bots):
        b.start(seen, seat)
    rngs = [random.Random(seed * 31 + seat) for seat in range(players)]
    st = game.new_initial_state()
    while not st.is_over():
        seat = st.acting_seat
        apply_unchecked(st, bots[seat].choose(view_for(st, seat), legal_actions(st), rngs[seat]))
    assert all(b.calls for b in bots)
    return st


def test_interface_takes_a_view_not_a_state() -> None:
    params = list(inspect.signature(Bot.choose).parameters)
    assert params == ["self", "view", "legal", "rng"]
    hints = inspect.get_annotations(Bot.choose)
    assert hints["view"] == "dict[str, Any]"


@pytest.mark.parametrize("variant", ["standard", "team"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_play_legal_games(players: int, variant: str) -> None:
    st = _play(["greedy", "random"], players, seed=players * 7 + (variant == "team"), variant=variant)
    assert st.result is not None and st.result["winners"]


@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "team")])
def test_mcts_plays_legal_games(players: int, variant: str) -> None:
    st = _play(["mcts", "greedy", "random"], players, seed=5, variant=variant, playouts=4)
    assert st.result is not None


def test_many_random_seeds_with_every_bot() -> None:
    """Every bot plays every seat count and both variants to the end with legal moves only (the
    runner refuses an illegal choice) and a result per seat."""
    for seed in range(6):
        players = 2 + seed % 4
        variant = "team" if seed % 2 else "standard"
        res = play_game(
            GameJob(seed, players, 100 + seed, ("greedy", "random", "mcts"), variant, {"playouts": 3})
        )
        assert len(res["scores"]) == players and res["winners"] and res["decisions"] > 10 * players
        assert {b for b in res["bots"]} == {"greedy", "random", "mcts"} or players == 2


def test_mcts_with_a_small_playout_budget_completes_a_two_player_game() -> None:
    res = play_game(GameJob(0, 2, 3, ("mcts", "greedy"), bot_options={"playouts": 20}))
    assert len(res["scores"]) == 2 and res["winners"]


def test_mcts_is_deterministic_given_seed_and_playouts() -> None:
    a = play_game(GameJob(0, 2, 9, ("mcts", "random"), bot_options={"playouts": 8}))
    b = play_game(GameJob(0, 2, 9, ("mcts", "random"), bot_options={"playouts": 8}))
    assert (a["scores"], a["picks"], a["decisions"]) == (b["scores"], b["picks"], b["decisions"])


def test_greedy_beats_random() -> None:
    wins = sum(0 in play_game(GameJob(i, 2, 40 + i, ("greedy", "random")))["winners"] for i in range(4))
    assert wins >= 3


def _midgame(seed: int, players: int = 3, variant: str = "standard", steps: int = 60) -> State:
    st = Game(Settings(players=players, seed=seed, variant=variant)).new_initial_state()
    rnd = random.Random(seed)
    for _ in range(steps):
        la = legal_actions(st)
        apply_unchecked(st, la[rnd.randrange(len(la))])
    return st


@pytest.mark.parametrize("variant", ["standard", "team"])
def test_determinisation_keeps_the_view_and_fills_the_hidden_parts(variant: str) -> None:
    st = _midgame(3, players=4, variant=variant)
    seat = st.acting_seat
    view = view_for(st, seat)
    game = public_game(st.game)
    d = Determinizer(view, game).sample(random.Random(1))
    assert d.acting_seat == seat and d.phase == st.phase and d.round == st.round
    assert d.race == st.race and d.tokens == st.tokens
    assert d.seats[seat].coins == st.seats[seat].coins
    assert all(s.coins is not None for s in d.seats)
    assert set(d.legal_actions()) == set(st.legal_actions())
    assert len(d.race_stack) == len(st.race_stack) and len(d.power_stack) == len(st.power_stack)
    if variant == "team":
        assert d.offer is not None and st.offer is not None
        assert {k: len(v) for k, v in d.offer.items()} == {k: len(v) for k, v in st.offer.items()}
    # The determinisation is itself a position that plays on to the end.
    rnd = random.Random(2)
    while not d.is_over():
        la = legal_actions(d)
        apply_unchecked(d, la[rnd.randrange(len(la))])


def test_determinisation_does_not_read_hidden_facts() -> None:
    st = _midgame(11)
    other = st.clone()
    # Change only what the acting seat cannot see: the stack orders, others' coins, the generator.
    other.race_stack.reverse()
    other.power_stack.reverse()
    for i, s in enumerate(other.seats):
        if i != st.acting_seat:
            s.coins += 17
    other.rng.state ^= 0xFFFF
    # ... and which relics lie face down where, or out of the game.
    face_down = [m for here in other.markers.values() for m in here if not m[1]]
    ids = [m[0] for m in face_down] + other.spare_markers
    ids.reverse()
    for m, rid in zip(face_down, ids, strict=False):
        m[0] = rid
    other.spare_markers = ids[len(face_down) :]
    assert other.to_json() != st.to_json()
    seat = st.acting_seat
    game = public_game(st.game)
    a = Determinizer(view_for(st, seat), game).sample(random.Random(5)).to_json()
    b = Determinizer(view_for(other, seat), game).sample(random.Random(5)).to_json()
    assert a == b


def test_value_prefers_more_regions() -> None:
    st = _midgame(2, players=2, steps=30)
    me = st.acting_seat
    better = st.clone()
    free = [r for r in range(st.game.map.n) if st.race[r] is None and not (st.game.map.water >> r) & 1]
    race = st.seats[me].active
    assert race is not None, "the fixed position must give the seat a race"
    better.set_region(free[0], race, 1)
    assert value(better, me) > value(st, me)


def _round_two_start(seed: int) -> State:
    """A 2-player game played at random up to the first seat that may decline in round 2."""
    st = Game(Settings(players=2, seed=seed)).new_initial_state()
    rnd = random.Random(seed)
    while not (st.round == 2 and Action(DECLINE) in legal_actions(st)):
        la = legal_actions(st)
        apply_unchecked(st, la[rnd.randrange(len(la))])
    return st


def _reshaped(st: State, round_: int, spare: int) -> State:
    """`st` with the acting seat's Active race cut to one token a region plus `spare` more in its first
    region (none in hand), in round `round_`."""
    me = st.acting_seat
    race = st.seats[me].active
    assert race is not None
    regions = list(bits(st.occupied_mask(race)))
    data = st.to_json()
    data["round"] = round_
    data["seats"][me]["hand"] = 0
    for r in regions:
        data["tray"][race] += st.tokens[r] - 1
        data["regions"][st.game.map.ref(r)]["tokens"] = 1
    data["regions"][st.game.map.ref(regions[0])]["tokens"] += spare
    data["tray"][race] -= spare
    return state_from_json(st.game, data)


def test_greedy_keeps_a_fresh_race_and_declines_a_spent_one() -> None:
    def choice(st: State) -> Action:
        return GreedyBot().decide(st.clone(), legal_actions(st), random.Random(0))

    st = _round_two_start(6)  # Kobolds + Farmer, 3 regions, round 2
    me = st.acting_seat
    assert st.seats[me].active == "kobolds" and st.occupied_mask("kobolds").bit_count() == 3
    # Five spare tokens and nine turns left: the race keeps expanding (the earlier rule declined).
    fresh = _reshaped(st, 2, 5)
    assert active_tokens(fresh, me) == 8 and choice(fresh) == Action(EXPAND)
    # No spare token in round 6: nothing it can conquer, while a fresh combo has five turns: decline.
    assert choice(_reshaped(st, 6, 0)) == Action(DECLINE)
    # ... but never on the last turn.
    assert choice(_reshaped(st, st.game.rounds, 0)) == Action(EXPAND)
    # A spent race in round 2 declines too, and a rich one in round 8 is kept.
    assert choice(_reshaped(st, 2, 0)) == Action(DECLINE)
    assert choice(_reshaped(st, 8, 6)) == Action(EXPAND)


def test_mcts_rollouts_decline_by_the_planning_model() -> None:
    from smallworld.bots.mcts import rollout_decline

    st = _round_two_start(6)
    me = st.acting_seat
    assert not rollout_decline(_reshaped(st, 2, 8), me)  # a rich race early keeps expanding
    assert rollout_decline(_reshaped(st, 2, 0), me)  # a spent race declines early ...
    assert rollout_decline(_reshaped(st, 6, 0), me)  # ... and mid-game
    assert not rollout_decline(_reshaped(st, st.game.rounds, 0), me)  # but never on the last turn


def test_mcts_rollout_policies_pick_and_decline_as_named() -> None:
    """`rollout_policy`: `light` picks the combo of most tokens, `picks` the combo greedy picks (each
    turn played out), and `greedy` also declines by greedy's plan; an unknown name is refused."""
    from smallworld.bots.greedy import combo_tokens, pick_by_playout, start_by_plan
    from smallworld.bots.mcts import MctsBot, rollout_action
    from smallworld.engine.model.actions import PICK

    st = Game(Settings(players=2, seed=5)).new_initial_state()
    legal = legal_actions(st)
    assert all(a.kind == PICK for a in legal) and len(legal) > 1
    richest = max(combo_tokens(st, st.acting_seat), key=lambda c: (c[1], -c[0]))[0]
    assert rollout_action(st.clone(), random.Random(0)) == Action(PICK, None, richest)
    greedy_pick = pick_by_playout(st.clone(), st.acting_seat, legal, random.Random(0))
    assert greedy_pick != Action(PICK, None, richest)  # on this deal the two rules differ
    for policy in ("picks", "greedy"):
        assert rollout_action(st.clone(), random.Random(0), policy) == greedy_pick
    spent = _reshaped(_round_two_start(6), 6, 0)
    me = spent.acting_seat
    planned = start_by_plan(spent.clone(), me, legal_actions(spent), random.Random(0))
    assert rollout_action(spent.clone(), random.Random(0), "greedy") == planned == Action(DECLINE)
    with pytest.raises(ValueError, match="rollout_policy"):
        MctsBot(rollout_policy="smart")


def test_mcts_root_includes_greedys_choice() -> None:
    from smallworld.bots.mcts import MctsBot

    st = _round_two_start(6)
    spent = _reshaped(st, 6, 0)
    game = public_game(spent.game)
    bot = MctsBot(playouts=12)
    bot.start(game, spent.acting_seat)
    legal = legal_actions(spent)
    a = bot.choose(view_for(spent, spent.acting_seat), legal, random.Random(0))
    assert a in legal and bot._prior == Action(DECLINE) and bot.last_iterations == 12


def test_mcts_tree_bias_favours_greedys_move_below_the_root() -> None:
    """`tree_bias`: below the root, each node asks greedy for its move once (on the first sample
    that selects there) and favours it by `tree_bias / (visits + 1)`; without it no node asks."""
    from smallworld.bots.mcts import MctsBot, Node

    st = _round_two_start(6)
    spent = _reshaped(st, 6, 0)
    game = public_game(spent.game)

    def asked(bias: float) -> list[Node]:
        bot = MctsBot(playouts=600, tree_bias=bias, reuse=False)
        bot.start(game, spent.acting_seat)
        bot.choose(view_for(spent, spent.acting_seat), legal_actions(spent), random.Random(3))
        assert bot.last_root is not None
        out, todo = [], list(bot.last_root.children.values())
        while todo:
            nd = todo.pop()
            todo += nd.children.values()
            if nd.prior is not None:
                out.append(nd)
        return out

    assert asked(0.0) == []
    nodes = asked(50.0)  # a bias no reward in [0, 1] outweighs
    assert nodes and all(nd.prior in nd.children for nd in nodes)
    busy = [nd for nd in nodes if nd.visits >= 30]
    assert busy
    for nd in busy:
        most = max(nd.children.values(), key=lambda c: c.visits)
        assert nd.children[nd.prior] is most


def test_mcts_pick_bank_saves_time_at_other_decisions_for_the_next_pick() -> None:
    """`pick_bank`: each searched decision other than a pick of a combo is given `seconds` less its
    share and saves the rest; a pick is given `seconds` and all that was saved since the last pick,
    and so is a decision of the game's last round (no pick may follow), which saves nothing. Over a
    game the searched decisions are given `seconds` each on average. The saved seconds go with the
    bot's memory (a resumed game keeps them)."""
    from smallworld.bots.mcts import MctsBot, _forced
    from smallworld.engine.model.state import PICK as P_PICK

    # The budgets asked along a greedy game (deterministic, unlike a game of timed searches), at
    # the decisions the search would search: more than one move, none of them a redeployment step.
    game = Game(Settings(players=2, seed=21))
    st = game.new_initial_state()
    bot, players = MctsBot(seconds=0.02, pick_bank=0.5), [GreedyBot(), GreedyBot()]
    bot.start(public_game(game), 0)
    for seat, p in enumerate(players):
        p.start(public_game(game), seat)
    rng = random.Random(0)
    given: list[tuple[str, float]] = []
    while not st.is_over():
        seat, legal = st.acting_seat, st.legal_actions()
        if seat == 0 and len(legal) > 1 and not _forced(st):
            last = st.round == game.rounds
            kind = "pick" if st.phase == P_PICK and not st.pending else "last" if last else "other"
            budget = bot._budget(st)
            assert budget is not None and bot.last_budget == budget
            given.append((kind, budget))
        st.apply(players[seat].choose(view_for(st, seat), legal, rng))
    kinds = [k for k, _ in given]
    assert kinds[0] == "pick" and kinds.count("pick") >= 2 and "last" in kinds
    saved = 0.0
    for kind, budget in given:
        if kind == "other":
            assert budget == pytest.approx(0.01)
            saved += 0.01
        else:
            assert budget == pytest.approx(0.02 + saved)
            saved = 0.0
    assert sum(b for _, b in given) == pytest.approx(0.02 * len(given))
    # The saved seconds are remembered, and only a share below 1 is taken.
    bot._bank = 0.07
    again = MctsBot(seconds=0.02, pick_bank=0.5)
    again.recall(bot.memory())
    assert again._bank == pytest.approx(0.07)
    with pytest.raises(ValueError, match="pick_bank"):
        MctsBot(seconds=1, pick_bank=1.0)


def test_greedy_picks_up_a_kept_champion_to_conquer_for_free() -> None:
    """§6.2, §9.5 (AMB-26): Knoll's single Tauren token and the Champion are its 2 after readying.
    One ply sees no gain in swapping a token from hand for the Champion, but the Champion in hand
    opens its free conquest: the greedy bot readies it (`ready`) and then conquers with it."""
    from pathlib import Path

    from smallworld import scenario

    where = Path(__file__).parent / "scenarios/powers/championing/trap_champion_kept_by_readying.json"
    st = scenario.run(scenario.load(where)).state  # after "expand"
    bot = GreedyBot()
    first = bot.decide(st, legal_actions(st), random.Random(1))
    assert first == Action("ready", 1, "champion")
    st.apply(first)
    second = bot.decide(st, legal_actions(st), random.Random(1))
    assert second.kind == "champion"


def test_mcts_keeps_its_tree_between_the_decisions_of_one_turn() -> None:
    """With `reuse`, the subtree under the move played is the next root when the next decision is
    the bot's own in the same turn at the expected ply; any other view starts a fresh tree."""
    from smallworld.bots.mcts import MctsBot

    game = Game(Settings(players=2, seed=20001))
    bot = MctsBot(playouts=40, reuse=True)
    bot.start(public_game(game), 0)
    other = GreedyBot()
    other.start(public_game(game), 1)
    rng = random.Random(3)
    st = game.new_initial_state()
    reused: list[int] = []
    while not st.is_over() and st.round <= 4:
        seat = st.acting_seat
        legal = legal_actions(st)
        if seat == 0:
            kept = bot._kept
            a = bot.choose(view_for(st, 0), legal, rng)
            if bot.last_reused:
                # Only a kept tree for this very ply is taken, and it carries its earlier playouts.
                assert kept is not None and kept[0] == st.ply
                reused.append(bot.last_reused)
        else:
            a = other.choose(view_for(st, 1), legal, rng)
        assert a in legal
        apply_unchecked(st, a)
    assert reused
    # A view at another ply than the one kept: a fresh tree.
    bot._kept = None
    legal = legal_actions(st)
    while len(legal) == 1 or st.acting_seat != 0:
        apply_unchecked(st, other.choose(view_for(st, st.acting_seat), legal, rng))
        legal = legal_actions(st)
    bot.choose(view_for(st, 0), legal, rng)
    if bot._kept is not None:
        ply, node = bot._kept
        bot._kept = (ply + 1000, node)
    bot.choose(view_for(st, 0), legal, rng)
    assert bot.last_reused == 0


def test_mcts_reuses_its_tree_only_with_a_time_budget_by_default() -> None:
    from smallworld.bots.mcts import MctsBot

    assert MctsBot(seconds=0.1).reuse and not MctsBot(playouts=10).reuse


def test_mcts_cutoff_reward_weighs_the_leader_by_cutoff_win() -> None:
    """At a rollout cut-off the leader counts as the winner with weight `cutoff_win`; 0 leaves the
    squashed margin alone (the two seats' rewards then add up to one)."""
    from smallworld.bots.mcts import WIN_WEIGHT, rewards

    st = _round_two_start(6)
    assert st.result is None
    margin_only = rewards(st, 0.0)
    assert abs(sum(margin_only) - 1.0) < 1e-9
    default = rewards(st)
    leader = max(range(2), key=lambda i: default[i])
    assert default[leader] - margin_only[leader] == pytest.approx(WIN_WEIGHT * (1 - margin_only[leader]))


def test_mcts_end_reward_weighs_the_win_by_win_weight_and_squashes_the_margin_by_scale() -> None:
    """At the end of a game the winner gets `win_weight`, and the margin to the best other score goes
    through a logistic of width `scale`: a wide scale keeps the reward from saturating when the
    determinised opponent's coins are far off (docs/bots.md)."""
    import math

    from smallworld.bots.mcts import rewards

    st = Game(Settings(players=2, seed=11)).new_initial_state()
    rnd = random.Random(11)
    while st.result is None:
        la = legal_actions(st)
        apply_unchecked(st, la[rnd.randrange(len(la))])
    scores = st.result["scores"]
    winners = set(st.result["winners"])
    for win_weight, scale in ((0.0, 30.0), (0.6, 8.0), (0.3, 15.0)):
        got = rewards(st, 0.0, win_weight, scale)
        for i in range(2):
            margin = 1 / (1 + math.exp(-(scores[i] - scores[1 - i]) / scale))
            assert got[i] == pytest.approx(win_weight * (i in winners) + (1 - win_weight) * margin)
    narrow, wide = rewards(st, 0.0, 0.0, 8.0), rewards(st, 0.0, 0.0, 30.0)
    assert scores[0] != scores[1]
    assert abs(wide[0] - 0.5) < abs(narrow[0] - 0.5)


def test_mcts_gain_reward_cancels_the_guessed_coins_of_the_others() -> None:
    """`gains`: each seat is rewarded by the margin of what it gained since the playout began, so
    two determinisations that differ only in the opponent's hidden coins (§1.3) give the same
    rewards, where the default's reward moves with the guess."""
    import math

    from smallworld.bots.mcts import MARGIN_SCALE, leaf_value, rewards

    st = _round_two_start(6)
    me, other = st.acting_seat, 1 - st.acting_seat
    got = []
    for coins in (80, 5):
        sample = st.clone()
        sample.seats[other].coins = coins
        base = [float(s.coins) for s in sample.seats]
        sample.seats[me].coins += 7  # what the playout earned this seat
        gained = [leaf_value(sample, i) - base[i] for i in range(2)]
        r = rewards(sample, base=base)
        assert r[me] == pytest.approx(1 / (1 + math.exp(-(gained[me] - gained[other]) / MARGIN_SCALE)))
        assert r[me] + r[other] == pytest.approx(1.0)  # no win counted: the margin alone
        got.append((r, rewards(sample)))
    (rich, rich_default), (poor, poor_default) = got
    assert rich == pytest.approx(poor)
    assert rich_default[me] < poor_default[me] - 0.3  # the default reward follows the guessed total


def test_mcts_deviates_from_greedy_only_on_a_sure_margin() -> None:
    """`deviate_z`: the most visited move replaces greedy's only when its mean reward beats greedy's
    by that many standard errors."""
    from smallworld.bots.mcts import MctsBot, Node

    def node(rewards: list[float]) -> Node:
        n = Node(0)
        n.visits, n.total, n.sq = len(rewards), sum(rewards), sum(x * x for x in rewards)
        return n

    best, prior = Action(DECLINE), Action(EXPAND)
    root = Node(-1)
    root.children = {best: node([0.6, 0.4] * 50), prior: node([0.55, 0.35] * 40)}
    # Means 0.5 and 0.45, standard error about 0.015: the gap is about 3.3 of them.
    assert MctsBot._sure(root, best, prior, 3.0) == best
    assert MctsBot._sure(root, best, prior, 4.0) == prior
    root.children[prior] = node([0.9, 0.0] * 40)  # the same mean as before, far noisier
    assert MctsBot._sure(root, best, prior, 1.0) == prior
    del root.children[prior]  # greedy's move never searched: nothing to weigh it by
    assert MctsBot._sure(root, best, prior, 1.0) == best


def test_mcts_pick_and_decline_have_their_own_margin() -> None:
    """`pick_z` and `decline_z` replace `deviate_z` at a pick of a combo (§3) and at the choice
    between declining and expanding (§5), and only there; unset, `deviate_z` holds everywhere."""
    from smallworld.bots.mcts import MctsBot

    bot = MctsBot(pick_z=0.0, decline_z=0.5, deviate_z=1.0)
    opening = Game(Settings(players=2, seed=1)).new_initial_state()
    start = _round_two_start(6)
    conquest = start.clone()
    apply_unchecked(conquest, Action(EXPAND))
    assert (opening.phase, start.phase, conquest.phase) == ("pick", "start", "conquer")
    assert [bot._deviate_z(st) for st in (opening, start, conquest)] == [0.0, 0.5, 1.0]
    assert [MctsBot()._deviate_z(st) for st in (opening, start, conquest)] == [1.0] * 3

    # At the opening pick of this deal the search's most visited combo is not greedy's: a margin
    # no mean can clear keeps greedy's, one every mean clears plays the search's.
    game = Game(Settings(players=2, seed=1))
    seat, legal = opening.acting_seat, legal_actions(opening)
    for z in (1e9, -1e9):
        mcts = make_bot("mcts", playouts=150, pick_z=z)
        mcts.start(game, seat)
        played = mcts.choose(view_for(opening, seat), legal, random.Random(1))
        root, greedy = mcts.last_root, mcts.greedy_choice
        assert root is not None
        top = max(root.children, key=lambda a: (root.children[a].visits, root.children[a].total))
        assert top != greedy
        assert played == (greedy if z > 0 else top)


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_bots_let_an_engine_bug_through(name: str) -> None:
    """A failure inside a bot's look-ahead that is no refusal of the engine reaches the caller instead
    of being judged as an action the determinisation cannot take. The bug is planted in the bot's
    own copy of the game: the picked race's unit is swapped for a double (an interpreted `Unit`
    subclass, so the compiled build takes it too) that fails whenever it conquers."""
    game = Game(Settings(players=2, seed=3))
    st = game.new_initial_state()
    apply_unchecked(st, legal_actions(st)[0])  # the opening pick: the seat now conquers
    seat = st.acting_seat
    race = st.seats[seat].active
    assert race is not None and st.phase == "conquer"
    legal = legal_actions(st)
    assert sum(a.kind == "conquer" for a in legal) > 1

    def conquered(self: Unit, st: State, seat: int, info: Any) -> None:
        raise RuntimeError("planted engine bug")

    seen = public_game(game)
    seen.set_unit(race, type("Broken", (Unit,), {"id": race, "on_conquest": conquered})())
    bot = make_bot(name, playouts=4) if name == "mcts" else make_bot(name)
    bot.start(seen, seat)
    with pytest.raises(RuntimeError, match="planted engine bug"):
        bot.choose(view_for(st, seat), legal, random.Random(1))


def test_bots_redeploy_risen_ghouls_onto_their_own_regions() -> None:
    """§7, CL-AMB-06, §5.2: In-Decline Ghouls that conquered in their own phase redeploy onto their
    regions only; their owner's Active Dwarves hold one region (Glade), where greedy's threat once
    sent every token ("all"), an action not in the legal list: a server game of greedy bots stalled
    on it. Every policy's deployment must be one of the legal ones, onto a Ghoul region."""
    from pathlib import Path

    from smallworld import scenario
    from smallworld.bots.greedy import deploy_action, light_action
    from smallworld.bots.mcts import rollout_action

    where = Path(__file__).parent / "scenarios/classic/races/ghouls/redeploy_their_own_regions.json"
    st = scenario.run(scenario.load(where)).state  # after "rise", "conquer K:4"; "deploy K:7" refused
    assert st.phase == "redeploy" and st.seats[0].active == "dwarves"
    legal = legal_actions(st)
    ghouls = {r for r in range(st.game.map.n) if st.race[r] == "ghouls"}
    assert {a.region for a in legal} == ghouls
    rng = random.Random(1)
    chosen = [deploy_action(st, legal), light_action(st, rng), rollout_action(st, rng)]
    bot = GreedyBot()
    bot.start(public_game(st.game), 0)
    chosen += [bot.choose(view_for(st, 0), legal, random.Random(s)) for s in range(3)]
    for a in chosen:
        assert a in legal, a
    assert deploy_action(st, legal).region in ghouls


@pytest.mark.parametrize("edition", ["warcraft", "classic"])
def test_the_cheap_policies_answer_only_listed_actions(edition: str) -> None:
    """The rollouts apply the light policy's and greedy's deployment unchecked (mcts.py), so each
    must answer one of `legal_actions` at every decision: over 50 games of 2 to 5 players, played by
    the rollout policy with some random moves mixed in. (Greedy's deployment once sent risen Ghouls'
    tokens onto their owner's Active region in classic games 313, 349 and 395 of these.)"""
    from smallworld.bots.greedy import deploy_action, light_action
    from smallworld.bots.mcts import rollout_action

    unlisted: list[tuple[int, int, Action]] = []
    for seed in range(301, 401, 2) if edition == "classic" else range(300, 400, 2):
        game = Game(Settings.from_json({"edition": edition, "players": 2 + seed % 4, "seed": seed}))
        st = game.new_initial_state()
        rng = random.Random(seed)
        while not st.is_over():
            legal = legal_actions(st)
            chosen = [light_action(st, random.Random(st.ply)), rollout_action(st, rng)]
            if any(a.kind == "deploy" for a in legal):
                chosen.append(deploy_action(st, legal))
            unlisted += [(seed, st.ply, a) for a in chosen if a not in legal]
            a = chosen[1] if rng.random() < 0.7 else legal[rng.randrange(len(legal))]
            apply_unchecked(st, a if a in legal else legal[0])
    assert unlisted == []
