"""A Gymnasium single-agent environment: one learning seat, the other seats played by a policy."""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np

from smallworld.engine.api.views import view_for
from smallworld.engine.flow.turn import apply_unchecked
from smallworld.engine.model.actions import Action
from smallworld.engine.model.settings import DEFAULT_EDITION
from smallworld.engine.model.state import State
from smallworld.env.core import (
    Policy,
    action_mask,
    check_modes,
    encoders,
    final_rewards,
    make_game,
    random_policy,
    render_text,
    resolve_action,
    spaces,
)


class SmallWorldEnv(gym.Env[dict[str, np.ndarray], int]):
    """The learner plays `learner` (a seat, or None for a seat drawn per episode); `opponent`
    (`(view, legal, rng) -> Action`, default uniformly random, or the name of a `smallworld.bots`
    bot such as "greedy") plays every other seat from its own view. Observations are
    `{"observation", "action_mask"}`; `info["action_mask"]` repeats the mask as booleans.
    Rewards are 0 until the game ends (see `SmallWorldAEC`).

    An action index that is not legal raises with `invalid_action="raise"`; with "random" (the
    default, which generic checkers such as `check_env` need) a legal action is drawn instead by
    the episode's generator and `info["invalid_action"]` is True.
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium reads it from the class)

    def __init__(
        self,
        players: int = 2,
        seed: int | None = None,
        variant: str = "standard",
        learner: int | None = 0,
        opponent: Policy | str | None = None,
        reward: str = "margin",
        invalid_action: str = "random",
        render_mode: str | None = None,
        settings: dict[str, Any] | None = None,
        max_regions: int | None = None,
        edition: str = DEFAULT_EDITION,
    ) -> None:
        check_modes(reward, invalid_action, render_mode, self.metadata["render_modes"])
        if learner is not None and not 0 <= learner < players:
            raise ValueError(f"learner must be a seat 0..{players - 1} or None")
        if isinstance(opponent, str):
            from smallworld.bots import BOT_NAMES

            if opponent not in BOT_NAMES:
                raise ValueError(f"opponent must be a policy or one of {BOT_NAMES}, got {opponent!r}")
        self.players = players
        self.variant = variant
        self.fixed_learner = learner
        self.opponent = opponent or random_policy
        self._policies: dict[int, Policy] = {}
        self.reward_mode = reward
        self.invalid_action = invalid_action
        self.render_mode = render_mode
        self.settings = settings
        self.edition = edition
        self.actions, self.observations = encoders(max_regions, edition)
        self.observation_space, self.action_space = spaces(self.observations, self.actions)
        self._first_seed = seed
        self.state: State | None = None
        self.learner = learner if learner is not None else 0
        self._legal: dict[Action, int] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is None and self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        super().reset(seed=seed)
        # Every random choice of the episode derives from `np_random`, so a seeded reset replays.
        game_seed = int(self.np_random.integers(2**62))
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self._opponent_rng = random.Random(int(self.np_random.integers(2**62)))
        if self.fixed_learner is None:
            self.learner = int(self.np_random.integers(self.players))
        self.game_seed = game_seed
        self.game = make_game(self.players, game_seed, self.variant, self.settings, self.edition)
        self.state = self.game.new_initial_state()
        self._policies = self._opponents()
        self._play_opponents()
        return self._obs(), self._info(False)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        st = self.state
        if st is None or st.is_over():
            raise RuntimeError("step() after the episode ended: call reset()")
        chosen, invalid = resolve_action(action, self._legal, self.actions, self.invalid_action, self._rng)
        apply_unchecked(st, chosen)
        self._play_opponents()
        over = st.is_over()
        reward = final_rewards(st, self.reward_mode)[self.learner] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), over, False, self._info(invalid)

    def _opponents(self) -> dict[int, Policy]:
        """The policy of every other seat; a bot name makes one fresh `smallworld.bots` bot per seat."""
        others = [i for i in range(self.players) if i != self.learner]
        if not isinstance(self.opponent, str):
            return dict.fromkeys(others, self.opponent)
        from smallworld.bots import make_bot, public_game

        public = public_game(self.game)
        out: dict[int, Policy] = {}
        for seat in others:
            bot = make_bot(self.opponent)
            bot.start(public, seat)
            out[seat] = bot.choose
        return out

    def _play_opponents(self) -> None:
        st = self.state
        assert st is not None
        while not st.is_over() and st.acting_seat != self.learner:
            legal = st.legal_actions()
            policy = self._policies[st.acting_seat]
            chosen = policy(view_for(st, st.acting_seat), legal, self._opponent_rng)
            if chosen not in legal:
                raise ValueError(f"the opponent policy chose {chosen}, which is not legal")
            apply_unchecked(st, chosen)
        self._legal = {} if st.is_over() else self.actions.encode_all(st.legal_actions())

    def _mask(self) -> np.ndarray:
        return action_mask(self._legal, self.actions.num_actions)

    def _obs(self) -> dict[str, np.ndarray]:
        st = self.state
        assert st is not None
        obs = self.observations.encode(view_for(st, self.learner), self.game)
        return {"observation": obs, "action_mask": self._mask()}

    def _info(self, invalid: bool) -> dict[str, Any]:
        st = self.state
        assert st is not None
        info: dict[str, Any] = {
            "action_mask": self._mask().astype(bool),
            "seat": self.learner,
            "invalid_action": invalid,
        }
        if st.result is not None:
            info["result"] = st.result
        return info

    def legal_actions(self) -> dict[Action, int]:
        """The learner's legal actions with their indices."""
        return dict(self._legal)

    def action_masks(self) -> np.ndarray:
        """The boolean mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = render_text(self.state, self.learner)
        if self.render_mode == "human":
            print(text)
            return None
        return text
