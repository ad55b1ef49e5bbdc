"""The rules engine: pure, deterministic, no I/O.

>>> from smallworld.engine import Game, Settings
>>> st = Game(Settings(players=3, seed=7)).new_initial_state()
>>> a = st.legal_actions()[0]
>>> st.apply(a)
"""

from smallworld.engine.actions import Action
from smallworld.engine.errors import IllegalActionError, PositionError, SmallworldError
from smallworld.engine.game import Game
from smallworld.engine.options import RuleOptions
from smallworld.engine.settings import Settings
from smallworld.engine.state import State
from smallworld.engine.views import view_for

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
