"""Reading JSON from the outside world: files and texts that may be anything at all.

Every file the engine and the command line read (saves, positions, options, board sides) comes
through here, so that bad bytes, broken syntax, absurd nesting or a 5,000-digit number end as one
`PositionError` naming the file and the place, never as a Python traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from smallworld.engine.model.errors import PositionError

MAX_BYTES = 64 * 1024 * 1024  # no file of the project comes near this
MAX_DEPTH = 64  # positions nest about 8 deep; anything far deeper is not ours


def loads(text: str | bytes, what: str) -> Any:
    """Parse JSON text; `what` names the input in the error ("save", "position file", ...)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = text[e.start : e.start + 1]
            raise PositionError(what, f"not UTF-8 text: byte {e.start} is {bad!r}") from None
    if len(text) > MAX_BYTES:
        raise PositionError(what, f"too large ({len(text)} characters; at most {MAX_BYTES})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError(what, f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise PositionError(what, f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:  # a number too long to convert (Python's integer digit limit)
        raise PositionError(what, f"not valid JSON: {e}") from None
    check_depth(data, what)
    return data


def read_json(path: str | Path, what: str) -> Any:
    """Read and parse a JSON file, refusing unreadable, non-UTF-8 or malformed files by name."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise PositionError(what, f"cannot read {path}: larger than {MAX_BYTES} bytes")
        raw = p.read_bytes()
    except OSError as e:
        raise PositionError(what, f"cannot read {path}: {e.strerror or e}") from None
    try:
        return loads(raw, what)
    except PositionError as e:
        raise PositionError(e.field, f"{path}: {str(e).split(': ', 1)[-1]}") from None


def check_depth(data: Any, what: str, limit: int = MAX_DEPTH) -> None:
    """Refuse data nested deeper than `limit` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        x, d = stack.pop()
        if d > limit:
            raise PositionError(what, f"nested deeper than {limit} levels")
        if isinstance(x, dict):
            stack.extend((v, d + 1) for v in x.values())
        elif isinstance(x, list):
            stack.extend((v, d + 1) for v in x)
