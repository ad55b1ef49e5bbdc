"""The `smallworld` command."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

# Listed here so that --help needs no engine import: the variants of the editions, the languages
# of the rulebooks (smallworld/words), and the bots the terminal game offers (tui.app.PLAY_BOTS).
VARIANT_CHOICES = ("standard", "team")
LANGS = ("en", "pt", "de")
PLAY_BOTS = ("random", "greedy", "mcts")


def _play(args: argparse.Namespace) -> int:
    from smallworld.tui import run_play

    return run_play(args)


def _overrides(args: argparse.Namespace) -> dict[str, Any] | None:
    """The options file given with --options (docs/options.md), checked; None when there is none."""
    path = getattr(args, "options", None)
    if path is None:
        return None
    from smallworld.engine.api.files import load_options_file

    return load_options_file(path)


def _bench(args: argparse.Namespace) -> int:
    if getattr(args, "bench_command", None) == "server":
        return _bench_server(args)
    if getattr(args, "bench_command", None) == "service":
        return _bench_service(args)
    from smallworld.measure.engine import bench

    out = bench(args.players, args.games, args.seed, args.variant, _overrides(args), args.edition)
    if args.json:
        print(json.dumps(out))
    else:
        kind = "" if out["variant"] == "standard" else f" {out['variant']}"
        print(f"{out['games']} random {out['players']}-player{kind} games in {out['seconds']} s on one core")
        print(f"  games/s:        {out['games_per_second']}")
        print(f"  decisions/s:    {out['decisions_per_second']}  ({out['decisions']} decisions)")
        print(f"  listings/s:     {out['listings_per_second']}")
        print(f"  one state:      {out['state_bytes']} bytes; a clone allocates {out['clone_bytes']} bytes"
              f" (the shared Game: {out['game_bytes']} bytes)")
        print(f"  one view:       {out['view_us']} µs")
        print(f"  replay:         {out['replay_ms']} ms for a whole game of {out['replay_actions']} actions")
    return 0


def _ladder(args: argparse.Namespace) -> int:
    from smallworld.sim.ladder import format_summary, run_ladder
    from smallworld.sim.runner import SimulationError

    options: dict[str, Any] = {}
    if args.seconds is not None:
        options = {"seconds": args.seconds, "playouts": None}
    elif args.playouts is not None:
        options = {"playouts": args.playouts}
    fixed = [[b.strip() for b in t.split(",") if b.strip()] for t in args.table or []]
    # With --table, the round robin of --bots / --players is played only where they are given.
    bots_arg = args.bots if args.bots is not None else ("" if fixed else "random,greedy,mcts")
    players_arg = args.players if args.players is not None else ("" if fixed else "2")
    try:
        players = [int(p) for p in players_arg.split(",") if p.strip()]
        if (not players and not fixed) or any(p not in (2, 3, 4, 5) for p in players):
            raise ValueError
    except ValueError:
        print(f"smallworld ladder: --players takes 2..5, comma-separated: {players_arg!r}", file=sys.stderr)
        return 2
    try:
        summary = run_ladder(
            [b.strip() for b in bots_arg.split(",") if b.strip()], players, args.games, args.out,
            seed=args.seed, options=options, workers=args.workers, edition=args.edition,
            merge=args.merge or (), progress=not args.no_progress,
            command="smallworld ladder " + " ".join(shlex.quote(a) for a in sys.argv[1:][1:]),
            fixed=fixed,
        )  # fmt: skip
    except SimulationError as e:
        print(f"smallworld ladder: {e}", file=sys.stderr)
        return 2
    if args.levels is not None:
        from smallworld.bots.levels import from_ladder
        from smallworld.server.bots import RATED_LEVELS

        budget = ", ".join(f"{k} {v}" for k, v in sorted(options.items()) if v is not None)
        source = f"smallworld ladder --bots {bots_arg} --players {players_arg}"
        source += f" ({budget or 'default budget'}; docs/ladder.md)"
        levels = from_ladder(summary, RATED_LEVELS, source)
        args.levels.write_text(json.dumps(levels, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=1) if args.json else format_summary(summary))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from smallworld.sim import SimulationError, format_table, simulate

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        summary, _results = simulate(
            players=args.players,
            games=args.games,
            bots=bots,
            seed=args.seed,
            variant=args.variant,
            workers=args.workers,
            mcts_seconds=args.mcts_seconds,
            mcts_playouts=args.mcts_playouts,
            ray_address=args.ray,
            plots=args.plots,
            progress=not args.no_progress,
            overrides=_overrides(args),
            edition=args.edition,
        )
    except SimulationError as e:
        print(f"smallworld simulate: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(format_table(summary))
        t = summary["timing"]
        print(f"{t['seconds']} s with {t['workers']} worker(s){' on Ray' if t['ray'] else ''}")
        for path in summary.get("plots", []):
            print(f"wrote {path}")
    return 0


def _scenario_run(args: argparse.Namespace) -> int:
    from smallworld import scenario
    from smallworld.engine.model.errors import SmallworldError

    try:
        outcome = scenario.run(scenario.load(args.file))
    except SmallworldError as e:
        print(json.dumps({"error": {"rule": None, "message": str(e)}}, indent=1))
        return 2
    print(json.dumps(outcome.to_json(), indent=1, ensure_ascii=False))
    return 1 if outcome.error else 0


def _content(args: argparse.Namespace) -> int:
    from smallworld import words
    from smallworld.engine.model.edition import get_edition

    over = (_overrides(args) or {}).get("values", {})
    ed = get_edition(args.edition)
    catalogue = words.for_edition(ed)

    def entry(e: Any) -> dict[str, Any]:
        out: dict[str, Any] = e.to_json()
        # Names in the chosen language, as the edition's rulebook in that language prints them.
        out["name"] = catalogue.text(e.id, "name", args.lang) if catalogue.has(e.id, "name") else e.name
        if args.lang != "en":
            out["name_en"] = e.name
        return out

    relics = ed.relics.values()
    data: dict[str, Any] = {
        "edition": ed.id,
        "lang": args.lang,
        "races": [entry(e) for e in ed.races.values()],
        "powers": [entry(e) for e in ed.powers.values()],
        # §10: the 12 markers, split by the icon on their face (§10.1)
        "artifacts": [entry(e) for e in relics if e.group == "artifact"],
        "places": [entry(e) for e in relics if e.group == "place"],
    }
    for key in ("races", "powers"):  # an options file's values replace the shipped ones
        for e in data[key]:
            mine = (over.get(key) or {}).get(e["id"])
            if mine:
                e.update(mine)
                e["source"] = "user"
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    from smallworld.tui.content import content_lines

    for line in content_lines(data, catalogue, args.lang):
        print(line)
    return 0


def _schema(args: argparse.Namespace) -> int:
    from smallworld.engine.api.schema import write_schemas

    for path in write_schemas(args.edition, args.out):
        print(f"wrote {path}")
    return 0


def _bench_server(args: argparse.Namespace) -> int:
    from smallworld.measure.server import bench_server

    out = bench_server(
        args.server_games, args.think_ms, args.seconds, args.db, args.url, args.server_players,
        engine_share=args.engine_share, ratings=args.ratings, min_ended=args.min_ended,
    )
    if args.json:
        print(json.dumps(out))
        return 0
    where = f"{out['seconds']} s ({out['db']})"
    print(f"{out['games']} games x {out['players']} seats over WebSocket for {where}")
    if args.ratings != "both":
        _print_bench_phase(out, out["engine_cpu_ms_per_decision"])
        return 0
    both = out["ratings"]
    for mode in ("off", "on"):
        print(f" ratings {mode}:")
        _print_bench_phase(both[mode], out["engine_cpu_ms_per_decision"])
    print(f" actions/s with ratings on over off: {both['ratio']}")
    return 0


def _bench_service(args: argparse.Namespace) -> int:
    from smallworld.measure.service import bench_service

    out = bench_service(args.service_games, args.actions, args.service_players, args.seed)
    if args.json:
        print(json.dumps(out))
        return 0
    where = f"{out['games']} games x {out['players']} seats, in process ({out['build']})"
    print(f"{out['actions']} actions round {where}")
    print(f"  service CPU:    {out['service_cpu_ms_per_action']} ms per action = "
          f"{out['service_decisions_per_action']} engine decisions of {out['engine_cpu_ms_per_decision']} ms")
    print(f"  updates:        {out['updates']}  games ended: {out['games_ended']}")
    return 0


def _print_bench_phase(out: dict[str, Any], per_decision: float | None) -> None:
    print(f"  actions:        {out['actions']}  ({out['actions_per_second']}/s)")
    print(f"  latency:        p50 {out['p50_ms']} ms, p99 {out['p99_ms']} ms (sent to all seats updated)")
    print(f"  games:          {out['games_ended']} ended of {out['games_played']}")
    if "ratings_updated" in out:
        print(
            f"  rated:          {out['rated_games_ended']} rated games ended, "
            f"{out['ratings_updated']} ratings updated ({out['rated_games']} games rated)"
        )
    print(f"  errors: {out['errors']}  lost: {out['lost']}")
    if out["server_decisions_per_action"] is not None:
        print(
            f"  server CPU:     {out['server_cpu_ms_per_action']} ms per action = "
            f"{out['server_decisions_per_action']} engine decisions of {per_decision} ms"
            f" ({out['server_system_ms_per_action']} ms in the kernel)"
        )


def _serve(args: argparse.Namespace) -> int:
    from smallworld.server.main import serve

    serve(
        args.host, args.port, args.db, args.redis, args.data, args.bot_workers, args.rate, args.log_level,
        open_in_browser=args.open, token_rate=args.token_rate,
        bot_games_per_player=args.bot_games_per_player, bot_games_per_address=args.bot_games_per_address,
        bot_delay=args.bot_delay, token_idle_days=args.token_idle,
        **({"smtp": args.smtp, "site": args.site, "digest_every": args.digest_every} if args.smtp else {}),
        # Left out when not given: the server's own defaults (smallworld/server/limits.py).
        **{k: v for k in ("sockets_per_address", "socket_queue") if (v := getattr(args, k)) is not None},
    )
    return 0


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, got {text!r}") from None
    if not 0 < seconds < 1e7:
        raise argparse.ArgumentTypeError(f"more than 0 seconds, got {text!r}")
    return seconds


def _idle_days(text: str) -> float:
    """`--token-idle`: days, more than the longest turn deadline (a player waiting for a turn
    must not be locked out of it)."""
    from smallworld.server.tokens import LONGEST_DEADLINE_DAYS

    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of days, got {text!r}") from None
    if not LONGEST_DEADLINE_DAYS < days < 1e6:
        raise argparse.ArgumentTypeError(
            f"more than {LONGEST_DEADLINE_DAYS:g} days (the longest turn deadline), got {text}"
        )
    return days


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="smallworld", description="Small World of Warcraft: engine and tools.")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    play.add_argument(
        "--seed", type=int, default=None,
        help="game seed (default: a random 128-bit key, told at the end; below 2**64: SplitMix64)",
    )
    play.add_argument(
        "--seat", type=int, default=None,
        help="your seat, 0 to P-1 (default 0, or the saved one); the first player is drawn",
    )
    play.add_argument("--variant", choices=VARIANT_CHOICES, default="standard", help="team: §11 factions")
    play.add_argument("--load", type=Path, help="resume a saved game (its seats and bots included)")
    play.add_argument(
        "--save", type=Path, default=None, help="where 'save' writes (default saves/game.json)"
    )
    play.add_argument("--options", type=Path, help="options file: rule options and values (docs/options.md)")
    play.add_argument("--lang", choices=LANGS, default="en", help="the language of the game: en, pt, de")
    play.add_argument(
        "--bots",
        choices=PLAY_BOTS,
        default=None,
        help="the other seats' bot (default greedy, or the saved ones); mcts is the lobby's hard level",
    )
    play.add_argument(
        "--think", type=float, default=None, metavar="SECONDS",
        help="the mcts bot's time a decision (default 1, or the saved one; at most 60)",
    )
    play.add_argument("--edition", default="warcraft", help="the edition: warcraft, classic or classic_core")
    play.set_defaults(func=_play)

    b = sub.add_parser("bench", help="random complete games on one core: games/s, decisions/s, listings/s")
    b.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    b.add_argument("--games", type=int, default=100)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--variant", choices=VARIANT_CHOICES, default="standard")
    b.add_argument("--json", action="store_true")
    b.add_argument("--options", type=Path, help="options file (docs/options.md)")
    b.add_argument("--edition", default="warcraft", help="the edition: warcraft, classic or classic_core")
    b.set_defaults(func=_bench)
    bsub = b.add_subparsers(dest="bench_command", required=False)
    bs = bsub.add_parser("server", help="load test of the game server: concurrent WebSocket games")
    bs.add_argument("--games", dest="server_games", metavar="G", type=int, default=200, help="games at once")
    bs.add_argument("--players", dest="server_players", metavar="N", type=int, default=3,
                    choices=(2, 3, 4, 5))
    bs.add_argument("--think-ms", type=float, default=500, help="mean think time per decision (exponential)")
    bs.add_argument("--seconds", type=float, default=60)
    bs.add_argument("--db", default=None, help="database URL of the server started here (default: SQLite)")
    bs.add_argument("--url", default=None, help="a running server instead of one started here")
    bs.add_argument("--engine-share", type=float, default=0.1,
                    help="share of one core that random engine games take through the load (the yardstick)")
    bs.add_argument(
        "--ratings", choices=("off", "on", "both"), default="off",
        help="casual games (off), rated games of accounts (on), or both in alternating halves, compared",
    )
    bs.add_argument("--min-ended", type=int, default=0, metavar="N",
                    help="each measured window lasts until N games have ended in it (a loaded machine)")
    bs.add_argument("--json", action="store_true")
    bv = bsub.add_parser(
        "service", help="the game server's own CPU per action, in process: no HTTP, sockets or client"
    )
    bv.add_argument("--games", dest="service_games", metavar="G", type=int, default=200, help="games at once")
    bv.add_argument("--players", dest="service_players", metavar="N", type=int, default=3,
                    choices=(2, 3, 4, 5))
    bv.add_argument("--actions", type=int, default=20000, help="actions measured, round the games")
    bv.add_argument("--json", action="store_true")

    sim = sub.add_parser("simulate", help="bot-versus-bot games in parallel: win rates, scores, picks, plots")
    sim.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--bots",
        default="greedy,random",
        help="comma-separated: random, greedy, mcts, openspiel-mcts, learned",
    )
    sim.add_argument("--workers", type=int, default=1, help="worker processes")
    sim.add_argument("--seed", type=int, default=0, help="game i uses seed S+i")
    sim.add_argument("--variant", choices=VARIANT_CHOICES, default="standard")
    sim.add_argument("--json", action="store_true")
    sim.add_argument("--plots", type=Path, default=None, metavar="DIR", help="write PNG charts into DIR")
    budget = sim.add_mutually_exclusive_group()
    budget.add_argument(
        "--mcts-seconds", type=float, default=None, help="time per decision (the search bots)"
    )
    budget.add_argument(
        "--mcts-playouts", type=int, default=None, help="playouts per decision (200; the search bots)"
    )
    sim.add_argument(
        "--ray", default=None, metavar="ADDRESS", help="run games as Ray tasks ('local': start one)"
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sim.add_argument("--options", type=Path, help="options file (docs/options.md)")
    sim.add_argument("--edition", default="warcraft", help="the edition: warcraft, classic or classic_core")
    sim.set_defaults(func=_simulate)

    lad = sub.add_parser(
        "ladder", help="rate bots on duplicate deals, every seating, resumable (docs/ladder.md)"
    )
    lad.add_argument("--bots", default=None,
                     help="comma-separated bot names (at least two; random,greedy,mcts without --table)")
    lad.add_argument("--games", type=int, default=10, help="deals (seeds) per table, each in every seating")
    lad.add_argument("--players", default=None,
                     help="player counts, comma-separated: 2,4 (2 without --table)")
    lad.add_argument("--table", action="append", metavar="BOTS",
                     help="a table to play instead of the round robin for its player count, one bot a"
                     " seat: --table mcts,greedy,greedy,greedy (repeatable)")
    lad.add_argument("--seed", type=int, default=0, help="deal i uses seed S+i")
    lad_budget = lad.add_mutually_exclusive_group()
    lad_budget.add_argument("--seconds", type=float, default=None, help="search bots: time per decision")
    lad_budget.add_argument("--playouts", type=int, default=None, help="search bots: playouts per decision")
    lad.add_argument("--workers", type=int, default=1, help="worker processes")
    lad.add_argument("--out", type=Path, required=True, metavar="DIR", help="results.jsonl, ladder.json")
    lad.add_argument("--merge", type=Path, nargs="*", metavar="FILE", help="other results.jsonl to merge in")
    lad.add_argument("--edition", default="warcraft", help="the edition: warcraft, classic or classic_core")
    lad.add_argument("--json", action="store_true")
    lad.add_argument("--levels", type=Path, default=None, metavar="FILE",
                     help="also write the server's bot levels (easy..expert) from these ratings")
    lad.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    lad.set_defaults(func=_ladder)

    sc = sub.add_parser("scenario", help="position files")
    scs = sc.add_subparsers(dest="scenario_command", required=True)
    run = scs.add_parser("run", help="load a position, apply its actions, print the result as JSON")
    run.add_argument("file", type=Path)
    run.set_defaults(func=_scenario_run)

    c = sub.add_parser("content", help="races, powers, artifacts and places with their values and sources")
    c.add_argument("--json", action="store_true")
    c.add_argument("--edition", default="warcraft", help="the edition (default warcraft)")
    c.add_argument("--lang", choices=LANGS, default="en", help="names in English, Portuguese or German")
    c.add_argument("--options", type=Path, help="show the values an options file sets (docs/options.md)")
    c.set_defaults(func=_content)

    sch = sub.add_parser("schema", help="write the JSON Schemas of the protocol (docs/protocol.md)")
    sch.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write *.schema.json")
    sch.add_argument("--edition", default="warcraft", help="the edition whose declarations they come from")
    sch.set_defaults(func=_schema)

    sv = sub.add_parser("serve", help="the game server: lobby, live games, bots (docs/server.md)")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--db", default=None, help="database URL (default: SQLite in --data)")
    sv.add_argument("--redis", default=None, help="Redis URL: several server processes share updates")
    sv.add_argument("--data", type=Path, default=Path("smallworld-data"), help="folder of the SQLite store")
    sv.add_argument("--bot-workers", type=int, default=1, help="worker processes that run the bots")
    sv.add_argument("--rate", type=float, default=50.0, help="requests per second per client (0: no limit)")
    sv.add_argument(
        "--token-rate", type=float, default=None,
        help="requests and socket messages per second per seat or player token "
        "(default 50, or none with --rate 0; 0: no limit)",
    )
    sv.add_argument(
        "--bot-games-per-player", type=int, default=10, metavar="N",
        help="games with bots one player may have under way at once (0: no cap)",
    )
    sv.add_argument(
        "--bot-games-per-address", type=int, default=30, metavar="N",
        help="games with bots one client address may have under way at once (0: no cap)",
    )
    sv.add_argument(
        "--bot-delay", type=float, default=0.0, metavar="S",
        help="seconds a bot waits before each decision, so people can follow (default 0)",
    )
    sv.add_argument(
        "--token-idle", type=_idle_days, default=None, metavar="DAYS",
        help="a seat or player token unused this long is refused (default 90; more than 30)",
    )
    sv.add_argument(
        "--smtp", default=None, metavar="URL",
        help="SMTP server for the daily digest of games where it is a player's turn, opted in "
        "(smtp://HOST:PORT or smtps://USER:PASSWORD@HOST:PORT; default: no e-mail)",
    )
    sv.add_argument(
        "--digest-every", type=_positive_seconds, default=600.0, metavar="S",
        help="how often the server looks for daily digests due (default 600 seconds)",
    )
    sv.add_argument(
        "--site", default="http://127.0.0.1:8000", metavar="URL",
        help="the address players open, for the links in e-mails",
    )
    sv.add_argument(
        "--sockets-per-address", type=int, default=None, metavar="N",
        help="WebSockets open at once per client address (default 32; 0: no limit)",
    )
    sv.add_argument(
        "--socket-queue", type=int, default=None, metavar="N",
        help="messages that may wait for a socket whose client does not read, then it is closed "
        "(default 64; 0: no limit)",
    )
    sv.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    sv.add_argument("--open", action="store_true", help="open the lobby in the default browser (if any)")
    sv.set_defaults(func=_serve)

    from smallworld.boards.cli import add_parser as add_boards

    add_boards(sub)
    return p


# The commands that run on the compiled build when one is ready (smallworld/compiled.py).
COMPILED_COMMANDS = ("play", "serve", "simulate", "ladder")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in COMPILED_COMMANDS:
        from smallworld import compiled

        compiled.use(sys.argv[1:] if argv is None else argv)
    from smallworld.engine.model.errors import PositionError

    try:
        return int(args.func(args) or 0)
    except PositionError as e:  # a bad options file or settings: name the field, no traceback
        print(f"smallworld {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print()
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
