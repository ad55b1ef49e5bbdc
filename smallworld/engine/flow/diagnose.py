"""Why an action is not legal now, naming the rule it breaks (the error path only).

The engine's own rules are cited by rule id (`engine/model/rule_ids.py`) and mapped to the edition's
rulebook; a unit's actions and prompt answers are explained by the unit that declares them.
"""

from __future__ import annotations

from smallworld.engine.model.actions import (
    ABANDON,
    CONQUER,
    DECLINE,
    DEPLOY,
    END,
    EXPAND,
    FINAL,
    PASS,
    PICK,
    READY,
    RISE,
    SKIP,
    Action,
)
from smallworld.engine.model.errors import Why, reason_of
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.model.state import Phase, State
from smallworld.engine.rules import conquest
from smallworld.engine.rules.conquest import Refusal

_PHASE_OF: dict[str, tuple[Phase, ...]] = {
    PICK: (Phase.PICK,),
    DECLINE: (Phase.START, Phase.AFTER_SCORE),
    EXPAND: (Phase.START,),
    CONQUER: (Phase.CONQUER,),
    FINAL: (Phase.CONQUER,),
    ABANDON: (Phase.CONQUER,),
    READY: (Phase.CONQUER,),
    END: (Phase.CONQUER,),
    DEPLOY: (Phase.REDEPLOY, Phase.WITHDRAWN),
    RISE: (Phase.RISE,),
    SKIP: (Phase.RISE,),
    PASS: (Phase.AFTER_SCORE, Phase.PICK),
}
_PHASE_RULE = {
    Phase.PICK: Rule.PICK,
    Phase.START: Rule.START,
    Phase.REDEPLOY: Rule.REDEPLOY,
    Phase.WITHDRAWN: Rule.WITHDRAWN,
    Phase.RISE: Rule.START,
    Phase.AFTER_SCORE: Rule.DECLINE,
}
# The rule that says when each kind of action is taken.
_KIND_RULE: dict[str, Rule] = {
    PICK: Rule.PICK,
    DECLINE: Rule.DECLINE,
    EXPAND: Rule.START,
    CONQUER: Rule.TARGETS,
    FINAL: Rule.FINAL,
    ABANDON: Rule.ABANDON,
    READY: Rule.ABANDON,
    END: Rule.TARGETS,
    DEPLOY: Rule.REDEPLOY,
    RISE: Rule.START,
    SKIP: Rule.START,
    PASS: Rule.DECLINE,
}


def explain(st: State, a: Action) -> Why:
    """(section, message): why `a` is not legal now, with the reason's key and parameters."""
    why = _why(st, a)
    reason, params = reason_of(why)
    return Why(st.game.edition.cite(why[0]), why[1], reason, **params)


def _ref(st: State, r: int) -> str:
    """A region as a reason's parameter: its "SIDE:ID" reference."""
    return st.game.map.ref(r)


def _why(st: State, a: Action) -> tuple[Rule | str, str]:
    game = st.game
    if st.phase == Phase.OVER:
        return Why(Rule.GAME_OVER, "the game is over", "game_over")
    spec = game.action_specs.get(a.kind)
    if spec is not None and spec.conquest and _conquests_over(st):
        return Why(Rule.CONQUESTS_OVER, "conquests are over for this turn", "conquests_over")
    if st.pending:
        p = st.pending[0]
        unit = game.units[p["unit"]]
        why = unit.explain(st, a) if game.overrides(unit, "explain") else None
        if why:
            return why
        pspec = game.prompt_specs.get((p["unit"], p.get("prompt", "")))
        rule = pspec.rule if pspec is not None and pspec.rule else unit.section or Rule.TURN
        return Why(
            rule,
            f"seat {p['seat']} must first answer the {p['unit']} prompt ({p.get('prompt', '')})",
            "answer_prompt",
            seat=p["seat"],
            unit=p["unit"],
        )
    phases = _PHASE_OF.get(a.kind)
    if phases is None:
        return _unit_why(st, a)
    if st.phase not in phases:
        # While a step waits for its own decision, its rule says what is due; during conquests the
        # action's own rule says when it may be taken. Abandoning belongs to readying troops, whose
        # rule says it never comes later in the turn (AMB-58): that is the rule cited.
        if a.kind == ABANDON:
            return Why(
                Rule.ABANDON,
                f"abandoning belongs to readying troops, before the turn's first conquest: seat "
                f"{st.acting_seat} is in the {st.phase} step",
                "abandon_too_late",
                phase=str(st.phase),
            )
        rule = _PHASE_RULE.get(Phase(st.phase), _KIND_RULE[a.kind])
        return Why(
            rule,
            f"'{a.kind}' is not possible now: seat {st.acting_seat} is in the {st.phase} step",
            "not_now",
            kind=str(a.kind),
            phase=str(st.phase),
        )
    seat = st.acting_seat
    s = st.seats[seat]
    if a.kind == PICK:
        return game.variant.explain_pick(st, seat, a)
    if a.kind in (CONQUER, FINAL):
        return _explain_conquest(st, a)
    if a.kind == ABANDON:
        if st.turn.conquests or st.turn.done:
            return Why(
                Rule.ABANDON,
                "regions can only be abandoned before the first conquest of the turn",
                "abandon_after_conquest",
            )
        return Why(Rule.ABANDON, "only a region of your race can be abandoned", "abandon_not_yours")
    if a.kind == READY:
        return _explain_ready(st, a)
    if a.kind == DEPLOY:
        race = conquest.conquering_race(st, seat) if seat == st.turn_seat else s.active
        if a.region is None or not (st.occupied_mask(race) >> a.region) & 1:
            return Why(
                Rule.REDEPLOY,
                "tokens can only be redeployed into regions your race occupies",
                "deploy_not_yours",
            )
        if isinstance(a.arg, str) and a.arg != "all":
            return Why(Rule.REDEPLOY, f"you hold no {a.arg} to place", "deploy_no_piece", piece=a.arg)
        return Why(Rule.REDEPLOY, "no token in hand to place", "deploy_no_token")
    if a.kind == DECLINE and st.turn.risen:
        return Why(
            Rule.DECLINE,
            "a player whose In-Decline race played its phase this turn cannot decline",
            "decline_after_rise",
        )
    if a.kind in (RISE, SKIP):
        return Why(Rule.START, "no In-Decline race of yours may conquer this turn", "rise_none")
    return Why(Rule.TURN, f"'{a.kind}' is not legal now", "not_legal", kind=str(a.kind))


def _explain_ready(st: State, a: Action) -> tuple[Rule | str, str]:
    """Why a troop cannot be readied now (§6.2; `flow.ready_actions` says when it can)."""
    seat = st.acting_seat
    s = st.seats[seat]
    r = a.region
    kind = str(a.arg)
    if st.turn.conquests or st.turn.done:
        return Why(
            Rule.ABANDON, "troops can only be readied before the first conquest of the turn", "ready_too_late"
        )
    if st.turn.race is not None:
        return Why(Rule.ABANDON, "only the Active race's troops are readied", "ready_active_only")
    if r is None or not (st.occupied_mask(s.active) >> r) & 1:
        return Why(
            Rule.ABANDON, "only a troop in a region of your Active race can be readied", "ready_not_yours"
        )
    name = st.game.map.regions[r].name
    at = {"piece": kind, "region": _ref(st, r)}
    if not st.troops_in(r).get(kind):
        return Why(
            Rule.ABANDON, f"there is no {kind} of yours in {name} to take into hand", "ready_no_troop", **at
        )
    if st.tokens[r] >= st.min_per_region(s.active):
        return Why(
            Rule.ABANDON,
            f"{name} holds its minimum of race tokens without the {kind}: nothing to swap",
            "ready_at_minimum",
            **at,
        )
    return Why(
        Rule.ABANDON,
        f"a race token from hand must take the {kind}'s place in {name}: you have none",
        "ready_no_token",
        **at,
    )


def _conquests_over(st: State) -> bool:
    """Conquests are over for the turn: after the final attempt or `end` (§6.10), or once
    redeployment began, until the next turn."""
    return st.turn.done or st.phase in (Phase.REDEPLOY, Phase.WITHDRAWN, Phase.AFTER_SCORE)


def _unit_why(st: State, a: Action) -> tuple[Rule | str, str]:
    """A unit's action or prompt answer: the unit that declares it says why (in play or not)."""
    game = st.game
    spec = game.action_specs.get(a.kind)
    owner = spec.unit if spec is not None else None
    if owner is not None and owner in game.units:
        unit = game.units[owner]
        if game.overrides(unit, "explain"):
            why = unit.explain(st, a)
            if why is not None:
                return why
        ed = game.edition
        kind = ed.unit_kind(owner) or "unit"
        entry = {"race": ed.races, "power": ed.powers, "relic": ed.relics}.get(kind, {}).get(owner)
        name = entry.name if entry is not None else owner
        return Why(
            unit.section or Rule.TURN,
            f"'{a.kind}' belongs to {name} ({kind}), which cannot use it now",
            "unit_cannot",
            kind=str(a.kind),
            unit=owner,
        )
    return Why(Rule.TURN, f"unknown action kind '{a.kind}'", "unknown_kind", kind=str(a.kind))


def _explain_conquest(st: State, a: Action) -> tuple[Rule | str, str]:
    seat = st.acting_seat
    s = st.seats[seat]
    r = a.region
    game = st.game
    if r is None:
        return Why(Rule.TARGETS, "a conquest needs a target region", "conquest_no_target")
    name = game.map.regions[r].name
    hand = conquest.available(st, seat)
    if hand < 1:
        return Why(Rule.AT_LEAST_ONE, "a conquest needs at least 1 race token in hand", "no_token")
    att = conquest.Attack(st, seat)
    refusal = conquest.target_refusal(st, att, r)
    if refusal is not None:
        return _target_words(st, att, r, refusal)
    opt = a.arg if isinstance(a.arg, str) else None
    if opt is not None and opt not in conquest.options(st, att, r):
        for u in att.units:  # a named option (Frostmourne, Doomhammer, ...): its unit says why
            if game.overrides(u, "explain"):
                why = u.explain(st, a)
                if why is not None:
                    return why
        return Why(
            Rule.COST, f"option {opt!r} is not available for {name}", "option", option=opt, region=_ref(st, r)
        )
    c = conquest.cost(st, att, r, opt)
    verdict = conquest.judge(st, att, r, opt, hand, s.coins, conquest.defended_mask(st, seat))
    if verdict == Refusal.UNPAID:
        dues = sum(d[1] for d in conquest.payments(st, seat, r))
        return Why(
            Rule.PAYMENTS,
            f"the conquest of {name} requires paying {dues} VC first",
            "unpaid",
            region=_ref(st, r),
            coins=dues,
        )
    at = {"region": _ref(st, r), "cost": c, "hand": hand}
    if a.kind == CONQUER:
        return Why(
            Rule.COST,
            f"{name} costs {c} tokens and you have {hand} in hand (a final attempt is 'final')",
            "cost",
            **at,
        )
    if verdict == CONQUER:
        return Why(
            Rule.FINAL, f"{name} costs {c} and you have {hand}: conquer it without the die", "no_die", **at
        )
    most = game.options.max_final_shortfall
    return Why(
        Rule.FINAL,
        f"the final attempt must be 1 to {most} tokens short; {name} is {c - hand} short",
        "too_short",
        most=most,
        short=c - hand,
        **at,
    )


def _target_words(st: State, att: conquest.Attack, r: int, refusal: Refusal) -> tuple[Rule | str, str]:
    name = st.game.map.regions[r].name
    at = {"region": _ref(st, r)}
    if refusal == Refusal.OWN:
        return Why(Rule.TARGETS, f"{name} is already held by your race", "own", **at)
    if refusal == Refusal.IMMUNE:
        if not (st.immune >> r) & 1:
            shield = _shield_words(st, att, r)
            if shield is not None:
                return shield
        return Why(Rule.IMMUNE, f"{name} is immune to conquest", "immune", **at)
    if refusal == Refusal.WATER:
        terrain = st.game.map.regions[r].terrain
        return Why(
            Rule.TARGETS, f"{name} is a {terrain}: your race may not enter it", "water", terrain=terrain, **at
        )
    if att.first:
        return Why(Rule.TARGETS, f"{name} is not a region your race may enter the map through", "entry", **at)
    return Why(
        Rule.TARGETS, f"{name} is not a region your race can reach from where it stands", "unreachable", **at
    )


def _shield_words(st: State, att: conquest.Attack, r: int) -> tuple[Rule | str, str] | None:
    """A region another player's unit keeps from this race (the `shielded` hook: classic Diplomat's
    peace): that unit's own rule, not immunity."""
    game = st.game
    name = game.map.regions[r].name
    for owner in range(len(st.seats)):
        if owner == att.seat:
            continue
        for u in st.hook_units(owner, "shielded"):
            if (u.shielded(st, owner, att.seat) >> r) & 1:
                unit = game.edition.races.get(u.id) or game.edition.powers.get(u.id)
                label = unit.name if unit is not None else u.id
                return Why(
                    u.section or Rule.TARGETS,
                    f"{name} is held by seat {owner}, whose {label} keeps your race from attacking it now",
                    "shielded",
                    region=st.game.map.ref(r),
                    holder_seat=owner,
                    unit=u.id,
                )
    return None
