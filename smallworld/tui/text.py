"""Words for the play screen: names of seats and regions, actions described, typed moves parsed."""

from __future__ import annotations

from smallworld.engine import conquest
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, END, EXPAND, FINAL, PICK, Action
from smallworld.engine.board_map import bits
from smallworld.engine.edition import get_edition
from smallworld.engine.notation import to_text
from smallworld.engine.state import State


class InputError(ValueError):
    """A typed line that names no move; the message says why, for the prompt to repeat."""


def race_name(race: str | None) -> str:
    if race is None:
        return "-"
    ed = get_edition("warcraft")
    if ed.natives is not None and race == ed.natives.id:
        return ed.natives.name
    entry = ed.races.get(race)
    return entry.name if entry else race


def power_name(power: str | None) -> str:
    if power is None:
        return "-"
    entry = get_edition("warcraft").powers.get(power)
    return entry.name if entry else power


def seat_name(seat: int, human: int) -> str:
    return "You" if seat == human else f"Seat {seat}"


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


def region_label(st: State, r: int) -> str:
    reg = st.game.map.regions[r]
    return f"{r} {reg.name} ({reg.terrain})"


def holder(st: State, r: int, human: int) -> str:
    """Who holds region `r`, as the player would say it."""
    race = st.race[r]
    if race is None:
        return "empty"
    if race == st.game.natives:
        return race_name(race)
    owner = st.owner_seat(race)
    who = "nobody" if owner is None else seat_name(owner, human)
    if owner is not None and st.seats[owner].declined == race:
        return f"{who} ({race_name(race)}, in decline)"
    return f"{who} ({race_name(race)})"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(st: State, a: Action, human: int) -> str:
    """One legal move of the seat to act, in words, with what it costs and gives."""
    seat = st.acting_seat
    s = st.seats[seat]
    kind = a.kind
    combo = pick_combo(st, a)
    if combo is not None:
        race, power, coins = combo
        position = int(a.arg or 0)
        cost = f"costs {plural(position, 'coin')}" if position else "free"
        extra = f", collect {plural(coins, 'coin')}" if coins else ""
        return (
            f"pick {race_name(race)} + {power_name(power)} "
            f"({combo_tokens(st, race, power)} tokens) — {cost}{extra}"
        )
    if kind == DECLINE:
        return f"go into decline ({race_name(s.active)} stop; you score, then pick anew next turn)"
    if kind == EXPAND:
        keep = st.min_per_region(s.active)
        ready = s.hand + sum(max(st.tokens[r] - keep, 0) for r in bits(st.occupied_mask(s.active)))
        return f"expand with {race_name(s.active)} ({plural(ready, 'token')} ready to conquer)"
    if kind in (CONQUER, FINAL) and a.region is not None:
        opt = a.arg if isinstance(a.arg, str) else None
        cost = conquest.cost(st, conquest.Attack(st, seat), a.region, opt)
        target = region_label(st, a.region)
        who = holder(st, a.region, human)
        frm = "" if who == "empty" else f" from {who}"
        dues = sum(d[1] for d in conquest.payments(st, seat, a.region))
        pay = f", pay {plural(dues, 'coin')}" if dues else ""
        using = f" using {option_name(st, opt)}" if opt else ""
        if kind == CONQUER:
            return f"conquer {target}{frm}{using} — costs {cost} of your {s.hand} tokens{pay}"
        short = cost - s.hand
        return f"final attempt on {target}{frm}{using} (needs the die: {short} short){pay}"
    if kind == ABANDON and a.region is not None:
        n = st.tokens[a.region]
        return f"abandon {region_label(st, a.region)} (take back {plural(n, 'token')})"
    if kind == END:
        return f"end conquests ({plural(s.hand, 'token')} in hand go to redeployment)"
    if kind == DEPLOY and a.region is not None:
        name = region_label(st, a.region)
        now = st.tokens[a.region]
        if isinstance(a.arg, str) and a.arg != "all":
            return f"put your {piece_name(a.arg)} from hand in {name}"
        if a.arg == "all":
            return f"deploy all {s.hand} tokens to {name} (then {now + s.hand} there)"
        return f"deploy 1 token to {name} (then {now + 1} there)"
    words = describe_content(st, a, human)
    return words if words is not None else to_text(st.game, a)


PIECE_NAMES = {
    "wisp_wall": "Wisp Wall",
    "fort": "Fort",
    "watch_tower": "Watch Tower",
    "beast": "Beast",
    "champion": "Champion",
    "bomb": "bomb",
    "military_objective": "Military Objective",
}


def piece_name(kind: str) -> str:
    return PIECE_NAMES.get(kind, kind.replace("_", " "))


def relic_name(st: State, relic: str | None) -> str:
    if relic is None:
        return "?"
    entry = st.game.relics.get(relic)
    return entry.name if entry is not None else relic.replace("_", " ")


def unit_name(st: State, uid: str) -> str:
    """The name of a race, power or relic id (score items use them; `_declined` is stripped)."""
    base = uid.removesuffix("_declined")
    for table in (st.game.edition.races, st.game.edition.powers):
        if base in table:
            return table[base].name
    if base in st.game.relics:
        return relic_name(st, base)
    return base.replace("_", " ")


def option_name(st: State, opt: str) -> str:
    """A conquest option (`frostmourne`, `ethereals+frostmourne`) in words."""
    return " and ".join(
        "the Ethereals' discount" if o == "ethereals" else unit_name(st, o) for o in opt.split("+")
    )


def where(st: State, r: int, human: int) -> str:
    """`12 Ashen Vale (Seat 1: Dwarves, 3 tokens)`: a region with what is in it now."""
    reg = st.game.map.regions[r]
    race = st.race[r]
    if race is None:
        inside = f"empty {reg.terrain}"
    else:
        if race == st.game.natives:
            who = race_name(race)
        else:
            owner = st.owner_seat(race)
            whose = "your" if owner == human else ("nobody's" if owner is None else f"Seat {owner}'s")
            who = f"{whose} {race_name(race)}"
            if owner is not None and st.seats[owner].declined == race:
                who += " in decline"
        inside = f"{who}, {plural(st.tokens[r], 'token')}" if st.tokens[r] else who
    return f"{r} {reg.name} ({inside})"


def _cost_as_adjacent(st: State, seat: int, r: int, opt: str | None) -> int | None:
    """The conquest cost of `r` with no travel cost (airborne assault, Ashes of Al'ar)."""
    try:
        att = conquest.Attack(st, seat)
        att.adjacent |= 1 << r
        return conquest.cost(st, att, r, opt)
    except Exception:  # a description must never break the prompt
        return None


def describe_content(st: State, a: Action, human: int) -> str | None:
    """Moves that races, powers and relics add (and answers to their prompts), in words."""
    seat = st.acting_seat
    s = st.seats[seat]
    k, r = a.kind, a.region
    at = where(st, r, human) if r is not None else ""
    opt = a.arg if isinstance(a.arg, str) else None
    using = f" using {option_name(st, opt)}" if opt else ""
    if k == "buy" and isinstance(a.arg, int):
        if a.arg == 0:
            return "buy no extra Forsaken tokens"
        return f"buy {plural(a.arg, 'extra Forsaken token')} for {plural(a.arg, 'coin')}"
    if k == "form":
        if a.arg == "human":
            return "human form: gain 2 coins now"
        return "worgen form: pay 1 coin now, every conquest this turn costs 1 token fewer"
    if k == "bomb" and r is not None:
        return f"place a bomb (hidden: it may be a dud) in {at}"
    if k == "bomb_done":
        return "place no more bombs this turn"
    if k == "objective" and r is not None:
        return f"place a Military Objective in {at}"
    if k == "objective_done":
        return "place no more Military Objectives"
    if k == "airborne" and r is not None:
        cost = _cost_as_adjacent(st, seat, r, opt)
        c = "the die comes off the cost"
        if cost is not None:
            c = f"costs {cost} minus a free die roll (at least 1)"
        return f"airborne assault (Gnomes) on {at}{using} — {c}; you have {s.hand} in hand"
    if k == "airborne_final":
        return "roll again as the final attempt (conquests end either way)"
    if k == "airborne_cancel":
        return "call off the airborne assault and go on conquering"
    if k == "champion" and r is not None:
        return f"send the Champion to conquer {at} for free (once per turn)"
    if k == "portal" and r is not None and isinstance(a.arg, int):
        return f"portal: swap everything in {at} and {where(st, a.arg, human)}"
    if k in ("intimidate", "intimidate_beast") and r is not None:
        what = "a Beast" if k == "intimidate_beast" else "1 token"
        dest = "discard it" if a.arg == "discard" else f"move it to {where(st, int(a.arg or 0), human)}"
        return f"intimidate: take {what} from {at} and {dest}"
    if k == "intimidate_remove" and r is not None:
        return f"intimidate: remove the {piece_name(str(a.arg))} from {at}"
    if k in ("fort", "tower") and r is not None:
        return f"put a {'Fort' if k == 'fort' else 'Watch Tower'} in {at}"
    if k in ("aegis", "heart") and r is not None:
        name = "the Aegis of Aggramar" if k == "aegis" else "the Heart of Azeroth"
        return f"put {name} in {at}"
    if k == "well" and r is not None:
        return f"move the Well of Eternity to {at}"
    if k == "faction":
        if a.arg == "Neutral":
            return "stay Neutral this turn (no Faction Bonus)"
        return f"fight for the {a.arg} this turn (Battleground)"
    if k in ("ashes", "ashes_final") and r is not None:
        cost = _cost_as_adjacent(st, seat, r, opt)
        if k == "ashes":
            c = f" — costs {cost} of your {s.hand} tokens" if cost is not None else ""
            return f"conquer {at} anywhere with the Ashes of Al'ar{using}{c}"
        short = f" ({cost - s.hand} short)" if cost is not None else ""
        return f"final attempt with the Ashes of Al'ar on {at}{using}: needs the die{short}"
    if k == "steal" and r is not None:
        return f"steal {relic_name(st, str(a.arg))} (Ethereals) and put it in {at}"
    return None


def _find_region(st: State, words: list[str]) -> tuple[int, list[str]]:
    """The region the leading words name (flat number, ref, full or unique partial name) and the
    words after it; the longest name wins so "deploy Ashen Vale all" splits correctly."""
    m = st.game.map
    first = words[0]
    if first.isdigit():
        r = int(first)
        if r >= m.n:
            raise InputError(f"no region {r}: regions are numbered 0..{m.n - 1}")
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
            names = ", ".join(f"{h} {m.regions[h].name}" for h in hits[:4])
            raise InputError(f"{phrase!r} matches several regions: {names}")
    raise InputError(f"no region {' '.join(words)!r} on this map — type its number from the board table")


ALIASES = {"attack": CONQUER, "take": CONQUER, "place": DEPLOY, "redeploy": DEPLOY, "done": END, "stop": END}


def parse_move(st: State, text: str) -> list[Action]:
    """The actions a typed line names: `conquer 7`, `conquer Ashen Vale`, `deploy 7 all`, `pick 2`;
    `deploy 7 3` is a shorthand for three single deploys.

    Only the form is checked here; legality is left to `State.apply` so its rule is reported."""
    words = text.split()
    if not words:
        raise InputError("empty move")
    kind = ALIASES.get(words[0].lower(), words[0].lower())
    rest = words[1:]
    if kind == PICK:
        if len(rest) != 1 or not rest[0].isdigit():
            last = max(len(st.game.variant.combos(st, st.acting_seat)) - 1, 0)
            raise InputError(f"say which combo: pick 0..{last} (its position in the row)")
        return [Action(PICK, None, int(rest[0]))]
    if kind in (DECLINE, EXPAND, END):
        if rest:
            raise InputError(f"{kind!r} takes nothing after it")
        return [Action(kind)]
    if kind in (CONQUER, FINAL, ABANDON, DEPLOY):
        if not rest:
            raise InputError(f"say which region: {kind} NUMBER (or its name)")
        r, tail = _find_region(st, rest)
        arg: str | int | None = " ".join(tail) if tail else None
        if kind == DEPLOY and isinstance(arg, str) and arg.isdigit():
            n, hand = int(arg), st.seats[st.acting_seat].hand
            if not 1 <= n <= hand:
                raise InputError(f"you can deploy 1..{hand} tokens now")
            return [Action(DEPLOY, r, "all")] if n == hand and n > 1 else [Action(DEPLOY, r)] * n
        if kind == DEPLOY and arg not in (None, "all"):
            raise InputError("deploy NUMBER [all | how many]")
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

        return [parse(st, text)]
    raise InputError(f"unknown move or command {words[0]!r} (type 'help')")
