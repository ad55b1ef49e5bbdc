"""What the server accepts from a client, checked before anything else reads it: every parsed body
and socket message (depth, strings, numbers), display texts, game ids and integer parameters. Each
refusal names the field, so nothing malformed reaches the engine or the store (PostgreSQL refuses a
NUL in text; a lone surrogate cannot be written as UTF-8 at all). The request models
(`models.py`) are built from these checks: a check raises `Invalid` (the rule broken, without the
field, which only the model knows) and the answer is the `ServerError` that names it
(`refusals.py`)."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

from smallworld.server.errors import ServerError

T = TypeVar("T")

# The deepest JSON a client sends is an action (a plan: an object of lists of objects) or a create's
# options, a few levels; far below the parser's own recursion limit (about 990 levels).
MAX_DEPTH = 32
MAX_NAME = 40
MAX_TITLE = 80
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")
# Game ids are 16 hex digits (`secrets.token_hex(8)`); the column holds 32 characters. Anything else
# cannot be a game, and is answered without a store lookup.
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,32}")
# Bidirectional embeddings, overrides, isolates and marks: they reorder how the text around a name
# is shown (a name could make another player's words read backwards).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NOT_IN_NAMES = frozenset(("Cc", "Cs", "Zl", "Zp"))  # control characters, surrogates, line breaks


class Invalid(ValueError):
    """A value that breaks `rule`, found while a request model is validated. The field is the
    value's place in the request (with `at` appended: a key of the value) and the message
    `"<field>: <rule>"`; or, with `field` given, that field and the rule alone as the message."""

    def __init__(self, rule: str, at: str | None = None, field: str | None = None) -> None:
        super().__init__(rule)
        self.rule, self.at, self.field = rule, at, field


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# One decoder for every message: `json.loads` with an option makes a new one (and its scanner) at
# each call, which took as long as reading a socket's `act` message itself.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _loads(raw: bytes | str) -> Any:
    """`json.loads(raw, parse_constant=_no_constant)`, with the one decoder."""
    if isinstance(raw, str):
        if raw.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", raw, 0)
    elif isinstance(raw, bytes | bytearray):
        raw = raw.decode(json.detect_encoding(raw), "surrogatepass")
    else:  # not JSON text at all: `json.loads` says so
        return json.loads(raw, parse_constant=_no_constant)
    return _DECODER.decode(raw)


def parse(raw: bytes | str, where: str) -> Any:
    """`raw` as JSON, checked (`check`); `malformed_json` when it is not JSON (NaN and Infinity are
    not), `invalid_input` when it nests deeper than the parser can follow."""
    try:
        value = _loads(raw)
    except RecursionError:
        raise ServerError("invalid_input", f"{where}: nested over {MAX_DEPTH} levels", where) from None
    except ValueError as e:  # UnicodeDecodeError included
        raise ServerError("malformed_json", f"the {where} is not JSON: {_safe(str(e))}", where) from None
    check(value, where)
    return value


def check(value: Any, where: str) -> None:
    """Refuse JSON nested over `MAX_DEPTH` levels, strings (keys too) holding a NUL or a lone
    surrogate, and numbers that are not finite; the field is the JSON path (`seats[1].name`, with
    `where` for the whole). Iterative: no depth can exhaust the stack here."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        v, path = stack.pop()
        if isinstance(v, str):
            if _BAD_TEXT.search(v):
                _refuse(path, where, "a string holding a NUL or a lone surrogate")
        elif isinstance(v, dict):
            if len(path) >= MAX_DEPTH:
                _refuse(path, where, f"nested over {MAX_DEPTH} levels")
            for k, x in v.items():
                if _BAD_TEXT.search(k):
                    _refuse((*path, k), where, "a key holding a NUL or a lone surrogate")
                stack.append((x, (*path, k)))
        elif isinstance(v, list):
            if len(path) >= MAX_DEPTH:
                _refuse(path, where, f"nested over {MAX_DEPTH} levels")
            stack.extend((x, (*path, i)) for i, x in enumerate(v))
        elif isinstance(v, float) and not math.isfinite(v):
            _refuse(path, where, "a finite number")


def field_name(path: tuple[Any, ...], where: str) -> str:
    """`("seats", 1, "name")` -> `seats[1].name`; the empty path is `where`. Keys are shown with
    their bad characters escaped and cut at 40 characters, so the answer is always valid UTF-8."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else ("." if out else "") + _safe(p)[:40]
    return out[:200] or where


def _refuse(path: tuple[Any, ...], where: str, what: str) -> None:
    name = field_name(path, where)
    raise ServerError("invalid_input", f"{name}: {what}", name)


def _safe(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def text(value: Any, longest: int, what: str = "a name") -> str:
    """A display text (a name, a title): a string of 1 to `longest` characters once stripped, with no
    control character, line break or bidirectional control; else `Invalid`."""
    rule = f"{what} of 1 to {longest} characters, without control or bidirectional characters"
    if not isinstance(value, str):
        raise Invalid(rule)
    stripped = value.strip()
    if not stripped or len(stripped) > longest:
        raise Invalid(rule)
    for ch in stripped:
        if ch in _BIDI or unicodedata.category(ch) in _NOT_IN_NAMES:
            raise Invalid(f"{rule} (U+{ord(ch):04X})")
    return stripped


def name(value: Any) -> str:
    """A player's or seat's display name."""
    return text(value, MAX_NAME)


def outside(read: Callable[[Any], T], value: Any, where: str) -> T:
    """`read(value)` for an input given as `where` outside a request model: `invalid_input` naming
    `where` when it is refused (a model's refusal says the same through `refusals`)."""
    try:
        return read(value)
    except Invalid as e:
        raise ServerError("invalid_input", f"{where}: {e.rule}", where) from None


def name_of(value: Any, where: str, default: str = "Player") -> str:
    """A display name given as `where` outside a request model (`default` when none is given)."""
    return default if value is None else outside(name, value, where)


def game_id(value: str) -> str:
    """`value` when it has the form of a game id; `not_found` (no lookup) when it cannot be one."""
    if not _GAME_ID.fullmatch(value):
        raise ServerError("not_found", "no such game: a game id is 1 to 32 letters, digits, - or _", "game")
    return value


def integer(value: Any) -> int:
    """An integer query or path parameter, read as Python reads one (`int`)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Invalid("an integer") from None


def int_param(value: str | None, where: str) -> int | None:
    """An integer query parameter outside a request model (None when absent)."""
    return None if value is None else outside(integer, value, where)
