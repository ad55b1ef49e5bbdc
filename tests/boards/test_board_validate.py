"""The validator passes the shipped set and names the rule a broken board breaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from smallworld.boards.errors import BoardFormatError
from smallworld.boards.loader import all_sides, load_side, side_ids
from smallworld.boards.model import BoardSide, Region
from smallworld.boards.validate import (
    Problem,
    validate_set,
    validate_side,
    validate_sides_for_game,
)

DataFn = Callable[[str], dict[str, Any]]
WriteFn = Callable[[dict[str, Any]], BoardSide]


def rules(problems: list[Problem]) -> set[str]:
    return {p.rule for p in problems}


def region_of(data: dict[str, Any], rid: int) -> dict[str, Any]:
    return next(r for r in data["regions"] if r["id"] == rid)


def strip_geometry(data: dict[str, Any]) -> dict[str, Any]:
    data.pop("outline", None)
    for r in data["regions"]:
        r.pop("polygon", None)
    return data


def test_twelve_sides_shipped() -> None:
    assert side_ids() == [f"{b}{n}{f}" for b in "LMS" for n in "12" for f in "ab"]


@pytest.mark.parametrize("side_id", side_ids())
def test_shipped_side_is_valid(side_id: str) -> None:
    assert validate_side(load_side(side_id)) == []


def test_shipped_set_is_valid() -> None:
    assert validate_set(all_sides()) == []
    assert validate_sides_for_game(all_sides()) == []


def test_problem_str_names_side_region_and_rule() -> None:
    assert str(Problem("L1a", 3, "entries", "msg")) == "side L1a, region 3: [entries] msg"
    assert str(Problem("L1a", None, "entries", "msg")) == "side L1a: [entries] msg"


def test_asymmetric_adjacency(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("M1a")
    r1 = region_of(data, 1)
    other = r1["adjacent"][0]
    region_of(data, other)["adjacent"].remove(1)
    problems = validate_side(write_side(data))
    bad = [p for p in problems if p.rule == "adjacency-symmetric"]
    assert bad and bad[0].region == 1 and f"region {other} does not list 1" in bad[0].message


def test_unknown_and_self_adjacency(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("S1a")
    region_of(data, 2)["adjacent"] += [2, 99]
    assert {"self-adjacent", "adjacency-ref"} <= rules(validate_side(write_side(data)))


def test_overlapping_polygons(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("S1b")
    r2 = region_of(data, 2)
    r2["polygon"] = [[x + 3, y + 3] for x, y in region_of(data, 1)["polygon"]]
    problems = validate_side(write_side(data))
    assert "overlap" in rules(problems)
    assert any(p.rule == "overlap" and "region 2" in str(p) for p in problems)


def test_declared_adjacency_must_match_geometry(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("S2a")
    touching = set(region_of(data, 2)["adjacent"])
    far = next(r["id"] for r in data["regions"] if r["id"] != 2 and r["id"] not in touching)
    region_of(data, 2)["adjacent"].append(far)
    region_of(data, far)["adjacent"].append(2)
    problems = [p for p in validate_side(write_side(data)) if p.rule == "adjacency-geometry"]
    assert problems and f"region {far}" in problems[0].message


def test_disconnected_land(side_data: DataFn, write_side: WriteFn) -> None:
    data = strip_geometry(side_data("M2a"))
    for r in data["regions"]:
        r["adjacent"] = [a for a in r["adjacent"] if a != 3] if r["id"] != 3 else []
    problems = validate_side(write_side(data), require_geometry=False)
    assert [p.rule for p in problems] == ["land-connected"]
    assert "[3]" in problems[0].message


def test_two_size_regions(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("L2a")
    region_of(data, 4)["features"].append("Size")
    problems = validate_side(write_side(data))
    assert rules(problems) == {"size-icon"}


def test_too_few_entries(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("S2b")
    for r in data["regions"]:
        r["features"] = [f for f in r["features"] if f != "Entry"]
    region_of(data, 3)["features"].append("Entry")
    problems = validate_side(write_side(data))
    assert rules(problems) == {"entries"}
    assert "has 1" in problems[0].message


def test_entry_must_be_on_the_coast(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("S1a")
    region_of(data, 1)["features"].append("Entry")  # region 1 is the landlocked centre
    problems = validate_side(write_side(data))
    assert [(p.rule, p.region) for p in problems] == [("entry-coast", 1)]


def test_wrong_region_count(side_data: DataFn, write_side: WriteFn) -> None:
    data = strip_geometry(side_data("S1b"))
    gone = max(r["id"] for r in data["regions"])
    data["regions"] = [r for r in data["regions"] if r["id"] != gone]
    for r in data["regions"]:
        r["adjacent"] = [a for a in r["adjacent"] if a != gone]
    problems = validate_side(write_side(data), require_geometry=False)
    assert "region-count" in rules(problems)
    assert "7-8 regions, has 6" in str(problems[0])


def test_features_on_water_and_two_waters(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("L1a")
    sea = next(r for r in data["regions"] if r["terrain"] == "Sea")
    sea["features"] = ["Magic"]
    region_of(data, 2)["terrain"] = "Lake"
    region_of(data, 2)["features"] = []
    assert {"feature-on-water", "water-count"} <= rules(validate_side(write_side(data)))


def test_missing_polygons_reported_for_shipped_checks(side_data: DataFn, write_side: WriteFn) -> None:
    side = write_side(strip_geometry(side_data("M1b")))
    assert rules(validate_side(side)) == {"polygon-missing"}
    assert validate_side(side, require_geometry=False) == []


def test_too_many_murlocs_across_the_set(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("L1a")
    plain = next(r for r in data["regions"] if r["terrain"] != "Sea" and "Murloc" not in r["features"])
    plain["features"].append("Murloc")
    sides = [write_side(data) if s.id == "L1a" else s for s in all_sides()]
    problems = validate_set(sides)
    murloc = [p for p in problems if p.rule == "set-murlocs"]
    assert murloc and "16 Murloc" in murloc[0].message and "5-player" in murloc[0].message


def test_too_many_mountains_across_the_set(side_data: DataFn, write_side: WriteFn) -> None:
    data = side_data("S2a")
    region_of(data, 2)["terrain"] = "Mountain"
    sides = [write_side(data) if s.id == "S2a" else s for s in all_sides()]
    assert "set-mountains" in rules(validate_set(sides))


def test_set_shape(side_data: DataFn) -> None:
    sides = [s for s in all_sides() if s.id != "M2b"]
    found = rules(validate_set(sides))
    assert {"set-sizes", "set-boards"} <= found


def test_bad_terrain_names_the_field(side_data: DataFn, write_side: WriteFn) -> None:
    """Board data takes any terrain name (each edition has its own); the island validator knows the
    Warcraft terrains and names the side, region and field of one it does not know."""
    data = side_data("M1a")
    region_of(data, 5)["terrain"] = "Desert"
    problems = [p for p in validate_side(write_side(data)) if p.rule == "terrain"]
    assert [(p.side, p.region) for p in problems] == [("M1a", 5)]
    assert "'Desert'" in problems[0].message
    region_of(data, 5)["terrain"] = "Fields; DROP"
    with pytest.raises(BoardFormatError) as err:
        write_side(data)
    assert err.value.side == "M1a" and err.value.region == 5 and "terrain" in str(err.value)


def test_for_game_accepts_inline_boards_without_polygons() -> None:
    side = BoardSide(
        id="T1",
        size="S",
        name="Test",
        regions=(
            Region(1, "a", "Fields", frozenset({"Entry"}), (2,)),
            Region(2, "b", "Sea", frozenset(), (1,)),
        ),
    )
    assert validate_sides_for_game([side]) == []
    broken = BoardSide(
        id="T1",
        size="S",
        name="Test",
        regions=(Region(1, "a", "Lava", frozenset(), (2,)), Region(2, "b", "Sea", frozenset(), ())),
    )
    found = rules(validate_sides_for_game([side, broken]))
    assert found == {"set-unique", "terrain", "adjacency-symmetric"}
