"""Make self-play data and train the value model (`python -m smallworld.bots.learned.train`).

The recipe (docs/bots.md, "learned"): for each player count, games of greedy against itself and
games of the MCTS rollout policy (`mcts.rollout_action`) against itself, seeded from `--seed`. In
each game every position (before an action) is sampled with a fixed probability, and at a sampled
position every seat's observation is recorded (`ObservationEncoder` on `view_for(st, seat)`: only
what that seat may see). The target of a row is that seat's `mcts.rewards` at the end of the game
(0.6 for a win, shared wins included, plus 0.4 × a logistic of its final margin over the best other
seat, width 8 points): the reward the search backs up from a finished game, so the model's output
stands in for it at a cut-off.

`--mcts-games` adds games of the MCTS bot against itself (`--mcts-playouts` a decision): real play
of the search whose cut-offs the model serves. They are played on `--workers` processes, so each
samples its positions with a generator of its own, seeded by its game seed (the greedy and rollout
games share one, as the shipped model's recipe always did). `--save-data` keeps the rows in an
`.npz` and `--data` trains from such files instead of playing, so a training choice can be tried
without playing the games again.

The model is an MLP trained with Adam on the cross-entropy of its logistic output against those
targets (their expectation is what both losses are minimised by); one game in `--val` goes to a
validation set (whole games, so positions of one game are never on both sides), and the weights of
the epoch with the lowest validation loss are kept. Everything is seeded: the same arguments make the
same file on the same numpy.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from smallworld.bots.base import Bot
from smallworld.bots.determinize import public_game
from smallworld.bots.greedy import GreedyBot
from smallworld.bots.learned import (
    FEATURES,
    MODEL_PATH,
    ValueModel,
    encoder,
    encoder_signature,
    summary_features,
)
from smallworld.bots.mcts import MctsBot, rewards, rollout_action
from smallworld.engine.api.game import Game
from smallworld.engine.api.views import view_for
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.settings import DEFAULT_EDITION, make_settings
from smallworld.engine.model.state import OVER
from smallworld.sim.runner import bot_rng

POLICIES = ("greedy", "rollout", "mcts")
# Game seeds: policy p, player count n, game i -> SEED_BASE[p] + 1000 * n + i (+ the run's seed).
SEED_BASE = {"greedy": 500_000, "rollout": 600_000, "mcts": 700_000}


def play_and_sample(
    players: int,
    seed: int,
    policy: str,
    prob: float,
    sampler: random.Random,
    playouts: int = 100,
) -> tuple[list[np.ndarray], list[float], list[float]]:
    """One self-play game: (observations, targets, the hand-written cut-off reward of the same
    rows, for comparison). `playouts`: the MCTS bot's budget a decision (policy "mcts")."""
    enc = encoder()
    game = Game(make_settings(players, seed, "standard", {}, DEFAULT_EDITION))
    st = game.new_initial_state()
    bots: list[Bot] = []
    if policy in ("greedy", "mcts"):
        seen = public_game(game)
        for seat in range(players):
            b: Bot = GreedyBot() if policy == "greedy" else MctsBot(playouts=playouts)
            b.start(seen, seat)
            bots.append(b)
    rngs = [bot_rng(seed, seat) for seat in range(players)]
    rows: list[np.ndarray] = []
    seats: list[int] = []
    hand: list[float] = []
    while st.phase != OVER:
        if sampler.random() < prob:
            now = rewards(st)
            for i in range(players):
                rows.append(enc.encode(view_for(st, i), game))
                seats.append(i)
                hand.append(now[i])
        seat = st.acting_seat
        if bots:
            action = bots[seat].choose(view_for(st, seat), list(legal_actions(st)), rngs[seat])
        else:
            action = rollout_action(st, rngs[seat])
        apply_unchecked(st, action)
    final = rewards(st)
    return rows, [final[i] for i in seats], hand


def _mcts_game(job: tuple[int, int, float, int]) -> tuple[list[np.ndarray], list[float], list[float]]:
    players, seed, prob, playouts = job
    return play_and_sample(players, seed, "mcts", prob, random.Random(seed), playouts)


def generate(
    counts: dict[str, int],
    players: tuple[int, ...],
    seed: int,
    probs: dict[str, float],
    log: bool = True,
    playouts: int = 100,
    workers: int = 1,
) -> dict[str, np.ndarray]:
    """The data set: `counts[policy]` games for each player count. Arrays: x (float32 rows), y,
    hand (the hand-written reward), game (a game number, for the split), players, policy. The rows are
    the model's inputs (`summary_features` of the observations). The MCTS games (`playouts` a
    decision) are played on `workers` processes."""
    sampler = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    hands: list[float] = []
    game_ids: list[int] = []
    ns: list[int] = []
    pols: list[int] = []
    seeded: list[int] = []
    g = 0
    t0 = time.perf_counter()
    for policy in POLICIES:
        for n in players:
            seeds = [seed + SEED_BASE[policy] + 1000 * n + i for i in range(counts.get(policy, 0))]
            if policy == "mcts" and seeds:
                jobs = [(n, s, probs[policy], playouts) for s in seeds]
                if workers <= 1:
                    played = [_mcts_game(job) for job in jobs]
                else:
                    with multiprocessing.get_context("spawn").Pool(workers) as pool:
                        played = pool.map(_mcts_game, jobs, chunksize=1)
            else:
                played = [play_and_sample(n, s, policy, probs[policy], sampler) for s in seeds]
            for game_seed, (rows, y, hand) in zip(seeds, played, strict=True):
                seeded += [game_seed] * len(rows)
                if rows:
                    xs.append(summary_features(np.stack(rows)))
                ys += y
                hands += hand
                game_ids += [g] * len(rows)
                ns += [n] * len(rows)
                pols += [POLICIES.index(policy)] * len(rows)
                g += 1
            if log:
                print(
                    f"  {policy} {n} players: {counts.get(policy, 0)} games, {len(ys)} rows so far, "
                    f"{time.perf_counter() - t0:.0f} s",
                    file=sys.stderr,
                )
    return {
        "x": np.concatenate(xs) if xs else summary_features(np.zeros((0, encoder().size), np.float32)),
        "y": np.array(ys, dtype=np.float32),
        "hand": np.array(hands, dtype=np.float32),
        "game": np.array(game_ids, dtype=np.int64),
        "players": np.array(ns, dtype=np.int64),
        "policy": np.array(pols, dtype=np.int64),  # an index into POLICIES
        "seed": np.array(seeded, dtype=np.int64),  # the game's seed
    }


def merge_data(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Data sets from `generate` (or their saved `.npz`) as one, each part's game numbers kept apart.
    Parts that share a game are refused: runs whose `--seed` differ by less than their game count
    play the same games (game `i` of seed `s + 1` is game `i + 1` of seed `s`), and a game on both
    sides of the validation split would flatter the model. Ask one run for more games instead."""
    seen: dict[tuple[int, int], int] = {}
    for n, part in enumerate(parts):
        for key in set(zip(part["policy"].tolist(), part["seed"].tolist(), strict=True)):
            if key in seen:
                policy, seed = POLICIES[key[0]], key[1]
                raise ValueError(
                    f"data parts {seen[key] + 1} and {n + 1} both hold the {policy} game of seed {seed}"
                )
            seen[key] = n
    out: dict[str, list[np.ndarray]] = {k: [] for k in parts[0]}
    offset = 0
    for part in parts:
        for k, v in part.items():
            out[k].append(v + offset if k == "game" else v)
        offset += int(part["game"].max()) + 1 if len(part["game"]) else 0
    return {k: np.concatenate(v) for k, v in out.items()}


def _mse(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2)) if len(y) else float("nan")


def _reported_mse(p: np.ndarray, y: np.ndarray) -> float | None:
    """The error as the model file records it: None where there are no rows (JSON has no NaN)."""
    return round(_mse(p, y), 5) if len(y) else None


def train(
    data: dict[str, np.ndarray],
    seed: int = 0,
    hidden: tuple[int, ...] = (32,),
    epochs: int = 40,
    batch: int = 256,
    lr: float = 1e-3,
    l2: float = 1e-2,
    val: int = 6,
    patience: int = 6,
    log: bool = True,
) -> tuple[ValueModel, dict[str, Any]]:
    """Fit the MLP on `data` (from `generate`); returns the model (best validation epoch) and a report."""
    rng = np.random.default_rng(seed)
    x_all, y_all, games = data["x"], data["y"], data["game"]
    # One game in `val` to validation, chosen by a seeded permutation of the game numbers.
    ids = np.unique(games)
    held = set(rng.permutation(ids)[: max(1, len(ids) // val)].tolist()) if len(ids) > 1 else set()
    is_val = np.array([g in held for g in games.tolist()], dtype=bool)
    x_tr, y_tr = x_all[~is_val], y_all[~is_val]
    x_va, y_va = x_all[is_val], y_all[is_val]
    # Columns that never move in the training rows (the team offer in standard games, unused
    # pieces) carry nothing: they are dropped from the model's inputs.
    spread = x_tr.std(axis=0) if len(x_tr) else np.zeros(x_all.shape[1], np.float32)
    cols = np.nonzero(spread > 0)[0]
    keep = cols
    x_tr, x_va = x_tr[:, cols], x_va[:, cols]
    mean = x_tr.mean(axis=0).astype(np.float32)
    std = np.maximum(x_tr.std(axis=0), 1e-3).astype(np.float32)
    x_tr = (x_tr - mean) / std
    x_va = (x_va - mean) / std
    sizes = [x_tr.shape[1], *hidden, 1]
    ws = [
        (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        for a, b in itertools.pairwise(sizes)
    ]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    ms = [np.zeros_like(p) for p in ws + bs]
    vs = [np.zeros_like(p) for p in ws + bs]
    step = 0

    def forward(x: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [x]
        h = x
        for w, b in zip(ws[:-1], bs[:-1], strict=True):
            h = np.maximum(h @ w + b, 0.0)
            acts.append(h)
        return acts, (h @ ws[-1] + bs[-1])[:, 0]

    def prob(z: np.ndarray) -> np.ndarray:
        out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        return out

    def bce(p: np.ndarray, y: np.ndarray) -> float:
        q = np.clip(p, 1e-6, 1 - 1e-6)
        return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))) if len(y) else float("nan")

    best: tuple[float, list[np.ndarray], list[np.ndarray], int] | None = None
    history = []
    t0 = time.perf_counter()
    for epoch in range(epochs):
        order = rng.permutation(len(x_tr))
        for k in range(0, len(order), batch):
            idx = order[k : k + batch]
            acts, z = forward(x_tr[idx])
            # d(cross-entropy)/d(logit) = p - y, averaged over the batch.
            delta = ((prob(z) - y_tr[idx]) / len(idx))[:, None].astype(np.float32)
            grads_w: list[np.ndarray] = [np.empty(0)] * len(ws)
            grads_b: list[np.ndarray] = [np.empty(0)] * len(bs)
            for layer in range(len(ws) - 1, -1, -1):
                grads_w[layer] = acts[layer].T @ delta + l2 * ws[layer]
                grads_b[layer] = delta.sum(axis=0)
                if layer:
                    delta = (delta @ ws[layer].T) * (acts[layer] > 0)
            step += 1
            for j, (p, g) in enumerate(zip(ws + bs, grads_w + grads_b, strict=True)):
                ms[j] = 0.9 * ms[j] + 0.1 * g
                vs[j] = 0.999 * vs[j] + 0.001 * g * g
                m_hat = ms[j] / (1 - 0.9**step)
                v_hat = vs[j] / (1 - 0.999**step)
                p -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        p_va = prob(forward(x_va)[1]) if len(x_va) else np.zeros(0)
        p_tr = prob(forward(x_tr[:5000])[1])
        row = {
            "epoch": epoch + 1,
            "train_mse": round(_mse(p_tr, y_tr[:5000]), 5),
            "val_mse": round(_mse(p_va, y_va), 5),
            "val_bce": round(bce(p_va, y_va), 5),
        }
        history.append(row)
        if log:
            print(f"  epoch {row['epoch']}: {row}", file=sys.stderr)
        score = row["val_bce"] if len(x_va) else -epoch
        if best is None or score < best[0]:
            best = (score, [w.copy() for w in ws], [b.copy() for b in bs], epoch + 1)
        elif epoch + 1 - best[3] >= patience:
            break
    assert best is not None
    _, ws_best, bs_best, best_epoch = best
    # The model reads standardised inputs through `mean` / `std`; the layers stay as trained.
    p_best = prob(_forward_with(ws_best, bs_best, x_va)) if len(x_va) else np.zeros(0)
    hand_va = data["hand"][is_val]
    # The greedy games' positions alone: the closest to the positions a real game reaches.
    g_va = data["policy"][is_val] == POLICIES.index("greedy")
    report = {
        "rows": len(y_all),
        "train_rows": len(y_tr),
        "val_rows": len(y_va),
        "games": len(ids),
        "val_games": len(held),
        "inputs": len(keep),
        "hidden": list(hidden),
        "epochs_run": len(history),
        "best_epoch": best_epoch,
        "val_mse": _reported_mse(p_best, y_va),
        "val_mse_hand": _reported_mse(hand_va, y_va),  # the hand-written cut-off reward's
        "val_mse_constant": _reported_mse(np.full(len(y_va), float(y_tr.mean())), y_va),
        "val_rows_greedy": int(g_va.sum()),
        "val_mse_greedy": _reported_mse(p_best[g_va], y_va[g_va]),
        "val_mse_hand_greedy": _reported_mse(hand_va[g_va], y_va[g_va]),
        "train_seconds": round(time.perf_counter() - t0, 1),
        "history": history,
    }
    meta = {
        "encoder": encoder_signature(),
        "features": FEATURES,
        "target": "mcts.rewards at the game's end (0.6 win + 0.4 margin)",
    }
    return ValueModel(keep, mean, std, ws_best, bs_best, meta), report


def _forward_with(ws: list[np.ndarray], bs: list[np.ndarray], x: np.ndarray) -> np.ndarray:
    h = x
    for w, b in zip(ws[:-1], bs[:-1], strict=True):
        h = np.maximum(h @ w + b, 0.0)
    out: np.ndarray = (h @ ws[-1] + bs[-1])[:, 0]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate self-play data and train the learned value model.")
    ap.add_argument("--greedy-games", type=int, default=30, help="greedy self-play games per player count")
    ap.add_argument("--rollout-games", type=int, default=1000, help="rollout-policy games per player count")
    ap.add_argument("--players", default="2,3,4,5", help="player counts, comma-separated")
    ap.add_argument("--greedy-prob", type=float, default=0.06, help="chance a greedy game's position is kept")
    ap.add_argument("--rollout-prob", type=float, default=0.03, help="the same in rollout-policy games")
    ap.add_argument("--mcts-games", type=int, default=0, help="MCTS self-play games per player count")
    ap.add_argument("--mcts-playouts", type=int, default=100, help="the MCTS games' playouts a decision")
    ap.add_argument("--mcts-prob", type=float, default=0.1, help="the same chance in MCTS games")
    ap.add_argument("--workers", type=int, default=1, help="processes for the MCTS games")
    ap.add_argument("--save-data", type=Path, help="keep the generated rows in this .npz")
    ap.add_argument("--data", type=Path, action="append", help="train from these .npz files, playing nothing")
    ap.add_argument("--hidden", default="32", help="hidden layer sizes, comma-separated")
    ap.add_argument("--l2", type=float, default=1e-2, help="weight decay (added to the gradients)")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODEL_PATH, help=f"the model file (default {MODEL_PATH})")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    players = tuple(int(p) for p in args.players.split(",") if p.strip())
    counts = {"greedy": args.greedy_games, "rollout": args.rollout_games, "mcts": args.mcts_games}
    probs = {"greedy": args.greedy_prob, "rollout": args.rollout_prob, "mcts": args.mcts_prob}
    hidden = tuple(int(h) for h in args.hidden.split(",") if h.strip())
    t0 = time.perf_counter()
    if args.data:
        data = merge_data([dict(np.load(f)) for f in args.data])
    else:
        data = generate(counts, players, args.seed, probs, not args.quiet, args.mcts_playouts, args.workers)
    if args.save_data:
        np.savez_compressed(args.save_data, allow_pickle=False, **data)
    gen_s = time.perf_counter() - t0
    model, report = train(
        data, seed=args.seed, hidden=hidden, epochs=args.epochs, l2=args.l2, log=not args.quiet
    )
    model.meta["recipe"] = {
        "command": "python tools/train_value.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "games_per_player_count": counts,
        "players": list(players),
        "sample_prob": probs,
        "mcts_playouts": args.mcts_playouts,
        "data_files": [str(f) for f in args.data or []],
        "seed": args.seed,
        "game_seeds": {p: f"{args.seed} + {SEED_BASE[p]} + 1000 * players + i" for p in POLICIES},
        "generate_seconds": round(gen_s, 1),
    }
    model.meta["training"] = {k: v for k, v in report.items() if k != "history"}
    model.save(args.out)
    summary = {**model.meta, "file": str(args.out), "bytes": args.out.stat().st_size}
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
