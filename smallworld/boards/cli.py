"""The `boards` subcommand: validate, list and render board sides.

`add_parser(subparsers)` registers it on the main `smallworld` command; `python -m smallworld.boards`
runs it on its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from smallworld.boards.errors import BoardFormatError
from smallworld.boards.labels import legend_items, say
from smallworld.boards.loader import all_sides, load_file, load_side
from smallworld.boards.model import BoardSide
from smallworld.boards.render import BREAK, Overlay, render_side, render_table
from smallworld.boards.setup import SIZES_BY_PLAYERS, draw_sides
from smallworld.boards.validate import Problem, validate_set, validate_side
from smallworld.words import LANGS


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register `boards` and its sub-subcommands on an argparse subparsers object."""
    p = subparsers.add_parser("boards", help="check, list and draw the board sides")
    sub = p.add_subparsers(dest="boards_command", required=True)

    v = sub.add_parser("validate", help="check board files (default: every shipped side and the set)")
    v.add_argument("files", nargs="*", type=Path, help="side JSON files; set-level checks only without files")
    v.add_argument("--edition", default=WARCRAFT, help="whose boards: warcraft (islands) or classic (maps)")
    v.set_defaults(func=cmd_validate)

    ls = sub.add_parser("list", help="one line per shipped side with its counts")
    ls.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    ls.add_argument("--edition", default=WARCRAFT, help="whose boards: warcraft (islands) or classic (maps)")
    ls.set_defaults(func=cmd_list)

    r = sub.add_parser("render", help="write an SVG of one side, a seeded game's table or a saved game")
    r.add_argument("side", nargs="?", help="side id, e.g. L1a")
    r.add_argument(
        "--load", type=Path, metavar="FILE", help="a saved game: its table as it stands, numbered as in play"
    )
    r.add_argument("--players", type=int, choices=sorted(SIZES_BY_PLAYERS), help="draw a table for P players")
    r.add_argument("--seed", type=int, default=0, help="game seed: the table of the game with this seed")
    r.add_argument("-o", "--output", type=Path, required=True, help="SVG file to write")
    r.add_argument("--edition", default=WARCRAFT, help="whose boards: warcraft (islands) or classic (maps)")
    r.add_argument("--lang", default="en", choices=LANGS, help="the language of the legend, titles and key")
    r.set_defaults(func=cmd_render)
    return p


WARCRAFT = "warcraft"


def _edition_boards(edition_id: str) -> Any:
    """The board set of another edition (its own maps and design checks, `engine.edition.BoardSet`)."""
    from smallworld.engine.model.edition import get_edition

    return get_edition(edition_id).boards


def _read_files(paths: list[str], problems: list[Any]) -> list[BoardSide]:
    """The board files that load; what keeps the others from loading goes into `problems`."""
    sides: list[BoardSide] = []
    for path in paths:
        try:
            sides.append(load_file(path))
        except BoardFormatError as e:
            problems.append(str(e))
        except OSError as e:
            problems.append(f"{path}: {e.strerror or e}")
    return sides


def _validate_edition(args: argparse.Namespace) -> int:
    boards = _edition_boards(args.edition)
    problems: list[str] = []
    sides = _read_files(args.files, problems) if args.files else [boards.side(i) for i in boards.ids()]
    for side in sides:
        problems.extend(boards.check(side))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s) in {len(sides)} map(s)", file=sys.stderr)
        return 1
    regions = sum(len(s.regions) for s in sides)
    print(f"OK: {args.edition}: {len(sides)} map(s), {regions} regions; every check passed for each map")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    if getattr(args, "edition", WARCRAFT) != WARCRAFT:
        return _validate_edition(args)
    problems: list[Problem | str] = []
    sides = _read_files(args.files, problems) if args.files else all_sides()
    for side in sides:
        problems.extend(validate_side(side))
    if not args.files:
        # Set checks only make sense on the whole shipped set.
        problems.extend(validate_set(sides))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s) in {len(sides)} side(s)", file=sys.stderr)
        return 1
    regions = sum(len(s.regions) for s in sides)
    scope = "" if args.files else " and the set"
    print(f"OK: {len(sides)} side(s), {regions} regions; every check passed for each side{scope}")
    return 0


def side_summary(side: BoardSide) -> dict[str, Any]:
    land = [r for r in side.regions if not r.is_water]
    return {
        "id": side.id,
        "size": side.size,
        "name": side.name,
        "regions": len(side.regions),
        "water": len(side.regions) - len(land),
        "murlocs": sum("Murloc" in r.features for r in land),
        "mountains": sum(r.terrain == "Mountain" for r in land),
        "entries": sum("Entry" in r.features for r in land),
    }


def cmd_list(args: argparse.Namespace) -> int:
    if getattr(args, "edition", WARCRAFT) != WARCRAFT:
        boards = _edition_boards(args.edition)
        maps = []
        for i in boards.ids():
            side = boards.side(i)
            maps.append(
                {"id": side.id, "name": side.name, "regions": len(side.regions), **boards.summary(side)}
            )
        if args.json:
            print(json.dumps(maps, indent=2))
        else:
            for m in maps:
                print(
                    f"{m['id']:<5} {m['regions']:>3} regions  {m.get('borders', '?'):>3} borders  {m['name']}"
                )
        return 0
    rows = [side_summary(s) for s in all_sides()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    cols = ("id", "size", "regions", "water", "murlocs", "mountains", "entries", "name")
    print("  ".join(f"{c:<9}" if c != "name" else c for c in cols))
    for row in rows:
        print("  ".join(f"{row[c]!s:<9}" if c != "name" else str(row[c]) for c in cols))
    return 0


def seeded_randbelow(seed: int) -> Callable[[int], int]:
    """The same draw as a game created with this seed (the engine's board generator)."""
    from smallworld.engine.model.rng import board_draw_rng

    return board_draw_rng(seed).randbelow


def saved_table(
    path: Path, lang: str = "en"
) -> tuple[list[BoardSide], dict[tuple[str, int], Overlay], list[tuple[str, str]], str]:
    """The sides of a saved game, by region what it holds (its number in `smallworld play`, its
    holder's seat and tokens, whether that race is in decline, its pieces and markers), the key to
    all that under the legend, and the edition's id. Public facts only: a face-down marker is "?",
    no coins, no hidden piece. Raises SmallworldError; refuses a save of the previous format."""
    from smallworld.engine import view_for
    from smallworld.engine.api.record import OLD_FORMATS, load
    from smallworld.engine.model.errors import PositionError
    from smallworld.engine.model.jsonio import read_json
    from smallworld.words.voice import Voice

    data = read_json(path, "save")
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt in OLD_FORMATS:
        raise PositionError(
            "format", f"{fmt} is the previous save format, whose games this version no longer replays"
        )
    _rec, st = load(path)
    game = st.game
    m = game.map
    v = Voice(game, lang, None)
    view = view_for(st, None)
    # Each race on the board and who holds it (the natives hold theirs for nobody).
    holders: dict[str, tuple[int, bool]] = {}
    key: list[tuple[str, str]] = []
    for i, seat in enumerate(view["seats"]):
        if seat["active"]:
            holders[seat["active"]] = (i, False)
            key.append((f"seat:{i}", f"{v.seat(i)}: {v.unit(seat['active'])} + {v.unit(seat['power'])}"))
        fallen = [seat["declined"], *seat.get("more_declined", [])] if seat["declined"] else []
        for race in fallen:
            holders[race] = (i, True)
        if fallen:
            names = ", ".join(v.unit(r) for r in fallen)
            key.append((f"declined:{i}", f"{v.seat(i)}: {names} ({say(lang, 'in_decline')})"))
    if game.natives is not None:
        key.append(("natives", v.unit(game.natives)))
    letters: dict[str, str] = {}  # piece kind or marker id -> its key on the drawing
    for here in view["regions"].values():
        for kind in here.get("pieces") or {}:
            letters.setdefault(f"piece:{kind}", "")
    for marks in view["markers"].values():
        for mk in marks:
            if mk["face_up"] and mk["id"]:
                letters.setdefault(f"marker:{mk['id']}", "")
    for name in sorted(letters):
        kind, _, uid = name.partition(":")
        word = v.piece(uid) if kind == "piece" else v.unit(uid)
        taken = set(letters.values())
        letters[name] = next(
            (k for k in (word[:1].upper(), word[:2].title(), uid[:3].title()) if k not in taken), uid
        )
        key.append((f"{kind}:{letters[name]}", word))
    if any(not mk["face_up"] for marks in view["markers"].values() for mk in marks):
        key.append(("marker:?", say(lang, "face_down")))
    overlays: dict[tuple[str, int], Overlay] = {}
    for reg in m.regions:
        here = view["regions"].get(reg.ref, {})
        race = here.get("race")
        seat, declined = holders.get(race, (None, False)) if race else (None, False)
        pieces = tuple(
            (letters[f"piece:{k}"], n) for k, n in sorted((here.get("pieces") or {}).items()) if n
        )
        marks = tuple(
            letters[f"marker:{mk['id']}"] if mk["face_up"] and mk["id"] else "?"
            for mk in view["markers"].get(reg.ref, [])
        )
        words = []
        if race:
            who = v.unit(race) if seat is None else f"{v.seat(seat)}: {v.unit(race)}"
            gone = f" ({say(lang, 'in_decline')})" if declined else ""
            words.append(f"{who}{gone}, {say(lang, 'tokens', n=here.get('tokens', 0))}")
        held = sorted((here.get("pieces") or {}).items())
        words += [f"{v.piece(k, n)} ×{n}" if n > 1 else v.piece(k) for k, n in held if n]
        words += [v.unit(mk["id"]) if mk["face_up"] and mk["id"] else say(lang, "a_face_down")
                  for mk in view["markers"].get(reg.ref, [])]  # fmt: skip
        overlays[(reg.side, reg.local_id)] = Overlay(
            number=reg.index,
            seat=seat,
            natives=bool(race) and race == game.natives,
            tokens=int(here.get("tokens", 0)),
            declined=declined,
            pieces=pieces,
            markers=marks,
            title="; ".join(words),
        )
    return list(m.sides), overlays, key, game.edition.id


def cmd_render(args: argparse.Namespace) -> int:
    if sum(x is not None for x in (args.side, args.players, args.load)) != 1:
        print("render: give a SIDE id, --players P (with --seed S) or --load FILE", file=sys.stderr)
        return 2
    if args.load is not None:
        from smallworld.engine.model.errors import SmallworldError

        try:
            sides, overlays, key, edition = saved_table(args.load, args.lang)
        except SmallworldError as e:
            print(f"render: cannot load {args.load}: {e}", file=sys.stderr)
            return 2
        legend = legend_items(edition, args.lang)
        columns = None if edition == WARCRAFT else 1
        svg = render_table(
            sides, columns, legend_items=[*legend, (BREAK, ""), *key], overlays=overlays, lang=args.lang
        )
        args.output.write_text(svg, encoding="utf-8")
        print(f"wrote {args.output}: {' '.join(s.id for s in sides)}, numbered as in smallworld play")
        return 0
    if getattr(args, "edition", WARCRAFT) != WARCRAFT:
        return _render_edition(args)
    try:
        if args.side is not None:
            items = legend_items(WARCRAFT, args.lang)
            svg = render_side(load_side(args.side), legend_items=items, lang=args.lang)
        else:
            ids = draw_sides(args.players, seeded_randbelow(args.seed))
            svg = render_table(
                [load_side(i) for i in ids], legend_items=legend_items(WARCRAFT, args.lang), lang=args.lang
            )
            print(f"{args.players} players, seed {args.seed}: {' '.join(ids)}")
    except KeyError as e:
        print(f"render: {e.args[0]}", file=sys.stderr)
        return 2
    args.output.write_text(svg, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


def _render_edition(args: argparse.Namespace) -> int:
    """Another edition's map: by id, or the one a game of P players is played on."""
    boards = _edition_boards(args.edition)
    try:
        if args.side is not None:
            ids = [args.side]
        else:
            ids = boards.draw(args.players, seeded_randbelow(args.seed))
        items = legend_items(args.edition, args.lang)
        svg = render_table([boards.side(i) for i in ids], columns=1, legend_items=items, lang=args.lang)
    except KeyError as e:
        print(f"render: {e.args[0]}", file=sys.stderr)
        return 2
    args.output.write_text(svg, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="smallworld")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["boards", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))
