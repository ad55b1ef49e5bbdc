"""Typed moves parsed, and the move list folded, for the play screen. The words of moves and
players come from `smallworld.words.describe`."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.model.actions import ABANDON, CONQUER, DEPLOY, END, FINAL, PICK, READY, Action
from smallworld.engine.model.protocol import Arg
from smallworld.engine.model.state import State
from smallworld.words import CORE, DEFAULT, fill
from smallworld.words.describe import describe, move_params, say, tui_catalogue
from smallworld.words.voice import Voice


class InputError(ValueError):
    """A typed line that names no move; `key` and `params` say why, in the player's language
    (`words`); its own message is the English one."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(fill(tui_catalogue()[DEFAULT].get(key, key), params))

    def words(self, v: Voice) -> str:
        return say(v, self.key, **self.params)


# --- typed moves --------------------------------------------------------------------------------
def number(text: str) -> int | None:
    """A number typed with the digits 0-9 (not `²` or `٣`, which Python also calls digits)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


TYPED_MAX = 40  # characters of a typed word or name that a message quotes
PATH_MAX = 300  # characters of a typed path that a message quotes (a real one is shorter)


def typed(text: str, most: int = TYPED_MAX) -> str:
    """What the player typed, as a message quotes it: control characters shown as symbols (never
    sent to the terminal) and cut to `most` characters."""
    shown = "".join(_visible(c) for c in text[: most + 1])
    return shown if len(text) <= most else shown[:most] + "…"


def _visible(c: str) -> str:
    code = ord(c)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures: ␛ for ESC, ␀ for NUL...
    if code == 0x7F:
        return "␡"
    if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        return f"<U+{code:04X}>"
    return c


def find_region(st: State, words: list[str]) -> tuple[int, list[str]]:
    """The region the leading words name (flat number, ref, full or unique partial name) and the
    words after it; the longest name wins so "deploy Ashen Vale all" splits correctly."""
    m = st.game.map
    r = number(words[0])
    if r is not None:
        if r >= m.n:
            raise InputError("input.no_region_number", n=r, last=m.n - 1)
        return r, words[1:]
    for k in range(len(words), 0, -1):
        phrase = " ".join(words[:k])
        try:
            return m.index(phrase), words[k:]
        except KeyError:
            pass
    for k in range(len(words), 0, -1):
        phrase = " ".join(words[:k]).lower()
        hits = [reg.index for reg in m.regions if phrase in reg.name.lower()]
        if len(hits) == 1:
            return hits[0], words[k:]
        if len(hits) > 1 and k == 1:
            names = ", ".join(f"{h} {m.regions[h].name}" for h in hits[:SHOWN])
            more = len(hits) - SHOWN
            raise InputError("input.several", phrase=typed(phrase), names=names, more=more, more_any=more > 0)
    raise InputError("input.no_region", text=typed(" ".join(words)))


SHOWN = 4  # ambiguous names listed before "and N more"

ALIASES = {"attack": CONQUER, "take": CONQUER, "place": DEPLOY, "redeploy": DEPLOY, "done": END, "stop": END}


def parse_move(st: State, text: str) -> list[Action]:
    """The actions a typed line names: `conquer 7`, `conquer Ashen Vale`, `deploy 7 all`, `pick 2`;
    `deploy 7 3` is a shorthand for three single deploys. Moves are typed in English in every
    language (their kinds are the engine's).

    Only the form is checked here; legality is left to `State.apply` so its rule is reported."""
    words = text.split()
    if not words:
        raise InputError("input.empty")
    kind = ALIASES.get(words[0].lower(), words[0].lower())
    rest = words[1:]
    if kind == PICK:
        # Positions are counted 1..6 as the rulebook counts them (and as the menu and the row show);
        # the engine's argument is the number of combos above, 0..5.
        last = len(st.game.variant.combos(st, st.acting_seat))
        pos = number(rest[0]) if len(rest) == 1 else None
        if pos is None or not 1 <= pos <= max(last, 1):
            raise InputError("input.pick", last=last)
        return [Action(PICK, None, pos - 1)]
    spec = st.game.action_specs.get(kind)
    if spec is not None and spec.unit == CORE and not spec.region and spec.takes(Arg.NONE):
        if rest:
            raise InputError("input.nothing_after", kind=typed(kind))
        return [Action(kind)]
    if kind in (CONQUER, FINAL, ABANDON, DEPLOY, READY):
        if not rest:
            raise InputError("input.which_region", kind=typed(kind))
        r, tail = find_region(st, rest)
        if kind == READY:
            return [Action(READY, r, _troop_named(st, r, " ".join(tail) if tail else None))]
        arg: str | int | None = " ".join(tail) if tail else None
        count = number(arg) if isinstance(arg, str) else None
        if kind == DEPLOY and count is not None:
            n, hand = count, st.seats[st.acting_seat].hand
            if not 1 <= n <= hand:
                raise InputError("input.deploy_count", hand=hand)
            return [Action(DEPLOY, r, "all")] if n == hand and n > 1 else [Action(DEPLOY, r)] * n
        if kind == DEPLOY and arg not in (None, "all"):
            raise InputError("input.deploy_form")
        if kind == CONQUER and arg is None:
            # A region that needs the die is listed as `final`; spare the player the distinction.
            here = [a for a in st.legal_actions() if a.region == r and a.kind in (CONQUER, FINAL)]
            if here and all(a.kind == FINAL for a in here):
                return [here[0]]
        return [Action(kind, r, arg)]
    known = {a.kind for a in st.legal_actions()}
    if kind in known:
        # A kind that content added: accept its generic text form.
        from smallworld.engine.api.notation import parse

        if spec is not None and spec.region and rest:
            # The region is read as the screen numbers it (flat numbers, names), like the core
            # moves: the engine's notation would read a bare number as a one-side map's local id.
            r, tail = find_region(st, rest)
            text = " ".join([kind, st.game.map.regions[r].ref, *tail])
        return [parse(st, text)]
    raise InputError("input.unknown", word=typed(words[0]))


def _troop_named(st: State, r: int, word: str | None) -> str:
    """The troop piece `ready REGION [PIECE]` names: a piece kind, or the only troop in the region
    when none is given (the engine then says why a wrong one cannot be readied)."""
    here = list(st.troops_in(r))
    if word is None and len(here) == 1:
        return here[0]
    if not here:
        raise InputError("input.ready_none", name=st.game.map.regions[r].name)
    kind = (word or "").lower().replace(" ", "_")
    if kind not in st.game.pieces:
        raise InputError("input.ready_form", pieces=", ".join(here) or "-")
    return kind


# --- the move list, folded ----------------------------------------------------------------------
FOLD_MIN = 3  # moves that differ only by their region are folded from this many on
# Parameters that say which region a move is about (and what it then holds); the rest of a move's
# words (its cost, its holder, its payments) must be equal for two moves to fold.
REGION_PARAMS = ("region", "where")


@dataclass
class Entry:
    """One numbered line of the move list: one move, or several that differ only by their region."""

    actions: list[Action]
    text: str
    regions: list[int] = field(default_factory=list)
    short: str = ""  # the text with the regions by number alone, for a short screen


def fold(st: State, legal: list[Action], v: Voice) -> list[Entry]:
    """The legal moves as numbered entries, in the engine's order: those that differ only by their
    target region share one entry (`regions`), so an airborne or Ashes turn lists a few lines, not
    fifty. Deploying "all" of a hand of one token is the single deploy: listed once."""
    hand = st.seats[st.acting_seat].hand
    place = say(v, "fold.region")
    groups: dict[tuple[Any, ...], Entry] = {}
    out: list[Entry] = []
    for a in legal:
        if a.kind == DEPLOY and a.arg == "all" and hand == 1 and Action(DEPLOY, a.region) in legal:
            continue
        if a.region is None:
            out.append(Entry([a], ""))
            continue
        p = move_params(st, v, a)
        shape = v.action(a, **{**p, **{k: place for k in REGION_PARAMS}})
        key = (a.kind, repr(a.arg), shape)
        entry = groups.get(key)
        if entry is None:
            entry = groups[key] = Entry([], shape)
            out.append(entry)
        entry.actions.append(a)
        entry.regions.append(a.region)
    final: list[Entry] = []
    for e in out:
        if len(e.actions) >= FOLD_MIN:
            names = ", ".join(f"{r} {st.game.map.regions[r].name}" for r in e.regions)
            line = say(v, "fold.line", move=e.text, place=place, regions=names)
            numbers = ", ".join(str(r) for r in e.regions)
            short = say(v, "fold.line", move=e.text, place=place, regions=numbers)
            final.append(Entry(e.actions, line, e.regions, short))
        else:
            final += [Entry([a], describe(st, a, v) + _troops(st, v, a)) for a in e.actions]
    return final


def _troops(st: State, v: Voice, a: Action) -> str:
    """On a redeploy or abandon line: the troops (a Champion...) in that region, which readying
    and abandoning treat by their own rules, so the player sees them before choosing."""
    if a.kind not in (DEPLOY, ABANDON) or a.region is None:
        return ""
    here = st.troops_in(a.region)
    if not here:
        return ""
    named = (f"{n} {v.piece(k, n)}" if n > 1 else v.piece(k) for k, n in sorted(here.items()))
    pieces = v.join(named, last=True)
    return say(v, "move.troops", pieces=pieces)
