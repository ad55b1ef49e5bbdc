"""State <-> JSON. The JSON form is exact (state -> JSON -> state -> JSON is the identity, whatever
the order of the keys) and is also the `position` of a position file, where every field may be left
out (docs/positions.md). Its shape (fields, JSON types, nulls, nesting) is declared once in
`engine/api/shape.py`, which makes the writer and the loader's shape checks; this module keeps
what the values mean.

Loading checks every field at the boundary: a wrong type, an unknown id, a region that is not on the
map, a count out of range, a prompt or event that no unit declares, or a unit's data that does not
match its declaration raises `PositionError` naming the field, before a state is returned. A loaded
position must also keep the engine's invariants, unless the caller says it is a test fragment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from smallworld.engine.api.shape import (
    COMBO,
    DECLINED,
    MARKER,
    REGION,
    SEAT,
    STATE,
    TURN,
    check_object,
    write_state,
)
from smallworld.engine.model import derived
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.hooks import CONQUEST_FIELDS
from smallworld.engine.model.keyed_rng import game_rng
from smallworld.engine.model.protocol import Field, FieldType, check_fields, check_value
from smallworld.engine.model.state import DECISION_PHASES, Phase, Seat, State, Turn, jcopy
from smallworld.engine.rules.decline import decline_slot
from smallworld.engine.rules.losses import badge_kept, occupying_pieces

if TYPE_CHECKING:
    from smallworld.engine.api.game import Game

PHASES = tuple(p.value for p in Phase)
MAX_COUNT = 1000  # no count of the game comes near this
MAX_COINS = 10**6


# The JSON form of a state: the writer generated from `shape.STATE`, itself (views and servers call
# it on every ply: a wrapper's call would be a cost of its own).
state_to_json: Callable[[State], dict[str, Any]] = write_state


# --- small checks ---------------------------------------------------------------------------------
def _int(value: Any, where: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise PositionError(where, f"must be an integer {lo}..{hi}, got {_short(value)}")
    return value


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(where, f"must be an object, got {_short(value)}")
    return value


def _ids(value: Any, where: str, pool: set[str] | dict[str, Any]) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_COUNT:
        raise PositionError(where, "must be a list of ids")
    for i, x in enumerate(value):
        if not isinstance(x, str) or x not in pool:
            raise PositionError(f"{where}[{i}]", f"unknown id {_short(x)}")
    return list(value)


def _counts(value: Any, where: str, pool: set[str] | dict[str, Any], hi: int = MAX_COUNT) -> dict[str, int]:
    data = _obj(value, where)
    out = {}
    for k, v in data.items():
        if k not in pool:
            raise PositionError(f"{where}.{k}", f"unknown id; known: {sorted(pool)}")
        out[k] = _int(v, f"{where}.{k}", 0, hi)
    return out


def _race(game: Game, value: Any, where: str, natives: bool) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not (value in game.race_value or (natives and value == game.natives)):
        raise PositionError(where, f"unknown race {_short(value)}")
    return value


def _power(game: Game, value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in game.power_value:
        raise PositionError(where, f"unknown power {_short(value)}")
    return value


# --- loading ---------------------------------------------------------------------------------------
def state_from_json(game: Game, data: Any, base: State | None = None, fragment: bool = False) -> State:
    """Build a state from its JSON form. Fields left out keep their value in `base` (default: the
    game's initial state); `regions`, when given, lists every occupied region. Unless `fragment`,
    the result must keep the engine's invariants (`engine/api/invariants.py`)."""
    data = check_object(STATE, data, "position")
    st = base.clone() if base is not None else game.new_initial_state()
    n = game.players
    if "ply" in data:
        st.ply = _int(data["ply"], "position.ply", 0, 10**9)
    if "round" in data:
        st.round = _int(data["round"], "position.round", 1, game.rounds)
    for key in ("first_seat", "turn_seat"):
        if key in data:
            setattr(st, key, _int(data[key], f"position.{key}", 0, n - 1))
    if "acting_seat" in data:
        st.acting_seat = _int(data["acting_seat"], "position.acting_seat", -1, n - 1)
    elif "turn_seat" in data:
        st.acting_seat = st.turn_seat
    if "phase" in data:
        if data["phase"] not in PHASES:
            raise PositionError("position.phase", f"must be one of {list(PHASES)}")
        st.phase = Phase(data["phase"])
    if "seats" in data:
        seats = data["seats"]
        if not isinstance(seats, list) or len(seats) != n:
            raise PositionError("position.seats", f"must be a list of {n} seats")
        st.seats = [_seat(game, s, i) for i, s in enumerate(seats)]
    if "regions" in data:
        _regions(st, data["regions"])
    if "row" in data:
        st.row = _row(game, data["row"])
    for key, pool in (("race_stack", game.race_value), ("power_stack", game.power_value)):
        if key in data:
            setattr(st, key, _ids(data[key], f"position.{key}", pool))
    if "power_discard" in data:
        st.power_discard = _ids(data["power_discard"], "position.power_discard", game.power_value)
    if "offer" in data:
        st.offer = game.variant.offer_from_json(st, data["offer"])
    if "turn" in data:
        st.turn = _turn(game, data["turn"])
    if "pending" in data:
        st.pending = _pending(game, data["pending"])
    if "rng" in data:
        rng = data["rng"]
        if not isinstance(rng, str) or not 1 <= len(rng) <= 16:
            raise PositionError("position.rng", "must be a hexadecimal string of up to 16 digits")
        try:
            st.rng = game_rng(game.settings.rng, game.settings.seed, int(rng, 16))
        except ValueError:
            raise PositionError("position.rng", "must be a hexadecimal string of up to 16 digits") from None
    if "rolls" in data:
        rolls = data["rolls"]
        faces = set(game.options.die_faces)
        if (
            not isinstance(rolls, list)
            or len(rolls) > MAX_COUNT
            or any(isinstance(r, bool) or not isinstance(r, int) or r not in faces for r in rolls)
        ):
            raise PositionError("position.rolls", f"must be a list of die faces {sorted(faces)}")
        st.rolls = list(rolls)
    if "result" in data:
        st.result = _result(game, data["result"])
    if "events" in data:
        st.events = _events(game, data["events"])
    if "markers" in data:
        before = [m[0] for here in st.markers.values() for m in here] + st.spare_markers
        _markers(st, data["markers"])
        placed = {m[0] for here in st.markers.values() for m in here}
        # Left out, the unused markers are every marker the position does not place (§3.2 step 7).
        st.spare_markers = [x for x in before if x not in placed]
    if "spare_markers" in data:
        spare = _ids(data["spare_markers"], "position.spare_markers", game.relics)
        on_board = {m[0] for here in st.markers.values() for m in here}
        if len(set(spare)) != len(spare) or on_board & set(spare):
            raise PositionError("position.spare_markers", "a marker is listed twice or also on the boards")
        st.spare_markers = spare
    _derive_offer(st, data)
    # Races not named in `tray` hold what the box holds less what the boards and hands hold.
    st.tray = _derived_tray(st)
    if "tray" in data:
        st.tray.update(_counts(data["tray"], "position.tray", set(game.tray_size)))
    if "supply" in data or "regions" in data or "seats" in data:
        # Pieces not named in `supply` are the box's count less what the boards and hands hold.
        st.supply = {p.id: p.supply for p in game.pieces.values()}
        for p in st.pieces:
            for k, c in (p or {}).items():
                st.supply[k] = st.supply.get(k, 0) - c
        for seat in st.seats:
            for k, c in seat.held.items():
                st.supply[k] = st.supply.get(k, 0) - c
        st.supply.update(_counts(data.get("supply", {}), "position.supply", game.pieces))
    check_limits(st)
    check_stage(st)
    if not fragment:
        _check_conservation(st)
        _check_invariants(st)
    return st


def check_stage(st: State) -> None:
    """The seats' races and the step of the turn fit together, as play leaves them: a badge goes
    with its banner, a seat picks only without an Active race and decides only with one, an
    In-Decline race plays its own phase only where its unit says so, the seat to act is the one
    the step names, and only a game that is over has a result."""
    game = st.game
    for i, s in enumerate(st.seats):
        where = f"position.seats[{i}]"
        if (s.active is None) != (s.power is None):
            field = "power" if s.active is None else "active"
            raise PositionError(
                f"{where}.{field}", "an Active race and its power go together (both or neither)"
            )
        if s.declined is None and (s.declined_power is not None or s.more_declined):
            field = "declined_power" if s.declined_power is not None else "more_declined"
            raise PositionError(f"{where}.{field}", "needs an In-Decline race (`declined`)")
        slots = [decline_slot(st, s.declined, s.declined_power)]
        for k, (race, power) in enumerate(s.more_declined):
            slot = decline_slot(st, race, power)
            if slot in slots:
                raise PositionError(
                    f"{where}.more_declined[{k}]",
                    "a seat holds one In-Decline race, and another only where a unit gives it a slot "
                    "of its own (classic Spirit)",
                )
            slots.append(slot)
    ph = st.phase
    if ph == Phase.OVER:
        if st.result is None:
            raise PositionError("position.result", "a game that is over has its result")
        if st.acting_seat != -1:
            raise PositionError("position.acting_seat", "must be -1 once the game is over")
        return
    if st.result is not None:
        raise PositionError("position.result", f"only a game that is over has a result (phase {ph})")
    if st.acting_seat < 0:
        raise PositionError("position.acting_seat", "is -1 only once the game is over")
    if ph not in DECISION_PHASES and not st.pending:
        raise PositionError("position.phase", f"{ph} is a step between decisions: only a prompt waits there")
    turn_seat = st.turn_seat
    s = st.seats[turn_seat]
    if st.pending:
        if st.acting_seat != st.pending[0]["seat"]:
            raise PositionError("position.acting_seat", "the seat of the first pending prompt acts")
        for k, p in enumerate(st.pending):
            # A race's or power's prompt is raised by a unit of the seat it asks, or of the seat
            # whose turn it is (Intimidating asks the owner of the token it moved).
            if game.units[p["unit"]].kind in ("race", "power"):
                held = {
                    uid
                    for i in {p["seat"], turn_seat}
                    for uid in (
                        st.seats[i].active,
                        st.seats[i].power,
                        st.seats[i].declined,
                        st.seats[i].declined_power,
                        *(x for pair in st.seats[i].more_declined for x in pair),
                    )
                }
                if p["unit"] not in held:
                    raise PositionError(
                        f"position.pending[{k}].unit",
                        f"{p['unit']} is held neither by seat {p['seat']} nor by the turn's player",
                    )
    # The seat that decides in this step once the prompts are answered (the last one's resume seat).
    after = st.pending[-1]["resume_seat"] if st.pending else st.acting_seat
    field = "position.pending[-1].resume_seat" if st.pending else "position.acting_seat"
    if ph == Phase.WITHDRAWN:
        if after == turn_seat or not 0 <= after < len(st.seats) or st.seats[after].active is None:
            raise PositionError(field, "in the withdrawn step a defender with an Active race acts")
    elif ph in DECISION_PHASES and after != turn_seat:
        raise PositionError(field, f"the turn's player (seat {turn_seat}) acts in the {ph} step")
    # A region below its race's minimum waits for a prompt that names it (a regroup, AMB-11).
    named = {game.map.index(p["region"]) for p in st.pending if isinstance(p.get("region"), str)}
    for i, seat in enumerate(st.seats):
        keep = st.min_per_region(seat.active)
        for r in bits(st.occupied_mask(seat.active)) if seat.active and keep > 1 else ():
            if st.tokens[r] + sum(st.troops_in(r).values()) < keep and r not in named:
                raise PositionError(
                    f"position.regions.{game.map.ref(r)}.tokens",
                    f"{seat.active} keep at least {keep} tokens in each region (seat {i})",
                )
    race = st.turn.race
    if race is not None and not (
        race in s.declined_races() and game.units[race].conquers_in_decline and st.turn.risen
    ):
        raise PositionError(
            "position.turn.race",
            f"only an In-Decline race of seat {turn_seat} that conquers In Decline plays a phase of its own",
        )
    where = f"seat {turn_seat}"
    if ph == Phase.AFTER_SCORE and (race or not any(u.declines_after_scoring for u in st.units(turn_seat))):
        raise PositionError("position.phase", f"{where} has no race that may decline after scoring")
    if ph in (Phase.PICK, Phase.START, Phase.RISE) and (st.turn.conquests or st.turn.done or race):
        raise PositionError("position.turn", f"the {ph} step comes before the turn's conquests")
    if ph == Phase.PICK and s.active is not None:
        raise PositionError(
            "position.phase",
            f"{where} holds an Active race ({s.active}): only a seat without one picks (name the step: "
            "start, conquer, redeploy, ...)",
        )
    if ph in (Phase.START, Phase.AFTER_SCORE) and s.active is None:
        raise PositionError("position.phase", f"{where} has no Active race to expand or decline with")
    if ph in (Phase.CONQUER, Phase.REDEPLOY) and s.active is None and race is None:
        raise PositionError("position.phase", f"{where} has no race to conquer or redeploy with")
    if ph == Phase.RISE and (
        st.turn.risen
        or not any(game.units[r].conquers_in_decline and st.occupied_mask(r) for r in s.declined_races())
    ):
        raise PositionError("position.phase", f"{where} has no In-Decline race that may play its own phase")


def _check_conservation(st: State) -> None:
    """Every banner and badge of the game lies in exactly one place (`invariants`)."""
    from smallworld.engine.api.invariants import banner_and_badge_problems

    for field, problem in banner_and_badge_problems(st):
        raise PositionError(field, problem)


def _derive_offer(st: State, data: dict[str, Any]) -> None:
    """The parts of the offer a position leaves out are derived, as the tray is: banners and badges
    in play (Active, In Decline, a badge kept beside its banner) and the badges the position
    discards leave the stacks, and a row combo whose banner or badge is in play takes the next
    free one of its stack. A stack left out beside a given row also loses the row's ids."""
    game = st.game
    seats = "seats" in data
    banners = {r for s in st.seats for r in (s.active, *s.declined_races()) if r} if seats else set()
    badges: set[str] = set()
    if seats:
        for s in st.seats:
            kept = [p for _r, p in [(s.declined, s.declined_power), *s.more_declined] if badge_kept(st, p)]
            badges.update(p for p in (s.power, *kept) if p)
    if "power_discard" in data:
        badges.update(st.power_discard)
    if "offer" in data:
        return  # the team variant's columns are given: nothing to derive
    if "row" in data:
        if "race_stack" not in data:
            shown = banners | {c[0] for c in st.row}
            st.race_stack = [r for r in st.race_stack if r not in shown]
        if "power_stack" not in data:
            shown = badges | {c[1] for c in st.row}
            st.power_stack = [p for p in st.power_stack if p not in shown]
        return
    if banners and "race_stack" not in data:
        game.variant.withdraw_banners(st, banners)
    if badges and "power_stack" not in data:
        game.variant.withdraw_badges(st, badges)


def _check_invariants(st: State) -> None:
    from smallworld.engine.api.invariants import check_invariants

    try:
        check_invariants(st)
    except AssertionError as e:
        raise PositionError(
            "position", f"breaks an invariant of the game ({e}); a test fragment says so"
        ) from None


def _seat(game: Game, d: Any, i: int) -> Seat:
    where = f"position.seats[{i}]"
    d = check_object(SEAT, d, where)
    s = Seat(coins=_int(d["coins"], f"{where}.coins", 0, MAX_COINS) if "coins" in d else 5)
    s.active = _race(game, d.get("active"), f"{where}.active", False)
    s.power = _power(game, d.get("power"), f"{where}.power")
    s.declined = _race(game, d.get("declined"), f"{where}.declined", False)
    s.declined_power = _power(game, d.get("declined_power"), f"{where}.declined_power")
    more = d.get("more_declined", [])
    if not isinstance(more, list) or len(more) > 4:
        raise PositionError(f"{where}.more_declined", "must be a list of {race, power}")
    for k, x in enumerate(more):
        w = f"{where}.more_declined[{k}]"
        x = check_object(DECLINED, x, w)
        race = _race(game, x.get("race"), f"{w}.race", False)
        if race is None:
            raise PositionError(f"{w}.race", "must be a race")
        s.more_declined.append([race, _power(game, x.get("power"), f"{w}.power")])
    s.hand = _int(d["hand"], f"{where}.hand") if "hand" in d else 0
    held = _counts(d.get("held", {}), f"{where}.held", game.pieces)
    s.held = {k: v for k, v in sorted(held.items()) if v}
    s.ext = _unit_data(game, d.get("ext", {}), f"{where}.ext", "seat_fields")
    return s


def _unit_data(game: Game, data: Any, where: str, which: str) -> dict[str, Any]:
    """Units' own data (`seat.ext`, `turn.data`): each key a unit id, each value checked against the
    unit's declared fields (`Unit.seat_fields`, `Unit.turn_fields`)."""
    data = _obj(data, where)
    out: dict[str, Any] = {}
    for uid, mine in data.items():
        unit = game.units.get(uid)
        if unit is None:
            raise PositionError(
                f"{where}.{uid}", "not a unit of this game: unit data is kept under its unit's id"
            )
        out[uid] = jcopy(check_fields(game, getattr(unit, which), mine, f"{where}.{uid}"))
    return out


def _regions(st: State, data: Any) -> None:
    game = st.game
    m = game.map
    data = _obj(data, "position.regions")
    n = m.n
    st.race, st.tokens, st.pieces, st.tags = [None] * n, [0] * n, [None] * n, {}
    for ref, entry in data.items():
        where = f"position.regions.{ref}"
        try:
            r = m.index(ref)
        except KeyError as e:
            raise PositionError(where, str(e).strip("'\"")) from None
        entry = check_object(REGION, entry, where)
        race = _race(game, entry.get("race"), f"{where}.race", True)
        tokens = _int(entry["tokens"], f"{where}.tokens") if "tokens" in entry else (1 if race else 0)
        pieces = _counts(entry.get("pieces", {}), f"{where}.pieces", game.pieces, 100)
        if race is None and tokens:
            raise PositionError(where, "tokens without a race")
        st.race[r] = race
        st.tokens[r] = tokens
        st.pieces[r] = {k: v for k, v in sorted(pieces.items()) if v} or None
        if "tags" in entry:
            tags = _obj(entry["tags"], f"{where}.tags")
            here: dict[str, list[Any]] = {}
            for kind, values in tags.items():
                w = f"{where}.tags.{kind}"
                piece = game.pieces.get(kind)
                if piece is None or not piece.tag_fields:
                    raise PositionError(w, "only a tagged piece kind has tags")
                if not isinstance(values, list) or len(values) != (st.pieces[r] or {}).get(kind, 0):
                    raise PositionError(w, f"must be a list of one tag per {kind} in the region")
                here[kind] = [
                    check_fields(game, piece.tag_fields, v, f"{w}[{i}]") for i, v in enumerate(values)
                ]
            if here:
                st.tags[r] = here
    derived.forget(st)
    for r in range(n):
        if st.race[r] is not None and not st.tokens[r] and not occupying_pieces(st, r):
            raise PositionError(
                f"position.regions.{m.ref(r)}.tokens",
                "a region held by a race has one of its tokens, or a piece that stands for one",
            )


def _row(game: Game, data: Any) -> list[list[Any]]:
    if not isinstance(data, list) or len(data) > 20:
        raise PositionError("position.row", "must be a list of {race, power, coins}")
    out = []
    for i, c in enumerate(data):
        where = f"position.row[{i}]"
        c = check_object(COMBO, c, where)
        race = _race(game, c.get("race"), f"{where}.race", False)
        power = _power(game, c.get("power"), f"{where}.power")
        if race is None or power is None:
            raise PositionError(where, "must be {race, power, coins} with known ids")
        out.append([race, power, _int(c["coins"], f"{where}.coins", 0, MAX_COINS) if "coins" in c else 0])
    return out


def _turn(game: Game, data: Any) -> Turn:
    where = "position.turn"
    d = check_object(TURN, data, where)
    t = Turn()
    t.conquests = _int(d.get("conquests", 0), f"{where}.conquests")
    t.done = bool(d.get("done", False))
    t.took = _counts(d.get("took", {}), f"{where}.took", game.race_value)
    withdrawn = d.get("withdrawn", [])
    if not isinstance(withdrawn, list):
        raise PositionError(f"{where}.withdrawn", "must be a list of seats")
    t.withdrawn = [_int(x, f"{where}.withdrawn[{i}]", 0, game.players - 1) for i, x in enumerate(withdrawn)]
    if d.get("die") is not None:
        t.die = _int(d["die"], f"{where}.die")
    if d.get("scored") is not None:
        t.scored = check_value(game, Field("scored", FieldType.ITEMS, ""), d["scored"], f"{where}.scored")
    if d.get("resume") is not None:
        t.resume = check_fields(game, CONQUEST_FIELDS, d["resume"], f"{where}.resume")
    t.race = _race(game, d.get("race"), f"{where}.race", False)
    t.stash = _int(d.get("stash", 0), f"{where}.stash")
    t.risen = bool(d.get("risen", False))
    t.data = _unit_data(game, d.get("data", {}), f"{where}.data", "turn_fields")
    ended = d.get("ended", [])
    if not isinstance(ended, list):
        raise PositionError(f"{where}.ended", "must be a list of unit ids")
    for i, uid in enumerate(ended):
        if not isinstance(uid, str) or uid not in game.units:
            raise PositionError(f"{where}.ended[{i}]", f"unknown unit {uid!r}")
    t.ended = list(ended)
    return t


def _pending(game: Game, data: Any) -> list[dict[str, Any]]:
    if not isinstance(data, list) or len(data) > 20:
        raise PositionError("position.pending", "must be a list of prompts")
    out = []
    for i, p in enumerate(data):
        where = f"position.pending[{i}]"
        p = _obj(p, where)
        key = (p.get("unit"), p.get("prompt"))
        spec = game.prompt_specs.get(key) if all(isinstance(k, str) for k in key) else None  # type: ignore[arg-type]
        if spec is None:
            raise PositionError(where, f"no unit declares the prompt {key[0]!r}.{key[1]!r}")
        base = ("unit", "prompt", "seat", "resume_seat", "public")
        entry = check_fields(game, spec.fields, p, where, extra=base)
        entry["seat"] = _int(p.get("seat"), f"{where}.seat", 0, game.players - 1)
        entry["resume_seat"] = _int(
            p.get("resume_seat", entry["seat"]), f"{where}.resume_seat", -1, game.players - 1
        )
        if spec.public:
            entry["public"] = True
        else:
            entry.pop("public", None)
        out.append(entry)
    return out


def _result(game: Game, data: Any) -> dict[str, Any] | None:
    if data is None:
        return None
    d = _obj(data, "position.result")
    scores = d.get("scores")
    winners = d.get("winners")
    if not isinstance(scores, list) or len(scores) != game.players:
        raise PositionError("position.result.scores", f"must list the {game.players} final scores")
    for i, x in enumerate(scores):
        _int(x, f"position.result.scores[{i}]", 0, MAX_COINS)
    if not isinstance(winners, list) or not winners:
        raise PositionError("position.result.winners", "must list the winning seats")
    for i, x in enumerate(winners):
        _int(x, f"position.result.winners[{i}]", 0, game.players - 1)
    if "tie_break" in d:
        _tie_break(game, d["tie_break"])
    return jcopy(d)


def _tie_break(game: Game, data: Any) -> None:
    """The tie-break's figures (§7, §11.4): `{rule, by, tied: [{seat | faction, value}], shared}`."""
    where = "position.result.tie_break"
    d = _obj(data, where)
    if not isinstance(d.get("rule"), str) or not isinstance(d.get("by"), str):
        raise PositionError(where, "needs `rule` and `by` (the section and what breaks the tie)")
    if not isinstance(d.get("shared"), bool):
        raise PositionError(f"{where}.shared", f"must be true or false, got {_short(d.get('shared'))}")
    tied = d.get("tied")
    if not isinstance(tied, list) or len(tied) < 2:
        raise PositionError(f"{where}.tied", "must list at least two tied seats or factions")
    for i, entry in enumerate(tied):
        e = _obj(entry, f"{where}.tied[{i}]")
        if "seat" in e:
            _int(e["seat"], f"{where}.tied[{i}].seat", 0, game.players - 1)
        elif e.get("faction") not in game.edition.factions:
            raise PositionError(f"{where}.tied[{i}]", "needs a `seat` or a `faction`")
        if "value" in e:
            _int(e["value"], f"{where}.tied[{i}].value", 0, MAX_COINS)


def _events(game: Game, data: Any) -> list[dict[str, Any]]:
    if not isinstance(data, list) or len(data) > MAX_COUNT:
        raise PositionError("position.events", "must be a list of events")
    out = []
    for i, e in enumerate(data):
        where = f"position.events[{i}]"
        e = _obj(e, where)
        spec = game.event_specs.get(str(e.get("type")))
        if spec is None:
            raise PositionError(f"{where}.type", f"no unit declares the event type {_short(e.get('type'))}")
        out.append(check_fields(game, spec.fields, e, where, extra=("type",)))
    return out


def _markers(st: State, data: Any) -> None:
    """`{"T:3": [{"id", "face_up"}, ...]}`; a single `{"id", "face_up"}` stands for a list of one."""
    data = _obj(data, "position.markers")
    st.markers = {}
    seen: set[str] = set()
    for ref, here in data.items():
        where = f"position.markers.{ref}"
        try:
            r = st.game.map.index(ref)
        except KeyError as e:
            raise PositionError(where, str(e).strip("'\"")) from None
        items = here if isinstance(here, list) else [here]
        for i, m in enumerate(items):
            if isinstance(m, dict):
                check_object(MARKER, m, f"{where}[{i}]")
            if not isinstance(m, dict) or not isinstance(m.get("id"), str) or m["id"] not in st.game.relics:
                raise PositionError(f"{where}[{i}].id", f"known relics: {sorted(st.game.relics)}")
            if m["id"] in seen:
                raise PositionError(f"{where}[{i}].id", f"{m['id']} is placed twice (each marker is unique)")
            seen.add(m["id"])
            st.markers.setdefault(r, []).append([m["id"], bool(m.get("face_up", False))])
    derived.forget(st)


def _derived_tray(st: State) -> dict[str, int]:
    tray = dict(st.game.tray_size)
    for r, race in enumerate(st.race):
        if race is not None:
            tray[race] -= st.tokens[r]
    for i in range(len(st.seats)):
        for race, n in st.hands(i):
            tray[race] -= n
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
        if (s.hand or s.held) and not s.active and st.turn.race is None:
            raise PositionError(f"position.seats[{i}].hand", "tokens in hand need an Active race")
        if s.active and s.active in s.declined_races():
            raise PositionError(f"position.seats[{i}]", "a race cannot be Active and In Decline at once")
    owners: dict[str, int] = {}
    for i, s in enumerate(st.seats):
        held: list[str | None] = [s.active, *s.declined_races()]
        for held_race in held:
            if held_race:
                if held_race in owners:
                    raise PositionError(
                        f"position.seats[{i}]", f"{held_race} already belongs to seat {owners[held_race]}"
                    )
                owners[held_race] = i
    for r, holder in enumerate(st.race):
        if holder is not None and holder != st.game.natives and holder not in owners:
            ref = st.game.map.ref(r)
            raise PositionError(f"position.regions.{ref}", f"{holder} is on the map but no seat holds it")
