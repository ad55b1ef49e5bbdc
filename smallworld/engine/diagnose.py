"""Explanations for illegal actions: which rule an action breaks, in words (error path only)."""

from __future__ import annotations

from smallworld.engine import conquest
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, END, EXPAND, FINAL, PICK, Action
from smallworld.engine.flow import available
from smallworld.engine.state import CONQUER as P_CONQUER
from smallworld.engine.state import OVER, REDEPLOY, START, WITHDRAWN, State
from smallworld.engine.state import PICK as P_PICK

_PHASE_OF = {
    PICK: (P_PICK,),
    DECLINE: (START,),
    EXPAND: (START,),
    CONQUER: (P_CONQUER,),
    FINAL: (P_CONQUER,),
    ABANDON: (P_CONQUER,),
    END: (P_CONQUER,),
    DEPLOY: (REDEPLOY, WITHDRAWN),
}
_PHASE_RULE = {P_PICK: "§6.3", START: "§6.1", REDEPLOY: "§6.12", WITHDRAWN: "§6.9"}
# The rule that says when each kind of action is taken.
_KIND_RULE = {
    PICK: "§6.3",
    DECLINE: "§6.16",
    EXPAND: "§6.1",
    CONQUER: "§6.5",
    FINAL: "§6.10",
    ABANDON: "§6.2",
    END: "§6.5",
    DEPLOY: "§6.12",
}


def explain(st: State, a: Action) -> tuple[str, str]:
    if st.phase == OVER:
        return "§7", "the game is over"
    if st.pending:
        p = st.pending[0]
        why = st.game.units[p["unit"]].explain(st, a)  # the prompt's unit may say why an answer is refused
        return why or (p.get("rule", "§6"), f"seat {p['seat']} must first answer: {p.get('text', p['unit'])}")
    m = st.game.map
    if a.region is not None and not 0 <= a.region < m.n:
        return "§2.2", f"there is no region {a.region} on this map (0..{m.n - 1})"
    phases = _PHASE_OF.get(a.kind)
    if phases is None:
        for _owner, u in st.all_units():
            if a.kind in u.action_kinds and st.game.overrides(u, "explain"):
                why = u.explain(st, a)
                if why is not None:
                    return why
        return "§6", f"unknown action kind {a.kind!r} or no unit in play allows it now"
    if st.phase not in phases:
        # While a step waits for its own decision, its rule says what is due; during conquests the
        # action's own rule says when it may be taken.
        rule = _PHASE_RULE[st.phase] if st.phase in _PHASE_RULE else _KIND_RULE[a.kind]
        return rule, f"{a.kind!r} is not possible now: seat {st.acting_seat} is in the {st.phase} step"
    seat = st.acting_seat
    s = st.seats[seat]
    if a.kind == PICK:
        return st.game.variant.explain_pick(st, seat, a)
    if a.kind in (CONQUER, FINAL):
        return _explain_conquest(st, a)
    if a.kind == ABANDON:
        if st.turn.conquests or st.turn.done:
            return "§6.2", "regions can only be abandoned before the first conquest of the turn"
        return "§6.2", "only a region of your Active race can be abandoned"
    if a.kind == DEPLOY:
        if a.region is None or not (st.occupied_mask(s.active) >> a.region) & 1:
            return "§6.12", "tokens can only be redeployed into regions your Active race occupies"
        return "§6.12", "deploy takes no argument or 'all'"
    return "§6", f"{a.kind!r} is not legal now"


def _explain_conquest(st: State, a: Action) -> tuple[str, str]:
    seat = st.acting_seat
    s = st.seats[seat]
    r = a.region
    if r is None:
        return "§6.5", "a conquest needs a target region"
    name = st.game.map.regions[r].name
    if st.turn.done:
        return "§6.10", "conquests are over for this turn"
    if available(st, seat) < 1:
        return "§6.4", "a conquest needs at least 1 race token in hand"
    att = conquest.Attack(st, seat)
    if (att.own >> r) & 1:
        return "§6.5", f"{name} is already held by your Active race"
    if (st.immune >> r) & 1:
        return "§9.6", f"{name} is immune to conquest"
    if not (conquest.targets(st, att) >> r) & 1:
        if (st.game.map.water >> r) & 1:
            return "§6.5", f"{name} is a Sea or Lake: only the Naga may conquer it"
        if att.first:
            return "§6.5", f"{name} is not an Entry region: a race enters the map through an Entry region"
        return "§6.5", f"{name} is neither adjacent to your Active race nor an Entry region"
    opt = a.arg if isinstance(a.arg, str) else None
    c = conquest.cost(st, att, r, opt)
    if a.kind == CONQUER and c > s.hand:
        return "§6.6", f"{name} costs {c} tokens and you have {s.hand} in hand (a final attempt is 'final')"
    if a.kind == FINAL:
        if c <= s.hand:
            return "§6.10", f"{name} costs {c} and you have {s.hand}: conquer it without the die"
        if c - s.hand > st.game.options.max_final_shortfall or s.hand < att.minimum:
            return (
                "§6.10",
                f"the final attempt must be 1 to {st.game.options.max_final_shortfall} tokens short; "
                f"{name} is {c - s.hand} short",
            )
    dues = conquest.payments(st, seat, r)
    if sum(d[1] for d in dues) > s.coins:
        return "§6.7", f"the conquest of {name} requires paying {sum(d[1] for d in dues)} VC first"
    for u in att.units:  # a named option (Frostmourne, Doomhammer, ...): its unit says why
        if st.game.overrides(u, "explain"):
            why = u.explain(st, a)
            if why is not None:
                return why
    return "§6.6", f"option {a.arg!r} is not available for {name}"
