"""What the last action set off (`State.events`), in words: die rolls, bombs, scores, tolls, ...

Every sentence names its subject ("You", "Seat 2"); the bot summary strips the subject when it
is the seat the summary is about (`app.Session.note`)."""

from __future__ import annotations

import re
from typing import Any

from smallworld.engine.state import State
from smallworld.tui.text import piece_name, plural, race_name, relic_name, unit_name

# Engine notation in prompt texts, e.g. "(bomb REGION)" or "(airborne_final)": the moves are listed
# in words below the prompt, so these are dropped.
_NOTATION = re.compile(r"\s*\((?:[a-z]+_[a-z_]+|[a-z_]+ [A-Z]+)\)")

# Why a prompt appears, beyond its own text (keyed by the unit that asks).
PROMPT_WHY = {
    "forsaken": "Your conquests this turn made defenders lose tokens; the Forsaken may buy as many "
    "back from the tray, 1 coin each.",
    "worgen": "The Worgen choose a form at the start of each turn they expand.",
    "goblins": "End of your Goblin turn: a bomb goes next to a Goblin region, on an opponent's Active "
    "region; it is revealed at the start of your next turn (half of them are duds).",
    "humans": "End of your Human turn: an Objective gives 2 coins to any non-Horde player who conquers "
    "it, and 2 to you when someone else does.",
    "gnomes": "The free die came off the assault's cost, but your tokens in hand are still short.",
    "garrisoned": "The Fort supply cannot cover all your regions that qualify; choose.",
    "defensive": "Watch Towers make their region immune until your next turn; there are not enough "
    "for every Fields region; choose.",
    "aegis_of_aggramar": "You own the Aegis: at the end of your turn it goes in one of your Active "
    "regions (others pay 2 coins to attack there).",
    "heart_of_azeroth": "You own the Heart of Azeroth: at the end of your turn it goes in one of your "
    "Active regions.",
    "battleground": "Your Neutral race holds the Battleground: it may fight for a faction this turn.",
    "well_of_eternity": "The Well of Eternity was revealed: it moves to a Sea or Lake.",
}


def prompt_text(st: State, prompt: dict[str, Any]) -> str:
    spec = st.game.prompt_specs.get((prompt["unit"], prompt.get("prompt", "")))
    text = spec.doc if spec is not None else "A decision is asked of you"
    text = _NOTATION.sub("", text)
    text = text.replace("token(s)", "tokens").replace("region(s)", "regions")
    # Victory coins are "coins" everywhere else on the screen.
    return re.sub(r"\b(\d+) VC\b", lambda m: m.group(1) + (" coin" if m.group(1) == "1" else " coins"), text)


def _who(seat: int | None, human: int) -> str:
    if seat is None:
        return "Nobody"
    return "You" if seat == human else f"Seat {seat}"


def _obj(seat: int | None, human: int) -> str:
    return "you" if seat == human else _who(seat, human)


def _whose(seat: int | None, human: int) -> str:
    if seat is None:
        return "nobody's"
    return "your" if seat == human else f"Seat {seat}'s"


def _verb(seat: int | None, human: int, you: str, other: str) -> str:
    return f"{_who(seat, human)} {you if seat == human else other}"


def _region(st: State, r: Any) -> str:
    m = st.game.map
    if isinstance(r, str):
        try:
            r = m.index(r)
        except KeyError:
            return r
    if not isinstance(r, int) or not 0 <= r < m.n:
        return str(r)
    return f"{r} {m.regions[r].name}"


SCORE_WORDS = {
    "active_regions": "region",
    "declined_regions": "in-decline region",
    "faction_bonus": "Faction Bonus",
}


def score_items(st: State, items: dict[str, int]) -> str:
    """`3 regions, 2 in-decline regions, 1 Mining`: a score's breakdown."""
    parts = []
    for k, v in items.items():
        if not v:
            continue
        if k in SCORE_WORDS:
            parts.append(plural(v, SCORE_WORDS[k]) if k != "faction_bonus" else f"{v} Faction Bonus")
        else:
            suffix = " (in decline)" if k.endswith("_declined") else ""
            parts.append(f"{v} {unit_name(st, k)}{suffix}")
    return ", ".join(parts)


def event_text(st: State, e: dict[str, Any], human: int) -> str | None:
    """One event as a sentence, or None for those the move's own line already tells (turn)."""
    t = e.get("type")
    seat = e.get("seat")
    who = _who(seat, human)
    at = _region(st, e.get("region"))
    if t == "die":
        need = int(e.get("cost", 0)) - int(e.get("tokens", 0))
        outcome = "success" if e.get("success") else "not enough"
        return (
            f"{who} {'roll' if seat == human else 'rolls'} the reinforcement die for {at}: "
            f"{e.get('roll')} (needed {max(need, 1)}) — {outcome}"
        )
    if t == "score":
        items = score_items(st, e.get("items") or {})
        detail = f" ({items})" if items else ""
        return f"{_verb(seat, human, 'score', 'scores')} {plural(int(e.get('total', 0)), 'coin')}{detail}"
    if t in ("turn", "pick", "conquest", "decline", "abandon", "left_play", "game_over"):
        return None  # the move's own line tells these
    if t == "airborne":
        outcome = e.get("outcome")
        if outcome == "cancelled" and "roll" not in e:
            return f"{who} called off the airborne assault on {at}"
        words = {
            "conquered": "conquered",
            "pending": "still short: a final roll may be tried",
            "cancelled": "too far short: the assault is called off",
        }.get(str(outcome), str(outcome))
        return (
            f"{who}: airborne assault on {at}, cost {e.get('cost')}, die {e.get('roll')} → "
            f"{e.get('reduced')} needed, {e.get('tokens')} in hand — {words}"
        )
    if t == "bomb":
        result = e.get("result")
        if result == "returned":
            return f"{_whose(seat, human).capitalize()} bomb in {at} had no target and goes back to the stack"
        victim = e.get("defender")
        race = race_name(e.get("race"))
        bomb = f"{_whose(seat, human).capitalize()} bomb in {at} ({_whose(victim, human)} {race})"
        if result == "dud":
            return f"{bomb} is a dud"
        if result == "blocked":
            return f"{bomb} would explode but is blocked (its payment could not be made)"
        lost = int(e.get("lost", 0) or 0)
        saved = f"; {unit_name(st, e['prevented'])} took the loss" if e.get("prevented") else ""
        return f"{bomb} EXPLODES: the region is emptied, {plural(lost, 'token')} lost{saved}"
    if t == "bomb_placed":
        return f"{_verb(seat, human, 'place', 'places')} a bomb in {at}"
    if t == "objective_placed":
        return f"{_verb(seat, human, 'place', 'places')} a Military Objective in {at}"
    if t == "objective_taken":
        humans = e.get("humans")
        if humans == seat:
            return f"{who} took back a Military Objective in {at}: +2 coins"
        return f"{who} took the Military Objective in {at}: +2 coins, and +2 to {_obj(humans, human)}"
    if t == "worgen_form":
        form = e.get("form")
        detail = "+2 coins" if form == "human" else "paid 1 coin, conquests cost 1 fewer"
        return f"{who}: {form} form ({detail})"
    if t == "forsaken_buy":
        n = int(e.get("tokens", 0))
        return f"{_verb(seat, human, 'buy', 'buys')} {plural(n, 'Forsaken token')} for {plural(n, 'coin')}"
    if t == "harmony":
        holders = ", ".join(_who(h, human) for h in e.get("holders") or [])
        return f"Harmony: {_whose(seat, human)} Pandaren give tokens to {holders} (2 coins to attack them)"
    if t == "beasts":
        if not e.get("beasts"):
            return None
        beasts = plural(int(e.get("beasts", 0)), "Beast")
        return f"{_verb(seat, human, 'take', 'takes')} {beasts} into hand"
    if t == "portal":
        a, b = (e.get("regions") or [None, None])[:2]
        return f"{who} swapped everything in {_region(st, a)} and {_region(st, b)} (portal)"
    if t == "intimidate":
        dest = e.get("to")
        piece = "a Beast" if e.get("piece") == "intimidate_beast" else f"a {race_name(e.get('race'))} token"
        where = "discarded it" if dest == "discard" else f"moved it to {_region(st, dest)}"
        return f"{who} intimidated {at}: took {piece} and {where}"
    if t == "intimidate_remove":
        return f"{who} intimidated {at}: removed the {piece_name(str(e.get('piece')))}"
    if t == "intimidate_saved":
        by = unit_name(st, str(e.get("by")))
        return f"{_whose(seat, human).capitalize()} token in {at} was saved by {by}"
    if t == "orcs_coin":
        return f"{who} (Orcs) conquered {race_name(e.get('race'))} in {at}: +1 coin at the end of the turn"
    if t == "champion_conquest":
        return f"{who}: the Champion conquered {at} for free"
    if t == "champion_captured":
        return (
            f"{_whose(seat, human).capitalize()} Champion in {at} was captured by "
            f"{_obj(e.get('captor'), human)}: {plural(int(e.get('ransom', 0)), 'coin')} ransom"
        )
    if t == "wisp_wall":
        return f"{who}: a Wisp Wall rises in {at}"
    if t == "relic_placed":
        return f"{_verb(seat, human, 'put', 'puts')} {relic_name(st, e.get('relic'))} in {at}"
    if t in ("heart_of_azeroth",):
        payers = ", ".join(_who(p, human) for p in e.get("payers") or [])
        return f"Heart of Azeroth: {payers} (next to it) pay 1 coin each to {_obj(seat, human)}"
    if t == "doomhammer":
        paid = int(e.get("paid", 0))
        to = _who(e.get("payee"), human) if e.get("payee") is not None else "the stash"
        return f"{who}: Doomhammer on {at}, {plural(paid, 'coin')} paid to {to}"
    if t == "lights_hope_chapel":
        return f"{_whose(seat, human).capitalize()} Light's Hope Chapel saved a token in {at}"
    if t == "holy_light":
        return f"{_whose(seat, human).capitalize()} Holy Light (Draenei) saved a token in {at}"
    if t == "spirit_healer":
        return f"{who}: the Spirit Healer gives 1 {race_name(e.get('race'))} token back"
    if t == "battleground":
        return f"{who} fights for {e.get('faction')} this turn (Battleground)"
    if t == "well_of_eternity":
        if "replaced_by" in e:
            new = e.get("replaced_by")
            drawn = f"replaced by {relic_name(st, new)}" if new else "removed (no marker left)"
            return f"The Well of Eternity in {at} has no water to go to: {drawn}"
        return f"{who} moved the Well of Eternity to {at}"
    if t == "steal":
        paid = int(e.get("paid", 0))
        toll = f", paying {plural(paid, 'coin')}" if paid else ""
        return (
            f"{who} (Ethereals) stole {relic_name(st, e.get('relic'))} from {_region(st, e.get('source'))} "
            f"into {at}{toll}"
        )
    # A kind this screen does not know yet: still say it, plainly.
    rest = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("type", "seat"))
    return f"{who}: {str(t).replace('_', ' ')}" + (f" ({rest})" if rest else "")
