"""The state's JSON shape is declared once (engine/api/shape.py); the writer, the loader's shape checks
and the JSON Schemas all come from it, and these tests hold them to it.

* States of random games (both editions, 2 to 5 players, the team variant) go through all three:
  the writer's JSON validates against the state schema and a position file's schema, loads back,
  and the loaded state writes the very same JSON (the same keys in the same order).
* Every key the writer emits is declared, in the declared order, in every nested object: a key added
  to the JSON behind the declaration's back fails here.
* For every declared field of every object a position gives, a value of the wrong JSON type and an
  unknown key beside it are refused naming that field.
* docs/position.schema.json's position definitions are the ones made from the declaration.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from smallworld.engine import Game, Settings, State
from smallworld.engine.api import shape
from smallworld.engine.api.schema import POSITION_SCHEMA, position_defs, state_schema
from smallworld.engine.api.serialize import state_from_json, state_to_json
from smallworld.engine.api.shape import Declared, ListOf, Obj, Scalar, Shape, TableOf, Type
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.state import jcopy

ROOT = Path(__file__).resolve().parent.parent
POSITION = json.loads((ROOT / POSITION_SCHEMA).read_text(encoding="utf-8"))
# A position file's `position`, with the file's own definitions around it.
POSITION_V = Draft202012Validator(
    {"$schema": POSITION["$schema"], "$defs": POSITION["$defs"], "$ref": "#/$defs/position"}
)
EVERY = 4  # states checked: every 4th of each game, and its last

GAMES = [
    ("warcraft", "standard", 2, 1),
    ("warcraft", "standard", 3, 2),
    ("warcraft", "standard", 4, 3),
    ("warcraft", "standard", 5, 4),
    ("warcraft", "team", 2, 5),
    ("warcraft", "team", 5, 6),
    ("classic", "standard", 2, 7),
    ("classic", "standard", 3, 8),
    ("classic", "standard", 5, 9),
]


def _states(edition: str, variant: str, players: int, seed: int) -> list[State]:
    import random

    st = Game(Settings(players=players, seed=seed, variant=variant, edition=edition)).new_initial_state()
    rnd = random.Random(seed)
    out = [st.clone()]
    while not st.is_over():
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
        if st.ply % EVERY == 0 or st.is_over():
            out.append(st.clone())
    return out


def _valid(v: Draft202012Validator, doc: Any, where: str) -> None:
    if not v.is_valid(doc):
        err = best_match(v.iter_errors(doc))
        path = "/".join(str(p) for p in err.absolute_path)
        pytest.fail(f"{where}: not valid at /{path}: {err.message}")


def _declared_keys(value: Any, t: Type, where: str) -> int:
    """Walk the writer's JSON along the declaration: every object of a shape has only declared keys,
    in the declared order, and every field without a `when` is there. Returns the objects seen."""
    if isinstance(t, Obj):
        return _object(value, t.shape, where)
    if isinstance(t, ListOf):
        assert isinstance(value, list), where
        return sum(_declared_keys(x, t.item, f"{where}[{i}]") for i, x in enumerate(value))
    if isinstance(t, TableOf):
        assert isinstance(value, dict), where
        return sum(_declared_keys(x, t.value, f"{where}.{k}") for k, x in value.items())
    if isinstance(t, Declared):
        assert isinstance(value, dict if t.json == "object" else list), where
    return 0


def _object(value: Any, sh: Shape, where: str) -> int:
    assert isinstance(value, dict), where
    names = [f.name for f in sh.fields]
    extra = [k for k in value if k not in sh.by_name]
    assert not extra, f"{where}: the writer emits {extra}, which {sh.name} does not declare"
    assert list(value) == [n for n in names if n in value], f"{where}: not in the declared order"
    missing = [f.name for f in sh.fields if f.when is None and f.name not in value]
    assert not missing, f"{where}: {missing} left out"
    seen = 1
    for f in sh.fields:
        if f.name in value and value[f.name] is not None:
            seen += _declared_keys(value[f.name], f.type, f"{where}.{f.name}")
    return seen


@pytest.mark.parametrize(("edition", "variant", "players", "seed"), GAMES)
def test_random_states_round_trip_through_writer_schema_and_loader(
    edition: str, variant: str, players: int, seed: int
) -> None:
    states = _states(edition, variant, players, seed)
    game = states[0].game
    strict = Draft202012Validator(state_schema(game.edition))
    objects = 0
    for st in states:
        where = f"{edition} {variant} {players}p seed {seed}, ply {st.ply}"
        data = state_to_json(st)
        objects += _object(data, shape.STATE, "state")
        text = json.dumps(data)
        _valid(strict, data, f"{where} (state schema)")
        _valid(POSITION_V, data, f"{where} (position schema)")
        again = state_from_json(game, json.loads(text))
        assert json.dumps(state_to_json(again)) == text, f"{where}: the loaded state writes other JSON"
    assert objects > 100 * len(states) // 10  # seats, regions, the turn... were walked


def test_the_walk_catches_a_key_the_declaration_lacks() -> None:
    data = state_to_json(Game(Settings(players=2, seed=1)).new_initial_state())
    data["seats"][0]["bonus"] = 1
    with pytest.raises(AssertionError, match="does not declare"):
        _object(data, shape.STATE, "state")


def test_the_state_schema_refuses_what_the_writer_never_writes() -> None:
    st = Game(Settings(players=3, seed=2)).new_initial_state()
    v = Draft202012Validator(state_schema("warcraft"))
    good = state_to_json(st)
    assert v.is_valid(good)
    for bad in (
        {**good, "extra": 1},
        {**good, "seats": good["seats"][:1]},
        {**good, "phase": "lunch"},
        {**good, "rng": "xyz"},
        {k: v for k, v in good.items() if k != "turn"},
        {**good, "offer": {"powers": []}},  # the standard game has no offer of its own
    ):
        assert not v.is_valid(bad)


# --- the loader's shape checks, field by field --------------------------------------------------------
_WRONG = {"integer": "x", "boolean": 5, "string": 5, "array": {}, "object": []}


def _position() -> tuple[Game, dict[str, Any]]:
    """A valid position with every object a position may give: seats, regions, the row, markers."""
    game = Game(Settings(players=2, seed=3))
    st = game.new_initial_state()
    while not st.occupied_mask(st.seats[st.turn_seat].active or "") and not st.is_over():
        st.apply(st.legal_actions()[0])
    data = json.loads(json.dumps(state_to_json(st)))
    assert data["regions"] and data["row"] and data["markers"]
    return game, data


def _places(data: dict[str, Any]) -> list[tuple[Shape, list[Any], str]]:
    """Each object of the position with its shape, the path to it in `data` and the field name."""
    region = next(iter(data["regions"]))
    marker = next(iter(data["markers"]))
    return [
        (shape.STATE, [], "position"),
        (shape.SEAT, ["seats", 0], "position.seats[0]"),
        (shape.REGION, ["regions", region], f"position.regions.{region}"),
        (shape.COMBO, ["row", 0], "position.row[0]"),
        (shape.MARKER, ["markers", marker, 0], f"position.markers.{marker}[0]"),
        (shape.TURN, ["turn"], "position.turn"),
    ]


def _at(data: Any, path: list[Any]) -> Any:
    for step in path:
        data = data[step]
    return data


def test_every_declared_field_of_a_position_is_checked_for_its_json_type() -> None:
    game, data = _position()
    tried = 0
    for sh, path, where in _places(data):
        for f in sh.fields:
            bad = json.loads(json.dumps(data))
            _at(bad, path)[f.name] = _WRONG[shape.json_kind(f.type)]
            with pytest.raises(PositionError) as e:
                state_from_json(game, bad)
            assert e.value.field == f"{where}.{f.name}", e.value
            tried += 1
        bad = json.loads(json.dumps(data))
        _at(bad, path)["nonsense"] = 1
        with pytest.raises(PositionError, match="unknown field") as e:
            state_from_json(game, bad)
        assert e.value.field == f"{where}.nonsense", e.value
    assert tried == sum(len(sh.fields) for sh, _p, _w in _places(data))


def test_a_more_declined_entry_is_checked_by_its_shape() -> None:
    game, data = _position()
    where = "position.seats[0].more_declined[0]"
    for entry, field in (({"race": 5}, f"{where}.race"), ({"race": "orcs", "x": 1}, f"{where}.x")):
        data["seats"][0]["more_declined"] = [entry]
        with pytest.raises(PositionError) as e:
            state_from_json(game, data)
        assert e.value.field == field, e.value


def test_a_nullable_field_takes_null_and_another_does_not() -> None:
    game, data = _position()
    data["seats"][0]["coins"] = None
    with pytest.raises(PositionError, match="must be an integer") as e:
        state_from_json(game, data)
    assert e.value.field == "position.seats[0].coins"
    nullable = [f.name for f in shape.TURN.fields if f.nullable]
    assert nullable == ["die", "scored", "resume", "race"]


# --- the position file's schema -------------------------------------------------------------------------
def test_the_position_schema_file_is_made_from_the_declaration() -> None:
    made = position_defs()
    assert set(made) == {"position", "seat", "declined", "region_state", "combo", "marker", "turn"}
    for name, definition in made.items():
        assert POSITION["$defs"][name] == definition, (
            f"{POSITION_SCHEMA} is out of date ({name}): python tools/regenerate_docs.py --fast"
        )


def _plain_writer() -> Any:
    """The writers compiled without inlining the nested ones: each a literal of its fields."""
    space: dict[str, Any] = {"jcopy": jcopy}
    for sh in shape.SHAPES:
        exec(compile(shape.writer_source(sh), f"<plain {sh.name}>", "exec"), space)
    return space["write_state"]


def test_the_inlined_writer_writes_what_the_plain_one_does() -> None:
    plain = _plain_writer()
    for edition, variant, players, seed in (GAMES[1], GAMES[4], GAMES[7]):
        for st in _states(edition, variant, players, seed):
            assert json.dumps(plain(st)) == json.dumps(state_to_json(st))


def test_the_writer_is_generated_from_the_declaration() -> None:
    """Each shape's writer is compiled from its fields: its source names every field once."""
    for sh in shape.SHAPES:
        source = shape.writer_source(sh)
        assert source.startswith(f"def write_{sh.name}({sh.args}):")
        for f in sh.fields:
            assert source.count(f"{f.name!r}:") + source.count(f"[{f.name!r}] =") == 1, (sh.name, f.name)
    assert isinstance(shape.STATE.by_name["phase"].type, Scalar)
