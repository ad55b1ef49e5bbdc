"""The learned evaluation: a small value network over the RL observation, used by the search at its leaves.

`ValueModel` is a numpy-only MLP (ReLU hidden layers, a logistic output) that reads one seat's
observation (`smallworld.env.ObservationEncoder`, built from `view_for(st, seat)` only, so it sees
what that seat may see) and predicts the seat's MCTS reward at the end of the game
(`mcts.rewards`: 0.6 for a win plus 0.4 × a logistic of the final score margin), the quantity the
search backs up. `smallworld/bots/learned/train.py` makes the data and trains it (docs/bots.md).

`LearnedBot` (`make_bot("learned")`) is the MCTS bot with shorter rollouts whose cut-off positions
are scored by the model instead of `greedy.value`'s hand-written part. The shipped weights are
`value.npz` beside this file; loading a model reads that file (or the one given) and nothing else,
and a model trained for another observation layout is refused (`ModelMismatchError`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from smallworld.bots.base import Bot
from smallworld.bots.mcts import MctsBot, rewards
from smallworld.engine.api.game import Game
from smallworld.engine.api.views import PublicView
from smallworld.engine.model.actions import Action
from smallworld.engine.model.state import State

if TYPE_CHECKING:
    import numpy as np

    from smallworld.env.observation import ObservationEncoder

MODEL_PATH = Path(__file__).with_name("value.npz")


class ModelMismatchError(ValueError):
    """A model file that does not fit this build's observation encoder (or is not a value model)."""


def need_numpy() -> None:
    """Fail with a clear line when numpy (the `rl` extra) is missing: the model is numpy arrays."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise RuntimeError(
            "the learned bot needs numpy: pip install 'smallworld[rl]' (or pip install numpy)"
        ) from None


@cache
def encoder() -> ObservationEncoder:
    """The observation encoder of the Warcraft edition (one per process: it is built from tables)."""
    need_numpy()
    from smallworld.env.observation import ObservationEncoder

    return ObservationEncoder()


def encoder_signature(enc: ObservationEncoder | None = None) -> dict[str, Any]:
    """What a model must agree on with the encoder: its version, size, region slots and a digest of
    its field layout (names, offsets, sizes), so a reordered layout is refused too."""
    e = enc or encoder()
    parts = [(name, off, size) for name, off, size, _ in e.blocks()]
    for lay in (e.global_layout, e.row_layout, e.team_layout, e.seat_layout, e.region_layout):
        parts += [(f.name, f.offset, f.size) for f in lay.fields]
    digest = hashlib.sha256(json.dumps([*parts, list(e.units)]).encode()).hexdigest()[:16]
    return {"version": e.version, "size": e.size, "max_regions": e.max_regions, "layout": digest}


# The inputs the model reads, a function of the observation alone (so of the seat's view alone):
# everything before the regions as it is, and the regions summed per owner class (empty, Murlocs,
# each relative seat's Active and In-Decline race): regions held, tokens, terrains, features,
# pieces and markers held. A region's slot means a different place on every board draw, so a few
# thousand games cannot teach a model the slots one by one; the sums mean the same on every map.
FEATURES = "head+owner-sums/1"


def summary_features(x: np.ndarray, enc: ObservationEncoder | None = None) -> np.ndarray:
    """The model's inputs (`FEATURES`) for a batch of observations (one a row)."""
    import numpy as np

    e = enc or encoder()
    n = x.shape[0]
    regions = x[:, e.region_base :].reshape(n, e.max_regions, e.region_layout.size)

    fields = {f.name: f for f in e.region_layout.fields}

    def block(a: np.ndarray, name: str) -> np.ndarray:
        f = fields[name]
        return a[:, :, f.offset : f.offset + f.size]

    # Every sum at once: per owner class, each region field summed over the regions it owns (one
    # batched product, where an einsum a field cost as much again). The counts are whole numbers, so
    # the order of the additions changes nothing. (A region of the game has `present` 1 and one owner
    # class: their product counts the regions.)
    by_owner = np.matmul(block(regions, "owner").transpose(0, 2, 1), regions)  # (n, owners, fields)
    names = ("present", "tokens", "markers_down", "terrain", "features", "pieces", "markers_up")
    sums = [block(by_owner, name).reshape(n, -1) for name in names]
    out: np.ndarray = np.concatenate([x[:, : e.region_base], *sums], axis=1).astype(np.float32)
    return out


class ValueModel:
    """A numpy MLP: inputs `summary_features(x)[keep]`, standardised by `mean` / `std`, through ReLU
    layers to one logistic output (the predicted reward in [0, 1])."""

    def __init__(
        self,
        keep: np.ndarray,
        mean: np.ndarray,
        std: np.ndarray,
        weights: list[np.ndarray],
        biases: list[np.ndarray],
        meta: dict[str, Any],
    ) -> None:
        self.keep = keep
        self.mean = mean
        self.std = std
        self.weights = weights
        self.biases = biases
        self.meta = meta

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Raw outputs for a batch of whole observations (one a row)."""
        import numpy as np

        h = (summary_features(x)[:, self.keep] - self.mean) / self.std
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, 0.0)
        out: np.ndarray = (h @ self.weights[-1] + self.biases[-1])[:, 0]
        return out

    def predict(self, x: np.ndarray) -> np.ndarray:
        import numpy as np

        z = np.clip(self.logits(x), -30.0, 30.0)
        out: np.ndarray = 1.0 / (1.0 + np.exp(-z))
        return out

    def save(self, path: Path) -> None:
        import numpy as np

        arrays: dict[str, Any] = {"keep": self.keep, "mean": self.mean, "std": self.std}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = _normal(w)
            arrays[f"b{i}"] = _normal(b)
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        np.savez_compressed(path, **arrays)


def _normal(a: np.ndarray) -> np.ndarray:
    """`a` in float32 with its subnormal numbers (nonzero, below float32's smallest normal) made 0.
    Training decays the weights of inputs that never vary towards 0, into subnormals, and a product
    with one is dozens of times slower on x86 CPUs: the shipped model had 3,174 such weights of
    33,856, and its first layer took 250 microseconds a position where 5 do. Dropping them moves a
    prediction by less than float32 can show (each is below 1.2e-38)."""
    import numpy as np

    out = a.astype(np.float32)  # a copy
    out[(out != 0) & (np.abs(out) < np.finfo(np.float32).tiny)] = 0.0
    return out


def load_model(path: Path | str | None = None) -> ValueModel:
    """Read a value model (the shipped one by default); refuse one trained for another encoder."""
    need_numpy()
    import numpy as np

    p = Path(path) if path is not None else MODEL_PATH
    if not p.is_file():
        raise FileNotFoundError(f"no value model at {p}: train one with tools/train_value.py")
    with np.load(p, allow_pickle=False) as z:
        names = set(z.files)
        if not {"meta", "keep", "mean", "std", "w0", "b0"} <= names:
            raise ModelMismatchError(f"{p} is not a value model (arrays: {sorted(names)})")
        meta = json.loads(str(z["meta"]))
        layers = sum(1 for n in names if n.startswith("w"))
        weights = [_normal(z[f"w{i}"]) for i in range(layers)]
        biases = [_normal(z[f"b{i}"]) for i in range(layers)]
        keep, mean, std = z["keep"].astype(np.int64), z["mean"], z["std"]
    want = encoder_signature()
    got = meta.get("encoder")
    if meta.get("features") != FEATURES:
        raise ModelMismatchError(
            f"the value model {p} reads inputs {meta.get('features')!r}, this build makes {FEATURES!r}: "
            "retrain it with tools/train_value.py"
        )
    if got != want:
        raise ModelMismatchError(
            f"the value model {p} was trained for observation encoder {got}, but this build's is {want}: "
            "retrain it with tools/train_value.py"
        )
    return ValueModel(keep, mean, std, weights, biases, meta)


@cache
def _cached(path: str) -> ValueModel:
    # One copy per process and file: every game of a simulation worker shares it.
    return load_model(path)


class LeafValue:
    """The search's cut-off evaluation: each seat's predicted reward from its own view of `st`,
    mixed with the hand-written cut-off reward (`mcts.rewards`) by `blend` (1: the model alone)."""

    def __init__(self, model: ValueModel, blend: float = 1.0) -> None:
        self.model = model
        self.blend = blend
        self.enc = encoder()
        self.calls = 0

    def __call__(self, st: State) -> list[float]:
        import numpy as np

        self.calls += 1
        # Every seat's view from one public part (what `view_for` builds anew for each seat).
        public = PublicView(st)
        x = np.stack([self.enc.encode(public.view(i), st.game) for i in range(len(st.seats))])
        learned = [float(v) for v in self.model.predict(x)]
        if self.blend >= 1.0:
            return learned
        hand = rewards(st)
        return [self.blend * a + (1 - self.blend) * b for a, b in zip(learned, hand, strict=True)]


class LearnedBot(Bot):
    """MCTS (`bots/mcts.py`) with the value model at the rollouts' cut-off: same tree, root and
    final choice, `rollout_rounds` (default 1: to the end of the round the leaf is in) and the
    model's reward instead of the hand-written one (`blend` below 1 mixes the two). Other options
    go to `MctsBot`."""

    name = "learned"

    def __init__(
        self,
        model: ValueModel | Path | str | None = None,
        rollout_rounds: int = 1,
        blend: float = 1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        need_numpy()
        if isinstance(model, ValueModel):
            self.model = model
        else:
            self.model = _cached(str(Path(model) if model is not None else MODEL_PATH))
        self.leaf = LeafValue(self.model, blend)
        # The model predicts each seat's final reward from where it stands, not a gain: the finished
        # playouts must be scored on the same scale (`mcts.rewards` without a base).
        self.search = MctsBot(rollout_rounds=rollout_rounds, leaf=self.leaf, **{"gains": False, **options})

    @property
    def last_iterations(self) -> int:
        """Playouts of the last decision (the simulator's `search` counts read it)."""
        return self.search.last_iterations

    def start(self, game: Game, seat: int) -> None:
        # The observation's one-hots are the Warcraft edition's races, powers and relics: another
        # edition's position would be read as nonsense rather than fail.
        if game.edition.id != "warcraft":
            known = "the learned bot's model knows the Warcraft edition only"
            raise ValueError(f"{known}, not {game.edition.id}")
        super().start(game, seat)
        self.search.start(game, seat)

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return self.search.choose(view, legal, rng)

    def memory(self) -> dict[str, Any]:
        return self.search.memory()

    def recall(self, memory: dict[str, Any]) -> None:
        self.search.recall(memory)


__all__ = [
    "MODEL_PATH",
    "LeafValue",
    "LearnedBot",
    "ModelMismatchError",
    "ValueModel",
    "encoder_signature",
    "load_model",
]
