"""Refusals in words: an engine or server error, or a "why not" of `explain`, told from its reason
and parameters (`smallworld/engine/model/errors.py`) in the reader's language.

The words of a reason are `why.<reason>` in the core catalogue, or `why.<key>` in the catalogue of
the unit (or of the edition) for a reason `<unit>.<key>` (`edition.<key>`): units own the words of
their own refusals. The section a refusal cites is shown once, as a reference after the sentence
(`rules.ref`: "Rules §6.12"), never as the sentence itself.

Parameters are plain JSON values; their names say what they are, and they are shown so
(`static/i18n.js`, `why`, does the same for the browser):
  `region`, `*_region`  a region ref ("SIDE:ID") or index: "7 Ashen Vale";
  `regions`             a list of them, joined (and `regions_any`: not empty);
  `seat`, `*_seat`      a seat: "You" / "Seat 2" (and `<name>_you`: it is the reader);
  `unit`, `race`, `power`, `relic`   a unit id: its name;
  `piece`               a piece kind: its name (`n` of them, 1 if no `n`);
  `pieces`              a list of piece kinds, or {kind: count}: joined (and `pieces_any`);
  `phase`, `terrain`, `faction`, `option`   their words;
  `why`                 another reason, told with the same parameters (a plan's failing step);
anything else (numbers, flags, the text a player sent: `value`, `name`, `field`) as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.errors import REFUSED
from smallworld.words import CORE, EDITION

if TYPE_CHECKING:
    from smallworld.words.voice import Voice

_UNITS = frozenset({"unit", "race", "power", "relic"})


def owner_key(units: Any, reason: str) -> tuple[str, str]:
    """The catalogue owner and message id of a reason (`units`: the ids of the edition's units)."""
    head, dot, rest = reason.partition(".")
    if dot and (head == EDITION or head in units):
        return head, f"why.{rest}"
    return CORE, f"why.{reason}"


def _is(name: str, kind: str) -> bool:
    return name == kind or name.endswith(f"_{kind}")


def params(v: Voice, raw: Mapping[str, Any]) -> dict[str, Any]:
    """A reason's parameters as the words show them (see the module docstring)."""
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if value is None:
            continue
        if name == "why":
            continue  # told below, with the others
        if _is(name, "region"):
            out[name] = v.region(value)
        elif name == "regions":
            out[name] = v.join((v.region(r) for r in value), last=True)
            out["regions_any"] = bool(value)
        elif _is(name, "seat"):
            out[name] = v.seat(value)
            out[f"{name}_you"] = value == v.viewer
        elif name in _UNITS:
            out[name] = v.unit(str(value))
        elif name == "piece":
            out[name] = v.piece(str(value), int(raw.get("n", 1)))
        elif name == "pieces":
            items = value.items() if isinstance(value, Mapping) else [(k, None) for k in value]
            out[name] = v.join(
                (v.piece(k) if n is None else f"{n} {v.piece(k, n)}" for k, n in items), last=True
            )
            out["pieces_any"] = bool(value)
        elif name == "phase":
            out[name] = v.phase(str(value))
        elif name == "terrain":
            out[name] = v.terrain(str(value))
        elif name == "faction":
            out[name] = v.faction(str(value))
        elif name == "option":
            out[name] = v.option(str(value))
        else:
            out[name] = value
    if isinstance(raw.get("why"), str):
        out["why"] = why(v, raw["why"], {k: x for k, x in raw.items() if k != "why"})
    return out


def why(v: Voice, reason: str, raw: Mapping[str, Any] | None = None) -> str:
    """The sentence of a reason: what is wrong and what to do (no section)."""
    owner, key = owner_key(v.edition.units, reason or REFUSED)
    if not v.has(owner, key):
        owner, key = CORE, f"why.{REFUSED}"
    return v.text(owner, key, **params(v, raw or {}))


def reference(v: Voice, rule: str | None) -> str:
    """The section a refusal cites, as a reference: " (Rules §6.12)" ("" when none)."""
    return v.core("rules.ref", rule=rule) if rule else ""


def told(v: Voice, reason: str, raw: Mapping[str, Any] | None, rule: str | None = None) -> str:
    """A "why not" of `explain` (a reason with its section): the sentence and the reference."""
    return why(v, reason, raw) + reference(v, rule)


def error(v: Voice, e: Any) -> str:
    """An error (the engine's or a server's, or its JSON) as a person reads it: `error.<code>` of
    the core around the reason's sentence and the section's reference."""
    if isinstance(e, Mapping):
        code, reason, raw, rule = e.get("code"), e.get("reason"), e.get("params"), e.get("rule")
    else:
        code, rule = getattr(e, "code", None), getattr(e, "rule", None)
        reason, raw = getattr(e, "reason", None), getattr(e, "params", None)
    code = str(code or "error")
    key = f"error.{code}" if v.has(CORE, f"error.{code}") else "error.error"
    sentence = why(v, str(reason or code), raw if isinstance(raw, Mapping) else {})
    return v.core(key, message=sentence, ref=reference(v, rule))
