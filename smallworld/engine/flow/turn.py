"""Turn flow: the legal actions at every decision and the effect of each (§5, §6).

`legal_actions` lists every decision of the seat to move, in the canonical order (below).
`apply` checks an action at the boundary (its seat, its form, its legality) and raises the
engine's own error, leaving the state untouched; `apply_unchecked` is the fast path for search and
simulation. Between decisions `advance` runs the automatic steps (scoring, the next turn, ...) and
stops at the next decision or at a prompt that a unit raised.

Canonical order of the legal actions (it never depends on the order in which data was inserted):
a pending prompt lists its unit's answers; the conquest step lists, for each target region by
index, the plain conquest (or final attempt) and then each named option in the order of the seat's
units, then the regions that may be abandoned by index, then the troops that may be readied (by
region index, then piece kind by name), then the units' own actions (the seat's
units in order: Active race, power, In-Decline races, markers by region; each lists by region and
argument), then `end`; redeployment lists each region by index with one token, all tokens, then
each troop kind by name; picks by position.
"""

from __future__ import annotations

from typing import Any

from smallworld.engine.flow.diagnose import explain
from smallworld.engine.flow.plans import expand_plan
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
    PLAN,
    READY,
    RISE,
    SKIP,
    Action,
    at_regions,
)
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.derived import listed_attack
from smallworld.engine.model.errors import GameOverError, IllegalActionError, NotYourTurnError
from smallworld.engine.model.hooks import ConquestInfo, Unit
from smallworld.engine.model.protocol import check_action
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.model.state import DECISION_PHASES, Ph, Seat, State, Turn
from smallworld.engine.rules import conquest, decline, scoring

_END = Action(END)
_START = [Action(DECLINE), Action(EXPAND)]
_EXPAND_ONLY = [Action(EXPAND)]
_RISE = [Action(RISE), Action(SKIP)]
_AFTER_SCORE = [Action(DECLINE), Action(PASS)]


# --- listing ---------------------------------------------------------------------------------
def legal_actions(st: State) -> list[Action]:
    if st.pending:
        return _prompt_actions(st)
    ph = st.phase
    if ph == Ph.CONQUER:
        return _conquer_actions(st)
    if ph == Ph.REDEPLOY or ph == Ph.WITHDRAWN:
        return _deploy_actions(st)
    if ph == Ph.PICK:
        # No combo is left to pick (a small pool of banners): the seat passes its turn.
        return st.game.variant.pick_actions(st, st.acting_seat) or [Action(PASS)]
    if ph == Ph.START:
        return list(_EXPAND_ONLY if st.turn.risen else _START)
    if ph == Ph.RISE:
        return list(_RISE)
    if ph == Ph.AFTER_SCORE:
        return list(_AFTER_SCORE)
    return []


def _prompt_actions(st: State) -> list[Action]:
    prompt = st.pending[0]
    return list(st.game.units[prompt["unit"]].prompt_actions(st, prompt))


def conquest_actions(st: State) -> list[Action]:
    """The conquests and final attempts of the seat to act in its conquest step (no prompt
    waiting): the first part of its legal actions, in the same order (a rollout policy that wants
    only these need not list the rest)."""
    seat = st.acting_seat
    hand = conquest.available(st, seat)
    if hand > 0 and not st.turn.done:
        att = conquest.Attack(st, seat)
        # The units' own listings and applying a listed conquest next reuse it (`_declare`).
        st.memo = (st.ply, seat, att)
        att.defended = conquest.defended_mask(st, seat)
        return conquest.listing(st, att, hand, st.seats[seat].coins, att.defended)
    st.memo = None
    return []


def _conquer_actions(st: State) -> list[Action]:
    seat = st.acting_seat
    out = conquest_actions(st)
    if st.turn.conquests == 0 and not st.turn.done:
        race = conquest.conquering_race(st, seat)
        abandon = at_regions(ABANDON, st.game.map.n)
        for r in bits(st.occupied_mask(race)):
            out.append(abandon[r])
        out.extend(ready_actions(st, seat))
    if st.turn.race is None:
        for u in st.hook_units(seat, "actions"):
            out.extend(u.actions(st, seat))
    out.append(_END)
    return out


def ready_actions(st: State, seat: int) -> list[Action]:
    """The troops `seat` may still ready (§6.2; AMB-26 for the Champion): readying keeps race
    tokens first, so a troop that holds part of a region's minimum (the Champion alone, or beside a
    single Tauren token) would stay there for good. While abandoning is still open (before the
    turn's first conquest, AMB-58) the player may take such a troop into hand, a race token from
    hand taking its place. Troops belong to the Active race: not in an In-Decline race's phase."""
    s = st.seats[seat]
    if not s.hand or st.turn.race is not None:
        return []
    race = s.active
    keep = st.min_per_region(race)
    out: list[Action] = []
    for r in bits(st.occupied_mask(race)):
        if st.pieces[r] and st.tokens[r] < keep:
            out.extend(Action(READY, r, kind) for kind in st.troops_in(r))
    return out


def _deploy_actions(st: State) -> list[Action]:
    seat = st.acting_seat
    s = st.seats[seat]
    out = []
    held = sorted(s.held) if st.turn.race is None or seat != st.turn_seat else []
    race = conquest.conquering_race(st, seat) if seat == st.turn_seat else s.active
    n = st.game.map.n
    one, every = at_regions(DEPLOY, n), at_regions(DEPLOY, n, "all")
    hand = s.hand
    for r in bits(st.occupied_mask(race)):
        if hand:
            out.append(one[r])
            out.append(every[r])
        for kind in held:
            out.append(Action(DEPLOY, r, kind))
    return out


# --- one action's legality ------------------------------------------------------------------
def is_legal(st: State, action: Action) -> bool:
    """Whether `action` (a well-formed action of the game: `protocol.check_action`) is one of
    `legal_actions(st)`, without listing them all: in the conquest step only the part of the listing
    that could hold it is worked out (one target's conquest, the abandons, the troops to ready, or
    the actions of the units that declare its kind), and in redeployment one region. The same
    answers as the list (tests/test_legality.py)."""
    if st.pending:
        return action in _prompt_actions(st)
    ph = st.phase
    if ph == Ph.CONQUER:
        return _legal_in_conquest(st, action)
    if ph == Ph.REDEPLOY or ph == Ph.WITHDRAWN:
        return _legal_deploy(st, action)
    return action in legal_actions(st)  # picks and the short lists of the other steps


def _on_map(st: State, r: Any) -> bool:
    return isinstance(r, int) and not isinstance(r, bool) and 0 <= r < st.game.map.n


def _legal_in_conquest(st: State, a: Action) -> bool:
    kind = a.kind
    seat = st.acting_seat
    turn = st.turn
    if kind in (CONQUER, FINAL):
        r = a.region
        opt = a.arg
        hand = conquest.available(st, seat)
        if not _on_map(st, r) or hand <= 0 or turn.done or not (opt is None or isinstance(opt, str)):
            return False
        assert r is not None
        att = conquest.Attack(st, seat)
        # Kept as a listing keeps it: applying the conquest next reuses it (`_declare`).
        st.memo = (st.ply, seat, att)
        att.defended = conquest.defended_mask(st, seat)
        if not (conquest.targets(st, att) >> r) & 1:
            return False
        if opt is not None and (not att.optional or opt not in conquest.options(st, att, r)):
            return False
        return conquest.judge(st, att, r, opt, hand, st.seats[seat].coins, att.defended) == kind
    if kind == END:
        return a == _END
    if kind in (ABANDON, READY):
        if turn.conquests or turn.done:
            return False
        if kind == READY:
            return a in ready_actions(st, seat)
        r = a.region
        if a.arg is not None or not _on_map(st, r):
            return False
        assert r is not None
        return bool((st.occupied_mask(conquest.conquering_race(st, seat)) >> r) & 1)
    if turn.race is not None:
        return False
    return any(kind in u.action_kinds and a in u.actions(st, seat) for u in st.hook_units(seat, "actions"))


def _legal_deploy(st: State, a: Action) -> bool:
    if a.kind != DEPLOY:
        return False
    seat = st.acting_seat
    s = st.seats[seat]
    r = a.region
    race = conquest.conquering_race(st, seat) if seat == st.turn_seat else s.active
    if not _on_map(st, r):
        return False
    assert r is not None
    if not (st.occupied_mask(race) >> r) & 1:
        return False
    arg = a.arg
    if arg is None or arg == "all":
        return bool(s.hand)
    held = st.turn.race is None or seat != st.turn_seat
    return held and isinstance(arg, str) and arg in s.held


# --- applying --------------------------------------------------------------------------------
def apply(st: State, action: Any, seat: int | None = None) -> None:
    """Apply an action of `seat` (the seat to act when None). Anything else raises the engine's own
    error and changes nothing: `GameOverError`, `NotYourTurnError`, `MalformedActionError` (not an
    action of this game) or `IllegalActionError` (the rule it breaks)."""
    if st.phase == Ph.OVER:
        raise GameOverError(st.game.edition.cite(Rule.GAME_OVER), "the game is over", action, "game_over")
    if seat is not None and seat != st.acting_seat:
        raise NotYourTurnError(seat, st.acting_seat)
    action = check_action(st.game, action)
    if action.kind == PLAN:
        steps = expand_plan(st, action)
        trial = st.clone()  # every step must be legal when its turn comes: tried on a copy first
        for step in steps:
            if not is_legal(trial, step):
                why = explain(trial, step)
                raise IllegalActionError(
                    st.game.edition.cite(Rule.REDEPLOY),
                    f"the plan's step {step} is not possible",
                    action,
                    "plan_step",
                    {"why": why.reason, **why.params},
                )
            _apply_step(trial, step)
        st.ply += 1
        st.events = []
        for step in steps:
            _apply_step(st, step)
        return
    if not is_legal(st, action):
        raise diagnose(st, action)
    apply_unchecked(st, action)


def apply_unchecked(st: State, action: Action) -> None:
    """Apply an action known to be legal (from `legal_actions`)."""
    st.ply += 1
    st.events = []
    _apply_step(st, action)


def _apply_step(st: State, action: Action) -> None:
    kind = action.kind
    if st.pending:
        prompt = st.pending[0]
        st.game.units[prompt["unit"]].apply_prompt(st, prompt, action)
    elif kind == CONQUER:
        _conquer(st, action)
    elif kind == DEPLOY:
        _deploy(st, action)
    elif kind == END:
        conquest.end_conquests(st)
    elif kind == PICK:
        _pick(st, int(action.arg or 0))
    elif kind == EXPAND:
        _expand(st)
    elif kind == DECLINE:
        _decline(st)
    elif kind == FINAL:
        _final(st, action)
    elif kind == ABANDON:
        _abandon(st, action.region or 0)
    elif kind == READY:
        _ready(st, action)
    elif kind == RISE:
        _rise(st)
    elif kind == SKIP:
        _after_rise(st)
    elif kind == PASS:
        if st.phase == Ph.PICK:
            st.phase = Ph.TURN_END  # nothing to pick: the In-Decline races still score
        else:
            _next_turn(st)
    else:
        _unit_for_kind(st, kind).apply_action(st, action)
        seat = st.turn_seat
        if st.acting_seat == seat:
            # asked after the action: what the race holds now (AMB-77)
            for u in st.hook_units(seat, "after_action"):
                u.after_action(st, seat)
        _close_conquests(st)
    advance(st)


def _close_conquests(st: State) -> None:
    """AMB-53: once the turn has a conquest and no further one is possible (no token or paying
    troop in hand, no free conquest left), conquests are over at once, for every race and power:
    no Intimidating or Portal swap after the last conquest (§6.11), and the turn goes on to the
    purchases or redeployment by itself. Before the first conquest abandoning may still fill the
    hand (§6.2), so an empty hand alone does not close them."""
    seat = st.turn_seat
    if st.phase != Ph.CONQUER or st.turn.done or st.acting_seat != seat:
        return
    if (st.turn.conquests or st.turn.resume is not None) and not conquest.conquest_possible(st, seat):
        conquest.end_conquests(st)


def _unit_for_kind(st: State, kind: str) -> Unit:
    for u in st.units(st.acting_seat):
        if kind in u.action_kinds:
            return u
    raise IllegalActionError(
        st.game.edition.cite(Rule.TURN),
        f"no unit in play handles '{kind}'",
        None,
        "unit_not_in_play",
        {"kind": str(kind)},
    )


def _pick(st: State, pos: int) -> None:
    seat = st.acting_seat
    s = st.seats[seat]
    game = st.game
    coins_before = s.coins
    race, power = game.variant.take_combo(st, seat, pos)
    s.active, s.power = race, power
    n = min(game.race_value[race] + game.power_value[power], st.tray[race])
    st.tray[race] -= n
    s.hand = n
    st.event(
        "pick", seat=seat, race=race, power=power, cost=pos, coins=s.coins - coins_before + pos, tokens=n
    )
    for u in st.hook_units(seat, "on_pick"):
        u.on_pick(st, seat)
    st.phase = Ph.CONQUER
    _expand_hooks(st, seat)


def _expand(st: State) -> None:
    seat = st.acting_seat
    lift_extras(st, seat)  # §6.2: ready your troops
    st.phase = Ph.CONQUER
    _expand_hooks(st, seat)
    if _tokenless(st, seat):
        # AMB-64: the start-of-turn powers (the Beast Master's discard empties the regions held only
        # by Beasts) left the race with no race token on the boards or in hand: AMB-34 applies at
        # once, and the player picks a new combo and plays on in this same turn.
        _leave_play(st, seat)
        st.phase = Ph.PICK


def _expand_hooks(st: State, seat: int) -> None:
    for u in st.hook_units(seat, "expand_start"):
        u.expand_start(st, seat)


def _decline(st: State) -> None:
    seat = st.turn_seat
    after_score = st.phase == Ph.AFTER_SCORE
    s = st.seats[seat]
    st.event("decline", seat=seat, race=s.active, power=s.power)
    decline.go_into_decline(st, seat)
    if after_score:  # the turn was scored already; the decline only changes the races (classic Stout)
        _next_turn(st)
    else:
        st.phase = Ph.WITHDRAWN_NEXT


def _declare(st: State, action: Action) -> tuple[conquest.Attack, int, str | None, int]:
    """The conquest or final attempt `action` (§6.7): its attack, region, option and cost."""
    r = action.region
    assert r is not None
    opt = action.arg if isinstance(action.arg, str) else None
    seat = st.acting_seat
    # A conquest listed just before this apply (`conquest_actions`, the usual way of bots and of
    # `apply`; `apply_unchecked` has counted the ply since) keeps the listing's context.
    att = listed_attack(st, seat, st.ply - 1) or conquest.Attack(st, seat)
    return att, r, opt, conquest.cost(st, att, r, opt)


def _conquer(st: State, action: Action) -> None:
    att, r, opt, c = _declare(st, action)
    conquest.attempt(st, att, r, opt, c, final=False)
    _close_conquests(st)


def _final(st: State, action: Action) -> None:
    """The final conquest attempt with the reinforcement die (§6.10)."""
    att, r, opt, c = _declare(st, action)
    conquest.attempt(st, att, r, opt, c, final=True)


def lift_extras(st: State, seat: int) -> None:
    """Take into hand every token and troop above the minimum each region keeps (§6.2, §6.12);
    race tokens are the ones kept first (a troop kept as part of a minimum may then be exchanged
    for a race token from hand: `ready_actions`)."""
    s = st.seats[seat]
    race = conquest.conquering_race(st, seat)
    keep = st.min_per_region(race)
    tokens = st.tokens
    troops = st.turn.race is None
    for r in bits(st.occupied_mask(race)):
        extra = tokens[r] - keep
        if extra > 0:
            tokens[r] = keep
            s.hand += extra
        if troops and st.pieces[r]:
            need = max(keep - tokens[r], 0)
            for kind, n in sorted(st.troops_in(r).items()):
                stay = min(n, need)
                need -= stay
                if n - stay:
                    st.lift_piece(r, seat, kind, n - stay)


def _abandon(st: State, r: int) -> None:
    seat = st.acting_seat
    s = st.seats[seat]
    s.hand += st.tokens[r]
    for kind, n in st.troops_in(r).items():
        st.lift_piece(r, seat, kind, n)
    st.event("abandon", seat=seat, region=r)
    st.set_region(r, None, 0)
    st.clear_pieces(r, "removed_when_emptied")


def _ready(st: State, action: Action) -> None:
    """A troop the region kept goes to hand; a race token from hand takes its place (§6.2)."""
    seat = st.acting_seat
    r = action.region
    assert r is not None
    st.lift_piece(r, seat, str(action.arg), 1)
    st.seats[seat].hand -= 1
    st.tokens[r] += 1
    st.event("ready", seat=seat, region=r, piece=action.arg)


def _deploy(st: State, action: Action) -> None:
    seat = st.acting_seat
    s = st.seats[seat]
    r = action.region
    assert r is not None
    if isinstance(action.arg, str) and action.arg in s.held:
        st.place_held(r, seat, action.arg, 1)
        return
    n = s.hand if action.arg == "all" else 1
    st.tokens[r] += n
    s.hand -= n


# --- the In-Decline race's own phase (a seam of other editions: classic Ghouls) ------------------
def _can_rise(st: State, seat: int) -> str | None:
    """The In-Decline race of the seat that may open its turn with a conquest phase of its own."""
    s = st.seats[seat]
    for race in s.declined_races():
        if st.game.units[race].conquers_in_decline and st.occupied_mask(race):
            return race
    return None


def _rise(st: State) -> None:
    seat = st.turn_seat
    race = _can_rise(st, seat)
    assert race is not None
    s = st.seats[seat]
    st.turn.risen = True
    st.turn.race = race
    st.turn.stash, s.hand = s.hand, 0
    lift_extras(st, seat)
    st.phase = Ph.CONQUER


def _end_rise(st: State) -> None:
    """The In-Decline race's phase is over: its tokens still in hand go back to the tray, the
    Active race's hand comes back, and the turn goes on with the pick or the expand choice."""
    seat = st.turn_seat
    s = st.seats[seat]
    race = st.turn.race
    assert race is not None
    if s.hand:
        st.tray[race] += s.hand
    s.hand, st.turn.stash = st.turn.stash, 0
    st.turn.race = None
    st.turn.conquests = 0
    st.turn.done = False
    st.acting_seat = seat
    _after_rise(st)


def _after_rise(st: State) -> None:
    seat = st.turn_seat
    st.phase = Ph.START if st.seats[seat].active is not None else Ph.PICK


# --- automatic steps -------------------------------------------------------------------------
def advance(st: State) -> None:
    """Run the automatic steps until a decision is due or a prompt waits."""
    while not st.pending:
        resume = st.turn.resume
        if resume is not None:  # a conquest waited for a prompt of its step 3 (§6.8)
            st.turn.resume = None
            conquest.finish(st, resume["attacker"], ConquestInfo.from_json(resume, st.game.map.index))
            continue
        ph = st.phase
        if ph in DECISION_PHASES:
            if (ph == Ph.REDEPLOY or ph == Ph.WITHDRAWN) and not _has_hand(st, st.acting_seat):
                st.phase = Ph.WITHDRAWN_NEXT
                continue
            return
        seat = st.turn_seat
        if ph == Ph.AFTER_CONQUESTS:
            st.phase = Ph.REDEPLOY_BEGIN
            if st.turn.race is None:
                for u in st.hook_units(seat, "after_conquests"):
                    u.after_conquests(st, seat)
        elif ph == Ph.REDEPLOY_BEGIN:
            _begin_redeploy(st, seat)
        elif ph == Ph.WITHDRAWN_NEXT:
            if st.turn.race is not None:
                _end_rise(st)
            else:
                _next_withdrawn(st)
        elif ph == Ph.TURN_END:
            _turn_end(st, seat)
        elif ph == Ph.SCORE:
            total = scoring.score_turn(st, seat)
            st.event("score", seat=seat, total=total, items=st.turn.scored)
            st.phase = Ph.NEXT_TURN
            s = st.seats[seat]
            if s.active is not None and any(u.declines_after_scoring for u in st.units(seat)):
                st.acting_seat = seat
                st.phase = Ph.AFTER_SCORE
        elif ph == Ph.NEXT_TURN:
            _next_turn(st)
        else:  # pragma: no cover - a phase name no branch knows is a bug
            raise AssertionError(f"unknown phase {ph!r}")


def _turn_end(st: State, seat: int) -> None:
    """§6.13: the end-of-turn steps run in their order (`Unit.turn_end_step`). A step that asks a
    prompt holds back every later one until it is answered, so a later step sees what the earlier
    ones did: the Heart of Azeroth collects its coins only after the bombs and the Military
    Objectives are placed, whatever the number of its choices."""
    if st.seats[seat].active:
        steps = list(st.hook_units(seat, "turn_end"))
        for u in sorted(steps, key=lambda u: u.turn_end_step):  # stable: ties keep the units' order
            if u.id in st.turn.ended:
                continue
            st.turn.ended.append(u.id)
            u.turn_end(st, seat)
            if st.pending:
                return  # the phase stays: `advance` comes back here once the prompt is answered
    st.phase = Ph.SCORE


def _begin_redeploy(st: State, seat: int) -> None:
    """§6.12: every token above each region's minimum comes back to hand to be placed."""
    st.phase = Ph.REDEPLOY
    st.acting_seat = seat
    if st.turn.race is None:
        for u in st.hook_units(seat, "redeploy_start"):
            u.redeploy_start(st, seat)
    if not st.occupied_mask(conquest.conquering_race(st, seat)):
        st.phase = Ph.WITHDRAWN_NEXT  # no region: the tokens stay in hand (§6.10, §6.9)
        return
    lift_extras(st, seat)


def _has_hand(st: State, seat: int) -> bool:
    s: Seat = st.seats[seat]
    return s.hand > 0 or (bool(s.held) and (st.turn.race is None or seat != st.turn_seat))


def _next_withdrawn(st: State) -> None:
    """§6.9, §6.12: opponents redeploy withdrawn tokens, clockwise from the active player."""
    n = len(st.seats)
    for k in range(1, n):
        d = (st.turn_seat + k) % n
        s = st.seats[d]
        if d in st.turn.withdrawn and _has_hand(st, d) and st.occupied_mask(s.active):
            st.acting_seat = d
            st.phase = Ph.WITHDRAWN
            return
    st.acting_seat = st.turn_seat
    st.phase = Ph.TURN_END


def _next_turn(st: State) -> None:
    n = len(st.seats)
    nxt = (st.turn_seat + 1) % n
    if nxt == st.first_seat:
        if st.round >= st.game.rounds:
            scoring.end_game(st)
            st.event("game_over", scores=st.result["scores"], winners=st.result["winners"])  # type: ignore[index]
            return
        st.round += 1  # §5: the first player advances the Game Turn marker
    begin_turn(st, nxt)


def begin_turn(st: State, seat: int) -> None:
    """§6.1: start of a turn, up to the decline-or-expand choice (or the pick)."""
    st.turn = Turn()
    st.turn_seat = st.acting_seat = seat
    s = st.seats[seat]
    st.phase = Ph.START
    st.event("turn", seat=seat, round=st.round)
    starts = [(i, u) for i in range(len(st.seats)) for u in st.hook_units(i, "turn_start")]
    for owner, u in starts:  # §6.1 steps 2-3 (Harmony back, bombs resolved)
        u.turn_start(st, seat, owner)
    if _tokenless(st, seat):
        _leave_play(st, seat)
    if _can_rise(st, seat) is not None:
        st.phase = Ph.RISE
    elif s.active is None:
        st.phase = Ph.PICK


def _tokenless(st: State, seat: int) -> bool:
    """AMB-34, AMB-64: the seat's Active race has no race token left, on the boards or in hand. A
    region held only by its Beasts or its Champion still counts (they count as race tokens there),
    but only on the boards: a Champion or Beasts in hand alone do not keep the race in play."""
    s = st.seats[seat]
    return (
        s.active is not None
        and not s.hand
        and not st.occupied_mask(s.active)
        and st.game.options.tokenless_active_race == "return_and_pick"
    )


def _leave_play(st: State, seat: int) -> None:
    """AMB-34: the tokenless Active race leaves play and the player picks anew this turn. Its units
    clear the pieces that stop working, its troops go back to the box as on a decline (§6.16 step
    4), and a prompt its units raised this turn is dropped with it."""
    s = st.seats[seat]
    game = st.game
    race, power = s.active, s.power
    assert race is not None
    for u in st.units(seat):
        if u.kind in ("race", "power") and game.overrides(u, "on_decline"):
            u.on_decline(st, seat)
    decline.remove_race(st, race)
    for kind in list(s.held):
        st.discard_held(seat, kind, s.held[kind])
    if power:
        st.discard_badge(power)
    st.event("left_play", race=race, seat=seat)
    st.return_banner(race)
    s.active = s.power = None
    st.pending = [p for p in st.pending if p["unit"] not in (race, power)]
    st.acting_seat = st.pending[0]["seat"] if st.pending else seat


# --- errors ----------------------------------------------------------------------------------
def diagnose(st: State, action: Action) -> IllegalActionError:
    """Why `action` is not legal now, naming the rule it breaks."""
    return IllegalActionError.of(explain(st, action), action)
