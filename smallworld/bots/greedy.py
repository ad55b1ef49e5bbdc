"""The greedy bot: one ply of look-ahead on a determinised state with a hand-written value.

Every decision is judged by applying each legal action to a copy of a determinisation and scoring
the result with `value` (coins + discounted income, tokens still to be used, minus the opponents'
same measure). Three decisions get more than one ply:

- picks: each combo is picked on a copy and this turn's conquests are played out greedily, so the
  race and power bonuses, cost reductions and coins lying on the combo all show in the value;
- decline or expand: this turn's expansion is played out and the decline applied on copies; each is
  scored for real now and then with a small model of the turns left (`plan_income`: the race grows
  by spare tokens / cost, opponents erode it, and it may decline later), so a race is kept while it
  can still grow and dropped when it runs thin (`should_decline`);
- final attempts: the value is averaged over the faces of the reinforcement die.

Redeployment is not searched: tokens go one at a time to the most threatened region (`threat`).
The same helpers serve as the MCTS bot's rollout policy (`light_action`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from smallworld.bots.base import Bot
from smallworld.bots.determinize import Determinizer
from smallworld.engine.flow.turn import apply_unchecked, conquest_actions, legal_actions
from smallworld.engine.model.actions import (
    ABANDON,
    CONQUER,
    DECLINE,
    DEPLOY,
    END,
    EXPAND,
    FINAL,
    PICK,
    READY,
    Action,
)
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.protocol import action_to_json, check_action
from smallworld.engine.model.state import CONQUER as P_CONQUER
from smallworld.engine.model.state import OVER, REDEPLOY, START, WITHDRAWN, State
from smallworld.engine.model.state import PICK as P_PICK
from smallworld.engine.rules.conquest import conquering_race
from smallworld.engine.rules.scoring import turn_score

CORE_KINDS = frozenset({PICK, DECLINE, EXPAND, CONQUER, FINAL, ABANDON, READY, END, DEPLOY})
# A region held now is worth its income over the turns left, discounted because races erode.
DISCOUNT = 0.75
# A token in hand during conquests buys about 1/2.5 of a region; after them it is only defence.
HAND_CONQUER = 0.4
HAND_DEFENCE = 0.12
# Content actions in one turn (portals, token moves): a cap so one-ply search cannot loop.
CONTENT_CAP = 4
TURN_DECISIONS_CAP = 60


def turns_left(st: State, seat: int) -> int:
    """Turns `seat` still scores, the current one included when it has not scored yet."""
    n = len(st.seats)
    pos = (seat - st.first_seat) % n
    cur = (st.turn_seat - st.first_seat) % n
    return max(0, st.game.rounds - st.round + (1 if pos >= cur else 0))


def horizon(t: int) -> float:
    return (1 - DISCOUNT**t) / (1 - DISCOUNT)


def opponents(st: State, seat: int) -> list[int]:
    teams = st.game.variant.teams(len(st.seats))
    return [i for i, t in enumerate(teams) if t != teams[seat]]


def seat_value(st: State, seat: int) -> float:
    """Coins plus the seat's per-turn income over its discounted turns left."""
    s = st.seats[seat]
    if st.result is not None:
        return float(s.coins)
    t = turns_left(st, seat)
    if not (s.active or s.declined) or t == 0:
        return float(s.coins)
    items = turn_score(st, seat)
    once = items.pop("faction_bonus", 0) if seat == st.turn_seat else 0
    items.pop("faction_bonus", None)  # another seat's bonus depends on its own turn's conquests
    return s.coins + once + sum(items.values()) * horizon(t)


def active_tokens(st: State, seat: int) -> int:
    s = st.seats[seat]
    on_board = sum(st.tokens[r] for r in bits(st.occupied_mask(s.active))) if s.active else 0
    return on_board + s.hand + sum(s.held.values())


def value(st: State, me: int) -> float:
    """How good `st` is for `me`: own value minus the opponents' (half mean, half leader)."""
    mine = seat_value(st, me)
    s = st.seats[me]
    if st.result is None and s.active:
        h = horizon(turns_left(st, me))
        conquering = st.phase == P_CONQUER and st.turn_seat == me and not st.turn.done
        hand = s.hand + sum(s.held.values())
        mine += hand * (HAND_CONQUER if conquering else HAND_DEFENCE) * h
        mine += (active_tokens(st, me) - hand) * HAND_DEFENCE * h
    opp = [seat_value(st, i) for i in opponents(st, me)]
    if not opp:
        return mine
    return mine - 0.5 * (sum(opp) / len(opp)) - 0.5 * max(opp)


def threat(st: State, seat: int) -> dict[int, float]:
    """How exposed each region of the race the seat deploys now is (its Active race, or an In-Decline
    one in its own phase: `conquering_race`, as the engine lists the deployments): enemy Active
    neighbours count most, any other occupied neighbour and Entry regions (reachable from anywhere)
    less."""
    m = st.game.map
    race = conquering_race(st, seat)
    own = st.occupied_mask(race)
    enemy_active = 0
    for i, o in enumerate(st.seats):
        if i != seat and o.active:
            enemy_active |= st.occupied_mask(o.active)
    occupied = 0
    for other, mask in st.race_mask.items():
        if other != race:
            occupied |= mask
    out: dict[int, float] = {}
    for r in bits(own):
        adj = m.adj[r]
        out[r] = (
            (adj & enemy_active).bit_count() * 1.0
            + (adj & occupied & ~enemy_active).bit_count() * 0.3
            + (0.6 if (st.game.reach_mask >> r) & 1 else 0.0)
            + 0.1
        )
    return out


def deploy_action(st: State, legal: list[Action]) -> Action:
    """Redeploy one token (or troop) to the most threatened region relative to what it holds; all at
    once when only one region can take them. Always one of `legal`."""
    seat = st.acting_seat
    th = threat(st, seat)
    if not th:
        return legal[0]
    s = st.seats[seat]
    best = max(th, key=lambda r: (th[r] / (st.tokens[r] + 1), -r))
    if s.hand:
        a = Action(DEPLOY, best, "all")
        if (len(th) == 1 or max(th.values()) <= 0.1) and a in legal:
            return a
        a = Action(DEPLOY, best)
    else:
        kind = sorted(s.held)[0] if s.held else None
        a = Action(DEPLOY, best, kind)
    return a if a in legal else legal[0]


def combo_tokens(st: State, seat: int) -> list[tuple[int, float]]:
    """(pick position, rough worth) of each affordable combo: tokens and coins, less its cost."""
    g = st.game
    out = []
    for pos, (race, power, coins) in enumerate(g.variant.combos(st, seat)):
        if race is None or power is None or pos > st.seats[seat].coins:
            continue
        out.append((pos, g.race_value[race] + g.power_value[power] + 0.5 * coins - 0.5 * pos))
    return out


# --- decline or expand: a small model of the turns left ------------------------------------------
# A fresh race's first conquests cost about 2.5 tokens a region (empty and Murloc regions).
FIRST_COST = 2.5
# Later conquests cost more (occupied, defended regions); the current race uses what its played-out
# turn cost when that is known.
LATER_COST = 3.0
# Between two of the seat's turns each opponent takes about this many Active regions (one token lost
# each) and this share of the In-Decline regions (one token each, so easy targets).
LOSS_ACTIVE = 0.6
LOSS_DECLINED = 0.15
# Race and power bonuses a fresh combo scores per turn.
FRESH_BONUS = 1.0
# Declining must beat expanding by this much (the model is rough; expanding keeps options open).
DECLINE_MARGIN = 1.0


def plan_income(
    t: int, regions: float, tokens: float, bonus: float, cost: float, declined: float, fresh: int, opp: int
) -> float:
    """The most the seat scores over its next `t` turns, in a model where each turn it either
    expands or declines. The Active race (`regions`, `tokens`, `bonus` per turn, `cost` per region
    conquered; `tokens` 0: no Active race, so the turn picks a combo of `fresh` tokens) conquers
    spare tokens / cost regions a turn; a declined race scores 1 a region and the old one leaves;
    opponents erode both between turns (`LOSS_*` per opponent)."""
    if t <= 0:
        return 0.0
    loss = min(regions, LOSS_ACTIVE * opp)
    regions, tokens = regions - loss, tokens - loss
    declined *= (1 - LOSS_DECLINED) ** opp
    if tokens <= 0:  # pick a fresh combo: first conquests at the cheap rate
        got = fresh / FIRST_COST
        now = got + FRESH_BONUS + declined
        return now + plan_income(t - 1, got, fresh, FRESH_BONUS, LATER_COST, declined, fresh, opp)
    grown = regions + max(0.0, tokens - regions) / cost
    expand = grown + bonus + declined + plan_income(t - 1, grown, tokens, bonus, cost, declined, fresh, opp)
    if t == 1 or regions <= 0:
        return expand
    decline = regions + plan_income(t - 1, 0.0, 0.0, 0.0, cost, regions, fresh, opp)
    return max(expand, decline)


def fresh_combos(st: State, seat: int) -> list[tuple[int, int]]:
    """(tokens, coins taken less the cost) of each combo the seat can afford now: what a decline
    leads to next turn (the row will have moved, so this is an estimate)."""
    out = []
    for pos, (race, power, coins) in enumerate(st.game.variant.combos(st, seat)):
        if race is None or power is None or pos > st.seats[seat].coins:
            continue
        out.append((st.game.race_value[race] + st.game.power_value[power], coins - pos))
    return out


def decline_outlook(st: State, seat: int) -> tuple[int, list[tuple[int, int]]] | None:
    """The turns `seat` still scores and the combos a decline leads to, or None when a decline
    cannot pay: this is the last turn, or no combo is within reach."""
    t = turns_left(st, seat)
    if t <= 1:
        return None
    combos = fresh_combos(st, seat)
    return (t, combos) if combos else None


def should_decline(expanded: State, declined: State, st: State, me: int) -> bool:
    """Compare two plans over the turns left: expand now (this turn played out, `expanded`) and
    go on with the same race, or decline now (`declined`: the turn scored) and pick a fresh combo
    next turn. Each plan is scored now for real and afterwards with `plan_income`, which may itself
    decline later, so a race is kept while it can still grow and dropped when it runs thin."""
    outlook = decline_outlook(st, me)
    if outlook is None:
        return False
    t, combos = outlook
    opp = len(opponents(st, me))
    coins0 = st.seats[me].coins
    s = st.seats[me]
    # Expand: coins won during the conquests plus what the turn scores once they are over.
    e = expanded.seats[me]
    now_e = e.coins - coins0
    if expanded.turn_seat == me:
        now_e += sum(turn_score(expanded, me).values())
    r1 = expanded.occupied_mask(e.active).bit_count() if e.active else 0
    items = turn_score(expanded, me) if e.active else {}
    skip = ("active_regions", "declined_regions", "faction_bonus")
    bonus = sum(v for k, v in items.items() if k not in skip and not k.endswith("_declined"))
    tok = active_tokens(expanded, me) if e.active else 0
    d1 = expanded.occupied_mask(e.declined).bit_count() if e.declined else 0
    r0 = st.occupied_mask(s.active).bit_count() if s.active else 0
    spare0 = active_tokens(st, me) - r0
    gained = r1 - r0
    left = e.hand + sum(e.held.values())
    if gained > 0:
        cost = min(6.0, max(2.0, (spare0 - left) / gained))
    else:  # nothing worth taking this turn: assume little later either
        cost = 6.0 if spare0 >= 2 else LATER_COST
    # Decline: the turn is scored already (1 a region); the old In-Decline race has left.
    dd = declined.seats[me]
    now_d = dd.coins - coins0
    if declined.turn_seat == me:
        now_d += sum(turn_score(declined, me).values())
    dr = declined.occupied_mask(dd.declined).bit_count() if dd.declined else 0
    v_exp = now_e + plan_income(t - 1, r1, tok, bonus, cost, d1, max(n for n, _ in combos), opp)
    v_dec = now_d + max(c + plan_income(t - 1, 0.0, 0.0, 0.0, cost, dr, n, opp) for n, c in combos)
    return v_dec > v_exp + DECLINE_MARGIN


# --- cheap policy (rollouts) -----------------------------------------------------------------
def _cheapest(st: State, actions: list[Action], rng: random.Random) -> Action | None:
    """The conquest of the fewest defenders (tokens, defence, terrain), ties broken at random."""
    best: Action | None = None
    best_cost = float(1 << 30)  # a float: the costs compared with it are (a random tie-break added)
    tokens, defense = st.tokens, st.defense
    mountain = st.game.map.defence
    for a in actions:
        if a.kind == CONQUER and a.region is not None:
            c = tokens[a.region] + defense[a.region] + mountain[a.region] + rng.random()
            if c < best_cost:
                best, best_cost = a, c
    return best


def light_action(st: State, rng: random.Random) -> Action:
    """A fast rule policy: the richest combo, expand unless the race is spent late enough, conquer
    the cheapest target, redeploy everything to the most threatened region; prompts at random."""
    if st.phase == P_CONQUER and not st.pending:
        # The hot path of rollouts: the conquests lead the legal list and the end of conquests
        # follows them, so when one is possible the choice is made among them alone, drawing the
        # same random numbers as over the whole list below (one per conquest, in order).
        best = _cheapest(st, conquest_actions(st), rng)
        if best is not None:
            return best
    legal = legal_actions(st)
    if len(legal) == 1 or st.pending:
        return legal[rng.randrange(len(legal))]
    ph = st.phase
    seat = st.acting_seat
    if ph == P_PICK:
        combos = combo_tokens(st, seat)
        if combos:
            pos = max(combos, key=lambda c: (c[1], -c[0]))[0]
            a = Action(PICK, None, pos)
            if a in legal:
                return a
        return legal[0]
    if ph == START:
        s = st.seats[seat]
        regions = st.occupied_mask(s.active).bit_count()
        spare = active_tokens(st, seat) - regions
        t = turns_left(st, seat)
        return Action(DECLINE) if t >= 3 and spare <= 2 else Action(EXPAND)
    if ph == P_CONQUER:
        best = _cheapest(st, legal, rng)
        if best is not None:
            return best
        finals = [a for a in legal if a.kind == FINAL]
        if finals:
            return finals[rng.randrange(len(finals))]
        return Action(END) if Action(END) in legal else legal[0]
    if ph in (REDEPLOY, WITHDRAWN):
        th = threat(st, seat)
        if th:
            r = max(th, key=lambda x: (th[x], rng.random()))
            a = Action(DEPLOY, r, "all")
            if a in legal:
                return a
            kind = sorted(st.seats[seat].held)[0] if st.seats[seat].held else None
            a = Action(DEPLOY, r, kind)
            if a in legal:
                return a
    return legal[rng.randrange(len(legal))]


# --- the bot ---------------------------------------------------------------------------------
def outcomes(st: State, a: Action) -> list[State]:
    """The states `a` may lead to: one per die face for a final attempt, else one."""
    if a.kind != FINAL:
        c = st.clone()
        apply_unchecked(c, a)
        return [c]
    out = []
    for face in st.game.options.die_faces:
        c = st.clone()
        c.rolls = [face]
        apply_unchecked(c, a)
        out.append(c)
    return out


def playable(st: State, legal: Sequence[Action]) -> list[Action]:
    """The actions of `legal` (the real game's) that the determinisation `st` allows too: hidden facts
    drawn otherwise can forbid one there. The bots judge only these, so that applying them unchecked
    can fail only by an engine bug, which must not be hidden."""
    here = set(legal_actions(st))
    return [a for a in legal if a in here]


def one_ply(
    st: State, me: int, legal: list[Action], allow_content: bool = True, done: Sequence[Action] = ()
) -> Action:
    """The action whose result has the best `value` for `me` (ties: the first listed). `done`: content
    actions already taken this turn, not repeated (a second identical swap of two regions undoes the
    first; one-ply values of two determinisations can prefer each direction in turn)."""
    best, best_v = legal[0], float("-inf")
    for a in legal:
        if not st.pending and a.kind not in CORE_KINDS and (not allow_content or a in done):
            continue
        outs = outcomes(st, a)
        v = sum(value(o, me) for o in outs) / len(outs)
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


def ready_for_more(st: State, legal: list[Action]) -> Action | None:
    """A troop to ready (§6.2) because it opens a move of a race, power or marker that is not
    legal now: the Champion kept in a region is of no use there, but in hand it conquers for free.
    One ply cannot see that (a token and the Champion swap places: the value is unchanged)."""
    readies = [a for a in legal if a.kind == READY]
    if not readies:
        return None
    now = {a.kind for a in legal}
    for a in readies:
        c = st.clone()
        apply_unchecked(c, a)
        if any(b.kind not in CORE_KINDS and b.kind not in now for b in legal_actions(c)):
            return a
    return None


def play_turn_out(st: State, me: int, rng: random.Random) -> None:
    """Play `me`'s current conquests greedily (one ply each, no content actions) until they end."""
    for _ in range(TURN_DECISIONS_CAP):
        if st.phase == OVER or st.acting_seat != me:
            return
        if not st.pending and st.phase != P_CONQUER:
            return
        legal = legal_actions(st)
        a = one_ply(st, me, legal, allow_content=False) if not st.pending else one_ply(st, me, legal)
        apply_unchecked(st, a)


def pick_by_playout(st: State, me: int, legal: list[Action], rng: random.Random) -> Action:
    """The combo whose turn, played out greedily on a copy, leaves the best `value` for `me`."""
    best, best_v = legal[0], float("-inf")
    for a in legal:
        c = st.clone()
        apply_unchecked(c, a)
        play_turn_out(c, me, rng)
        v = value(c, me)
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


def start_by_plan(st: State, me: int, legal: list[Action], rng: random.Random) -> Action:
    """Decline or expand: this turn's expansion played out and the decline applied on copies, the
    two plans compared by `should_decline`."""
    if Action(DECLINE) not in legal:
        return Action(EXPAND) if Action(EXPAND) in legal else legal[0]
    expanded = st.clone()
    apply_unchecked(expanded, Action(EXPAND))
    play_turn_out(expanded, me, rng)
    declined = st.clone()
    apply_unchecked(declined, Action(DECLINE))
    return Action(DECLINE) if should_decline(expanded, declined, st, me) else Action(EXPAND)


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self) -> None:
        super().__init__()
        self._turn_key: tuple[int, int] | None = None
        self._content_used = 0
        self._content_done: list[Action] = []  # this turn's content actions

    def choose(self, view: dict[str, Any], legal_in: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_in)
        if len(legal) == 1:
            return legal[0]
        st = Determinizer(view, self._game()).sample(rng)
        mine = playable(st, legal)
        return self.decide(st, mine, rng) if mine else legal[0]

    def memory(self) -> dict[str, Any]:
        return {
            "turn": list(self._turn_key) if self._turn_key else None,
            "content_used": self._content_used,
            "content_done": [action_to_json(self._game(), a) for a in self._content_done],
        }

    def recall(self, memory: dict[str, Any]) -> None:
        turn = memory.get("turn")
        self._turn_key = (int(turn[0]), int(turn[1])) if isinstance(turn, list) and len(turn) == 2 else None
        self._content_used = int(memory.get("content_used", 0))
        self._content_done = [check_action(self._game(), a) for a in memory.get("content_done", [])]

    def decide(self, st: State, legal: list[Action], rng: random.Random) -> Action:
        me = st.acting_seat
        ph = st.phase
        if st.pending:
            return one_ply(st, me, legal)
        if ph in (REDEPLOY, WITHDRAWN):
            return deploy_action(st, legal)
        if ph == P_PICK:
            return self._pick(st, me, legal, rng)
        if ph == START:
            return self._start(st, me, legal, rng)
        key = (st.round, st.turn_seat)
        if key != self._turn_key:
            self._turn_key, self._content_used, self._content_done = key, 0, []
        ready = ready_for_more(st, legal) if ph == P_CONQUER else None
        if ready is not None:
            return ready
        a = one_ply(st, me, legal, allow_content=self._content_used < CONTENT_CAP, done=self._content_done)
        if a.kind not in CORE_KINDS:
            self._content_used += 1
            self._content_done.append(a)
        return a

    def _pick(self, st: State, me: int, legal: list[Action], rng: random.Random) -> Action:
        return pick_by_playout(st, me, legal, rng)

    def _start(self, st: State, me: int, legal: list[Action], rng: random.Random) -> Action:
        return start_by_plan(st, me, legal, rng)
