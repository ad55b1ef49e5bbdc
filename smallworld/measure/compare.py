"""Compare the speed of the working tree with an earlier commit, on this machine, in one run.

    tools/bench-compare 724bc7f                      # random games, 2, 3 and 5 players
    tools/bench-compare 724bc7f --workloads random3,mcts2,determinize --runs 5
    tools/bench-compare HEAD~3 --json
    tools/bench-compare 724bc7f --work build/compiled   # the mypyc build (tools/build-compiled)

Absolute figures move by 2-3x on shared machines; a ratio measured with the runs of both trees
interleaved (A B A B ...) is stable to about 10%. REF is checked out in a temporary git worktree;
each run is a fresh `python` process with that tree first on `sys.path`, using the same interpreter
(and so the same installed dependencies) for both. tools/bench-compare runs this module
(`python -m smallworld.measure.compare` from the checkout is the same command).

Workloads (each reports a rate; higher is better):
  randomP      complete games of P players by uniformly random legal moves (games/s); the decision
               count is printed too, since the same seeds must give the same games
  mctsP        MCTS playouts/s on the decisions of a fixed random P-player game (200 playouts each)
  determinize  determinisations of a seat's view per second (Determinizer.sample)
  observeP     RL observations of the seats' views per second (smallworld/env ObservationEncoder);
               its "decisions" are a checksum of the vectors, so "same" says both trees made them alike
  learnedP     the learned bot's playouts/s (the shipped value model at each cut-off), as mctsP
  serviceP     the game server's own work (`smallworld bench service`): actions per CPU-second of
               `Service.act` on P-player games round 20 tables, in process (no HTTP, no socket),
               the games' seeds and the actions picked the same in both trees
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# The checkout this module lies in (tools/bench-compare passes its own).
ROOT = Path(__file__).resolve().parents[2]

# Runs inside the tree being measured: only APIs that both old and new trees have.
DRIVER = r'''
import json, random, sys, time
kind, players, size, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
try:
    from smallworld.engine.api.game import Game
    from smallworld.engine.model.settings import make_settings
    from smallworld.engine.flow.turn import legal_actions, apply_unchecked
    from smallworld.engine.api.views import view_for
except ImportError:  # before the engine's layers were folders (a2bd119)
    from smallworld.engine.game import Game
    try:
        from smallworld.engine.settings import make_settings
    except ImportError:  # before the engine took editions
        from smallworld.engine.options import make_settings
    from smallworld.engine.flow import legal_actions, apply_unchecked
    from smallworld.engine.views import view_for

def positions(n, per_game):
    """Views and legal lists of the first decisions with a choice, from fixed random games."""
    out = []
    g = 0
    while len(out) < n:
        st = Game(make_settings(players, seed + g, "standard", None)).new_initial_state()
        rnd = random.Random(seed + g)
        k = 0
        while st.phase != "over" and k < per_game and len(out) < n:
            la = legal_actions(st)
            if len(la) > 1 and rnd.random() < 0.3:
                out.append((st.game, st.acting_seat, view_for(st, st.acting_seat), la))
                k += 1
            apply_unchecked(st, la[rnd.randrange(len(la))])
        g += 1
    return out

if kind == "random":
    try:
        from smallworld.measure.engine import bench
    except ImportError:  # before the measurement code had a package of its own
        from smallworld.bench import bench
    # Load the edition and its modules before the clock starts, in both trees alike: with
    # PYTHONDONTWRITEBYTECODE set, compiling the sources would otherwise weigh on the first game.
    Game(make_settings(players, seed, "standard", None)).new_initial_state()
    try:
        r = bench(players, size, seed, costs=False)
    except TypeError:  # before bench measured a state's costs
        r = bench(players, size, seed)
    print(json.dumps({"rate": r["games"] / r["seconds"], "unit": "games/s", "decisions": r["decisions"]}))
elif kind in ("mcts", "learned"):
    from smallworld.bots.determinize import public_game
    if kind == "mcts":
        from smallworld.bots.mcts import MctsBot as Searcher
    else:
        from smallworld.bots.learned import LearnedBot as Searcher
        Searcher()  # numpy and the model, loaded once a process, before the clock starts
    pos = positions(size, 4)
    it = 0
    t0 = time.perf_counter()
    for game, seat, view, la in pos:
        bot = Searcher(playouts=200)
        bot.start(public_game(game), seat)
        bot.choose(view, la, random.Random(1))
        it += bot.last_iterations
    dt = time.perf_counter() - t0
    print(json.dumps({"rate": it / dt, "unit": "playouts/s", "decisions": it}))
elif kind == "observe":
    import zlib
    from smallworld.env.observation import ObservationEncoder
    pos = positions(60, 6)
    enc = ObservationEncoder()
    views = [(game, view) for game, seat, view, la in pos]
    t0 = time.perf_counter()
    for _ in range(size):
        for game, view in views:
            enc.encode(view, game)
    dt = time.perf_counter() - t0
    crc = 0
    for game, view in views:
        crc = zlib.crc32(enc.encode(view, game).tobytes(), crc)
    print(json.dumps({"rate": size * len(views) / dt, "unit": "obs/s", "decisions": crc}))
elif kind == "determinize":
    from smallworld.bots.determinize import Determinizer, public_game
    pos = positions(20, 2)
    rng = random.Random(1)
    dets = [Determinizer(view, public_game(game)) for game, seat, view, la in pos]
    n = 0
    t0 = time.perf_counter()
    for _ in range(size):
        for d in dets:
            d.sample(rng)
            n += 1
    dt = time.perf_counter() - t0
    print(json.dumps({"rate": n / dt, "unit": "samples/s", "decisions": n}))
elif kind == "service":
    import asyncio, gc, secrets, tempfile
    from smallworld.server.store import Store
    from smallworld.server.service import Service
    from smallworld.server.models import CreateGame
    draws = random.Random(seed)
    secrets.randbits = draws.getrandbits  # the games' seeds, the same in both trees

    async def measure():
        svc = Service(Store(f"sqlite:///{tempfile.mkdtemp()}/bench.db"))
        await svc.start()
        body = CreateGame.model_validate({"players": players, "seats": [{"kind": "creator"}] * players})
        rnd = random.Random(seed)

        async def table():
            made = await svc.create(body, None)
            live = await svc.get(made["game"])
            queues = [asyncio.Queue() for _ in range(players)]
            for s, q in enumerate(queues):
                svc.subscribe(live, s, q)
            return made["game"], {s["seat"]: s["token"] for s in made["seats"]}, queues

        tables = [await table() for _ in range(20)]
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 10, 100)  # the server's (server/app.py)
        done = k = 0
        cpu = 0.0
        while done < size:
            i = k % len(tables)
            k += 1
            gid, tokens, queues = tables[i]
            for q in queues:
                while not q.empty():
                    q.get_nowait()
            live = await svc.get(gid)
            if live.status == "over":
                tables[i] = await table()
                continue
            st = live.state
            legal = svc.legal(live)
            action = legal[rnd.randrange(len(legal))]
            c0 = time.process_time()
            await svc.act(gid, st.acting_seat, tokens[st.acting_seat], st.ply, action)
            cpu += time.process_time() - c0
            done += 1
        await svc.close()
        return cpu

    cpu = asyncio.run(measure())
    print(json.dumps({"rate": size / cpu, "unit": "actions/s", "decisions": size}))
'''

SIZES = {"random": 60, "mcts": 12, "determinize": 100, "service": 4000, "observe": 20, "learned": 12}


def parse_workload(w: str) -> tuple[str, int]:
    for kind in ("random", "mcts", "service", "observe", "learned"):
        if w.startswith(kind) and w[len(kind):].isdigit():
            return kind, int(w[len(kind):])
    if w == "determinize":
        return w, 3
    known = "randomP, mctsP, determinize, serviceP, observeP, learnedP"
    raise SystemExit(f"bench-compare: unknown workload {w!r} ({known})")


def run(tree: Path, kind: str, players: int, size: int, seed: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, "-c", DRIVER, kind, str(players), str(size), str(seed)],
        cwd=tree, env=env, capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"bench-compare: {kind}{players} failed in {tree}:\n{out.stderr[-2000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    p = argparse.ArgumentParser(
        prog="bench-compare", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("ref", help="the earlier commit to compare with (any git revision)")
    p.add_argument(
        "--workloads", default="random2,random3,random5", help="comma-separated (default %(default)s)"
    )
    p.add_argument("--runs", type=int, default=3, help="runs of each tree per workload (default 3)")
    p.add_argument("--size", type=int, help="games / positions / rounds per run (default per workload)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--json", action="store_true")
    p.add_argument("--work", type=Path, default=root,
                   help="the tree measured against REF (default: this working tree; build/compiled "
                        "for the mypyc build of tools/build-compiled)")
    args = p.parse_args(argv)
    sha = subprocess.run(["git", "rev-parse", "--verify", args.ref + "^{commit}"], cwd=root,
                         capture_output=True, text=True)
    if sha.returncode != 0:
        raise SystemExit(f"bench-compare: {args.ref!r} is not a commit of this repository")
    work = args.work.resolve()
    if not (work / "smallworld").is_dir():
        raise SystemExit(f"bench-compare: --work {args.work} holds no smallworld package")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        old = Path(tmp) / "ref"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), sha.stdout.strip()],
                       cwd=root, check=True)
        try:
            for w in args.workloads.split(","):
                kind, players = parse_workload(w.strip())
                size = args.size or SIZES[kind]
                rates: dict[str, list[float]] = {"ref": [], "work": []}
                decisions: dict[str, int] = {}
                for _ in range(args.runs):
                    for name, tree in (("ref", old), ("work", work)):
                        r = run(tree, kind, players, size, args.seed)
                        rates[name].append(r["rate"])
                        decisions[name] = int(r["decisions"])
                        unit = str(r["unit"])
                med = {k: statistics.median(v) for k, v in rates.items()}
                spread = {k: (max(v) - min(v)) / med[k] if med[k] else 0.0 for k, v in rates.items()}
                results.append({
                    "workload": w, "unit": unit, "ref": args.ref,
                    "ref_median": round(med["ref"], 2), "work_median": round(med["work"], 2),
                    "ref_spread": round(spread["ref"], 3), "work_spread": round(spread["work"], 3),
                    "ratio": round(med["work"] / med["ref"], 2) if med["ref"] else None,
                    "ref_decisions": decisions["ref"], "work_decisions": decisions["work"],
                })
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=root, check=False)
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    head = f"{'workload':<12} {'unit':<11} {'ref ' + args.ref[:10]:>16} {'work tree':>12} {'ratio':>6}"
    print(head + "  decisions")
    for r in results:
        same = "same" if r["ref_decisions"] == r["work_decisions"] else "DIFFER"
        print(f"{r['workload']:<12} {r['unit']:<11} {r['ref_median']:>10.1f} ±{r['ref_spread']:>4.0%}"
              f" {r['work_median']:>8.1f} ±{r['work_spread']:>3.0%} {r['ratio']:>5.2f}x"
              f"  {r['ref_decisions']} / {r['work_decisions']} ({same})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
