"""The editions smallworld plays: each one a package that builds an `engine.edition.Edition`.

`load(id)` imports an edition's package on first use; the `smallworld` package installs it as the
engine's resolver, so `Game(Settings(players=3))` finds Small World of Warcraft without the engine
importing any content.
"""

from __future__ import annotations

import importlib

from smallworld.engine.model.edition import Edition

# Edition id -> the package whose `edition()` builds it.
PACKAGES: dict[str, str] = {
    "warcraft": "smallworld.editions.warcraft",
    "classic": "smallworld.editions.classic",
    "classic_core": "smallworld.editions.classic_core",
}


def load(edition_id: str) -> Edition | None:
    package = PACKAGES.get(edition_id)
    if package is None:
        return None
    edition: Edition = importlib.import_module(package).edition()
    return edition


def ids() -> list[str]:
    return sorted(PACKAGES)
