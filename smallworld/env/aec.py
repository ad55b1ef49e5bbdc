"""A PettingZoo AEC environment: every seat is an agent, one decides at a time (docs/rl.md)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from smallworld.engine.api.views import view_for
from smallworld.engine.flow.turn import apply_unchecked
from smallworld.engine.model.actions import Action
from smallworld.engine.model.settings import DEFAULT_EDITION
from smallworld.engine.model.state import State
from smallworld.env.core import (
    action_mask,
    check_modes,
    encoders,
    final_rewards,
    make_game,
    render_text,
    resolve_action,
    spaces,
)


class SmallWorldAEC(AECEnv):
    """Agents `seat_0` .. `seat_{players-1}`; the agent selected is always the engine's acting seat.

    Observations are `{"observation": float32 vector, "action_mask": int8 vector}`; the mask is all
    zeros for an agent that does not decide now. Rewards are 0 until the game ends, then the final
    score margin (`reward="margin"`) or +1 / -1 for a win or not (`reward="win"`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "smallworld_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        seed: int | None = None,
        variant: str = "standard",
        reward: str = "margin",
        invalid_action: str = "raise",
        render_mode: str | None = None,
        settings: dict[str, Any] | None = None,
        max_regions: int | None = None,
        edition: str = DEFAULT_EDITION,
    ) -> None:
        super().__init__()
        check_modes(reward, invalid_action, render_mode, self.metadata["render_modes"])
        self.players = players
        self.variant = variant
        self.reward_mode = reward
        self.invalid_action = invalid_action
        self.render_mode = render_mode
        self.settings = settings
        self.edition = edition
        self.actions, self.observations = encoders(max_regions, edition)
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        obs_space, act_space = spaces(self.observations, self.actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._first_seed = seed
        self._seeds = random.Random(seed)
        self.state: State | None = None
        self._legal: dict[Action, int] = {}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        elif self._first_seed is not None:
            game_seed, self._first_seed = self._first_seed, None
        else:
            game_seed = self._seeds.randrange(2**62)
        self.game_seed = game_seed
        # The replacement of invalid actions is seeded with the game, so episodes replay exactly.
        self._rng = random.Random(game_seed)
        self.game = make_game(self.players, game_seed, self.variant, self.settings, self.edition)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._refresh()

    def _refresh(self) -> None:
        st = self.state
        assert st is not None
        if st.is_over():
            self._legal = {}
            return
        self._legal = self.actions.encode_all(st.legal_actions())
        self.agent_selection = self.possible_agents[st.acting_seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.state
        assert st is not None
        seat = self.possible_agents.index(agent)
        obs = self.observations.encode(view_for(st, seat), self.game)
        legal = self._legal if not st.is_over() and st.acting_seat == seat else {}
        return {"observation": obs, "action_mask": action_mask(legal, self.actions.num_actions)}

    def legal_actions(self) -> dict[Action, int]:
        """The acting agent's legal actions with their indices."""
        return dict(self._legal)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        chosen, _invalid = resolve_action(action, self._legal, self.actions, self.invalid_action, self._rng)
        self._cumulative_rewards[agent] = 0.0
        apply_unchecked(st, chosen)
        self._refresh()
        if st.is_over():
            for a, r in zip(self.possible_agents, final_rewards(st, self.reward_mode), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self.infos = {a: {"result": st.result} for a in self.agents}
        else:
            self._clear_rewards()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = render_text(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
