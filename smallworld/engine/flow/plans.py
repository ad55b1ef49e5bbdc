"""Whole-plan decisions: a complete redeployment or withdrawn-token placement sent as one action.

A plan gives the final tokens and troops of the regions it changes (regions left out keep what
they have). It is checked as a whole and expanded into the step actions (`deploy`), which are
tried on a copy first: a plan that breaks any rule changes nothing. Search and learning code keep
using the steps; a client that knows the whole distribution sends one `plan`.
"""

from __future__ import annotations

from smallworld.engine.model.actions import DEPLOY, PLAN, Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import IllegalActionError
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.model.state import Ph, State
from smallworld.engine.rules.conquest import conquering_race


def expand_plan(st: State, action: Action) -> list[Action]:
    """The step actions that carry out the plan (`flow.apply` tries them on a copy first)."""
    game = st.game
    cite = game.edition.cite
    if st.pending or st.phase not in (Ph.REDEPLOY, Ph.WITHDRAWN):
        raise IllegalActionError(
            cite(Rule.REDEPLOY),
            "a plan places tokens in hand: only during a redeployment",
            action,
            "plan_not_now",
        )
    seat = st.acting_seat
    s = st.seats[seat]
    race = conquering_race(st, seat) if seat == st.turn_seat else s.active
    mine = st.occupied_mask(race)
    name = game.map.ref
    steps: list[Action] = []
    hand = s.hand
    held = dict(s.held) if (st.turn.race is None or seat != st.turn_seat) else {}
    for r, tokens, troops in action.arg:
        if not (mine >> r) & 1:
            raise IllegalActionError(
                cite(Rule.REDEPLOY),
                f"{name(r)} is not a region of your race",
                action,
                "plan_not_yours",
                {"region": name(r)},
            )
        add = tokens - st.tokens[r]
        if add < 0:
            raise IllegalActionError(
                cite(Rule.REDEPLOY),
                f"{name(r)} holds {st.tokens[r]} tokens that stay there: a plan can only add to it",
                action,
                "plan_removes",
                {"region": name(r), "tokens": st.tokens[r]},
            )
        now = st.pieces[r] or {}
        for kind, n in troops:
            more = n - now.get(kind, 0)
            if more < 0 or more > held.get(kind, 0):
                raise IllegalActionError(
                    cite(Rule.REDEPLOY),
                    f"{name(r)}: {n} {kind} is not what you have to place",
                    action,
                    "plan_troops",
                    {"region": name(r), "piece": kind, "n": n},
                )
            if more:
                held[kind] -= more
            steps.extend(Action(DEPLOY, r, kind) for _ in range(more))
        if add > hand:
            raise IllegalActionError(
                cite(Rule.REDEPLOY),
                f"the plan places more than the {s.hand} tokens in hand",
                action,
                "plan_too_many",
                {"hand": s.hand},
            )
        hand -= add
        if add > 1 and hand == 0:  # the last tokens in hand: one step
            steps.append(Action(DEPLOY, r, "all"))
        else:
            steps.extend(Action(DEPLOY, r) for _ in range(add))
    if hand or any(held.values()):
        left = [f"{hand} tokens"] if hand else []
        left += [f"{n} {k}" for k, n in sorted(held.items()) if n]
        raise IllegalActionError(
            cite(Rule.REDEPLOY),
            f"every token and troop in hand must be placed; left: {', '.join(left)}",
            action,
            "plan_left",
            {"tokens": hand, "pieces": {k: n for k, n in sorted(held.items()) if n}},
        )
    return steps


def plan_action(st: State, final: dict[int, tuple[int, dict[str, int]]]) -> Action:
    """A plan action from {region: (tokens, {piece: n})}, for clients that build one in code."""
    rows = tuple(
        (r, t, tuple(sorted((k, n) for k, n in troops.items() if n)))
        for r, (t, troops) in sorted(final.items())
    )
    return Action(PLAN, None, rows)


def current_plan(st: State, seat: int) -> dict[int, tuple[int, dict[str, int]]]:
    """What the seat's regions hold now, as a plan would name it (a client edits this)."""
    s = st.seats[seat]
    race = conquering_race(st, seat) if seat == st.turn_seat else s.active
    kinds = st.game.pieces
    return {
        r: (st.tokens[r], {k: n for k, n in (st.pieces[r] or {}).items() if kinds[k].troop})
        for r in bits(st.occupied_mask(race))
    }
