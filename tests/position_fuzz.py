"""A fuzz of the position loader (`scenario.build`, `serialize.state_from_json`).

Valid positions are taken from the project's position files (their start and the state after each
of their actions) and from random games of both editions; each is mutated by one to three edits of
the kinds a hand-written file gets wrong: a field left out, a value of the wrong type, a badge or a
banner in two places, a phase that does not fit the seats, a result on a live game, a region, a
stack or a turn changed. A mutated file must either be refused with a `PositionError`, or load
into a position the engine can play: every invariant holds (`engine/api/invariants.py`), the JSON
form round-trips, every seat's view can be made, and a few random legal actions keep every
invariant. Anything else is a finding:

- `exception`: loading raised something other than `PositionError` (a Python error escaped);
- `invalid`: the file loaded, but the position then broke an invariant or the engine raised.

    python tests/position_fuzz.py --files 2400 --seed 1     # print the findings, exit 1 on any
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from smallworld import scenario  # noqa: E402
from smallworld.engine import Game, Settings, State  # noqa: E402
from smallworld.engine.api.invariants import check_invariants  # noqa: E402
from smallworld.engine.api.serialize import state_from_json  # noqa: E402
from smallworld.engine.api.views import view_for  # noqa: E402
from smallworld.engine.model.errors import PositionError, SmallworldError  # noqa: E402
from smallworld.engine.model.state import Phase  # noqa: E402

SCENARIOS = ROOT / "tests" / "scenarios"
PLAYOUT = 4  # random legal actions played from each accepted position
JUNK: tuple[Any, ...] = (None, -1, 1.5, "x", [], {}, True, 10**20, [None], {"x": 1})


@dataclass
class Seed:
    """A valid position to mutate: the file's data with `position` the full JSON of a state."""

    origin: str
    data: dict[str, Any]


@dataclass
class Findings:
    seeds: int = 0
    seeds_refused: list[tuple[str, str]] = field(default_factory=list)  # valid positions refused
    files: int = 0
    refused: int = 0
    accepted: int = 0
    invalid: list[tuple[str, str, str]] = field(default_factory=list)  # origin, edits, what broke
    exceptions: list[tuple[str, str, str]] = field(default_factory=list)


# --- valid positions ------------------------------------------------------------------------------
def _file_seeds(limit_actions: int = 6) -> Iterator[Seed]:
    for path in sorted(SCENARIOS.rglob("*.json")):
        if "_boards" in path.parts:
            continue
        data = scenario.load(path)
        if data.get("fragment") or "position_error" in data.get("expect", {}):
            continue
        rel = path.relative_to(SCENARIOS).as_posix()
        try:
            st = scenario.build(data)
        except SmallworldError:
            continue
        base = {k: data[k] for k in ("format", "title", "rules", "settings") if k in data}
        yield Seed(rel, {**base, "position": data.get("position") or {}})
        for i, item in enumerate(data.get("actions", [])[:limit_actions]):
            try:
                st.apply(scenario.to_action(st, item))
            except SmallworldError:
                break
            yield Seed(f"{rel}@{i + 1}", {**base, "position": st.to_json()})


def _game_seeds(rnd: random.Random, games: int) -> Iterator[Seed]:
    for k in range(games):
        edition = ("warcraft", "classic")[k % 2]
        players = 2 + k % 4
        variant = "team" if edition == "warcraft" and k % 6 == 4 else "standard"
        settings: dict[str, Any] = {"edition": edition, "players": players, "seed": k, "variant": variant}
        st = Game(Settings.from_json(settings)).new_initial_state()
        stop = set(rnd.sample(range(1, 400), 6))
        ply = 0
        while not st.is_over():
            la = st.legal_actions()
            st.apply(la[rnd.randrange(len(la))])
            ply += 1
            if ply in stop:
                base = {"format": scenario.FORMAT, "title": "fuzz", "rules": ["§4"], "settings": settings}
                yield Seed(
                    f"game {edition} {variant} {players}p s{k} ply {ply}", {**base, "position": st.to_json()}
                )
        base = {"format": scenario.FORMAT, "title": "fuzz", "rules": ["§7"], "settings": settings}
        yield Seed(f"game {edition} {variant} {players}p s{k} over", {**base, "position": st.to_json()})


# --- mutations ------------------------------------------------------------------------------------
def _ids(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    game = Game(Settings.from_json(data["settings"]))
    return sorted(game.race_value), sorted(game.power_value)


Mutation = Callable[[random.Random, dict[str, Any], tuple[list[str], list[str]]], str]


def _n(pos: dict[str, Any]) -> int:
    seats = pos.get("seats")
    return len(seats) if isinstance(seats, list) and seats else 2


def m_drop_key(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    if not pos:
        return "nothing to drop"
    key = rnd.choice(sorted(pos))
    del pos[key]
    return f"drop {key}"


def m_phase(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    pos["phase"] = rnd.choice([p.value for p in Phase])
    return f"phase={pos['phase']}"


def m_seats_of_turn(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    n = _n(pos)
    key = rnd.choice(["turn_seat", "acting_seat", "first_seat"])
    pos[key] = rnd.choice([-1, *range(n)])
    return f"{key}={pos[key]}"


def _seat(rnd: random.Random, pos: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    seats = pos.get("seats")
    if not isinstance(seats, list) or not seats:
        return None
    i = rnd.randrange(len(seats))
    if not isinstance(seats[i], dict):
        return None
    return i, seats[i]


def m_seat_combo(rnd: random.Random, pos: dict[str, Any], ids: tuple[list[str], list[str]]) -> str:
    got = _seat(rnd, pos)
    if got is None:
        return "no seat"
    i, s = got
    key = rnd.choice(["active", "power", "declined", "declined_power"])
    pool = ids[0] if key in ("active", "declined") else ids[1]
    s[key] = rnd.choice([None, *pool])
    return f"seats[{i}].{key}={s[key]}"


def m_seat_drop(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    got = _seat(rnd, pos)
    if got is None or not got[1]:
        return "no seat"
    i, s = got
    key = rnd.choice(sorted(s))
    del s[key]
    return f"drop seats[{i}].{key}"


def m_seat_count(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    got = _seat(rnd, pos)
    if got is None:
        return "no seat"
    i, s = got
    key = rnd.choice(["hand", "coins", "held"])
    if key == "held":
        s["held"] = {rnd.choice(["beast", "champion", "fort", "bomb", "encampment"]): rnd.randint(0, 3)}
    else:
        s[key] = rnd.choice([0, 1, 2, 5, 12, 40])
    return f"seats[{i}].{key}={s[key]}"


def m_copy_badge(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    """A badge or a banner of one place copied to another (a seat, the row)."""
    seats = pos.get("seats") or []
    row = pos.get("row") or []
    sources = [("seat", s) for s in seats if isinstance(s, dict) and s.get("power")]
    sources += [("row", c) for c in row if isinstance(c, dict)]
    if not sources or not seats:
        return "nothing to copy"
    kind, src = rnd.choice(sources)
    j = rnd.randrange(len(seats))
    if not isinstance(seats[j], dict):
        return "no seat"
    if kind == "seat":
        seats[j]["power"] = src["power"]
        return f"seats[{j}].power={src['power']} (held elsewhere)"
    seats[j]["active"], seats[j]["power"] = src.get("race"), src.get("power")
    return f"seats[{j}] takes the row's {src.get('race')}+{src.get('power')}"


def m_row(rnd: random.Random, pos: dict[str, Any], ids: tuple[list[str], list[str]]) -> str:
    row = pos.get("row")
    if not isinstance(row, list) or not row:
        pos["row"] = [{"race": rnd.choice(ids[0]), "power": rnd.choice(ids[1]), "coins": 0}]
        return "a row of one"
    what = rnd.choice(["twice", "drop", "swap", "new"])
    if what == "twice":
        row.append(copy.deepcopy(rnd.choice(row)))
    elif what == "drop":
        row.pop(rnd.randrange(len(row)))
    elif what == "swap":
        rnd.shuffle(row)
    else:
        row[rnd.randrange(len(row))] = {"race": rnd.choice(ids[0]), "power": rnd.choice(ids[1]), "coins": 1}
    return f"row {what}"


def m_stack(rnd: random.Random, pos: dict[str, Any], ids: tuple[list[str], list[str]]) -> str:
    key = rnd.choice(["race_stack", "power_stack", "power_discard"])
    items = pos.get(key)
    if not isinstance(items, list):
        return f"no {key}"
    pool = ids[0] if key == "race_stack" else ids[1]
    what = rnd.choice(["add", "drop", "twice"])
    if what == "add":
        items.append(rnd.choice(pool))
    elif what == "drop" and items:
        items.pop(rnd.randrange(len(items)))
    elif items:
        items.append(rnd.choice(items))
    return f"{key} {what}"


def m_result(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    if pos.get("result") is not None and rnd.random() < 0.5:
        pos["result"] = None
        return "result=None"
    n = _n(pos)
    pos["result"] = {"scores": [rnd.randint(0, 40) for _ in range(n)], "winners": [0]}
    return "a result"


def m_region(rnd: random.Random, pos: dict[str, Any], ids: tuple[list[str], list[str]]) -> str:
    regions = pos.get("regions")
    if not isinstance(regions, dict) or not regions:
        return "no regions"
    ref = rnd.choice(sorted(regions))
    entry = regions[ref]
    what = rnd.choice(["drop", "race", "tokens", "pieces", "move"])
    if what == "drop" or not isinstance(entry, dict):
        del regions[ref]
    elif what == "race":
        entry["race"] = rnd.choice([None, *ids[0], "murlocs", "lost_tribes"])
    elif what == "tokens":
        entry["tokens"] = rnd.choice([0, 1, 2, 3, 7])
    elif what == "pieces":
        entry["pieces"] = {rnd.choice(["fort", "beast", "champion", "lair", "dragon", "hero", "bomb"]): 1}
    else:
        other = rnd.choice(sorted(regions))
        regions[ref], regions[other] = regions[other], regions[ref]
    return f"regions.{ref} {what}"


def m_turn(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    turn = pos.get("turn")
    if not isinstance(turn, dict):
        pos["turn"] = {}
        turn = pos["turn"]
    key = rnd.choice(["conquests", "done", "withdrawn", "die", "race", "stash", "risen", "drop"])
    if key == "drop":
        pos.pop("turn")
    elif key in ("done", "risen"):
        turn[key] = not turn.get(key, False)
    elif key == "withdrawn":
        turn[key] = [rnd.randrange(_n(pos))]
    elif key == "race":
        turn[key] = rnd.choice([None, *ids[0]])
    else:
        turn[key] = rnd.choice([0, 1, 2, 3])
    return f"turn.{key}"


def m_pending(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    if pos.get("pending"):
        pos["pending"] = []
        return "pending dropped"
    return "no pending"


def m_junk(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    """Any value somewhere in the position replaced by a value of another type."""
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k in list(node):
                paths.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                paths.append((node, i))
                walk(node[i])

    walk(pos)
    if not paths:
        return "nothing"
    parent, key = rnd.choice(paths)
    parent[key] = copy.deepcopy(rnd.choice(JUNK))
    return f"junk at {key!r}"


def m_junk_item(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    """A value of any type added to a list of the position (the rolls, the stacks, a marker list)."""
    lists: list[list[Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            lists.append(node)
            for v in node:
                walk(v)

    walk(pos)
    if not lists:
        return "no list"
    rnd.choice(lists).append(copy.deepcopy(rnd.choice(JUNK)))
    return "junk item added to a list"


def m_unit_data(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    """A unit's own data (seat `ext`, `turn.data`) dropped or emptied."""
    holders = [s for s in pos.get("seats") or [] if isinstance(s, dict) and s.get("ext")]
    turn = pos.get("turn")
    if isinstance(turn, dict) and turn.get("data"):
        holders.append(turn)
    if not holders:
        return "no unit data"
    h = rnd.choice(holders)
    key = "ext" if "ext" in h else "data"
    uid = rnd.choice(sorted(h[key]))
    if rnd.random() < 0.5:
        del h[key][uid]
    else:
        h[key][uid] = {}
    return f"{key}.{uid} dropped or emptied"


def m_markers(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    markers = pos.get("markers")
    regions = sorted((pos.get("regions") or {}).keys())
    if not isinstance(markers, dict) or not markers:
        return "no markers"
    ref = rnd.choice(sorted(markers))
    what = rnd.choice(["drop", "move", "flip", "spare"])
    if what == "drop":
        del markers[ref]
    elif what == "move" and regions:
        markers.setdefault(rnd.choice(regions), []).extend(markers.pop(ref))
    elif what == "flip":
        for m in markers[ref]:
            m["face_up"] = not m.get("face_up", False)
    else:
        pos["spare_markers"] = [m["id"] for m in markers[ref]]
    return f"markers {what}"


def m_counts(rnd: random.Random, pos: dict[str, Any], ids: tuple[list[str], list[str]]) -> str:
    key = rnd.choice(["tray", "supply"])
    table = pos.get(key)
    if not isinstance(table, dict) or not table:
        return f"no {key}"
    k = rnd.choice(sorted(table))
    table[k] = rnd.choice([0, 1, 3, 30])
    return f"{key}.{k}={table[k]}"


def m_more_declined(rnd: random.Random, pos: dict[str, Any], ids: tuple[list[str], list[str]]) -> str:
    got = _seat(rnd, pos)
    if got is None:
        return "no seat"
    i, s = got
    s["more_declined"] = [{"race": rnd.choice(ids[0]), "power": rnd.choice([None, *ids[1]])}]
    return f"seats[{i}].more_declined"


def m_swap_seats(rnd: random.Random, pos: dict[str, Any], ids: Any) -> str:
    seats = pos.get("seats")
    if not isinstance(seats, list) or len(seats) < 2:
        return "no seats"
    i, j = rnd.sample(range(len(seats)), 2)
    seats[i], seats[j] = seats[j], seats[i]
    return f"seats {i} and {j} swapped"


MUTATIONS: list[tuple[Mutation, int]] = [
    (m_drop_key, 3),
    (m_phase, 3),
    (m_seats_of_turn, 2),
    (m_seat_combo, 4),
    (m_seat_drop, 2),
    (m_seat_count, 2),
    (m_copy_badge, 3),
    (m_row, 3),
    (m_stack, 2),
    (m_result, 2),
    (m_region, 3),
    (m_turn, 2),
    (m_pending, 1),
    (m_junk, 2),
    (m_junk_item, 1),
    (m_unit_data, 2),
    (m_markers, 1),
    (m_counts, 1),
    (m_more_declined, 1),
    (m_swap_seats, 1),
]


def mutate(rnd: random.Random, seed: Seed, ids: tuple[list[str], list[str]]) -> tuple[dict[str, Any], str]:
    data = copy.deepcopy(seed.data)
    pos = data["position"]
    funcs = [f for f, w in MUTATIONS for _ in range(w)]
    edits = []
    for _ in range(rnd.choice((1, 1, 2, 3))):
        func = rnd.choice(funcs)
        try:
            edits.append(func(rnd, pos, ids))
        except (TypeError, KeyError, IndexError, AttributeError, ValueError):
            edits.append(f"{func.__name__} skipped (an earlier edit broke its field)")
    return data, "; ".join(edits)


# --- the oracle -----------------------------------------------------------------------------------
def play_checked(st: State, rnd: random.Random, plies: int = PLAYOUT) -> None:
    """What an accepted position must allow: invariants, a JSON round trip, views, random play."""
    check_invariants(st)
    again = state_from_json(st.game, json.loads(json.dumps(st.to_json())))
    assert again.to_json() == st.to_json(), "the JSON form does not round-trip"
    for seat in (None, *range(len(st.seats))):
        view_for(st, seat)
    for _ in range(plies):
        if st.is_over():
            return
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
        check_invariants(st)


def judge(data: dict[str, Any], rnd: random.Random, plies: int = PLAYOUT) -> tuple[str, str]:
    """('refused' | 'accepted' | 'exception' | 'invalid', what happened)."""
    try:
        st = scenario.build(data)
    except PositionError as e:
        return "refused", str(e)
    except Exception as e:  # the finding itself
        return "exception", f"{type(e).__name__}: {e} | {_where(e)}"
    try:
        play_checked(st, rnd, plies)
    except Exception as e:  # the finding itself
        return "invalid", f"{type(e).__name__}: {e} | {_where(e)}"
    return "accepted", ""


def _where(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    last = [f for f in tb if "smallworld" in f.filename] or tb
    return f"{Path(last[-1].filename).name}:{last[-1].lineno}" if last else "?"


def run(files: int, seed: int = 1, games: int = 24, plies: int = PLAYOUT, progress: bool = False) -> Findings:
    rnd = random.Random(seed)
    seeds = list(_file_seeds()) + list(_game_seeds(random.Random(seed), games))
    ids_of: dict[str, tuple[list[str], list[str]]] = {}
    out = Findings()
    for s in seeds:  # the unmutated positions are valid: each must load
        out.seeds += 1
        try:
            scenario.build(copy.deepcopy(s.data))
        except SmallworldError as e:
            out.seeds_refused.append((s.origin, str(e)))
    for k in range(files):
        s = seeds[rnd.randrange(len(seeds))]
        key = json.dumps(s.data["settings"], sort_keys=True)
        if key not in ids_of:
            ids_of[key] = _ids(s.data)
        data, edits = mutate(rnd, s, ids_of[key])
        verdict, what = judge(data, random.Random(k), plies)
        out.files += 1
        if verdict == "refused":
            out.refused += 1
        elif verdict == "accepted":
            out.accepted += 1
        elif verdict == "exception":
            out.exceptions.append((s.origin, edits, what))
        else:
            out.invalid.append((s.origin, edits, what))
        if progress and k % 500 == 499:
            print(f"{k + 1} files", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=24, help="random games whose states are mutated too")
    ap.add_argument(
        "--plies", type=int, default=PLAYOUT, help="random actions played from each accepted file"
    )
    ap.add_argument("--show", type=int, default=40, help="findings to print")
    args = ap.parse_args(argv)
    f = run(args.files, args.seed, args.games, args.plies, progress=True)
    for origin, what in f.seeds_refused[: args.show]:
        print(f"valid position refused: {origin} -> {what}")
    for label, items in (("exception", f.exceptions), ("invalid", f.invalid)):
        for origin, edits, what in items[: args.show]:
            print(f"{label}: {origin} [{edits}] -> {what}")
    print(f"{f.seeds} valid positions mutated, {len(f.seeds_refused)} of them refused")
    print(
        f"{f.files} mutated files: {f.refused} refused, {f.accepted} accepted and playable, "
        f"{len(f.invalid)} accepted but invalid, {len(f.exceptions)} Python exceptions"
    )
    return 1 if f.invalid or f.exceptions or f.seeds_refused else 0


if __name__ == "__main__":
    sys.exit(main())
