"""The learned evaluation (smallworld/bots/learned): a tiny model trained from a few generated games
is what the search reads at its cut-offs; the shipped model loads; a mismatched one is refused.
No strength is asserted here (docs/bots.md has the measurements)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from smallworld.bots import make_bot, public_game  # noqa: E402
from smallworld.bots.learned import (  # noqa: E402
    MODEL_PATH,
    LeafValue,
    LearnedBot,
    ModelMismatchError,
    ValueModel,
    encoder,
    load_model,
    summary_features,
)
from smallworld.bots.learned.train import POLICIES, generate, main, merge_data, train  # noqa: E402
from smallworld.bots.mcts import rewards, rollout_action  # noqa: E402
from smallworld.engine.api.game import Game  # noqa: E402
from smallworld.engine.api.views import view_for  # noqa: E402
from smallworld.engine.flow.turn import apply_unchecked, legal_actions  # noqa: E402
from smallworld.engine.model.actions import Action  # noqa: E402
from smallworld.engine.model.settings import Settings  # noqa: E402
from smallworld.engine.model.state import State  # noqa: E402
from smallworld.sim.simulate import simulate  # noqa: E402


@pytest.fixture(scope="module")
def tiny() -> ValueModel:
    """A model trained in about a second from four rollout-policy games and one greedy game."""
    probs = {"greedy": 0.1, "rollout": 0.3}
    data = generate({"greedy": 1, "rollout": 4}, (2,), seed=3, probs=probs, log=False)
    assert len(data["y"]) > 20 and data["x"].shape[0] == len(data["y"])
    assert ((data["y"] >= 0) & (data["y"] <= 1)).all()
    model, report = train(data, seed=3, hidden=(8,), epochs=2, val=3, log=False)
    assert report["epochs_run"] == 2 and report["val_rows"] > 0
    return model


def test_mcts_self_play_rows_are_their_own_and_saved_data_trains_alike(tmp_path: Path) -> None:
    """The MCTS recipe (`--mcts-games`): its games' rows carry their policy and seed, each game
    samples with its own seeded generator (the same rows whoever plays it), data of two runs merge
    only when they share no game, and a run from saved data (`--data`) trains on exactly what a run
    that plays saved (`--save-data`)."""
    probs = {"mcts": 0.2}
    data = generate({"mcts": 2}, (2,), seed=7, probs=probs, log=False, playouts=3)
    assert len(data["y"]) > 0 and set(data["policy"].tolist()) == {POLICIES.index("mcts")}
    assert sorted(set(data["game"].tolist())) == [0, 1]
    again = generate({"mcts": 2}, (2,), seed=7, probs=probs, log=False, playouts=3)
    assert np.array_equal(again["x"], data["x"]) and np.array_equal(again["y"], data["y"])
    _, report = train(data, seed=1, hidden=(4,), epochs=1, val=2, log=False)
    assert report["val_rows_greedy"] == 0 and report["val_mse_greedy"] is None
    json.dumps(report, allow_nan=False)  # what the model file records is JSON
    # Two runs that played a game in common are not one data set (its rows would sit on both
    # sides of the validation split); two that did not are, each one's games kept apart.
    with pytest.raises(ValueError, match="both hold the mcts game of seed"):
        merge_data([data, generate({"mcts": 1}, (2,), seed=8, probs=probs, log=False, playouts=3)])
    other = generate({"mcts": 2}, (2,), seed=9, probs=probs, log=False, playouts=3)
    both = merge_data([data, other])
    assert len(both["y"]) == len(data["y"]) + len(other["y"])
    assert sorted(set(both["game"].tolist())) == [0, 1, 2, 3]
    saved, first, second = tmp_path / "rows.npz", tmp_path / "a.npz", tmp_path / "b.npz"
    small = ["--players", "2", "--greedy-games", "1", "--rollout-games", "3", "--hidden", "4",
             "--epochs", "1", "--quiet", "--seed", "2"]  # fmt: skip
    assert main([*small, "--save-data", str(saved), "--out", str(first)]) == 0
    assert main([*small, "--data", str(saved), "--out", str(second)]) == 0
    a, b = load_model(first), load_model(second)
    assert a.meta["training"]["rows"] == b.meta["training"]["rows"] > 0
    assert all(np.array_equal(x, y) for x, y in zip(a.weights, b.weights, strict=True))
    assert b.meta["recipe"]["data_files"] == [str(saved)]


def _positions(n: int, players: int = 2) -> list[tuple[Game, State]]:
    """Decisions with several legal moves from a game played by the rollout policy."""
    game = Game(Settings(players=players, seed=11))
    st = game.new_initial_state()
    rng = random.Random(5)
    out = []
    while not st.is_over() and len(out) < n:
        if len(legal_actions(st)) > 2 and rng.random() < 0.3:
            out.append((game, st.clone()))
        apply_unchecked(st, rollout_action(st, rng))
    return out


def _choose(game: Game, st: State, model: ValueModel) -> tuple[Action, int]:
    bot = LearnedBot(model, rollout_rounds=0, playouts=40, greedy_bias=0.0, deviate_z=None)
    seat = st.acting_seat
    bot.start(public_game(game), seat)
    action = bot.choose(view_for(st, seat), legal_actions(st), random.Random(1))
    return action, bot.leaf.calls


def test_the_search_reads_the_model(tiny: ValueModel) -> None:
    # The same searches with the model's judgement turned upside down (the last layer negated):
    # the leaf evaluation is called, and what it says moves the search's choices.
    flipped = ValueModel(
        tiny.keep, tiny.mean, tiny.std, [*tiny.weights[:-1], -tiny.weights[-1]],
        [*tiny.biases[:-1], -tiny.biases[-1]], tiny.meta,
    )
    differ = 0
    for game, st in _positions(6):
        a, calls = _choose(game, st, tiny)
        b, _ = _choose(game, st, flipped)
        assert calls > 0
        differ += a != b
    assert differ > 0


def test_leaf_values_come_from_each_seats_view(tiny: ValueModel) -> None:
    game, st = _positions(1)[0]
    leaf = LeafValue(tiny)
    values = leaf(st)
    x = np.stack([encoder().encode(view_for(st, i), game) for i in range(2)])
    assert values == pytest.approx(tiny.predict(x).tolist())
    assert all(0 <= v <= 1 for v in values)
    # `blend` mixes in the hand-written cut-off reward: 0 is the MCTS's own.
    assert LeafValue(tiny, blend=0.0)(st) == pytest.approx(rewards(st))
    half = LeafValue(tiny, blend=0.5)(st)
    assert half == pytest.approx([(a + b) / 2 for a, b in zip(values, rewards(st), strict=True)])


def test_a_saved_model_loads_and_a_mismatched_one_is_refused(tiny: ValueModel, tmp_path: Path) -> None:
    path = tmp_path / "v.npz"
    tiny.save(path)
    back = load_model(path)
    game, st = _positions(1)[0]
    x = encoder().encode(view_for(st, 0), game)[None, :]
    assert back.predict(x) == pytest.approx(tiny.predict(x))
    wrong = ValueModel(
        tiny.keep, tiny.mean, tiny.std, tiny.weights, tiny.biases,
        {**tiny.meta, "encoder": {**tiny.meta["encoder"], "size": 1}},
    )
    wrong.save(tmp_path / "wrong.npz")
    with pytest.raises(ModelMismatchError, match="retrain"):
        load_model(tmp_path / "wrong.npz")
    np.savez(tmp_path / "other.npz", a=np.zeros(3))
    with pytest.raises(ModelMismatchError, match="not a value model"):
        load_model(tmp_path / "other.npz")
    with pytest.raises(FileNotFoundError, match="train_value"):
        load_model(tmp_path / "missing.npz")


def test_summary_features_are_each_owners_sums_of_the_region_fields() -> None:
    """The model's inputs: the observation before the regions as it is, then for each owner class
    (empty, Murlocs, each relative seat's Active and In-Decline race) the regions it holds, their
    tokens, face-down markers, terrains, features, pieces and face-up markers, summed field by
    field (written here region by region, as the docs say it, against the code's one product)."""
    enc = encoder()
    fields = {f.name: f for f in enc.region_layout.fields}
    positions = _positions(6, players=4) + _positions(4)
    by_races = 0  # regions held by a seat's race (owner classes 2 on), over the positions
    for game, st in positions:
        x = np.stack([enc.encode(view_for(st, i), game) for i in range(len(st.seats))])
        got = summary_features(x)
        for row, obs in zip(got, x, strict=True):
            want: list[float] = list(obs[: enc.region_base])
            regions = obs[enc.region_base :].reshape(enc.max_regions, enc.region_layout.size)
            owners = regions[:, fields["owner"].offset : fields["owner"].offset + fields["owner"].size]
            by_races += int(owners[:, 2:].sum())
            for name in ("present", "tokens", "markers_down", "terrain", "features", "pieces", "markers_up"):
                f = fields[name]
                for o in range(owners.shape[1]):
                    held = [r for r in regions if r[fields["owner"].offset + o]]
                    want += [sum(float(r[f.offset + k]) for r in held) for k in range(f.size)]
            assert row.tolist() == want
    # Not vacuous: in these positions the seats' races hold regions, so their sums are not all 0.
    assert by_races > 0


def test_a_loaded_model_has_no_subnormal_number() -> None:
    """Weights decayed below float32's smallest normal number make every product with them dozens of
    times slower on x86 (the shipped model had 3,174 of them): loading and saving make them 0."""
    tiny = np.finfo(np.float32).tiny
    model = load_model()
    for a in (*model.weights, *model.biases):
        assert not ((a != 0) & (np.abs(a) < tiny)).any()
    with np.load(MODEL_PATH) as z:  # the file itself still has them: the loader is what drops them
        assert ((z["w0"] != 0) & (np.abs(z["w0"]) < tiny)).any()


def test_the_shipped_model_loads_and_plays() -> None:
    model = load_model()
    assert model.meta["recipe"]["seed"] == 0
    assert model.meta["training"]["val_rows"] > 0
    json.dumps(model.meta)
    bot = make_bot("learned", playouts=4)
    game = Game(Settings(players=3, seed=2))
    st = game.new_initial_state()
    bot.start(public_game(game), st.acting_seat)
    assert bot.choose(view_for(st, st.acting_seat), legal_actions(st), random.Random(0)) in legal_actions(st)


def test_simulate_plays_the_learned_bot() -> None:
    summary, results = simulate(
        players=2, games=1, bots=["learned", "greedy"], mcts_playouts=3, progress=False, seed=4
    )
    assert results[0]["bots"] == ["learned", "greedy"]
    assert results[0]["search"][0]["playouts"] > 0
    assert summary["mcts_playouts"] == 3


def test_without_numpy_the_learned_bot_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` now raises ImportError
    with pytest.raises(RuntimeError, match=r"smallworld\[rl\]"):
        make_bot("learned")


def test_the_learned_bot_refuses_another_edition() -> None:
    game = Game(Settings(players=2, seed=1, edition="classic"))
    with pytest.raises(ValueError, match="Warcraft edition only"):
        make_bot("learned", playouts=2).start(public_game(game), 0)
