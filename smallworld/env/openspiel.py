"""smallworld as an OpenSpiel game (docs/rl.md, "OpenSpiel").

Importing this module registers the game `smallworld` with `pyspiel` (the `open-spiel` package, the
optional extra `rl`), so every OpenSpiel algorithm that takes a game can load it:

    import pyspiel
    import smallworld.env.openspiel  # registers "smallworld"
    game = pyspiel.load_game("smallworld", {"players": 3, "variant": "team", "seed": 7})

What the game declares, and why:

- **sequential**, **imperfect information** (hidden coins, stacks, face-down markers);
- **sampled stochastic**: the engine rolls its dice and shuffles with its own seeded generator,
  which is part of the state; no chance nodes are exposed, and a clone carries the generator;
- **general-sum**, **terminal rewards**: `returns` are 0 until the game ends, then by the
  parameter `returns`: `"score"` (the default) each seat's final score (team variant: its
  faction's score, §11.4); `"margin"` that score minus the best other one; `"win"` +1 for every
  winner and -1 for the others (the same two modes as the PettingZoo and Gymnasium environments);
- actions are the indices of `env.encoding.ActionEncoder` (derived from the edition's action
  declarations: `num_distinct_actions` is the encoder's `num_actions`); `action_to_string` is the
  engine's text form (`conquer L1a:4`);
- the observer sees only the seat's view (`engine.views.view_for`): the tensor is the RL
  observation vector (`env.observation.ObservationEncoder`), the string the view as JSON. A
  public-only observer (`IIGObservationType(private_info=NONE)`) gives the spectator's view as a
  string. No information state is claimed: the view is what a seat sees now, not its perfect-recall
  history.

Parameters: `players` (2-5), `edition` ("warcraft"), `variant` ("standard" or "team"), `seed` (the
engine's game seed: board draw, stacks and dice all derive from it), `returns` (above).

Serialization: OpenSpiel's Python games pickle the state's attributes; the position pickles as
its engine JSON (docs/positions.md) with the game's settings, so `pyspiel.serialize_game_and_state`
and `deserialize_game_and_state` round-trip, generator included.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

import numpy as np
import pyspiel

from smallworld.engine.api.game import Game
from smallworld.engine.api.notation import to_text
from smallworld.engine.api.serialize import MAX_COUNT, state_from_json, state_to_json
from smallworld.engine.api.views import view_for
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.actions import Action
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.settings import DEFAULT_EDITION, Settings
from smallworld.engine.model.state import State
from smallworld.env.core import final_rewards
from smallworld.env.encoding import ActionEncoder
from smallworld.env.observation import ObservationEncoder

SHORT_NAME = "smallworld"
RETURNS = ("score", "margin", "win")
DEFAULTS: dict[str, Any] = {
    "players": 2,
    "edition": DEFAULT_EDITION,
    "variant": "standard",
    "seed": 0,
    "returns": "score",
}
# An upper bound of the decisions in one turn (the turn's own and the defenders' withdrawn-token
# placements), per region slot of the action encoding. A turn is a pick or a start, at most one
# conquest and one abandon per region, unit actions bounded by the pieces, and redeployment steps
# that each place at least one token or troop: an argument rather than a proof, which OpenSpiel's
# random_sim_test checks on every game it plays. The longest turn measured in 520 random games of
# 2-5 players in both variants had 18 decisions; this allows 200 with the default 50 region slots.
DECISIONS_PER_REGION_PER_TURN = 4


def _player_counts() -> tuple[int, int]:
    counts = sorted(get_edition(DEFAULT_EDITION).rounds)
    return counts[0], counts[-1]


_MIN_PLAYERS, _MAX_PLAYERS = _player_counts()

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Small World of Warcraft",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=_MIN_PLAYERS,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


@lru_cache(maxsize=64)
def _engine_game(settings_json: str) -> Game:
    """The engine game of some settings (JSON text), built once while recently used: unpickled
    positions of one game share it, and loading many seeds does not keep every game alive."""
    return Game(Settings.from_json(json.loads(settings_json)))


def _settings_json(game: Game) -> str:
    return json.dumps(game.settings.to_json(), sort_keys=True)


@cache
def _codec(edition: str) -> ActionEncoder:
    return ActionEncoder(edition=get_edition(edition))


class _Rules:
    """What every position of one OpenSpiel game shares: the engine game, the action encoding and
    the returns mode. Positions hold it by reference: cloning shares it, pickling names it."""

    __slots__ = ("codec", "engine", "returns_mode", "settings_json")

    def __init__(self, engine: Game, returns_mode: str) -> None:
        self.engine = engine
        self.returns_mode = returns_mode
        self.codec = _codec(engine.settings.edition)
        self.settings_json = _settings_json(engine)


def _restore(settings_json: str, returns_mode: str, state: dict[str, Any]) -> _Position:
    rules = _Rules(_engine_game(settings_json), returns_mode)
    return _Position(rules, state_from_json(rules.engine, state))


class _Position:
    """The engine state behind an OpenSpiel state, with the current decision's index -> action
    table. OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them: this object clones through the engine's `State.clone` and pickles as the
    engine's JSON, so neither walks the engine's object graph."""

    __slots__ = ("_codes", "rules", "st")

    def __init__(self, rules: _Rules, st: State) -> None:
        self.rules = rules
        self.st = st
        self._codes: dict[int, Action] | None = None

    def codes(self) -> dict[int, Action]:
        """index -> legal action at this decision (empty once the game is over)."""
        if self._codes is None:
            if self.st.is_over():
                self._codes = {}
            else:
                encoded = self.rules.codec.encode_all(legal_actions(self.st))
                self._codes = {i: a for a, i in encoded.items()}
        return self._codes

    def apply(self, index: int) -> None:
        chosen = self.codes().get(index)
        if chosen is None:
            raise ValueError(f"action {index} ({self.rules.codec.describe(index)}) is not legal now")
        apply_unchecked(self.st, chosen)
        self._codes = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        other = _Position(self.rules, self.st.clone())
        other._codes = self._codes  # never mutated, only replaced: safe to share
        return other

    def __reduce__(self) -> tuple[Any, tuple[str, str, dict[str, Any]]]:
        r = self.rules
        return (_restore, (r.settings_json, r.returns_mode, state_to_json(self.st)))


def _check_params(p: dict[str, Any]) -> None:
    edition = get_edition(str(p["edition"]))
    players = p["players"]
    if players not in edition.rounds:
        counts = sorted(edition.rounds)
        raise ValueError(f"smallworld parameter players must be one of {counts}, got {players}")
    if p["returns"] not in RETURNS:
        raise ValueError(f"smallworld parameter returns must be one of {RETURNS}, got {p['returns']!r}")
    if not isinstance(p["seed"], int) or p["seed"] < 0:
        raise ValueError(f"smallworld parameter seed must be an integer >= 0, got {p['seed']!r}")


class SmallWorldGame(pyspiel.Game):
    """The OpenSpiel game: see the module doc for its type, parameters and information."""

    def __init__(self, params: dict[str, Any] | None = None, engine: Game | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        unknown = sorted(set(p) - set(DEFAULTS))
        if unknown:
            raise ValueError(f"unknown smallworld parameter {unknown[0]!r}; known: {sorted(DEFAULTS)}")
        if engine is not None:  # a given engine game (a bot's public game): its settings win
            s = engine.settings
            p.update(players=s.players, edition=s.edition, variant=s.variant, seed=s.seed)
        _check_params(p)
        if engine is None:
            settings = {k: p[k] for k in ("edition", "players", "seed", "variant")}
            engine = _engine_game(json.dumps(settings, sort_keys=True))
        self.engine = engine
        self.rules = _Rules(engine, str(p["returns"]))
        self.codec = self.rules.codec
        self.observations = ObservationEncoder(self.codec.max_regions)
        self._initial = engine.new_initial_state()
        players = engine.settings.players
        # A faction's score can add up several seats' (§11.4); MAX_COUNT bounds any one count.
        top = float(MAX_COUNT * players)
        low, high = {"score": (0.0, top), "margin": (-top, top), "win": (-1.0, 1.0)}[self.rules.returns_mode]
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=engine.rounds * players * DECISIONS_PER_REGION_PER_TURN * self.codec.max_regions,
        )
        super().__init__(GAME_TYPE, info, p)

    @classmethod
    def for_engine(cls, engine: Game, returns: str = "score") -> SmallWorldGame:
        """The OpenSpiel game of an existing engine game (its boards, options and values), e.g. the
        public game a bot is given. Its string names only the parameters, so a state of it
        serializes but deserializes onto the parameters' own game."""
        return cls({"returns": returns}, engine=engine)

    def new_initial_state(self, state: Any = None) -> SmallWorldState:
        if state is not None:
            raise TypeError("smallworld states are built from the game only (positions: state_from)")
        return SmallWorldState(self, self._initial.clone())

    def state_from(self, st: State) -> SmallWorldState:
        """An OpenSpiel state holding (a clone of) an engine position of this game, e.g. a bot's
        determinisation; its OpenSpiel history starts there."""
        if st.game is not self.engine:
            raise ValueError("the position belongs to another engine game")
        return SmallWorldState(self, st.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
        return SeatObserver(self, iig_obs_type, params)


class SmallWorldState(pyspiel.State):
    """A position: the seat to act is OpenSpiel's current player (a defender placing withdrawn
    tokens or a seat answering a prompt acts during another seat's turn). Its only attribute is
    the position, which OpenSpiel deep-copies to clone and pickles to serialize."""

    def __init__(self, game: SmallWorldGame, st: State) -> None:
        super().__init__(game)
        self._pos = _Position(game.rules, st)

    @property
    def engine_state(self) -> State:
        """The engine position (read it; apply actions through `apply_action`)."""
        st: State = self._pos.st
        return st

    def current_player(self) -> int:
        st = self._pos.st
        return int(pyspiel.PlayerId.TERMINAL) if st.is_over() else int(st.acting_seat)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._pos.codes())

    def _apply_action(self, action: int) -> None:
        self._pos.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's text form of the action (`conquer L1a:4`); an index that is not legal now
        reads as its slot on this map, an overflow slot as its description."""
        pos = self._pos
        codes = pos.codes() if player == self.current_player() else {}
        a = codes.get(int(action))
        if a is None:
            a = slot_action(pos.rules.codec, pos.rules.engine, int(action))
        if a is None:
            return pos.rules.codec.describe(int(action))
        return to_text(pos.rules.engine, a)

    def is_terminal(self) -> bool:
        return bool(self._pos.st.is_over())

    def returns(self) -> list[float]:
        st = self._pos.st
        if st.result is None:
            return [0.0] * len(st.seats)
        mode = self._pos.rules.returns_mode
        if mode != "score":
            return final_rewards(st, mode)
        factions = st.result.get("factions")
        if isinstance(factions, dict):  # team variant: every seat scores its faction's total (§11.4)
            return [float(factions[f]) for f in st.game.variant.teams(len(st.seats))]
        return [float(x) for x in st.result["scores"]]

    def __str__(self) -> str:
        # The whole position (generator included), so equal strings mean equal states.
        return json.dumps(state_to_json(self._pos.st), sort_keys=True, separators=(",", ":"))


def slot_action(codec: ActionEncoder, game: Game, index: int) -> Action | None:
    """The action a registered index stands for on this game's map (None: an overflow slot or a
    region beyond the map), whether or not it is legal now."""
    if not 0 <= index < codec.num_actions:
        return None
    n = game.map.n
    if index < codec.global_size:
        if index >= len(codec.global_verbs):
            return None
        kind, arg = codec.global_verbs[index]
        return Action(kind, None, arg)
    if index < codec.pair_base:
        r, j = divmod(index - codec.region_base, codec.region_stride)
        if j >= len(codec.region_verbs) or r >= n:
            return None
        kind, arg = codec.region_verbs[j]
        return Action(kind, r, arg)
    m = codec.max_regions
    plane, rest = divmod(index - codec.pair_base, m * m)
    r, d = divmod(rest, m)
    if plane >= len(codec.pair_kinds) or r >= n or d >= n:
        return None
    return Action(codec.pair_kinds[plane], r, d)


class SeatObserver:
    """OpenSpiel's Python observer interface (`tensor`, `dict`, `set_from`, `string_from`), built
    only from `view_for(state, seat)`: a seat's private and the public information, never the
    hidden state. `private_info=NONE` observes as a spectator (string only)."""

    def __init__(self, game: SmallWorldGame, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"smallworld observers take no parameters, got {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            if iig_obs_type.perfect_recall:
                raise ValueError("smallworld offers no perfect-recall observation (information state)")
            if not iig_obs_type.public_info:
                raise ValueError("smallworld observations always include the public information")
            private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("smallworld observes as one seat or as a spectator, never every seat")
        self.game = game
        self.seat_view = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor: np.ndarray | None
        if self.seat_view:
            self.tensor = np.zeros(game.observations.size, np.float32)
            self.dict: dict[str, np.ndarray] = {"observation": self.tensor}
        else:
            self.tensor = None
            self.dict = {}

    def _view(self, state: SmallWorldState, player: int) -> dict[str, Any]:
        return view_for(state.engine_state, player if self.seat_view else None)

    def set_from(self, state: SmallWorldState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self.game.observations.encode(self._view(state, player), self.game.engine)

    def string_from(self, state: SmallWorldState, player: int) -> str:
        return json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, SmallWorldGame)
