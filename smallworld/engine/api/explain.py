"""`explain(region)`: what a conquest of a region would cost now, term by term, or why it cannot be
attacked — as data, for a client that shows it when a player points at a region.

The answer is the engine's own: the same `judge`, `target_refusal` and cost terms that list the
legal actions and explain the refused ones, so a board that shows it can never disagree with the
rules it enforces.
"""

from __future__ import annotations

from typing import Any

from smallworld.engine.flow.diagnose import explain as explain_action
from smallworld.engine.model.actions import CONQUER, FINAL
from smallworld.engine.model.errors import Why
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.model.state import Phase, State
from smallworld.engine.rules import conquest
from smallworld.engine.rules.conquest import Refusal

_REFUSAL_RULE = {
    Refusal.OVER: Rule.CONQUESTS_OVER,
    Refusal.NO_TOKEN: Rule.AT_LEAST_ONE,
    Refusal.OWN: Rule.TARGETS,
    Refusal.IMMUNE: Rule.IMMUNE,
    Refusal.WATER: Rule.TARGETS,
    Refusal.UNREACHABLE: Rule.TARGETS,
    Refusal.TOO_SHORT: Rule.FINAL,
    Refusal.UNPAID: Rule.PAYMENTS,
}


def explain_region(st: State, region: int, seat: int | None = None) -> dict[str, Any]:
    """The conquest of `region` by `seat` (default: the seat to act) as data:

    `{"region", "name", "terrain", "holder": {"race", "seat", "tokens"}, "attackable",
      "ways": [{"option", "kind", "cost", "terms": [{"term", "value", "unit", ...}], "dues"}],
      "reasons": [{"code", "rule", "message", "reason", "params"}]}`

    `ways` lists every way the region may be attacked now (plainly or with a named option), each
    with the action kind it takes (`conquer`, or `final` for a die attempt) and its cost's terms;
    `reasons` says why it cannot be attacked (empty when it can): `reason` and `params` are the
    words' key and values, as on an error (`engine/model/errors.py`)."""
    game = st.game
    m = game.map
    if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < m.n:
        raise ValueError(f"no region {region!r} on this map (0..{m.n - 1})")
    seat = st.acting_seat if seat is None else seat
    reg = m.regions[region]
    race = st.race[region]
    out: dict[str, Any] = {
        "region": m.ref(region),
        "name": reg.name,
        "terrain": reg.terrain,
        "features": sorted(reg.features),
        "holder": {"race": race, "seat": st.owner_seat(race), "tokens": st.tokens[region]},
        "attackable": False,
        "ways": [],
        "reasons": [],
    }
    cite = game.edition.cite

    def refuse(code: str, why: Why) -> dict[str, Any]:
        out["reasons"].append(_reason(code, cite(why.rule), why))
        return out

    if st.phase == Phase.OVER:
        return refuse("game_over", Why(Rule.GAME_OVER, "the game is over", "game_over"))
    if not 0 <= seat < game.players:
        return refuse("no_seat", Why(Rule.TURN, f"there is no seat {seat}", "no_seat", seat=seat))
    if st.pending or not conquest.conquests_open(st, seat):
        return refuse(
            "not_now",
            Why(Rule.TARGETS, f"seat {seat} is not in its conquest step now", "not_conquering", seat=seat),
        )
    hand = conquest.available(st, seat)
    if hand < 1:
        return refuse(
            Refusal.NO_TOKEN,
            Why(Rule.AT_LEAST_ONE, "a conquest needs at least 1 race token in hand", "no_token"),
        )
    att = conquest.Attack(st, seat)
    refusal = conquest.target_refusal(st, att, region)
    if refusal is not None:
        kind = FINAL if conquest.cost(st, att, region) > hand else CONQUER
        return refuse(refusal, explain_action(st, _probe(kind, region)))
    defended = conquest.defended_mask(st, seat)
    coins = st.seats[seat].coins
    for option in conquest.options(st, att, region):
        verdict = conquest.judge(st, att, region, option, hand, coins, defended)
        if verdict not in (CONQUER, FINAL):
            why = explain_action(st, _probe(CONQUER, region, option))
            out["reasons"].append({**_reason(str(verdict), why.rule, why), "option": option})
            continue
        dues = conquest.payments(st, seat, region) if race is not None else []
        out["ways"].append(
            {
                "option": option,
                "kind": verdict,
                "cost": conquest.cost(st, att, region, option),
                "terms": conquest.cost_terms(st, att, region, option),
                "dues": [{"payee": payee, "coins": coins_due, "why": why} for payee, coins_due, why in dues],
            }
        )
    out["attackable"] = bool(out["ways"])
    return out


def _reason(code: str, rule: str, why: Why) -> dict[str, Any]:
    return {
        "code": code,
        "rule": rule,
        "message": why.message,
        "reason": why.reason,
        "params": dict(why.params),
    }


def _probe(kind: str, region: int, option: str | None = None) -> Any:
    from smallworld.engine.model.actions import Action

    return Action(kind, region, option)
