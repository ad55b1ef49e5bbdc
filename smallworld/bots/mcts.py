"""Information-set MCTS (single observer, Cowling et al. 2012) over determinised states.

Each iteration samples a fresh determinisation of the bot's view, walks one shared tree from the
root with UCT restricted to the actions legal in that sample (availability counts stand for the
parent visits), expands one action, finishes with a rollout of `rollout_action` (`greedy.light_action`
with declines judged by a cheap form of greedy's planning model) and backs the reward of each seat up
the nodes where that seat chose.

At the root the candidates are the `root_width` moves greedy's value ranks best plus greedy's own
choice, which gets a progressive bias (`greedy_bias / (visits + 1)` added to its UCT score); the
move played is the most visited one if its mean reward beats greedy's by `deviate_z` standard
errors, else greedy's: the search plays greedy's move unless its statistics clearly favour another.
With `tree_bias` the nodes below the root favour greedy's move the same way, for every seat.

Token-by-token redeployment is not branched on: in the tree and in rollouts it is played by the
greedy threat rule, so the tree spends its playouts on picks, declines, conquests and prompts.
Rollouts stop after `rollout_rounds` rounds and the position is then scored by `greedy.value`'s own-seat
part (coins, discounted income, Active tokens); finished games use the final scores. Each seat is
rewarded by the margin of its gain over the playout (that score less the coins it began with) on
the best other seat's: the coins a determinisation guesses for the others cancel out.

With a time budget the search keeps its tree between the decisions of one turn (`reuse`): the
subtree under the move played becomes the next root when that next decision is the bot's own and
comes at the ply the search expected (only forced steps between: single legal moves, token-by-token
redeployment). Within a turn the hidden facts barely change, so the statistics stay meaningful, and
the later decisions of a turn (the second and third conquests) start with the playouts the first one
already spent on them.

With `playouts` set (and `seconds` None) a decision depends only on the view and the `rng`, so a
seeded game is reproducible and a saved game resumes with the same choices; a time budget is not,
and only a time budget reuses the tree by default.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from smallworld.bots.base import Bot
from smallworld.bots.determinize import Determinizer
from smallworld.bots.greedy import (
    HAND_DEFENCE,
    GreedyBot,
    active_tokens,
    decline_outlook,
    deploy_action,
    horizon,
    light_action,
    opponents,
    outcomes,
    pick_by_playout,
    plan_income,
    playable,
    seat_value,
    start_by_plan,
    turns_left,
    value,
)
from smallworld.bots.ledger import CoinLedger
from smallworld.engine.api.game import Game
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.actions import DECLINE, EXPAND, Action
from smallworld.engine.model.state import OVER, REDEPLOY, START, WITHDRAWN, State
from smallworld.engine.model.state import PICK as P_PICK

# The reward on totals (`gains=False`): a win counts most; the score margin breaks ties.
WIN_WEIGHT = 0.6
MARGIN_SCALE = 8.0
# The final move is greedy's unless the most visited one's mean reward beats it by this many standard
# errors: between moves the playouts cannot tell apart, greedy's one-ply judgement decides.
DEVIATE_Z = 1.0


class Node:
    __slots__ = ("avail", "children", "prior", "seat", "sq", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that chose the action leading here
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.sq = 0.0  # the sum of the squared rewards (how sure a mean is)
        self.children: dict[Action, Node] = {}
        self.prior: Action | None = None  # greedy's move here, once asked (`tree_bias`)

    def mean(self) -> float:
        """The mean reward of the playouts through this node (0 before any)."""
        return self.total / self.visits if self.visits else 0.0

    def variance(self) -> float:
        """The variance of those rewards (0 before any)."""
        m = self.mean()
        return max(self.sq / self.visits - m * m, 0.0) if self.visits else 0.0


def leaf_value(st: State, seat: int) -> float:
    """`greedy.value`'s own-seat part at a rollout cutoff: coins, discounted income and the Active
    race's tokens (worth a little defence each over the turns left)."""
    v = seat_value(st, seat)
    s = st.seats[seat]
    if s.active:
        v += active_tokens(st, seat) * HAND_DEFENCE * horizon(turns_left(st, seat))
    return v


def rewards(
    st: State,
    cutoff_win: float = WIN_WEIGHT,
    win_weight: float = WIN_WEIGHT,
    scale: float = MARGIN_SCALE,
    base: Sequence[float] | None = None,
) -> list[float]:
    """Per-seat reward in [0, 1]: a win (shared wins count) with weight `win_weight`, plus the score
    margin squashed by a logistic of width `scale`. At a rollout cut-off the leader counts as the
    winner with weight `cutoff_win`. With `base` (each seat's coins where the playout began) the
    margin is of what each seat gained since, and no win is counted: a determinisation's guess of
    the others' coins then cancels out."""
    n = len(st.seats)
    if st.result is not None:
        scores = [float(x) for x in st.result["scores"]]
    else:
        scores = [leaf_value(st, i) for i in range(n)]
    if base is not None:
        return _margins([x - b for x, b in zip(scores, base, strict=True)], scale)
    if st.result is not None:
        winners, w = set(st.result["winners"]), win_weight
    else:
        best = max(scores)
        winners, w = {i for i in range(n) if scores[i] == best}, cutoff_win
    return [w * (i in winners) + (1 - w) * m for i, m in enumerate(_margins(scores, scale))]


def _margins(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's lead over the best other seat, squashed into (0, 1) by a logistic of width `scale`."""
    n = len(scores)
    out = []
    for i in range(n):
        other = max((scores[j] for j in range(n) if j != i), default=0.0)
        out.append(1 / (1 + math.exp(-(scores[i] - other) / scale)))
    return out


# Conquest cost (tokens a region) in the rollouts' decline model. With the turn not played out and no
# race or power bonus counted, this makes the rollouts readier to decline than greedy (a race is kept
# early only with about 8 spare tokens); 2.0 with the bonuses counted agrees with
# `greedy.should_decline` on the tests' positions but measured weaker (docs/bots.md).
ROLLOUT_COST = 3.0
_PLAN_CACHE: dict[tuple[Any, ...], float] = {}


def _plan(
    t: int, regions: float, tokens: float, bonus: float, declined: float, fresh: int, opp: int
) -> float:
    key = (t, round(regions, 1), round(tokens, 1), bonus, round(declined, 1), fresh, opp)
    v = _PLAN_CACHE.get(key)
    if v is None:
        if len(_PLAN_CACHE) > 50000:
            _PLAN_CACHE.clear()
        v = _PLAN_CACHE[key] = plan_income(t, regions, tokens, bonus, ROLLOUT_COST, declined, fresh, opp)
    return v


def rollout_decline(st: State, seat: int) -> bool:
    """A cheap stand-in for `greedy.should_decline` in rollouts: the same model of the turns left,
    fed with the position as it stands (no played-out turn; conquests at `ROLLOUT_COST`)."""
    outlook = decline_outlook(st, seat)
    if outlook is None:
        return False
    t, combos = outlook
    s = st.seats[seat]
    regions = st.occupied_mask(s.active).bit_count() if s.active else 0
    if regions == 0:
        return False
    tokens = active_tokens(st, seat)
    declined = st.occupied_mask(s.declined).bit_count() if s.declined else 0
    opp = len(opponents(st, seat))
    fresh = max(n for n, _ in combos)
    grown = regions + max(0, tokens - regions) / ROLLOUT_COST
    v_exp = grown + declined + _plan(t - 1, grown, tokens, 0.0, declined, fresh, opp)
    v_dec = regions + max(c + _plan(t - 1, 0.0, 0.0, 0.0, regions, n, opp) for n, c in combos)
    return v_dec > v_exp + 1.0


# The rollout policies: `light` is `greedy.light_action` with `rollout_decline`; `picks` picks combos
# as greedy does (each combo's turn played out); `greedy` also declines as greedy does.
ROLLOUT_POLICIES = ("light", "picks", "greedy")


def rollout_action(st: State, rng: random.Random, policy: str = "light") -> Action:
    """The rollout policy: `greedy.light_action`, with declines judged by `rollout_decline`; the
    `picks` and `greedy` policies take greedy's own picks (and declines) instead."""
    if not st.pending:
        if st.phase == START:
            legal = legal_actions(st)
            if Action(DECLINE) in legal and Action(EXPAND) in legal:
                if policy == "greedy":
                    return start_by_plan(st, st.acting_seat, legal, rng)
                return Action(DECLINE) if rollout_decline(st, st.acting_seat) else Action(EXPAND)
        elif st.phase == P_PICK and policy != "light":
            legal = legal_actions(st)
            if len(legal) > 1:
                return pick_by_playout(st, st.acting_seat, legal, rng)
    return light_action(st, rng)


def _forced(st: State) -> bool:
    """Decisions played by the rule policy inside the search (redeployment steps)."""
    return not st.pending and st.phase in (REDEPLOY, WITHDRAWN)


class MctsBot(Bot):
    name = "mcts"

    def __init__(
        self,
        seconds: float | None = None,
        playouts: int | None = 200,
        exploration: float = 0.7,
        rollout_rounds: int = 3,
        root_width: int = 8,
        greedy_bias: float = 2.0,
        reuse: bool | None = None,
        coin_ledger: bool = False,
        cutoff_win: float = WIN_WEIGHT,
        win_weight: float = WIN_WEIGHT,
        margin_scale: float = MARGIN_SCALE,
        deviate_z: float | None = DEVIATE_Z,
        leaf: Callable[[State], list[float]] | None = None,
        rollout_policy: str = "light",
        gains: bool = True,
        pick_z: float | None = None,
        decline_z: float | None = None,
        tree_bias: float = 0.0,
        pick_bank: float = 0.0,
    ) -> None:
        super().__init__()
        if rollout_policy not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout_policy: one of {', '.join(ROLLOUT_POLICIES)}, not {rollout_policy!r}")
        self.rollout_policy = rollout_policy
        # Reward the margin of what each seat gains from the sampled position (no win counted):
        # the hidden coins of the others, guessed in each determinisation, then cancel out, and the
        # reward no longer saturates where the guess is far off (docs/bots.md for the games).
        self.gains = gains
        self.seconds = seconds
        self.playouts = playouts if seconds is None else None
        self.c = exploration
        self.rollout_rounds = rollout_rounds
        self.root_width = root_width
        self.bias = greedy_bias
        self.last_iterations = 0
        self._greedy = GreedyBot()
        self._prior: Action | None = None
        self.reuse = seconds is not None if reuse is None else reuse
        # The subtree kept for the next decision of this seat: (the ply it expects, the node).
        self._kept: tuple[int, Node] | None = None
        self.last_reused = 0  # visits the last decision's root started with
        self.last_root: Node | None = None  # the last search's root (smallworld/measure/trace.py reads it)
        # Off by default: on one machine, 67 games at 1 s with it won fewer than without (docs/bots.md).
        self.coin_ledger = coin_ledger
        self.cutoff_win = cutoff_win
        self.win_weight = win_weight
        self.margin_scale = margin_scale
        # Play another move than greedy's only when its mean beats greedy's by this many standard
        # errors (None: the most visited move, whatever the margin; docs/bots.md for the games).
        self.deviate_z = deviate_z
        self.ledger: CoinLedger | None = None
        # Each seat's reward at a rollout cut-off in place of `rewards` (the learned bot's value
        # model, bots/learned); finished games always use the final scores.
        self.leaf = leaf
        # What replaces `deviate_z` at the picks of a combo and at the choice between declining
        # and expanding (None: `deviate_z` there too). Greedy judges these over one turn, the search
        # over several (docs/bots.md, "Where the search may overrule greedy").
        self.pick_z = pick_z
        self.decline_z = decline_z
        # The progressive bias towards greedy's move below the root too, for every seat (0: none):
        # the others are searched as players who mostly play greedy's move, as both bots do.
        self.tree_bias = tree_bias
        # With a time budget: the share of each other searched decision's `seconds` saved for the
        # next pick of a combo, which spends its own `seconds` and all that was saved (0: none). The
        # picks are where the search knows most that greedy does not (docs/bots.md); on average a
        # searched decision still costs at most `seconds`.
        if not 0.0 <= pick_bank < 1.0:
            raise ValueError(f"pick_bank: a share from 0 to below 1, not {pick_bank!r}")
        self.pick_bank = pick_bank
        self._bank = 0.0  # seconds saved for the next pick
        self.last_budget: float | None = None  # the seconds the last searched decision was given

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        if self.coin_ledger:
            st = game.new_initial_state()
            self.ledger = CoinLedger(seat, len(st.seats), st.seats[0].coins)
        self._kept = None
        self._bank = 0.0

    @property
    def greedy_choice(self) -> Action | None:
        """Greedy's own choice at the last searched decision (the move the progressive bias favours)."""
        return self._prior

    def memory(self) -> dict[str, Any]:
        """The coin ledger and the seconds saved for the next pick (a kept search tree is only a
        cache and is not saved)."""
        out: dict[str, Any] = {"ledger": self.ledger.to_json()} if self.ledger is not None else {}
        if self._bank:
            out["bank"] = self._bank
        return out

    def recall(self, memory: dict[str, Any]) -> None:
        if self.ledger is not None and isinstance(memory.get("ledger"), dict):
            self.ledger.load(memory["ledger"])
        bank = memory.get("bank")
        if isinstance(bank, (int, float)) and not isinstance(bank, bool) and bank >= 0:
            self._bank = float(bank)

    def choose(self, view: dict[str, Any], legal_in: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_in)
        self.last_iterations = 0
        self.last_reused = 0
        self.last_root = None
        self.last_budget = None
        kept, self._kept = self._kept, None
        coins = self.ledger.update(view) if self.ledger is not None else None
        if len(legal) == 1:
            return legal[0]
        # The time budget covers the whole decision, greedy's prior and the candidate set included.
        t0 = time.perf_counter()
        det = Determinizer(view, self._game(), coins)
        first = det.sample(rng)
        mine = playable(first, legal)  # what the first determinisation can judge
        if not mine:
            return legal[0]
        if _forced(first):
            return deploy_action(first, mine)
        budget = self._budget(first)
        deadline = t0 + budget if budget is not None else None
        root = Node(-1)
        if kept is not None and kept[0] == view.get("ply"):
            root = kept[1]
            self.last_reused = root.visits
        start = first.clone() if self.reuse else None
        z = self._deviate_z(first)  # now: the first playout plays on `first`
        allowed = set(self._candidates(first, mine))
        self._prior = None
        if self.bias > 0:
            self._prior = self._greedy.decide(first.clone(), mine, rng)
            allowed.add(self._prior)
        it = 0
        while True:
            if deadline is not None:
                if it > 0 and time.perf_counter() >= deadline:
                    break
            elif it >= (self.playouts or 1):
                break
            st = first if it == 0 else det.sample(rng)
            self._iterate(root, st, allowed, rng)
            it += 1
        self.last_iterations = it
        self.last_root = root
        best = max(
            (a for a in legal if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].total),
            default=None,
        )
        if best is None:
            return legal[0]
        if z is not None and self._prior is not None and best != self._prior:
            best = self._sure(root, best, self._prior, z)
        if start is not None:
            self._keep(start, best, root.children[best])
        return best

    def _budget(self, st: State) -> float | None:
        """The seconds this searched decision may take (`pick_bank`): a pick of a combo takes its own
        and all that the decisions since the last one saved; any other saves its share, but in the
        game's last round, where no pick may come, takes its own and what is saved."""
        if self.seconds is None or self.pick_bank <= 0:
            self.last_budget = self.seconds
            return self.seconds
        if (st.phase == P_PICK and not st.pending) or st.round >= st.game.rounds:
            budget, self._bank = self.seconds + self._bank, 0.0
        else:
            budget = self.seconds * (1 - self.pick_bank)
            self._bank += self.seconds - budget
        self.last_budget = budget
        return budget

    def _deviate_z(self, st: State) -> float | None:
        """The standard errors by which another move must beat greedy's at the decision of `st`."""
        if not st.pending:
            if st.phase == P_PICK and self.pick_z is not None:
                return self.pick_z
            if st.phase == START and self.decline_z is not None:
                return self.decline_z
        return self.deviate_z

    @staticmethod
    def _sure(root: Node, best: Action, prior: Action, z: float) -> Action:
        """`best` if its mean reward beats the prior's by `z` standard errors, else the prior."""
        b, p = root.children[best], root.children.get(prior)
        if p is None:
            return best  # greedy's move never searched: nothing to weigh it by
        if p.visits < 2 or b.visits < 2:
            return prior
        se = math.sqrt(b.variance() / b.visits + p.variance() / p.visits)
        return best if b.mean() - p.mean() > z * se else prior

    def _keep(self, st: State, action: Action, node: Node) -> None:
        """Keep `node` for the next decision if, after `action` and the forced steps the search
        itself plays without a node, the next decision is this seat's own in the same turn."""
        seat, turn = st.acting_seat, (st.round, st.turn_seat)
        apply_unchecked(st, action)
        while st.phase != OVER:
            if _forced(st):
                apply_unchecked(st, deploy_action(st, legal_actions(st)))
                continue
            legal = legal_actions(st)
            if len(legal) != 1:
                break
            apply_unchecked(st, legal[0])
        if st.phase != OVER and st.acting_seat == seat and (st.round, st.turn_seat) == turn and node.children:
            self._kept = (st.ply, node)

    def _candidates(self, st: State, legal: list[Action]) -> list[Action]:
        """The `root_width` actions the greedy value ranks best: the playouts then go to moves worth
        comparing rather than to dozens of conquests that merely cost more."""
        if len(legal) <= self.root_width:
            return legal
        me = st.acting_seat
        scored = []
        for i, a in enumerate(legal):
            outs = outcomes(st, a)
            scored.append((-sum(value(o, me) for o in outs) / len(outs), i, a))
        scored.sort()
        return [a for _, _, a in scored[: self.root_width]] or legal

    def _ucb(self, child: Node) -> float:
        """UCT with availability counts in place of the parent's visits (ISMCTS)."""
        return child.total / child.visits + self.c * math.sqrt(math.log(child.avail) / child.visits)

    def _favoured(self, a: Action, child: Node, prior: Action | None, k: float) -> float:
        """UCT plus a progressive bias `k / (visits + 1)` towards greedy's move `prior`."""
        u = self._ucb(child)
        return u + k / (child.visits + 1) if a == prior else u

    def _biased(self, node: Node, st: State, legal: list[Action], rng: random.Random) -> Action:
        """The `tree_bias` selection below the root: greedy's move is asked once a node, on the first
        determinisation that selects there (another may not list it: then no move is favoured)."""
        if node.prior is None:
            node.prior = self._greedy.decide(st.clone(), legal, rng)
        kids, prior = node.children, node.prior
        return max(legal, key=lambda x: self._favoured(x, kids[x], prior, self.tree_bias))

    def _iterate(self, root: Node, st: State, allowed: set[Action], rng: random.Random) -> None:
        node = root
        path: list[Node] = [root]
        expanded = False
        start_round = st.round
        base = [float(x.coins) for x in st.seats] if self.gains else None
        while st.phase != OVER and not expanded:
            if _forced(st):
                apply_unchecked(st, deploy_action(st, legal_actions(st)))
                continue
            legal = legal_actions(st)
            if node is root:
                legal = [a for a in legal if a in allowed] or legal
            if len(legal) == 1:
                apply_unchecked(st, legal[0])
                continue
            seat = st.acting_seat
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[rng.randrange(len(untried))]
                child = node.children[a] = Node(seat)
                child.avail = 1
                expanded = True
            else:
                if node is root:
                    a = max(legal, key=lambda x: self._favoured(x, node.children[x], self._prior, self.bias))
                elif self.tree_bias > 0:
                    a = self._biased(node, st, legal, rng)
                else:
                    a = max(legal, key=lambda x: self._ucb(node.children[x]))
                child = node.children[a]
            apply_unchecked(st, a)
            node = child
            path.append(node)
        limit = start_round + self.rollout_rounds
        while st.phase != OVER and st.round < limit:
            apply_unchecked(st, rollout_action(st, rng, self.rollout_policy))
        if self.leaf is not None and st.result is None:
            r = self.leaf(st)
        else:
            r = rewards(st, self.cutoff_win, self.win_weight, self.margin_scale, base)
        for nd in path:
            nd.visits += 1
            if nd.seat >= 0:
                x = r[nd.seat]
                nd.total += x
                nd.sq += x * x
