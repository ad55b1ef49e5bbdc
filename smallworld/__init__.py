"""smallworld: the digital edition of Small World of Warcraft.

Importing the package installs the editions it ships as the engine's edition resolver, so
`smallworld.engine.Game(Settings(players=3))` plays Small World of Warcraft (the engine itself
imports no edition).
"""

from smallworld import editions as _editions
from smallworld.engine.model import edition as _edition

_edition.set_resolver(_editions.load)
_edition.add_known(_editions.ids)
