"""The rules engine: pure, deterministic, no I/O.

>>> from smallworld.engine import Game, Settings
>>> st = Game(Settings(players=3, seed=7)).new_initial_state()
>>> a = st.legal_actions()[0]
>>> st.apply(a)
"""

from smallworld.engine.api.game import Game
from smallworld.engine.api.views import view_for
from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import IllegalActionError, PositionError, SmallworldError
from smallworld.engine.model.options import RuleOptions
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State

__all__ = [
    "Action",
    "Game",
    "IllegalActionError",
    "PositionError",
    "RuleOptions",
    "Settings",
    "SmallworldError",
    "State",
    "view_for",
]
