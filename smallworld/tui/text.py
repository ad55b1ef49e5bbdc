"""Words for the play screen: names of seats and regions, moves described, typed moves parsed.

Every sentence comes from a catalogue (`smallworld.words`): the engine's core, the edition's, the
unit that declares the move, event or prompt, and this client's own (`tui/words.json`, owner `tui`).
Nothing here knows a race, power or marker by its id: moves are described from their declarations
(`ActionSpec`), with parameters this screen works out (costs, dues, what a region holds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from smallworld.engine import conquest
from smallworld.engine.actions import ABANDON, CONQUER, DEPLOY, END, EXPAND, FINAL, PICK, READY, Action
from smallworld.engine.board_map import bits
from smallworld.engine.edition import get_edition
from smallworld.engine.protocol import Arg
from smallworld.engine.settings import DEFAULT_EDITION
from smallworld.engine.state import State
from smallworld.words import CORE, DEFAULT, fill, read_catalogue
from smallworld.words.voice import Voice

TUI = "tui"  # the owner of this client's own words
HERE = Path(__file__).parent


@cache
def tui_catalogue() -> dict[str, dict[str, str]]:
    return read_catalogue(HERE / "words.json")


@lru_cache(maxsize=32)
def voice(game: Any, lang: str = DEFAULT, viewer: int | None = 0) -> Voice:
    """The words of `game` in `lang` as the seat `viewer` sees them, this screen's own included."""
    return Voice(game, lang, viewer, extra={TUI: tui_catalogue()})


def say(v: Voice, key: str, **params: Any) -> str:
    """A message of this screen."""
    return v.text(TUI, key, **params)


def said(lang: str, key: str, **params: Any) -> str:
    """A message of this screen before any game exists (loading, settings errors)."""
    cat = tui_catalogue()
    template = cat.get(lang, {}).get(key) or cat[DEFAULT].get(key) or f"{TUI}.{key}"
    return fill(template, params)


class InputError(ValueError):
    """A typed line that names no move; `key` and `params` say why, in the player's language
    (`words`); its own message is the English one."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(fill(tui_catalogue()[DEFAULT].get(key, key), params))

    def words(self, v: Voice) -> str:
        return say(v, self.key, **self.params)


# --- names --------------------------------------------------------------------------------------
def _unit_name(uid: str | None) -> str:
    """The English name (the data's) of a unit of the default edition, for callers without a game at
    hand (`smallworld.env`); the screen names units through its `Voice`."""
    if uid is None:
        return "-"
    ed = get_edition(DEFAULT_EDITION)
    if ed.natives is not None and uid == ed.natives.id:
        return ed.natives.name
    for table in (ed.races, ed.powers, ed.relics):
        if uid in table:
            return table[uid].name
    return uid


def race_name(race: str | None) -> str:
    return _unit_name(race)


def power_name(power: str | None) -> str:
    return _unit_name(power)


def seat_name(v: Voice, seat: int | None) -> str:
    return v.seat(seat)


def combo_tokens(st: State, race: str, power: str) -> int:
    """Tokens a combo gives when picked now (capped by what is left in the race's tray)."""
    game = st.game
    return min(game.race_value[race] + game.power_value[power], st.tray.get(race, 0))


def pick_combo(st: State, a: Action) -> tuple[str, str, int] | None:
    """The (race, power, coins on it) that a pick action of the seat to act would take, if any
    (the standard row or, in the team variant, the seat's faction column, §11.3)."""
    if a.kind != PICK or not isinstance(a.arg, int):
        return None
    combos = st.game.variant.combos(st, st.acting_seat)
    if not 0 <= a.arg < len(combos):
        return None
    race, power, coins = combos[a.arg]
    return (race, power, coins) if race is not None and power is not None else None


def region_label(st: State, v: Voice, r: int) -> str:
    """`7 Ashen Vale (Forest)`: number, name and terrain."""
    reg = st.game.map.regions[r]
    return say(v, "region.label", n=r, name=reg.name, terrain=v.terrain(reg.terrain))


def _declined(st: State, owner: int | None, race: str) -> bool:
    return owner is not None and race in st.seats[owner].declined_races()


def holder(st: State, v: Voice, r: int) -> str | None:
    """Who holds region `r` (`Seat 1 (<race>, in decline)`), or None when it is empty."""
    race = st.race[r]
    if race is None:
        return None
    if race == st.game.natives:
        return v.unit(race)
    owner = st.owner_seat(race)
    key = "holder.declined" if _declined(st, owner, race) else "holder.race"
    return say(v, key, seat=v.seat(owner), seat_you=owner == v.viewer, race=v.unit(race))


def whose(st: State, v: Voice, race: str) -> str:
    """`Seat 1's <race>`, `your <race> in decline`, or the natives' name."""
    if race == st.game.natives:
        return v.unit(race)
    owner = st.owner_seat(race)
    if owner is None:
        return say(v, "whose.nobody", race=v.unit(race))
    key = "whose.declined" if _declined(st, owner, race) else "whose.race"
    return say(v, key, seat=v.seat(owner), seat_you=owner == v.viewer, race=v.unit(race))


def where(st: State, v: Voice, r: int) -> str:
    """`12 Ashen Vale (Seat 1's <race>, 3 tokens)`: a region with what is in it now."""
    reg = st.game.map.regions[r]
    race = st.race[r]
    if race is None:
        return say(v, "where.empty", n=r, name=reg.name, terrain=v.terrain(reg.terrain))
    n = st.tokens[r]
    return say(v, "where.held", n=r, name=reg.name, who=whose(st, v, race), tokens=n, tokens_any=n > 0)


def dues_text(st: State, v: Voice, seat: int, r: int) -> tuple[int, str]:
    """The coins due before acting on region `r` (§6.7) and, in words, to whom and why."""
    dues = conquest.payments(st, seat, r) if st.race[r] is not None else []
    parts = [
        say(
            v,
            "dues.item",
            coins=n,
            payee=v.seat(payee) if payee is not None else v.core("stash"),
            payee_you=payee is not None and payee == v.viewer,
            why=v.payer_reason(why),
        )
        for payee, n, why in dues
    ]
    return sum(d[1] for d in dues), v.join(parts)


def _cost(st: State, seat: int, r: int, opt: str | None, as_adjacent: bool) -> int | None:
    """The conquest cost of `r`; `as_adjacent`: without travel cost (a unit's own way of conquering
    reaches its target as if adjacent)."""
    try:
        att = conquest.Attack(st, seat)
        if as_adjacent:
            att.adjacent |= 1 << r
        return conquest.cost(st, att, r, opt)
    except Exception:  # a description must never break the prompt
        return None


def move_params(st: State, v: Voice, a: Action) -> dict[str, Any]:
    """What this screen adds to a move's words: the acting race, hand, costs, dues, contents."""
    game = st.game
    seat = st.acting_seat
    s = st.seats[seat]
    spec = game.action_specs.get(a.kind)
    p: dict[str, Any] = {"race": v.unit(s.active), "power": v.unit(s.power), "hand": s.hand}
    r = a.region
    if r is not None:
        p["region"] = region_label(st, v, r)
        p["where"] = where(st, v, r)
    if spec is not None and isinstance(a.arg, int) and v.arg_type(spec, a.arg) == Arg.REGION.value:
        p["arg_where"] = where(st, v, a.arg)
    combo = pick_combo(st, a)
    if combo is not None:
        race, power, coins = combo
        position = int(a.arg or 0)
        p.update(
            race=v.unit(race),
            power=v.unit(power),
            tokens=combo_tokens(st, race, power),
            cost=position,
            free=position == 0,
            coins=coins,
            collect=coins > 0,
        )
    elif a.kind == EXPAND:
        keep = st.min_per_region(s.active)
        p["tokens"] = s.hand + sum(max(st.tokens[x] - keep, 0) for x in bits(st.occupied_mask(s.active)))
    elif a.kind == ABANDON and r is not None:
        p["tokens"] = st.tokens[r]
    elif a.kind == DEPLOY and r is not None:
        p["then"] = st.tokens[r] + (s.hand if a.arg == "all" else 1)
    elif a.kind == READY and r is not None:
        p["then"] = st.tokens[r] + 1  # the token from hand that takes the troop's place
    if spec is not None and spec.conquest and r is not None:
        opt = a.arg if isinstance(a.arg, str) else None
        cost = _cost(st, seat, r, opt, as_adjacent=spec.unit != CORE)
        who = holder(st, v, r)
        dues, _ = dues_text(st, v, seat, r)
        p.update(
            cost=cost if cost is not None else "?",
            short=(cost - s.hand) if cost is not None else "?",
            **{"from": v.core("clause.from", holder=who) if who else ""},
            pay=v.core("clause.pay", coins=dues) if dues else "",
        )
    return p


def describe(st: State, a: Action, v: Voice | None = None) -> str:
    """One legal move of the seat to act, in words, with what it costs and gives."""
    v = v or voice(st.game)
    return v.action(a, **move_params(st, v, a))


# --- typed moves --------------------------------------------------------------------------------
def find_region(st: State, words: list[str]) -> tuple[int, list[str]]:
    """The region the leading words name (flat number, ref, full or unique partial name) and the
    words after it; the longest name wins so "deploy Ashen Vale all" splits correctly."""
    m = st.game.map
    first = words[0]
    if first.isdigit():
        r = int(first)
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
            raise InputError("input.several", phrase=phrase, names=names, more=more, more_any=more > 0)
    raise InputError("input.no_region", text=" ".join(words))


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
        if len(rest) != 1 or not rest[0].isdigit() or not 1 <= int(rest[0]) <= max(last, 1):
            raise InputError("input.pick", last=last)
        return [Action(PICK, None, int(rest[0]) - 1)]
    spec = st.game.action_specs.get(kind)
    if spec is not None and spec.unit == CORE and not spec.region and spec.takes(Arg.NONE):
        if rest:
            raise InputError("input.nothing_after", kind=kind)
        return [Action(kind)]
    if kind in (CONQUER, FINAL, ABANDON, DEPLOY, READY):
        if not rest:
            raise InputError("input.which_region", kind=kind)
        r, tail = find_region(st, rest)
        if kind == READY:
            return [Action(READY, r, _troop_named(st, r, " ".join(tail) if tail else None))]
        arg: str | int | None = " ".join(tail) if tail else None
        if kind == DEPLOY and isinstance(arg, str) and arg.isdigit():
            n, hand = int(arg), st.seats[st.acting_seat].hand
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
        from smallworld.engine.notation import parse

        if spec is not None and spec.region and rest:
            # The region is read as the screen numbers it (flat numbers, names), like the core
            # moves: the engine's notation would read a bare number as a one-side map's local id.
            r, tail = find_region(st, rest)
            text = " ".join([kind, st.game.map.regions[r].ref, *tail])
        return [parse(st, text)]
    raise InputError("input.unknown", word=words[0])


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
            final.append(Entry(e.actions, line, e.regions))
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
