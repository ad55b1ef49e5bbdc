"""Load board sides from the JSON files in `smallworld/boards/sides/`."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from smallworld.boards.errors import BoardFormatError
from smallworld.boards.model import BoardSide

SIDES_DIR = Path(__file__).parent / "sides"


def load_file(path: str | Path) -> BoardSide:
    p = Path(path)
    try:
        data = json.loads(p.read_bytes().decode("utf-8"))
    except OSError as e:
        raise BoardFormatError(p.stem, None, f"cannot read the file: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise BoardFormatError(p.stem, None, f"not UTF-8 text: byte {e.start}") from None
    except RecursionError:
        raise BoardFormatError(p.stem, None, "nested far too deep to be a board side") from None
    except ValueError as e:  # malformed JSON, or a number too long to read
        raise BoardFormatError(p.stem, None, f"not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise BoardFormatError(p.stem, None, "the file must hold one JSON object")
    return BoardSide.from_json(data)


@cache
def load_side(side_id: str) -> BoardSide:
    """The shipped side with this id (file `sides/<id>.json`)."""
    path = SIDES_DIR / f"{side_id}.json"
    if not path.exists():
        raise KeyError(f"no board side {side_id!r}; known: {', '.join(side_ids())}")
    return load_file(path)


def side_ids() -> list[str]:
    return sorted(p.stem for p in SIDES_DIR.glob("*.json"))


def all_sides() -> list[BoardSide]:
    return [load_side(s) for s in side_ids()]
