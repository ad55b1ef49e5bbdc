"""The reinforcement-learning interface: action encoding, observations, PettingZoo and Gymnasium."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from smallworld.engine import Game, Settings, view_for
from smallworld.engine.model.actions import Action
from smallworld.engine.model.rng import Rng
from smallworld.engine.model.state import State
from smallworld.env import (
    ActionEncoder,
    EncodingOverflowError,
    ObservationEncoder,
    SmallWorldAEC,
    SmallWorldEnv,
    layout_doc,
)

ACT = ActionEncoder()
OBS = ObservationEncoder(ACT.max_regions)
CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (5, "standard"), (4, "team"), (3, "team")]


def random_states(players: int, variant: str, seed: int, every: int = 1) -> list[State]:
    """Every `every`-th decision of one uniformly random game (all content in play)."""
    st = Game(Settings(players=players, seed=seed, variant=variant)).new_initial_state()
    rng = random.Random(seed)
    out = []
    step = 0
    while not st.is_over():
        if step % every == 0:
            out.append(st.clone())
        legal = st.legal_actions()
        # Mostly skip ending and declining, so games go deep into conquests and content actions.
        busy = [a for a in legal if a.kind not in ("end", "decline")]
        pool = busy if busy and rng.random() < 0.85 else legal
        st.apply(pool[rng.randrange(len(pool))])
        step += 1
    out.append(st)
    return out


# --- actions ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_every_legal_action_gets_its_own_index_and_decodes_back(players: int, variant: str) -> None:
    for seed in range(12):
        for st in random_states(players, variant, 100 * players + seed):
            legal = st.legal_actions()
            codes = ACT.encode_all(legal)
            assert len(set(codes.values())) == len(set(legal)), f"collision in {sorted(codes.items())}"
            assert all(0 <= i < ACT.num_actions for i in codes.values())
            for a, i in codes.items():
                assert ACT.decode(i, legal) == a
                assert ACT.encode(a, legal) == i
            mask = ACT.mask(legal)
            assert mask.dtype == bool and mask.shape == (ACT.num_actions,)
            assert int(mask.sum()) == len(set(legal))


def test_registered_indices_do_not_depend_on_the_decision() -> None:
    assert ACT.encode(Action("pick", None, 3)) == 3
    assert ACT.encode(Action("conquer", 0)) == ACT.region_base
    assert ACT.encode(Action("deploy", 2, "all")) == ACT.encode(Action("deploy", 2, "all"), [])
    portal = ACT.encode(Action("portal", 4, 7))
    assert ACT.describe(portal) == "portal @ regions (4, 7)"
    assert ACT.describe(ACT.encode(Action("conquer", 5, "frostmourne"))) == "conquer frostmourne @ region 5"


def test_overflow_actions_take_generic_slots_in_sorted_order() -> None:
    legal = [
        Action("zeta", 3),
        Action("alpha", 3, "x"),
        Action("alpha", 3),
        Action("novel", None, 42),
        Action("conquer", 3, "some_new_relic"),
        Action("swap", 1, 2),
        Action("conquer", 3),
    ]
    codes = ACT.encode_all(legal)
    assert len(set(codes.values())) == len(legal)
    base = ACT.region_base + 3 * ACT.region_stride + (ACT.region_stride - ACT.region_overflow)
    # sorted by kind then arg: alpha None, alpha 'x', conquer 'some_new_relic', zeta
    assert [codes[Action("alpha", 3)], codes[Action("alpha", 3, "x")]] == [base, base + 1]
    assert codes[Action("conquer", 3, "some_new_relic")] == base + 2
    assert codes[Action("zeta", 3)] == base + 3
    assert "overflow" in ACT.describe(codes[Action("novel", None, 42)])
    assert "pair overflow" in ACT.describe(codes[Action("swap", 1, 2)])
    for a, i in codes.items():
        assert ACT.decode(i, legal) == a
    with pytest.raises(ValueError):
        ACT.encode(Action("zeta", 3))  # an overflow index needs the legal list
    too_many = [Action(f"k{i}", 0) for i in range(ACT.region_overflow + 1)]
    with pytest.raises(EncodingOverflowError):
        ACT.encode_all(too_many)


# --- observations --------------------------------------------------------------------------------
def _hide_differently(st: State, seat: int, rng: random.Random) -> State:
    """A state that differs from `st` only in what `seat` may not know."""
    other = st.clone()
    seen = st.game.variant.coins_seen_by(st, seat)
    if st.result is None:
        for i, s in enumerate(other.seats):
            if i not in seen:
                s.coins += rng.randrange(1, 30)
    rng.shuffle(other.race_stack)
    rng.shuffle(other.power_stack)
    if other.offer is not None:  # team variant: only the first rows of a stacked column show
        for key, items in other.offer.items():
            if key != "Neutral" and len(items) > 4:
                tail = items[4:]
                rng.shuffle(tail)
                other.offer[key] = items[:4] + tail
    other.rng = Rng(rng.getrandbits(64))
    other.rolls = [0, 3, 2]
    face_down = [m for here in other.markers.values() for m in here if not m[1]]
    ids = [m[0] for m in face_down] + other.spare_markers
    rng.shuffle(ids)
    for m, rid in zip(face_down, ids, strict=False):
        m[0] = rid
    other.spare_markers = ids[len(face_down) :]
    return other


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_observations_ignore_hidden_information(players: int, variant: str) -> None:
    rng = random.Random(players)
    hidden_changed = 0
    for st in random_states(players, variant, 7 + players, every=5):
        for seat in range(players):
            other = _hide_differently(st, seat, rng)
            a = OBS.encode(view_for(st, seat), st.game)
            b = OBS.encode(view_for(other, seat), other.game)
            assert a.shape == (OBS.size,) and a.dtype == np.float32
            assert np.array_equal(a, b)
            hidden_changed += other.to_json() != st.to_json()
    assert hidden_changed  # the test did change hidden information


def test_observations_show_public_information() -> None:
    st = random_states(3, "standard", 5, every=40)[2]
    before = OBS.encode(view_for(st, 0), st.game)
    st.seats[0].coins += 4  # the observer's own coins are public to it
    after = OBS.encode(view_for(st, 0), st.game)
    b = OBS.seat_base
    assert after[b + OBS.s_coins] == before[b + OBS.s_coins] + 4
    assert after[b + OBS.s_coins_known] == 1
    other = OBS.seat_base + OBS.seat_layout.size
    assert before[other + OBS.s_coins] == 0 and before[other + OBS.s_coins_known] == 0
    # every region of the game has its slot, and the slots after them stay empty
    stride = OBS.region_layout.size
    present = [before[OBS.region_base + r * stride + OBS.r_present] for r in range(OBS.max_regions)]
    assert present == [1.0] * st.game.map.n + [0.0] * (OBS.max_regions - st.game.map.n)


def test_an_encoder_moving_between_maps_encodes_each_as_a_fresh_one_does() -> None:
    """The map's part of the vector is made once per map and reused (`_map_part`): an encoder that
    goes back and forth between games on different maps must not carry one map into another."""
    games = [random_states(players, "standard", 30 + players, every=25) for players in (2, 4, 5)]
    assert len({states[0].game.map.n for states in games}) > 1  # the maps differ
    shared = ObservationEncoder(ACT.max_regions)
    for states in zip(*games, strict=False):
        for st in states:
            for seat in range(len(st.seats)):
                fresh = ObservationEncoder(ACT.max_regions).encode(view_for(st, seat), st.game)
                assert np.array_equal(shared.encode(view_for(st, seat), st.game), fresh)
    # The map's part: the regions' terrain, neighbours, … are in the vector (not only the counts).
    st = games[0][0]
    x = shared.encode(view_for(st, 0), st.game)
    stride, r0 = OBS.region_layout.size, OBS.region_base
    adjacent = x[r0 + OBS.r_adjacent : r0 + OBS.r_adjacent + OBS.max_regions]
    assert adjacent.sum() == bin(st.game.map.adj[0]).count("1") > 0
    assert x[r0 + OBS.r_terrain : r0 + OBS.r_terrain + len(OBS.terrains)].sum() == 1
    assert x[r0 + st.game.map.n * stride + OBS.r_present] == 0  # past the last region: nothing


def test_docs_tables_match_the_code() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    assert layout_doc.markdown() in text, "regenerate with: python -m smallworld.env.layout_doc"


# --- environments ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "variant"), [(2, "standard"), (3, "standard"), (4, "team"), (5, "standard")]
)
def test_pettingzoo_api(players: int, variant: str) -> None:
    env = SmallWorldAEC(players=players, seed=players, variant=variant)
    api_test(env, num_cycles=2000)  # long enough to reach the end of a game


@pytest.mark.parametrize("players", [2, 4])
def test_gymnasium_env_checker(players: int) -> None:
    check_env(SmallWorldEnv(players=players, seed=1), skip_render_check=False)


def _play_aec(env: SmallWorldAEC, seed: int) -> tuple[list[bytes], dict[str, float]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for _agent in env.agent_iter(100_000):
        obs, _reward, term, trunc, _info = env.last()
        trace.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return trace, dict(env._cumulative_rewards)


def test_aec_episodes_replay_and_reward_at_the_end() -> None:
    env = SmallWorldAEC(players=3, reward="margin")
    trace_a, _ = _play_aec(env, 11)
    trace_b, _ = _play_aec(env, 11)
    assert trace_a == trace_b
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    while not env.state.is_over():  # type: ignore[union-attr]
        obs, reward, *_ = env.last()
        total[env.agent_selection] += reward
        assert reward == 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.state.result["scores"]  # type: ignore[union-attr]
    for i, agent in enumerate(env.possible_agents):
        assert env.rewards[agent] == scores[i] - max(s for j, s in enumerate(scores) if j != i)
    text = env.render()
    assert text is not None and "result" in text


def test_gym_episodes_replay_with_a_custom_opponent() -> None:
    calls = []

    def first_legal(view: dict, legal: list[Action], rng: random.Random) -> Action:
        assert view["viewer"] == seat_to_act() != env.learner
        calls.append(1)
        return legal[0]

    def episode(env: SmallWorldEnv, seed: int) -> list[bytes]:
        obs, info = env.reset(seed=seed)
        out = [obs["observation"].tobytes()]
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            assert np.array_equal(info["action_mask"], obs["action_mask"].astype(bool))
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _trunc, info = env.step(a)
            assert not info["invalid_action"]
            out.append(obs["observation"].tobytes())
        assert reward in (1.0, -1.0)
        return out

    def seat_to_act() -> int:
        assert env.state is not None
        return env.state.acting_seat

    env = SmallWorldEnv(players=3, learner=None, opponent=first_legal, reward="win")
    assert episode(env, 5) == episode(env, 5)
    assert calls
    strict = SmallWorldEnv(players=2, invalid_action="raise")
    obs, _ = strict.reset(seed=0)
    with pytest.raises(ValueError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_illegal_action_indices() -> None:
    lenient = SmallWorldEnv(players=2, seed=4)
    obs, _ = lenient.reset()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, _r, _done, _trunc, info = lenient.step(np.int64(illegal))
    assert info["invalid_action"]  # replaced by a legal action, the episode goes on
    strict = SmallWorldEnv(players=2, seed=4, invalid_action="raise")
    strict.reset()
    for bad in (-1, strict.actions.num_actions, 1.5, "3", None):
        with pytest.raises(ValueError, match="action"):
            strict.step(bad)
    aec = SmallWorldAEC(players=2, seed=4)
    aec.reset()
    with pytest.raises(ValueError, match="not legal now"):
        aec.step(illegal)
    with pytest.raises(ValueError, match="opponent"):
        SmallWorldEnv(opponent="alphago")


def test_gym_opponents_can_be_named_bots() -> None:
    env = SmallWorldEnv(players=2, opponent="greedy")
    obs, _info = env.reset(seed=3)
    done = False
    while not done:
        obs, _reward, done, _trunc, _info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.state is not None and env.state.is_over()


@pytest.mark.parametrize("players", [2, 5])
def test_classic_edition_environments(players: int) -> None:
    """The environments take an edition: classic games play to the end through both APIs, with
    the classic edition's own action verbs (issue 14, classic-rules.md §12)."""
    env = SmallWorldAEC(players=players, seed=3, edition="classic")
    api_test(env, num_cycles=2000)
    env.reset(seed=4)
    assert env.game.edition.id == "classic"
    verbs = {kind for kind, _ in env.actions.global_verbs + env.actions.region_verbs}
    assert "make_peace" in verbs and "steal" not in verbs  # Diplomat's action, no Ethereals
    trace, _ = _play_aec(env, 5)
    assert env.state is not None and env.state.result is not None
    assert len(env.state.result["scores"]) == players and len(trace) > 50
    check_env(SmallWorldEnv(players=2, seed=1, edition="classic"), skip_render_check=True)


def test_unknown_edition_is_refused() -> None:
    with pytest.raises(Exception, match="classic"):
        SmallWorldAEC(players=2, edition="nope")
