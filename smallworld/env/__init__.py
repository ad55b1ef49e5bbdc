"""Interfaces for reinforcement learning (docs/rl.md): a fixed action encoding, per-seat observation
vectors, a PettingZoo AEC environment and a Gymnasium single-agent environment; importing
`smallworld.env.openspiel` registers the OpenSpiel game `smallworld`.

Needs the optional `rl` dependencies (numpy; gymnasium and pettingzoo for the environments). The
environments are imported on first use so that the encoders work with numpy alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld.env.encoding import ActionEncoder, EncodingOverflowError
from smallworld.env.observation import ObservationEncoder

if TYPE_CHECKING:
    from smallworld.env.aec import SmallWorldAEC
    from smallworld.env.gym_env import SmallWorldEnv

__all__ = ["ActionEncoder", "EncodingOverflowError", "ObservationEncoder", "SmallWorldAEC", "SmallWorldEnv"]


def __getattr__(name: str) -> Any:
    if name == "SmallWorldAEC":
        from smallworld.env.aec import SmallWorldAEC

        return SmallWorldAEC
    if name == "SmallWorldEnv":
        from smallworld.env.gym_env import SmallWorldEnv

        return SmallWorldEnv
    raise AttributeError(name)
