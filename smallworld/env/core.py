"""What the PettingZoo and Gymnasium environments share: games, rewards, policies, text rendering."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from smallworld.engine.api.game import Game
from smallworld.engine.api.views import view_for
from smallworld.engine.model.actions import Action
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.settings import DEFAULT_EDITION, Settings
from smallworld.engine.model.state import State
from smallworld.env.encoding import ActionEncoder
from smallworld.env.observation import HIGH, ObservationEncoder

# A policy sees only what a player sees: its view, its legal actions, and a generator of its own.
Policy = Callable[[dict[str, Any], Sequence[Action], random.Random], Action]

REWARDS = ("margin", "win")
INVALID = ("raise", "random")


def random_policy(view: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
    """Uniformly random over the legal actions."""
    return legal[rng.randrange(len(legal))]


def make_game(
    players: int, seed: int, variant: str, settings: dict[str, Any] | None, edition: str = DEFAULT_EDITION
) -> Game:
    data: dict[str, Any] = {"players": players, "seed": seed, "variant": variant, "edition": edition}
    data.update(settings or {})
    return Game(Settings.from_json(data))


def final_rewards(st: State, mode: str) -> list[float]:
    """Each seat's reward at the end (0 before): the score margin or the win (docs/rl.md)."""
    result = st.result
    if result is None:
        return [0.0] * len(st.seats)
    winners = set(result.get("winners") or [])
    if mode == "win":
        return [1.0 if i in winners else -1.0 for i in range(len(st.seats))]
    factions = result.get("factions")
    if isinstance(factions, dict):  # team variant: faction scores (§11.4)
        mine = st.game.variant.teams(len(st.seats))
        out = []
        for f in mine:
            others = [v for g, v in factions.items() if g != f]
            out.append(float(factions[f] - max(others)) if others else 0.0)
        return out
    scores = [float(x) for x in result["scores"]]
    return [s - max(scores[:i] + scores[i + 1 :]) for i, s in enumerate(scores)]


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")


def check_modes(reward: str, invalid_action: str, render_mode: str | None, render_modes: list[str]) -> None:
    """The constructor options both environments share, checked."""
    check_choice("reward", reward, REWARDS)
    check_choice("invalid_action", invalid_action, INVALID)
    if render_mode is not None:
        check_choice("render_mode", render_mode, tuple(render_modes))


def encoders(max_regions: int | None, edition: str) -> tuple[ActionEncoder, ObservationEncoder]:
    """The action and observation encoders of `edition`, sized for `max_regions` (both environments
    build them alike); an unknown edition is refused here, naming the known ones."""
    ed = get_edition(edition)
    actions = ActionEncoder(max_regions, edition=ed)
    return actions, ObservationEncoder(actions.max_regions, edition=ed)


def action_mask(legal: dict[Action, int], num_actions: int) -> np.ndarray:
    """The int8 mask with a 1 at the index of every legal action (all zeros when none)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if legal:
        mask[np.fromiter(legal.values(), dtype=np.int64, count=len(legal))] = 1
    return mask


def action_index(action: Any) -> int:
    """An agent's action as an int index: Python or numpy integers (also a one-element array)."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise ValueError(f"an action is an integer index, got {action!r}")
    return int(action)


def resolve_action(
    action: Any, legal: dict[Action, int], encoder: ActionEncoder, invalid_action: str, rng: random.Random
) -> tuple[Action, bool]:
    """(the legal action `action` names, whether it was invalid). An index that names no legal
    action raises ValueError with `invalid_action="raise"`; with "random" a legal action is drawn
    from `rng` instead."""
    index = action_index(action)
    for a, i in legal.items():
        if i == index:
            return a, False
    if invalid_action == "raise" or not legal:
        if not 0 <= index < encoder.num_actions:
            raise ValueError(f"action {index} is outside the action space 0..{encoder.num_actions - 1}")
        raise ValueError(f"action {index} ({encoder.describe(index)}) is not legal now")
    choices = list(legal)
    return choices[rng.randrange(len(choices))], True


def spaces(obs: ObservationEncoder, act: ActionEncoder) -> tuple[Any, Any]:
    """(observation space, action space): a Dict of the vector and the int8 legal-action mask."""
    from gymnasium import spaces as sp

    observation = sp.Dict(
        {
            "observation": sp.Box(0.0, HIGH, shape=(obs.size,), dtype=np.float32),
            "action_mask": sp.Box(0, 1, shape=(act.num_actions,), dtype=np.int8),
        }
    )
    return observation, sp.Discrete(act.num_actions)


def render_text(st: State, seat: int | None = None) -> str:
    """The position in a few lines of text, as `seat` sees it (None: a spectator)."""
    from smallworld.words.describe import power_name, race_name

    v = view_for(st, seat)
    gm = st.game.map
    lines = [
        f"game turn {v['round']}/{st.game.rounds}  phase {v['phase']}  turn of seat {v['turn_seat']}"
        f"  acting seat {v['acting_seat']}"
    ]
    for i, s in enumerate(v["seats"]):
        coins = "?" if s["coins"] is None else s["coins"]
        lines.append(
            f"  seat {i}: {coins} coins, active {race_name(s['active'])}/{power_name(s['power'])}"
            f" ({s['hand']} in hand), in decline {race_name(s['declined'])}"
        )
    for k, c in enumerate(v.get("row") or []):
        lines.append(f"  row {k}: {race_name(c['race'])} + {power_name(c['power'])} ({c['coins']} coins)")
    for ref, e in v["regions"].items():
        reg = gm.regions[gm.index(ref)]
        pieces = "".join(f" +{n} {k}" for k, n in (e.get("pieces") or {}).items())
        lines.append(f"  {ref} {reg.name} ({reg.terrain}): {race_name(e['race'])} x{e['tokens']}{pieces}")
    if v["result"] is not None:
        lines.append(f"  result: {v['result']}")
    return "\n".join(lines)
