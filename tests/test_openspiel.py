"""smallworld as an OpenSpiel game (docs/rl.md, "OpenSpiel"): OpenSpiel's own conformance test over
random games of 2-5 players in both variants, serialization, the observer (the seat's view only),
returns, and OpenSpiel's MCTSBot playing through `smallworld simulate`."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

from smallworld.engine.api.notation import to_text
from smallworld.engine.api.views import view_for
from smallworld.env.core import final_rewards
from smallworld.env.encoding import ActionEncoder
from smallworld.env.observation import ObservationEncoder
from smallworld.env.openspiel import SmallWorldGame, SmallWorldState
from smallworld.sim import simulate

RETURNS = ("score", "margin", "win")


def load(players: int, variant: str = "standard", seed: int = 0, returns: str = "score") -> SmallWorldGame:
    game = pyspiel.load_game(
        "smallworld", {"players": players, "variant": variant, "seed": seed, "returns": returns}
    )
    assert isinstance(game, SmallWorldGame)
    return game


def play(state: SmallWorldState, rng: random.Random, steps: int | None = None) -> SmallWorldState:
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return state


def test_game_type_and_info() -> None:
    game = load(3)
    t = game.get_type()
    assert t.short_name == "smallworld"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 5)
    assert t.provides_observation_tensor and t.provides_observation_string
    assert not t.provides_information_state_string and not t.provides_information_state_tensor
    assert sorted(t.parameter_specification) == ["edition", "players", "returns", "seed", "variant"]
    assert game.num_players() == 3
    assert game.num_distinct_actions() == ActionEncoder().num_actions
    assert game.max_chance_outcomes() == 0
    assert game.utility_sum() is None
    assert game.observation_tensor_shape() == [ObservationEncoder().size]
    # 3 players play 10 game turns: 10 turns x 3 seats x 200 decisions a turn at most.
    assert game.max_game_length() == 10 * 3 * 200


@pytest.mark.parametrize("params", [{"players": 6}, {"returns": "points"}, {"seed": -1}, {"colour": 1}])
def test_bad_parameters_are_refused_by_name(params: dict[str, object]) -> None:
    name = next(iter(params))
    # An unknown name is refused by OpenSpiel itself (SpielError), a bad value by the game.
    with pytest.raises((ValueError, pyspiel.SpielError), match=name):
        pyspiel.load_game("smallworld", params)


@pytest.mark.parametrize("variant", ["standard", "team"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_random_sim_test(players: int, variant: str) -> None:
    """OpenSpiel's RandomSimTest: clones, legal actions sorted and only for the player to act,
    legal-action masks, unique action strings, observation tensors and strings of every seat at
    every step, returns within the utility bounds, game length within the maximum. Three board
    draws per seating, each returns mode once. (Its serialization round trip needs a game-level
    generator that Python games cannot provide; see test_serialize_round_trip.)"""
    for k, returns in enumerate(RETURNS):
        game = load(players, variant, seed=100 * players + k, returns=returns)
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("variant", ["standard", "team"])
def test_serialize_round_trip(variant: str) -> None:
    """A serialized state (its engine position, generator included) deserializes to the same
    position and history, and both go on to the same end under the same actions."""
    game = load(4, variant, seed=11)
    rng = random.Random(5)
    state = game.new_initial_state()
    for steps in (0, 1, 17, 60, 10_000):
        play(state, rng, steps)
        copy = game.deserialize_state(state.serialize())
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.returns() == state.returns()
    assert state.is_terminal()
    middle = play(game.new_initial_state(), random.Random(9), 80)
    again = game.deserialize_state(middle.serialize())
    play(middle, random.Random(3))
    play(again, random.Random(3))
    assert middle.returns() == again.returns() and str(middle) == str(again)


def test_clone_is_independent_and_carries_the_generator() -> None:
    game = load(2, seed=4)
    state = play(game.new_initial_state(), random.Random(1), 40)
    clone = state.clone()
    play(clone, random.Random(2))
    assert not state.is_terminal() and clone.is_terminal()
    other = state.clone()
    play(other, random.Random(2))
    assert other.returns() == clone.returns()  # same actions, same dice: the generator is copied


def test_actions_are_the_rl_encoding_and_the_engine_text() -> None:
    game = load(3, seed=2)
    codec = ActionEncoder()
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        st = state.engine_state
        codes = codec.encode_all(st.legal_actions())
        assert state.legal_actions() == sorted(codes.values())
        for a, i in codes.items():
            assert state.action_to_string(state.current_player(), i) == to_text(st.game, a)
        assert state.current_player() == st.acting_seat
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    with pytest.raises(Exception, match="not legal"):
        load(2).new_initial_state().apply_action(codec.num_actions - 1)


@pytest.mark.parametrize("variant", ["standard", "team"])
def test_returns(variant: str) -> None:
    for returns in RETURNS:
        game = load(4, variant, seed=8, returns=returns)
        state = game.new_initial_state()
        assert state.returns() == [0.0] * 4
        play(state, random.Random(4))
        st = state.engine_state
        result = st.result
        assert result is not None
        if returns != "score":
            assert state.returns() == final_rewards(st, returns)
        elif variant == "team":
            teams = st.game.variant.teams(4)
            assert state.returns() == [float(result["factions"][f]) for f in teams]
        else:
            assert state.returns() == [float(x) for x in result["scores"]]


def test_observer_is_the_seat_view_only() -> None:
    """The tensor is the RL observation of the seat's view; hidden facts (another seat's coins,
    the generator) change neither the tensor nor the string, the seat's own coins do."""
    game = load(3, seed=6)
    state = play(game.new_initial_state(), random.Random(2), 50)
    st = state.engine_state
    enc = ObservationEncoder()
    for seat in range(3):
        expected = enc.encode(view_for(st, seat), st.game)
        assert np.array_equal(np.array(state.observation_tensor(seat)), expected)
    before = (state.observation_tensor(0), state.observation_string(0))
    hidden = state.clone()
    hst = hidden.engine_state
    hst.seats[1].coins += 7
    hst.rng.state = 12345
    assert (hidden.observation_tensor(0), hidden.observation_string(0)) == before
    assert hidden.observation_string(1) != state.observation_string(1)
    hst.seats[0].coins += 1
    assert hidden.observation_tensor(0) != before[0]

    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    assert public.tensor is None
    assert public.string_from(state, 0) == public.string_from(state, 2)  # a spectator's view
    with pytest.raises(ValueError, match="perfect-recall"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))


def test_a_bots_engine_game_wraps() -> None:
    from smallworld.bots import determinize, public_game

    game = load(2, seed=3)
    real = play(game.new_initial_state(), random.Random(1), 30)
    seen = public_game(game.engine)
    wrapped = SmallWorldGame.for_engine(seen, returns="win")
    det = determinize(view_for(real.engine_state, 0), seen, random.Random(0))
    state = wrapped.state_from(det)
    assert state.current_player() == real.current_player()
    assert state.legal_actions() == real.legal_actions()
    with pytest.raises(ValueError, match="another engine game"):
        wrapped.state_from(real.engine_state)


def test_openspiel_mcts_plays_through_simulate() -> None:
    summary, results = simulate(
        players=2, games=2, bots=["openspiel-mcts", "greedy"], mcts_playouts=3, progress=False
    )
    assert [r["bots"] for r in results] == [["openspiel-mcts", "greedy"], ["greedy", "openspiel-mcts"]]
    assert all(r["winners"] and len(r["scores"]) == 2 for r in results)
    assert summary["mcts_playouts"] == 3


def test_openspiel_mcts_with_a_time_budget() -> None:
    """A time budget becomes simulations from the measured seconds per simulation: every search
    runs at least the 2 MCTSBot needs, and the game completes."""
    from smallworld.bots import public_game
    from smallworld.bots.openspiel_mcts import MIN_SIMULATIONS, OpenSpielMctsBot
    from smallworld.engine.flow.turn import legal_actions

    game = load(2, seed=5).engine
    bot = OpenSpielMctsBot(seconds=0.01)
    bot.start(public_game(game), 0)
    st = game.new_initial_state()
    rng = random.Random(0)
    sims = []
    while not st.is_over():
        legal = legal_actions(st)
        if st.acting_seat == 0:
            action = bot.choose(view_for(st, 0), legal, rng)
            if len(legal) > 1:
                sims.append(bot.last_iterations)
        else:
            action = legal[rng.randrange(len(legal))]
        assert action in legal
        st.apply(action)
    assert sims and min(sims) >= MIN_SIMULATIONS and bot.searches == len(sims)


def test_the_docs_evaluation_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import re
    import runpy
    from pathlib import Path

    script = runpy.run_path(str(Path(__file__).resolve().parents[1] / "examples" / "openspiel_eval.py"))
    script["main"](2, 2)
    out = capsys.readouterr().out
    found = re.search(r"MCTSBot won (\d+)/2", out)
    assert found is not None and 0 <= int(found.group(1)) <= 2
