"""Turn flow: the legal actions at every decision and the effect of each (§5, §6).

`legal_actions` lists every decision of the seat to move. `apply` checks an action against that
list and raises `IllegalActionError` naming the rule, leaving the state untouched; `apply_unchecked`
is the fast path for search and simulation. Between decisions `advance` runs the automatic steps
(scoring, the next turn, ...) and stops at the next decision or at a prompt that content raised.
"""

from __future__ import annotations

from smallworld.engine import conquest, decline, scoring
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, END, EXPAND, FINAL, PICK, Action
from smallworld.engine.board_map import bits
from smallworld.engine.errors import IllegalActionError
from smallworld.engine.hooks import ConquestInfo
from smallworld.engine.setup import return_banner
from smallworld.engine.state import CONQUER as P_CONQUER
from smallworld.engine.state import OVER, REDEPLOY, START, WITHDRAWN, Seat, State, Turn
from smallworld.engine.state import PICK as P_PICK

# Pass-through phases (no decision): see `advance`.
AFTER_CONQUESTS = "after_conquests"
REDEPLOY_BEGIN = "redeploy_begin"
WITHDRAWN_NEXT = "withdrawn_next"
TURN_END = "turn_end"
SCORE = "score"
DECISION_PHASES = (P_PICK, START, P_CONQUER, REDEPLOY, WITHDRAWN, OVER)

_END = Action(END)
_DECLINE = Action(DECLINE)
_EXPAND = Action(EXPAND)


# --- listing ---------------------------------------------------------------------------------
def legal_actions(st: State) -> list[Action]:
    if st.pending:
        return _prompt_actions(st)
    ph = st.phase
    if ph == P_CONQUER:
        return _conquer_actions(st)
    if ph in (REDEPLOY, WITHDRAWN):
        return _deploy_actions(st)
    if ph == P_PICK:
        return st.game.variant.pick_actions(st, st.acting_seat)
    if ph == START:
        return [_DECLINE, _EXPAND]
    return []


def _prompt_actions(st: State) -> list[Action]:
    prompt = st.pending[0]
    return list(st.game.units[prompt["unit"]].prompt_actions(st, prompt))


def _conquer_actions(st: State) -> list[Action]:
    seat = st.acting_seat
    s = st.seats[seat]
    out: list[Action] = []
    hand = available(st, seat)
    if hand > 0 and not st.turn.done:
        att = conquest.Attack(st, seat)
        game = st.game
        coins = s.coins
        max_short = game.options.max_final_shortfall
        cost = conquest.cost
        defended = conquest.defended_mask(st, seat)
        for r in bits(conquest.targets(st, att)):
            for opt in conquest.options(st, att, r):
                c = cost(st, att, r, opt)
                if c > hand and (c - hand > max_short or hand < att.minimum):
                    continue
                if (defended >> r) & 1:
                    dues = conquest.payments(st, seat, r)
                    if dues and sum(d[1] for d in dues) > coins:
                        continue
                out.append(Action(CONQUER if c <= hand else FINAL, r, opt))
    if st.turn.conquests == 0 and not st.turn.done:
        for r in bits(st.occupied_mask(s.active)):
            out.append(Action(ABANDON, r))
    for u in st.units(seat):
        if st.game.overrides(u, "actions"):
            out.extend(u.actions(st, seat))
    out.append(_END)
    return out


def available(st: State, seat: int) -> int:
    """Tokens that can pay for a conquest: race tokens in hand, then paying troops (AMB-46)."""
    s = st.seats[seat]
    if not s.held:
        return s.hand
    kinds = st.game.pieces
    return s.hand + sum(n for k, n in s.held.items() if kinds[k].pays)


def _deploy_actions(st: State) -> list[Action]:
    s = st.seats[st.acting_seat]
    out = []
    held = sorted(s.held)
    for r in bits(st.occupied_mask(s.active)):
        if s.hand:
            out.append(Action(DEPLOY, r))
            out.append(Action(DEPLOY, r, "all"))
        for kind in held:
            out.append(Action(DEPLOY, r, kind))
    return out


# --- applying --------------------------------------------------------------------------------
def apply(st: State, action: Action) -> None:
    """Apply a legal action; an illegal one raises `IllegalActionError` and changes nothing."""
    if not isinstance(action, Action):
        action = Action.from_json(action)
    if action not in legal_actions(st):
        raise diagnose(st, action)
    apply_unchecked(st, action)


def apply_unchecked(st: State, action: Action) -> None:
    """Apply an action known to be legal (from `legal_actions`)."""
    kind = action.kind
    st.events = []
    if st.pending:
        prompt = st.pending[0]
        st.game.units[prompt["unit"]].apply_prompt(st, prompt, action)
    elif kind == CONQUER:
        _conquer(st, action)
    elif kind == DEPLOY:
        _deploy(st, action)
    elif kind == END:
        st.turn.done = True
        st.phase = AFTER_CONQUESTS
    elif kind == PICK:
        _pick(st, int(action.arg or 0))
    elif kind == EXPAND:
        _expand(st)
    elif kind == DECLINE:
        decline.go_into_decline(st, st.turn_seat)
        st.phase = WITHDRAWN_NEXT
    elif kind == FINAL:
        _final(st, action)
    elif kind == ABANDON:
        _abandon(st, action.region or 0)
    else:
        _unit_for_kind(st, kind).apply_action(st, action)
    advance(st)


def _unit_for_kind(st: State, kind: str):  # type: ignore[no-untyped-def]
    for u in st.units(st.acting_seat):
        if kind in u.action_kinds:
            return u
    raise IllegalActionError("§6", f"no unit in play handles {kind!r}")


def _pick(st: State, pos: int) -> None:
    seat = st.acting_seat
    s = st.seats[seat]
    game = st.game
    race, power = game.variant.take_combo(st, seat, pos)
    s.active, s.power = race, power
    n = min(game.race_value[race] + game.power_value[power], st.tray[race])
    st.tray[race] -= n
    s.hand = n
    for u in st.units(seat):
        if game.overrides(u, "on_pick"):
            u.on_pick(st, seat)
    st.phase = P_CONQUER
    _expand_hooks(st, seat)


def _expand(st: State) -> None:
    seat = st.acting_seat
    lift_extras(st, seat)  # §6.2: ready your troops
    st.phase = P_CONQUER
    _expand_hooks(st, seat)


def _expand_hooks(st: State, seat: int) -> None:
    game = st.game
    for u in st.units(seat):
        if game.overrides(u, "expand_start"):
            u.expand_start(st, seat)


def _declare(st: State, action: Action) -> tuple[int, int, str | None, int]:
    """Declare the conquest or final attempt `action` (§6.7): its seat, region, option and cost."""
    seat = st.acting_seat
    r = action.region
    assert r is not None
    opt = action.arg if isinstance(action.arg, str) else None
    att = conquest.Attack(st, seat)
    c = conquest.cost(st, att, r, opt)
    conquest.declare(st, att, r, opt)
    return seat, r, opt, c


def _conquer(st: State, action: Action) -> None:
    seat, r, opt, c = _declare(st, action)
    place_conquest(st, seat, r, opt, c)
    s = st.seats[seat]
    if not s.hand and not s.held and not any(st.game.overrides(u, "actions") for u in st.units(seat)):
        st.turn.done = True
        st.phase = AFTER_CONQUESTS


def place_conquest(st: State, seat: int, region: int, option: str | None, cost: int) -> None:
    """A conquest the seat can pay for: `cost` tokens go in, race tokens first, then paying
    troops (AMB-46). Shared by every way of conquering (Ashes of Al'ar, airborne assaults)."""
    s = st.seats[seat]
    tokens = min(s.hand, cost)
    s.hand -= tokens
    conquest.resolve(st, seat, region, tokens, option, take_paying(st, seat, cost - tokens))


def die_attempt(st: State, seat: int, region: int, option: str | None, cost: int) -> bool:
    """The final conquest attempt (§6.10): roll; on success every token and paying troop in hand
    goes in. Either way conquests are over for the turn. Returns whether it succeeded."""
    roll = st.roll_die()
    s = st.seats[seat]
    st.turn.data["die"] = roll
    have = available(st, seat)
    won = have + roll >= cost
    st.event("die", seat=seat, region=region, roll=roll, cost=cost, tokens=have, success=won)
    if won:
        placed = s.hand
        s.hand = 0
        conquest.resolve(st, seat, region, placed, option, take_paying(st, seat, have - placed))
    st.turn.done = True
    st.phase = AFTER_CONQUESTS
    return won


def _final(st: State, action: Action) -> None:
    """The final conquest attempt with the reinforcement die (§6.10)."""
    die_attempt(st, *_declare(st, action))


def take_paying(st: State, seat: int, n: int) -> dict[str, int]:
    """Take `n` paying troops (Beasts) out of hand for a conquest, once race tokens ran out."""
    out: dict[str, int] = {}
    if n <= 0:
        return out
    held = st.seats[seat].held
    for kind in sorted(held):
        if n and st.game.pieces[kind].pays:
            k = min(n, held[kind])
            held[kind] -= k
            if not held[kind]:
                del held[kind]
            out[kind] = k
            n -= k
    return out


def lift_extras(st: State, seat: int) -> None:
    """Take into hand every token and troop above the minimum each region keeps (§6.2, §6.12);
    race tokens are the ones kept first."""
    s = st.seats[seat]
    keep = st.min_per_region(s.active)
    tokens = st.tokens
    for r in bits(st.occupied_mask(s.active)):
        extra = tokens[r] - keep
        if extra > 0:
            tokens[r] = keep
            s.hand += extra
        if st.pieces[r]:
            need = max(keep - tokens[r], 0)
            for kind, n in sorted(st.troops_in(r).items()):
                stay = min(n, need)
                need -= stay
                if n - stay:
                    st.lift_piece(r, seat, kind, n - stay)


def _abandon(st: State, r: int) -> None:
    s = st.seats[st.acting_seat]
    s.hand += st.tokens[r]
    for kind, n in st.troops_in(r).items():
        st.lift_piece(r, st.acting_seat, kind, n)
    st.set_region(r, None, 0)
    st.clear_pieces(r, "removed_when_emptied")


def _deploy(st: State, action: Action) -> None:
    s = st.seats[st.acting_seat]
    r = action.region
    assert r is not None
    if isinstance(action.arg, str) and action.arg in s.held:
        st.place_held(r, st.acting_seat, action.arg, 1)
        return
    n = s.hand if action.arg == "all" else 1
    st.tokens[r] += n
    s.hand -= n


# --- automatic steps -------------------------------------------------------------------------
def advance(st: State) -> None:
    """Run the automatic steps until a decision is due or a prompt waits."""
    game = st.game
    while not st.pending:
        resume = st.turn.data.pop(conquest.RESUME, None)
        if resume is not None:  # a conquest waited for a prompt of its step 3 (§6.8)
            conquest.finish(st, resume["attacker"], ConquestInfo(**resume))
            continue
        ph = st.phase
        if ph in DECISION_PHASES:
            if ph in (REDEPLOY, WITHDRAWN) and not _has_hand(st.seats[st.acting_seat]):
                st.phase = WITHDRAWN_NEXT
                continue
            return
        seat = st.turn_seat
        if ph == AFTER_CONQUESTS:
            st.phase = REDEPLOY_BEGIN
            for u in st.units(seat):
                if game.overrides(u, "after_conquests"):
                    u.after_conquests(st, seat)
        elif ph == REDEPLOY_BEGIN:
            _begin_redeploy(st, seat)
        elif ph == WITHDRAWN_NEXT:
            _next_withdrawn(st)
        elif ph == TURN_END:
            st.phase = SCORE
            if st.seats[seat].active:
                for u in sorted(st.units(seat), key=lambda u: u.kind != "power"):  # §6.13: powers first
                    if game.overrides(u, "turn_end"):
                        u.turn_end(st, seat)
        elif ph == SCORE:
            total = scoring.score_turn(st, seat)
            st.event("score", seat=seat, total=total, items=st.turn.data["scored"])
            _next_turn(st)
        else:  # pragma: no cover - a phase name no branch knows is a bug
            raise AssertionError(f"unknown phase {ph!r}")


def _begin_redeploy(st: State, seat: int) -> None:
    """§6.12: every Active token above each region's minimum comes back to hand to be placed."""
    st.phase = REDEPLOY
    st.acting_seat = seat
    game = st.game
    s = st.seats[seat]
    for u in st.units(seat):
        if game.overrides(u, "redeploy_start"):
            u.redeploy_start(st, seat)
    if not st.occupied_mask(s.active):
        st.phase = WITHDRAWN_NEXT  # no region: the tokens stay in hand (§6.10, §6.9)
        return
    lift_extras(st, seat)


def _has_hand(s: Seat) -> bool:
    return s.hand > 0 or bool(s.held)


def _next_withdrawn(st: State) -> None:
    """§6.9, §6.12: opponents redeploy withdrawn tokens, clockwise from the active player."""
    n = len(st.seats)
    for k in range(1, n):
        d = (st.turn_seat + k) % n
        s = st.seats[d]
        if d in st.turn.withdrawn and _has_hand(s) and st.occupied_mask(s.active):
            st.acting_seat = d
            st.phase = WITHDRAWN
            return
    st.acting_seat = st.turn_seat
    st.phase = TURN_END


def _next_turn(st: State) -> None:
    n = len(st.seats)
    nxt = (st.turn_seat + 1) % n
    if nxt == st.first_seat:
        if st.round >= st.game.rounds:
            scoring.end_game(st)
            return
        st.round += 1  # §5: the first player advances the Game Turn marker
    begin_turn(st, nxt)


def begin_turn(st: State, seat: int) -> None:
    """§6.1: start of a turn, up to the decline-or-expand choice (or the pick)."""
    st.turn = Turn()
    st.turn_seat = st.acting_seat = seat
    s = st.seats[seat]
    game = st.game
    st.phase = START
    st.event("turn", seat=seat, round=st.round)
    for owner, u in list(st.all_units()):  # §6.1 steps 2-3 (Harmony back, bombs resolved)
        if game.overrides(u, "turn_start"):
            u.turn_start(st, seat, owner)
    if (
        s.active is not None
        and not s.hand
        and not any(st.tokens[r] for r in bits(st.occupied_mask(s.active)))
        and game.options.tokenless_active_race == "return_and_pick"
    ):
        # AMB-34: an Active race with no race token anywhere leaves play (a Champion or Beasts
        # alone cannot make a first conquest); the player picks anew. Its units clear the pieces
        # that stop working and its troops go back to the box, as on a decline (§6.16 step 4).
        for u in st.units(seat):
            if u.kind in ("race", "power") and game.overrides(u, "on_decline"):
                u.on_decline(st, seat)
        decline.remove_race(st, s.active)
        for kind in list(s.held):
            st.discard_held(seat, kind, s.held[kind])
        if s.power:
            st.power_discard.append(s.power)
        return_banner(st, s.active)
        s.active = s.power = None
    if s.active is None:
        st.phase = P_PICK


# --- errors ----------------------------------------------------------------------------------
def diagnose(st: State, action: Action) -> IllegalActionError:
    """Why `action` is not legal now, naming the rule it breaks."""
    from smallworld.engine.diagnose import explain

    rule, message = explain(st, action)
    return IllegalActionError(rule, message, action)
