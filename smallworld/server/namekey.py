"""The key that makes accounts' names unique: two names that a reader could take for one another
have one key: "Alice", "alice", "ALICE", "Аlice" (a Cyrillic А), "Alicé" and "AIice" (a capital i
for the l) can hold one account between them, not six.

The key is a skeleton in the manner of Unicode's confusable detection (UTS #39): compatibility
forms folded (NFKC), each character replaced by one representative of the characters it can be
confused with (the confusables table shipped by `confusable-homoglyphs`, its pairs joined into
classes, an ASCII letter or digit preferred as representative), case folded, accents dropped, i, l
and 1 made one letter and o and 0 another, and runs of spaces made one. Confusions of several
characters ("rn" for "m") are not folded. It is computed once when a name is claimed and stored
(`players.name_key`, unique), so a newer table can never make two stored accounts collide."""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

_MARKS = "\u200e\u200f"  # the table wraps right-to-left characters in direction marks
_FOLD = str.maketrans({"i": "l", "0": "o", "1": "l"})


@cache
def _representative() -> dict[str, str]:
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    table: dict[str, list[dict[str, str]]] = json.loads(raw)
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def rank(c: str) -> tuple[int, str]:
        # An ASCII lower-case letter first, then a digit, then any ASCII, then the lowest code point.
        return (0 if c.isascii() and c.islower() else 1 if c.isdigit() and c.isascii() else
                2 if c.isascii() else 3, c)

    for char, homoglyphs in table.items():
        for h in homoglyphs:
            other = h["c"].strip(_MARKS)
            if len(char) != 1 or len(other) != 1:
                continue
            a, b = find(char), find(other)
            if a != b:
                keep, drop = sorted((a, b), key=rank)
                parent[drop] = keep
    return {c: find(c) for c in parent}


def _skeleton(text: str) -> str:
    rep = _representative()
    return "".join(rep.get(c, c) for c in text)


def name_key(name: str) -> str:
    """The key two confusable names share (module docstring)."""
    s = _skeleton(unicodedata.normalize("NFKC", name).casefold()).casefold()
    s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))
    # Folded, a capital I is a small i, yet it reads as a small l; 0 and 1 read as o and l.
    s = _skeleton(s).translate(_FOLD)
    return " ".join(s.split())
