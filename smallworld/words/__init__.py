r"""Words: the text of every action, event, prompt and rules card, in English, Portuguese and German.

The engine speaks in ids (action kinds, event types, prompt ids); the words live beside whoever
declares them. Each unit of an edition owns one catalogue file (`editions/<ed>/words/<unit>.json`),
the edition owns `_edition.json` (its name, terrains, features, factions, natives), the engine's core
declarations own `smallworld/words/core.json`, and the play screens own `smallworld/words/tui.json`
(owner `tui`: moves described, seats and regions named, the terminal's prompts), which
`words/describe.py` speaks for every client. A catalogue file holds one object per language:

    {"en": {"name": "Goblins", "card": "...", "action.bomb": "place a bomb in {where}", ...},
     "pt": {...}, "de": {...}}

English is written first; Portuguese and German follow the rulebooks of those languages (names of
races, powers, markers, pieces, terrains and factions as they print them). No module outside a unit
names that unit's ids: a client finds a message by the declaration (`smallworld.words.voice.Voice`).

Message ids of a unit
  `name`                 its name;
  `card`                 a short rules summary in our own words (2-4 sentences);
  `action.<kind>`        each action kind it declares (a move of the seat to act, in the imperative);
  `event.<type>`         each event type it declares (what happened, the subject first);
  `prompt.<id>`          each prompt it declares (the question);
  `choice.<value>`       each value of a CHOICE argument or field it declares;
  `piece.<kind>`         each piece it brings (parameter `n`: how many, 1 when naming one);
  `option`               the named conquest option it offers, if it overrides `conquest_options`
                         (as the object of "using ...": `clause.using`);
  `why.<key>`            each refusal it gives (`Unit.why(rule, message, key, **params)`, the reason
                         `<unit>.<key>`): what is wrong and what to do (`words/why.py` names the
                         parameters).
Variants, tried before the plain id (the first that exists is used):
  `action.<kind>.<choice>` for a declared choice, `action.<kind>.<n>` for a count, and
  `action.<kind>.<type>` for another argument type (`region`, `piece`, `relic`, `option`, `plan`);
  `event.<type>.<choice>.<field>`, `event.<type>.<choice>`, `event.<type>.<field>`: <choice> is the
  value of the first CHOICE field present (a BOOL field: `yes`/`no`), <field> each optional or
  nullable field present, in declaration order (`<field>_none` when it is null).
The core owns the same ids for its own declarations, and `phase.<phase>`, `score.<item>` (`n`),
`score.unit` and `score.unit_declined` (`n`, `name`), `why.<reason>` for the engine's and the
server's refusals, `error.<code>` (`message`: the reason's sentence, `ref`: `rules.ref` (`rule`), the
section as a reference), and
shared words: `seat.you`, `seat.you.listed`, `seat.other` (`n`), `seat.nobody`, `region` (`n`,
`name`), `none`, `stash`, `list.sep`, `list.and` (`first`, `last`), `clause.using` (`option`),
`clause.from` (`holder`), `clause.pay` (`coins`), `text.<value>` (a free-text field value), and
`event.unknown`. The edition owns `name`, `natives`, `terrain.<T>`, `feature.<F>` (`size`),
`size.<letter>`, `faction.<F>`, `piece.mountain` and `why.<key>` for the refusals of its variants
(`edition.<key>`).

Parameters
  events:  every declared field present, as text (seats as "You"/"Seat 2", regions as "7 Ashen
           Vale", units by name, pieces and choices in words, lists joined; INT and BOOL fields stay
           numbers and flags), plus the flags `<seat field>_you` (it is the viewer), `<seat
           field>_self` (the same seat as `seat`), `<list field>_any` (present and not empty:
           lists, score items, pieces), `<int field>_any` (not 0) and, for a unit field, its name in
           the grammatical cases some languages decline it in, `<unit field>_dat` and `_gen`
           (German "von {defender_dat}": "von Trollen"; `CASES`);
  prompts: the prompt's fields the same way, and `seat`/`seat_you` (who answers);
  actions: `ACTION_PARAMS` below: from the declaration `region` (label), `arg` (the argument in words:
           a region, a marker or piece name, a choice word, a number), `arg_seat` (a number argument
           as the seat it names), `option` and `using`; from the client `race`, `power`, `hand` (the
           acting seat's), `declined` (its In-Decline race that may play first), `where` and
           `arg_where` (a region with what it holds), `tokens`, `then`, `cost`, `short`, `free`,
           `coins`, `collect`, and the clauses `from` and `pay` (empty when they do not apply).
Every language of a message uses the same parameters, except the `_you` flags and the case forms
(`_dat`, `_gen`) that only some grammars need. A unit's case forms are `name.dat` and `name.gen` in
its catalogue (the edition's natives: `natives.dat`, `natives.gen`), written only in the languages
whose form differs from the name (German "Trolle": `name.dat` "Trollen"); elsewhere the name.
German's `gen` is also its plural after an article in the nominative and accusative ("die
Verlassenen"), which has the same form.

Templates (the same language in the browser, `smallworld/web/static/i18n.js`; the cases of
`tests/templates.json` run against both and must give the same text):
  `{name}`               the parameter `name` (a name is `[a-z_][a-z0-9_]*`) as text: text as it is,
                         an integer in decimal, a flag as `true`/`false`;
  `{flag|first|other}`   `first` when the parameter is 1, true or the text "1", `other` for any other
                         value: plurals (`{n|coin|coins}`, the rule of all three languages) and
                         person (`{seat_you|roll|rolls}`); the branches may hold parameters and
                         selectors, nested to any depth;
  `\{` `\}` `\|` `\\`    a literal `{`, `}`, `|` or backslash (in a JSON catalogue: `"\\{"`); a
                         backslash before anything else is itself.
A parameter given as a function without arguments is called when a template uses it, and only then
(a word few messages need, such as a case form, costs nothing elsewhere). A parameter that is
missing, or null (None), leaves its whole `{...}` visible as written, selector and branches
included, so that a missing word shows instead of a wrong one. A `{` that does not open one of the
forms above (`{Name}`, `{n|one}`, `{n|a|b|c}`, no closing brace) is literal text; the catalogues
never rely on that (`tests/test_templates.py` checks them all).
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("en", "pt", "de")
# The grammatical cases a unit's name has forms for (`name.<case>`), given as `<field>_<case>`.
CASES = ("dat", "gen")

ACTION_PARAMS = frozenset(
    {
        "region", "arg", "option", "using", "race", "power", "hand", "where", "arg_where", "tokens",
        "then", "cost", "short", "free", "coins", "collect", "from", "pay", "arg_seat", "declined",
    }
)  # fmt: skip
DEFAULT = "en"
HERE = Path(__file__).parent

_NAME = re.compile(r"[a-z_][a-z0-9_]*")

# A parsed template: text pieces, ("var", name, source) and ("sel", name, first, other, source).
_Node = Any


class WordsError(ValueError):
    """A catalogue that cannot be read or a language that is not offered."""


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise WordsError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    return lang


_ESCAPABLE = frozenset("\\{}|")  # `\{` `\}` `\|` `\\`: the character itself


def _parse(t: str, i: int, stops: str) -> tuple[list[_Node], int]:
    """The nodes of `t` from `i` up to one of `stops` at this depth (or the end)."""
    nodes: list[_Node] = []
    buf: list[str] = []
    while i < len(t):
        c = t[i]
        if c == "\\" and i + 1 < len(t) and t[i + 1] in _ESCAPABLE:
            buf.append(t[i + 1])
            i += 2
            continue
        if c in stops:
            break
        if c == "{":
            node, j = _field(t, i)
            if node is not None:
                if buf:
                    nodes.append("".join(buf))
                    buf = []
                nodes.append(node)
                i = j
                continue
        buf.append(c)
        i += 1
    if buf:
        nodes.append("".join(buf))
    return nodes, i


def _field(t: str, i: int) -> tuple[_Node | None, int]:
    """`{name}` or `{name|first|other}` at `t[i]` (branches may hold fields), else (None, i)."""
    m = _NAME.match(t, i + 1)
    if m is None:
        return None, i
    name, j = m.group(), m.end()
    if j < len(t) and t[j] == "}":
        return ("var", name, t[i : j + 1]), j + 1
    if j < len(t) and t[j] == "|":
        first, k = _parse(t, j + 1, "|}")
        if k < len(t) and t[k] == "|":
            other, end = _parse(t, k + 1, "|}")
            if end < len(t) and t[end] == "}":
                return ("sel", name, first, other, t[i : end + 1]), end + 1
    return None, i


@cache
def _parsed(template: str) -> tuple[_Node, ...]:
    return tuple(_parse(template, 0, "")[0])


def _show(value: Any) -> str:
    """A parameter as text, as the browser's `String(value)` shows it: flags as `true`/`false`, a
    whole float without its `.0`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def _first(value: Any) -> bool:
    """Does a selector take its first branch: the parameter is 1, true or the text "1"."""
    if isinstance(value, str):
        return value == "1"
    return bool(value is True or (isinstance(value, numbers.Real) and value == 1))


def _render(nodes: Any, params: Mapping[str, Any]) -> str:
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
            continue
        value = params.get(node[1])
        if callable(value):
            value = value()  # a parameter worked out only where a template uses it
        if value is None:
            out.append(node[-1])  # a missing (or null) parameter stays visible
        elif node[0] == "var":
            out.append(_show(value))
        else:
            out.append(_render(node[2] if _first(value) else node[3], params))
    return "".join(out)


def fill(template: str, params: Mapping[str, Any]) -> str:
    """Fill in `{name}` and `{flag|first|other}` (module docstring); a missing parameter stays
    visible."""
    return _render(_parsed(template), params)


_PRIVATE = {c: chr(0xE000 + i) for i, c in enumerate("\\{}|")}
_ESCAPE = re.compile(r"\\([\\{}|])")


def malformed(template: str) -> bool:
    """Does a template hold a `{` or `}` that is neither a field nor escaped (`{Name}`, `{n|one}`,
    a brace left open): text that was meant as a field, or a brace to escape."""
    plain = _ESCAPE.sub(lambda m: _PRIVATE[m.group(1)], template)

    def bad(nodes: Any) -> bool:
        return any(
            ("{" in node or "}" in node)
            if isinstance(node, str)
            else node[0] == "sel" and (bad(node[2]) or bad(node[3]))
            for node in nodes
        )

    return bad(_parse(plain, 0, "")[0])


def _names(nodes: Any, values: set[str], flags: set[str]) -> None:
    for node in nodes:
        if isinstance(node, str):
            continue
        if node[0] == "var":
            values.add(node[1])
        else:
            flags.add(node[1])
            _names(node[2], values, flags)
            _names(node[3], values, flags)


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses (shown or choosing a branch)."""
    values: set[str] = set()
    flags: set[str] = set()
    _names(_parsed(template), values, flags)
    return values | flags


def shown(template: str) -> set[str]:
    """The parameter names a template shows as text (`{name}`), not those that only choose."""
    values: set[str] = set()
    _names(_parsed(template), values, set())
    return values


def read_catalogue(path: Path) -> dict[str, dict[str, str]]:
    """A catalogue file: language -> message id -> template."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise WordsError(f"{path}: {e}") from None
    if not isinstance(data, dict):
        raise WordsError(f"{path}: must hold one object keyed by language")
    out: dict[str, dict[str, str]] = {}
    for lang, messages in data.items():
        if lang not in LANGS:
            raise WordsError(f"{path}: unknown language {lang!r}")
        if not isinstance(messages, dict) or not all(isinstance(v, str) for v in messages.values()):
            raise WordsError(f"{path}: {lang} must map message ids to strings")
        out[lang] = dict(messages)
    return out


class Words:
    """The catalogues of one edition (core, edition, units, and optionally a client's), by owner."""

    def __init__(self, catalogues: Mapping[str, dict[str, dict[str, str]]]) -> None:
        self.catalogues = dict(catalogues)

    def owners(self) -> list[str]:
        return sorted(self.catalogues)

    def has(self, owner: str, key: str, lang: str = DEFAULT) -> bool:
        return key in self.catalogues.get(owner, {}).get(lang, {})

    def template(self, owner: str, key: str, lang: str = DEFAULT) -> str | None:
        """The template in `lang`, else the English one, else None."""
        cat = self.catalogues.get(owner, {})
        for language in (lang, DEFAULT):
            found = cat.get(language, {}).get(key)
            if found is not None:
                return found
        return None

    def text(self, owner: str, key: str, lang: str = DEFAULT, **params: Any) -> str:
        """The message filled in; a message nobody wrote shows its id (never an exception)."""
        template = self.template(owner, key, lang)
        if template is None:
            return f"{owner}.{key}"
        return fill(template, params)

    def with_catalogue(self, owner: str, catalogue: dict[str, dict[str, str]]) -> Words:
        return Words({**self.catalogues, owner: catalogue})


CORE = "core"
EDITION = "edition"


@cache
def core_catalogue() -> dict[str, dict[str, str]]:
    return read_catalogue(HERE / "core.json")


@cache
def _edition_words(folder: str) -> dict[str, dict[str, dict[str, str]]]:
    out: dict[str, dict[str, dict[str, str]]] = {}
    for path in sorted(Path(folder).glob("*.json")):
        owner = EDITION if path.stem == "_edition" else path.stem
        out[owner] = read_catalogue(path)
    return out


def for_edition(edition: Any) -> Words:
    """The words of an edition: the engine's core catalogue, the edition's, and each unit's."""
    catalogues: dict[str, dict[str, dict[str, str]]] = {CORE: core_catalogue()}
    folder = getattr(edition, "words", None)
    if folder is not None:
        catalogues.update(_edition_words(str(folder)))
    return Words(catalogues)
