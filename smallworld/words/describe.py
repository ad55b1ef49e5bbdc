"""Words for moves and players, in the reader's language: names of seats, races, powers and
regions, and each move described with its cost, dues and what a region holds. The terminal, the web
payload and the RL environment all ask here; none of them asks another client.

Every sentence comes from a catalogue (`smallworld.words`): the engine's core, the edition's, the
unit that declares the move, event or prompt, and the catalogue of the play screens
(`words/tui.json`, owner `tui`, which the terminal began). Nothing here knows a race, power or
marker by its id: moves are described from their declarations (`ActionSpec`), with parameters worked
out here (costs, dues, what a region holds)."""

from __future__ import annotations

from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any

from smallworld.engine.model.actions import ABANDON, DEPLOY, END, EXPAND, PICK, READY, Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.protocol import Arg
from smallworld.engine.model.settings import DEFAULT_EDITION
from smallworld.engine.model.state import CONQUER, State
from smallworld.engine.rules import conquest
from smallworld.words import CORE, DEFAULT, core_catalogue, fill, read_catalogue
from smallworld.words.voice import Voice

TUI = "tui"  # the owner of the play screens' own words
HERE = Path(__file__).parent


@cache
def tui_catalogue() -> dict[str, dict[str, str]]:
    return read_catalogue(HERE / "tui.json")


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



def error_said(lang: str, e: Exception) -> str:
    """An error met before any game exists (a save, an options file, the settings) in `lang`: the
    core's sentence for its reason with the field it names, then the technical detail (the form
    the field must have) as the engine wrote it."""
    reason = getattr(e, "reason", None) or getattr(e, "code", "error")
    cat = core_catalogue()
    template = cat.get(lang, {}).get(f"why.{reason}") or cat[DEFAULT].get(f"why.{reason}")
    if template is None:
        return str(e)
    field = getattr(e, "field", None) or ""
    sentence = fill(template, {**(getattr(e, "params", None) or {}), "field": field})
    detail = str(e).removeprefix(f"{field}: ") if field else str(e)
    return f"{sentence} ({detail})"


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


def combo_name(v: Voice, race: str | None, power: str | None) -> str:
    """`Orcs + Flying`: a race and its power, as the screens write a combo."""
    return say(v, "combo", race=v.unit(race), power=v.unit(power))


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


def _rising(st: State, v: Voice, seat: int) -> str:
    """The seat's In-Decline race that may play its own phase first (classic Ghouls), by name."""
    races = st.seats[seat].declined_races()
    return v.unit(next((r for r in races if st.game.units[r].conquers_in_decline), None))


def _declined(st: State, owner: int | None, race: str) -> bool:
    return owner is not None and race in st.seats[owner].declined_races()


def holder(st: State, v: Voice, r: int) -> str | None:
    """Who holds region `r` (`Seat 1 (<race>, in decline)`), or None when it is empty; as the
    "from" clause (`clause.from`) takes it: the natives in the dative where a language declines them
    (German "von Verlorenen Stämmen")."""
    race = st.race[r]
    if race is None:
        return None
    if race == st.game.natives:
        return v.unit(race, "dat")
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
    you = owner == v.viewer
    return say(v, key, seat=v.seat(owner), seat_you=you, race=v.unit(race), **v.forms("race", race))


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
    p |= v.forms("race", s.active)
    p["declined"] = partial(_rising, st, v, seat)
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
    seat = st.acting_seat
    if a.kind == END and st.phase == CONQUER and not st.occupied_mask(conquest.conquering_race(st, seat)):
        # No region to redeploy on (§6.12): the tokens stay in hand, they do not go to redeployment.
        return say(v, "move.end_nowhere", hand=st.seats[seat].hand)
    return v.action(a, **move_params(st, v, a))
