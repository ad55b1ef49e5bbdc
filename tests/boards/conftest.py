"""Helpers for the board tests: copies of shipped sides as plain JSON, to break on purpose."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from smallworld.boards.loader import SIDES_DIR, load_file
from smallworld.boards.model import BoardSide


@pytest.fixture
def side_data() -> Callable[[str], dict[str, Any]]:
    """A fresh, mutable JSON object of a shipped side."""

    def get(side_id: str) -> dict[str, Any]:
        return copy.deepcopy(json.loads((SIDES_DIR / f"{side_id}.json").read_text(encoding="utf-8")))

    return get


@pytest.fixture
def write_side(tmp_path: Path) -> Callable[[dict[str, Any]], BoardSide]:
    """Write a side's JSON under tmp_path and load it back through the real loader."""

    def write(data: dict[str, Any]) -> BoardSide:
        path = tmp_path / f"{data.get('id', 'broken')}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return load_file(path)

    return write
