"""`smallworld content` as text: a table per kind of unit, in the chosen language."""

from __future__ import annotations

from typing import Any

from smallworld.words import EDITION, Words
from smallworld.words.describe import said

HEADINGS = {
    "races": "content.races",
    "powers": "content.powers",
    "artifacts": "content.artifacts",
    "places": "content.places",
}
COLUMNS = {
    "name": "content.col.name",
    "faction": "content.col.faction",
    "value": "content.col.value",
    "section": "content.col.section",
    "source": "content.col.source",
}
SOURCES = {
    "seed": "content.source.seed",
    "external": "content.source.external",
    "estimate": "content.source.estimate",
    "inferred": "content.source.inferred",
    "user": "content.source.user",
}


def content_lines(data: dict[str, Any], words: Words, lang: str) -> list[str]:
    """The units of `data` (the JSON of `smallworld content`): a heading per kind, then a row per
    unit with its name, faction (where the edition has factions), value or rule section, and the
    source of its value, every word in `lang`."""

    def faction(value: str | None) -> str:
        key = f"faction.{value}"
        if value is None:
            return ""
        return words.text(EDITION, key, lang) if words.has(EDITION, key) else value

    out: list[str] = []
    for kind, heading in HEADINGS.items():
        entries = data[kind]
        if not entries:
            continue
        valued = kind in ("races", "powers")
        factions = kind == "races" and any(e.get("faction") for e in entries)
        cols = ["name", *(["faction"] if factions else []), "value" if valued else "section", "source"]
        rows = [[said(lang, COLUMNS[c]) for c in cols]]
        for e in entries:
            row = [str(e["name"])]
            if factions:
                row.append(faction(e.get("faction")))
            row.append(str(e["value"]) if valued else str(e.get("section", "")))
            src = str(e["source"])
            text = said(lang, SOURCES[src]) if src in SOURCES else src
            if not e["implemented"]:
                text += " " + said(lang, "content.not_implemented")
            row.append(text)
            rows.append(row)
        widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
        out.append(said(lang, heading))
        for r in rows:
            cells = [
                c.rjust(w) if col == "value" else c.ljust(w)
                for col, c, w in zip(cols, r, widths, strict=True)
            ]
            out.append(("  " + "  ".join(cells)).rstrip())
    return out
