"""The words a drawn board shows, in the reader's language: the legend's terrains and features from
the edition's catalogue, the renderer's own words from `words/boards.json` (owner `boards`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from smallworld.words import DEFAULT, EDITION, HERE, Words, fill, for_edition, read_catalogue

BOARDS = "boards"

# The legend of each edition's boards, by key: a terrain, a feature, or a glyph of the renderer.
WARCRAFT_KEYS = (
    "Fields", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake",
    "Entry", "Magic", "Cavern", "Murloc", "Size", "MountainMarker",
)  # fmt: skip
CLASSIC_KEYS = (
    "Farmland", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake",
    "Border", "Magic", "Mine", "Cavern", "LostTribe", "MountainMarker",
)  # fmt: skip
KEYS = {"warcraft": WARCRAFT_KEYS, "classic": CLASSIC_KEYS, "classic_core": CLASSIC_KEYS}


@cache
def catalogue() -> dict[str, dict[str, str]]:
    return read_catalogue(HERE / "boards.json")


def say(lang: str, key: str, **params: Any) -> str:
    """A word of the renderer's own, in `lang` (English where a language lacks it)."""
    cat = catalogue()
    return fill(cat.get(lang, {}).get(key) or cat[DEFAULT][key], params)


@cache
def _words(edition_id: str) -> Words:
    from smallworld.engine.model.edition import get_edition

    return for_edition(get_edition(edition_id)).with_catalogue(BOARDS, catalogue())


def legend_text(edition_id: str, key: str, lang: str = DEFAULT) -> str:
    w = _words(edition_id)
    if w.has(EDITION, f"terrain.{key}"):
        return w.text(EDITION, f"terrain.{key}", lang)
    if w.has(BOARDS, f"legend.{key}"):
        name = w.text(EDITION, f"feature.{key}", lang) if w.has(EDITION, f"feature.{key}") else ""
        sizes = "/".join(w.text(EDITION, f"size.{s}", lang) for s in "SML")
        return w.text(BOARDS, f"legend.{key}", lang, name=name, sizes=sizes)
    return w.text(EDITION, f"feature.{key}", lang)


def legend_items(edition_id: str = "warcraft", lang: str = DEFAULT) -> Sequence[tuple[str, str]]:
    """The legend of an edition's boards: (key, text) per item, in `lang`."""
    return tuple((k, legend_text(edition_id, k, lang)) for k in KEYS.get(edition_id, WARCRAFT_KEYS))
