"""One game of the MCTS against greedy, with what the search saw at each decision it searched.

    tools/mcts_trace.py --seed 20005 --seconds 1
    tools/mcts_trace.py --seed 20005 --playouts 2000 --bot-option margin_scale=30 --json

(`python -m smallworld.measure.trace` is the same command; tools/mcts_trace.py runs this module.)

For each searched decision: the round, the playouts (and how many came from the kept tree), the
move played and greedy's own choice, then the root's moves by visits with their mean reward and its
standard deviation. A mean near 1 (or 0) for every move says the reward has saturated: the search
can no longer tell the moves apart (docs/bots.md). Game `seed` seats the bots as game 0 of a study
from that seed does (`--mcts-seat 1` swaps them) and draws the same bot generators as the simulator.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from smallworld.bots import public_game
from smallworld.bots.greedy import GreedyBot
from smallworld.bots.mcts import MctsBot
from smallworld.engine import Game, Settings, view_for
from smallworld.engine.api.notation import to_text
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.measure.study import bot_option
from smallworld.sim.runner import bot_rng


def trace(seed: int, mcts_seat: int, options: dict[str, Any], top: int = 9) -> dict[str, Any]:
    """Play the game and return the result with one entry per searched MCTS decision."""
    game = Game(Settings(players=2, seed=seed))
    mcts = MctsBot(**options)
    bots: list[MctsBot | GreedyBot] = [mcts, GreedyBot()] if mcts_seat == 0 else [GreedyBot(), mcts]
    seen = public_game(game)
    for seat, b in enumerate(bots):
        b.start(seen, seat)
    rngs = [bot_rng(seed, seat) for seat in range(2)]
    st = game.new_initial_state()
    decisions: list[dict[str, Any]] = []
    while st.phase != "over":
        seat = st.acting_seat
        legal = legal_actions(st)
        action = bots[seat].choose(view_for(st, seat), list(legal), rngs[seat])
        root = mcts.last_root if seat == mcts_seat else None
        if root is not None and len(root.children) > 1:
            prior = mcts.greedy_choice
            moves = []
            for a, n in sorted(root.children.items(), key=lambda kv: -kv[1].visits)[:top]:
                moves.append({"move": to_text(game, a), "visits": n.visits, "mean": round(n.mean(), 4),
                              "sd": round(math.sqrt(n.variance()), 4), "greedy": a == prior})  # fmt: skip
            decisions.append({
                "round": st.round, "ply": st.ply, "playouts": mcts.last_iterations,
                "reused": mcts.last_reused, "played": to_text(game, action),
                "greedy": to_text(game, prior) if prior is not None else None, "moves": moves,
            })  # fmt: skip
        apply_unchecked(st, action)
    assert st.result is not None
    return {"seed": seed, "mcts_seat": mcts_seat, "options": options, "scores": st.result["scores"],
            "winners": st.result["winners"], "decisions": decisions}  # fmt: skip


def render(t: dict[str, Any]) -> str:
    lines = []
    for d in t["decisions"]:
        same = "= greedy" if d["played"] == d["greedy"] else f"(greedy: {d['greedy']})"
        lines.append(f"round {d['round']} ply {d['ply']}: {d['playouts']} playouts, {d['reused']} kept; "
                     f"played {d['played']} {same}")  # fmt: skip
        for m in d["moves"]:
            mark = " *greedy" if m["greedy"] else ""
            lines.append(f"    {m['visits']:6d}  {m['mean']:.3f} ± {m['sd']:.3f}  {m['move']}{mark}")
    differ = sum(1 for d in t["decisions"] if d["played"] != d["greedy"])
    lines.append(f"seed {t['seed']}, MCTS in seat {t['mcts_seat']}: scores {t['scores']}, "
                 f"winners {t['winners']}; {len(t['decisions'])} searched decisions, "
                 f"{differ} unlike greedy's")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--mcts-seat", type=int, choices=(0, 1), default=0)
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float)
    budget.add_argument("--playouts", type=int)
    p.add_argument("--bot-option", action="append", type=bot_option, default=[], metavar="KEY=JSON")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    options: dict[str, Any] = (
        {"seconds": a.seconds} if a.seconds is not None else {"playouts": a.playouts or 200}
    )
    options.update(a.bot_option)
    try:
        t = trace(a.seed, a.mcts_seat, options)
    except TypeError as e:  # an option MctsBot does not take
        p.error(str(e))
    print(json.dumps(t, indent=1) if a.json else render(t))


if __name__ == "__main__":
    main()
