"""Reading the files a user hands to the commands: options files (docs/options.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.jsonio import read_json
from smallworld.engine.model.settings import DEFAULT_EDITION, make_settings

OVERRIDE_KEYS = ("options", "values", "races", "powers", "boards")


def load_options_file(path: str | Path, edition: str = DEFAULT_EDITION) -> dict[str, Any]:
    """Read an options file (docs/options.md): rule options, content values and pools that every
    game a command creates will use. Checked at once, so a bad file is refused naming its field."""
    data = read_json(path, "options file")
    if not isinstance(data, dict):
        raise PositionError("options file", "must hold one JSON object")
    unknown = sorted(str(k) for k in set(data) - set(OVERRIDE_KEYS) - {"about"})
    if unknown:
        raise PositionError(unknown[0], f"unknown key; an options file may give {OVERRIDE_KEYS}")
    overrides = {k: data[k] for k in OVERRIDE_KEYS if k in data}
    Game(make_settings(2, 0, "standard", overrides, edition))  # checks every field now, not mid-run
    return overrides
