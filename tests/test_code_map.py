"""CONTRIBUTING.md, the map of where each kind of change goes: every file or folder it names exists
(a move that leaves the map behind fails here)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_path_in_the_code_map_exists() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    paths = set(re.findall(r"\b(?:smallworld|tests|tools|docs|data)/[\w./-]*\w/?", text))
    assert len(paths) > 30, paths  # the table, not a lucky match of a few
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"CONTRIBUTING.md names paths that do not exist: {missing}"
