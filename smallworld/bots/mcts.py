"""Information-set MCTS (single observer, Cowling et al. 2012) over determinised states.

Each iteration samples a fresh determinisation of the bot's view, walks one shared tree from the
root with UCT restricted to the actions legal in that sample (availability counts stand for the
parent visits), expands one action, finishes with a rollout of `greedy.light_action` and backs the
reward of each seat up the nodes where that seat chose.

Token-by-token redeployment is not branched on: in the tree and in rollouts it is played by the
greedy threat rule, so the tree spends its playouts on picks, declines, conquests and prompts.
Rollouts stop after `rollout_rounds` rounds and the position is then scored by `greedy.value`-like
estimates (coins plus discounted income); finished games use the final scores.

With `playouts` set (and `seconds` None) a decision depends only on the view and the `rng`, so a
seeded game is reproducible; a time budget is not.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from smallworld.bots.base import Bot
from smallworld.bots.determinize import Determinizer
from smallworld.bots.greedy import deploy_action, light_action, outcomes, seat_value, value
from smallworld.engine.actions import Action
from smallworld.engine.flow import apply_unchecked, legal_actions
from smallworld.engine.state import OVER, REDEPLOY, WITHDRAWN, State

# Reward: a win counts most; the score margin breaks ties between wins and losses.
WIN_WEIGHT = 0.6
MARGIN_SCALE = 8.0


class Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that chose the action leading here
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Action, Node] = {}


def rewards(st: State) -> list[float]:
    """Per-seat reward in [0, 1]: a win (shared wins count), plus a squashed score margin."""
    n = len(st.seats)
    if st.result is not None:
        scores = [float(x) for x in st.result["scores"]]
        winners = set(st.result["winners"])
    else:
        scores = [seat_value(st, i) for i in range(n)]
        best = max(scores)
        winners = {i for i in range(n) if scores[i] == best}
    out = []
    for i in range(n):
        other = max((scores[j] for j in range(n) if j != i), default=0.0)
        margin = 1 / (1 + math.exp(-(scores[i] - other) / MARGIN_SCALE))
        out.append(WIN_WEIGHT * (i in winners) + (1 - WIN_WEIGHT) * margin)
    return out


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
    ) -> None:
        super().__init__()
        self.seconds = seconds
        self.playouts = playouts if seconds is None else None
        self.c = exploration
        self.rollout_rounds = rollout_rounds
        self.root_width = root_width
        self.last_iterations = 0

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        det = Determinizer(view, self._game())
        first = det.sample(rng)
        if _forced(first):
            return deploy_action(first, legal)
        root = Node(-1)
        allowed = set(self._candidates(first, legal))
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
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
        best = max(
            (a for a in legal if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].total),
            default=None,
        )
        return best if best is not None else legal[0]

    def _candidates(self, st: State, legal: list[Action]) -> list[Action]:
        """The `root_width` actions the greedy value ranks best: the playouts then go to moves worth
        comparing rather than to dozens of conquests that merely cost more."""
        if len(legal) <= self.root_width:
            return legal
        me = st.acting_seat
        scored = []
        for i, a in enumerate(legal):
            try:
                outs = outcomes(st, a)
            except Exception:  # an action this determinisation cannot take: keep it out
                continue
            scored.append((-sum(value(o, me) for o in outs) / len(outs), i, a))
        scored.sort()
        return [a for _, _, a in scored[: self.root_width]] or legal

    def _ucb(self, child: Node) -> float:
        """UCT with availability counts in place of the parent's visits (ISMCTS)."""
        return child.total / child.visits + self.c * math.sqrt(math.log(child.avail) / child.visits)

    def _iterate(self, root: Node, st: State, allowed: set[Action], rng: random.Random) -> None:
        node = root
        path: list[Node] = [root]
        expanded = False
        start_round = st.round
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
                a = max(legal, key=lambda x: self._ucb(node.children[x]))
                child = node.children[a]
            apply_unchecked(st, a)
            node = child
            path.append(node)
        limit = start_round + self.rollout_rounds
        while st.phase != OVER and st.round < limit:
            apply_unchecked(st, light_action(st, rng))
        r = rewards(st)
        for nd in path:
            nd.visits += 1
            if nd.seat >= 0:
                nd.total += r[nd.seat]
