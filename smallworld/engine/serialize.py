"""State <-> JSON. The JSON form is exact (state -> JSON -> state -> JSON is the identity) and is
also the `position` of a position file, where every field may be left out (docs/positions.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld.engine.errors import PositionError
from smallworld.engine.rng import Rng
from smallworld.engine.state import Seat, State, Turn, jcopy

if TYPE_CHECKING:
    from smallworld.engine.game import Game

PHASES = (
    "pick",
    "start",
    "conquer",
    "redeploy",
    "withdrawn",
    "over",
    "after_conquests",
    "redeploy_begin",
    "withdrawn_next",
    "turn_end",
    "score",
)


def state_to_json(st: State) -> dict[str, Any]:
    m = st.game.map
    regions: dict[str, Any] = {}
    for r in range(m.n):
        if st.race[r] is not None or st.pieces[r]:
            entry: dict[str, Any] = {"race": st.race[r], "tokens": st.tokens[r]}
            if st.pieces[r]:
                entry["pieces"] = dict(sorted(st.pieces[r].items()))  # type: ignore[union-attr]
            regions[m.ref(r)] = entry
    out: dict[str, Any] = {
        "round": st.round,
        "first_seat": st.first_seat,
        "turn_seat": st.turn_seat,
        "acting_seat": st.acting_seat,
        "phase": st.phase,
        "seats": [s.to_json() for s in st.seats],
        "regions": regions,
        "tray": dict(sorted(st.tray.items())),
        "row": [{"race": a, "power": b, "coins": c} for a, b, c in st.row],
        "race_stack": list(st.race_stack),
        "power_stack": list(st.power_stack),
        "power_discard": list(st.power_discard),
        "supply": dict(sorted(st.supply.items())),
        "markers": {
            m.ref(r): [{"id": mk[0], "face_up": mk[1]} for mk in here]
            for r, here in sorted(st.markers.items())
        },
        "spare_markers": list(st.spare_markers),
        "turn": st.turn.to_json(),
        "pending": jcopy(st.pending),
        "rng": format(st.rng.state, "016x"),
        "rolls": list(st.rolls),
        "result": jcopy(st.result),
        "events": jcopy(st.events),
    }
    if st.offer is not None:  # team variant only (§11.2): standard states keep their JSON
        out["offer"] = {k: list(v) for k, v in st.offer.items()}
    return out


def _int(data: dict[str, Any], key: str, where: str, lo: int = 0, hi: int | None = None) -> int:
    v = data[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        bound = f" in {lo}..{hi}" if hi is not None else f" >= {lo}"
        raise PositionError(f"{where}.{key}", f"must be an integer{bound}, got {v!r}")
    return v


def state_from_json(game: Game, data: dict[str, Any], base: State | None = None) -> State:
    """Build a state from its JSON form. Fields left out keep their value in `base` (default: the
    game's initial state); `regions`, when given, lists every occupied region."""
    if not isinstance(data, dict):
        raise PositionError("position", "must be an object")
    st = base.clone() if base is not None else game.new_initial_state()
    races = set(game.race_value) | ({game.natives} if game.natives else set())
    powers = set(game.power_value)
    n = game.players
    known = set(state_to_json(st))
    for key in data:
        if key not in known:
            raise PositionError(f"position.{key}", f"unknown field; known: {sorted(known)}")
    for key in ("round", "first_seat", "turn_seat"):
        if key in data:
            setattr(
                st,
                key,
                _int(
                    data,
                    key,
                    "position",
                    0 if key != "round" else 1,
                    game.rounds if key == "round" else n - 1,
                ),
            )
    if "acting_seat" in data:
        st.acting_seat = _int(data, "acting_seat", "position", -1, n - 1)
    elif "turn_seat" in data:
        st.acting_seat = st.turn_seat
    if "phase" in data:
        if data["phase"] not in PHASES:
            raise PositionError("position.phase", f"must be one of {PHASES}")
        st.phase = data["phase"]
    if "seats" in data:
        seats = data["seats"]
        if not isinstance(seats, list) or len(seats) != n:
            raise PositionError("position.seats", f"must be a list of {n} seats")
        st.seats = [_seat(s, i, races, powers, game.natives) for i, s in enumerate(seats)]
    if "regions" in data:
        _regions(st, data["regions"], races)
    if "row" in data:
        st.row = []
        for i, c in enumerate(data["row"]):
            where = f"position.row[{i}]"
            if not isinstance(c, dict) or c.get("race") not in races or c.get("power") not in powers:
                raise PositionError(where, "must be {race, power, coins} with known ids")
            st.row.append([c["race"], c["power"], _int(c, "coins", where) if "coins" in c else 0])
    for key, pool in (("race_stack", races), ("power_stack", powers), ("power_discard", powers)):
        if key in data:
            v = data[key]
            if not isinstance(v, list) or any(x not in pool for x in v):
                raise PositionError(f"position.{key}", "must be a list of known ids")
            setattr(st, key, list(v))
    if "offer" in data:
        st.offer = game.variant.offer_from_json(st, data["offer"])
    if "turn" in data:
        if not isinstance(data["turn"], dict):
            raise PositionError("position.turn", "must be an object")
        st.turn = Turn.from_json(data["turn"])
    if "pending" in data:
        st.pending = jcopy(list(data["pending"]))
    if "rng" in data:
        try:
            st.rng = Rng(int(str(data["rng"]), 16))
        except ValueError:
            raise PositionError("position.rng", "must be a hexadecimal string") from None
    if "rolls" in data:
        rolls = data["rolls"]
        if not isinstance(rolls, list) or any(r not in game.options.die_faces for r in rolls):
            raise PositionError(
                "position.rolls", f"must be a list of die faces {sorted(set(game.options.die_faces))}"
            )
        st.rolls = list(rolls)
    if "result" in data:
        st.result = data["result"]
    if "events" in data:
        if not isinstance(data["events"], list):
            raise PositionError("position.events", "must be a list")
        st.events = [dict(e) for e in data["events"]]
    if "markers" in data:
        before = [m[0] for here in st.markers.values() for m in here] + st.spare_markers
        _markers(st, data["markers"])
        placed = {m[0] for here in st.markers.values() for m in here}
        # Left out, the unused markers are every marker the position does not place (§3.2 step 7).
        st.spare_markers = [x for x in before if x not in placed]
    if "spare_markers" in data:
        spare = data["spare_markers"]
        if not isinstance(spare, list) or any(x not in game.relics for x in spare):
            raise PositionError("position.spare_markers", "must be a list of relic ids")
        on_board = {m[0] for here in st.markers.values() for m in here}
        if len(set(spare)) != len(spare) or on_board & set(spare):
            raise PositionError("position.spare_markers", "a marker is listed twice or also on the boards")
        st.spare_markers = list(spare)
    st.tray = _derived_tray(st) if "tray" not in data else _tray(data["tray"], races)
    if "supply" in data:
        st.supply = {str(k): int(v) for k, v in data["supply"].items()}
    elif "regions" in data:
        st.supply = {p.id: p.supply for p in game.pieces.values()}
        for p in st.pieces:
            for k, c in (p or {}).items():
                st.supply[k] = st.supply.get(k, 0) - c
        for seat in st.seats:
            for k, c in seat.held.items():
                st.supply[k] = st.supply.get(k, 0) - c
    check_limits(st)
    return st


def _seat(d: Any, i: int, races: set[str], powers: set[str], natives: str | None) -> Seat:
    where = f"position.seats[{i}]"
    if not isinstance(d, dict):
        raise PositionError(where, "must be an object")
    s = Seat(coins=_int(d, "coins", where) if "coins" in d else 5)
    for key, pool in (("active", races), ("power", powers), ("declined", races), ("declined_power", powers)):
        v = d.get(key)
        if v is not None and (v not in pool or v == natives):
            raise PositionError(f"{where}.{key}", f"unknown id {v!r}")
        setattr(s, key, v)
    s.hand = _int(d, "hand", where) if "hand" in d else 0
    held = d.get("held", {})
    if not isinstance(held, dict) or any(not isinstance(v, int) or v < 0 for v in held.values()):
        raise PositionError(f"{where}.held", "must map piece kinds to counts")
    s.held = {str(k): v for k, v in held.items() if v}
    ext = d.get("ext", {})
    if not isinstance(ext, dict):
        raise PositionError(f"{where}.ext", "must be an object")
    s.ext = dict(ext)
    return s


def _regions(st: State, data: Any, races: set[str]) -> None:
    m = st.game.map
    if not isinstance(data, dict):
        raise PositionError("position.regions", "must be an object keyed by region ('SIDE:ID')")
    n = m.n
    st.race, st.tokens, st.pieces = [None] * n, [0] * n, [None] * n
    for ref, entry in data.items():
        where = f"position.regions.{ref}"
        try:
            r = m.index(ref)
        except KeyError as e:
            raise PositionError(where, str(e).strip("'\"")) from None
        if not isinstance(entry, dict):
            raise PositionError(where, "must be {race, tokens, pieces}")
        race = entry.get("race")
        if race is not None and race not in races:
            raise PositionError(f"{where}.race", f"unknown race {race!r}")
        tokens = _int(entry, "tokens", where) if "tokens" in entry else (1 if race else 0)
        pieces = entry.get("pieces") or {}
        if not isinstance(pieces, dict) or any(k not in st.game.pieces for k in pieces):
            raise PositionError(f"{where}.pieces", f"known pieces: {sorted(st.game.pieces)}")
        if race is None and tokens:
            raise PositionError(where, "tokens without a race")
        st.race[r] = race
        st.tokens[r] = tokens
        st.pieces[r] = {str(k): int(v) for k, v in pieces.items()} or None
    st.rebuild_indexes()


def _markers(st: State, data: Any) -> None:
    """`{"T:3": [{"id", "face_up"}, ...]}`; a single `{"id", "face_up"}` stands for a list of one."""
    if not isinstance(data, dict):
        raise PositionError("position.markers", "must map region refs to lists of {id, face_up}")
    st.markers = {}
    seen: set[str] = set()
    for ref, here in data.items():
        where = f"position.markers.{ref}"
        try:
            r = st.game.map.index(ref)
        except KeyError as e:
            raise PositionError(where, str(e).strip("'\"")) from None
        for i, m in enumerate(here if isinstance(here, list) else [here]):
            if not isinstance(m, dict) or m.get("id") not in st.game.relics:
                raise PositionError(f"{where}[{i}].id", f"known relics: {sorted(st.game.relics)}")
            if m["id"] in seen:
                raise PositionError(f"{where}[{i}].id", f"{m['id']} is placed twice (each marker is unique)")
            seen.add(m["id"])
            st.markers.setdefault(r, []).append([m["id"], bool(m.get("face_up", False))])


def _tray(data: Any, races: set[str]) -> dict[str, int]:
    if not isinstance(data, dict) or any(k not in races for k in data):
        raise PositionError("position.tray", "must map race ids to counts")
    return {k: int(v) for k, v in data.items()}


def _derived_tray(st: State) -> dict[str, int]:
    tray = dict(st.game.tray_size)
    for r, race in enumerate(st.race):
        if race is not None:
            tray[race] -= st.tokens[r]
    for s in st.seats:
        if s.active:
            tray[s.active] -= s.hand
    return tray


def check_limits(st: State) -> None:
    """§1.2: no race has more tokens than its tray holds; a region holds one race at most."""
    for race, left in st.tray.items():
        if left < 0:
            raise PositionError(
                f"position.tray.{race}",
                f"{race} would have more tokens than the tray holds ({st.game.tray_size[race]})",
            )
    for k, left in st.supply.items():
        if left < 0:
            raise PositionError(f"position.supply.{k}", f"more {k} pieces than the box holds")
    for i, s in enumerate(st.seats):
        if (s.hand or s.held) and not s.active:
            raise PositionError(f"position.seats[{i}].hand", "tokens in hand need an Active race")
        if s.active and s.active == s.declined:
            raise PositionError(f"position.seats[{i}]", "a race cannot be Active and In Decline at once")
    owners: dict[str, int] = {}
    for i, s in enumerate(st.seats):
        for race in (s.active, s.declined):
            if race:
                if race in owners:
                    raise PositionError(
                        f"position.seats[{i}]", f"{race} already belongs to seat {owners[race]}"
                    )
                owners[race] = i
    for r, race in enumerate(st.race):
        if race is not None and race != st.game.natives and race not in owners:
            ref = st.game.map.ref(r)
            raise PositionError(f"position.regions.{ref}", f"{race} is on the map but no seat holds it")
