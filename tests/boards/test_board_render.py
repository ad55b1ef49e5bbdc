"""Rendering and the generator: well-formed SVG, and the shipped JSON is what the generator makes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from smallworld.boards import geometry
from smallworld.boards.loader import SIDES_DIR, load_side, side_ids
from smallworld.boards.render import render_side, render_table
from smallworld.boards.tools.generate import SPECS, SideSpec, build, dump

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("side_id", side_ids())
def test_side_svg(side_id: str) -> None:
    side = load_side(side_id)
    root = ET.fromstring(render_side(side))
    polys = [p for p in root.iter(f"{SVG}polygon") if p.find(f"{SVG}title") is not None]
    assert len(polys) == len(side.regions)
    text = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert side.name in text


def test_table_svg_has_every_side() -> None:
    ids = ["L1a", "M2b", "S2a"]
    root = ET.fromstring(render_table([load_side(i) for i in ids]))
    assert [g.get("data-side") for g in root.iter(f"{SVG}g") if g.get("data-side")] == ids


def test_render_table_needs_sides() -> None:
    with pytest.raises(ValueError):
        render_table([])


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_generator_reproduces_shipped_json(spec: SideSpec) -> None:
    side = build(spec)
    assert dump(side) == (SIDES_DIR / f"{side.id}.json").read_text(encoding="utf-8")


def test_label_points_are_inside() -> None:
    for side_id in side_ids():
        for r in load_side(side_id).regions:
            pt, room = geometry.interior_point(r.polygon)
            assert geometry.point_in_polygon(pt, r.polygon) and room > 2


def test_shared_length_and_crossing() -> None:
    assert geometry.shared_length(((0, 0), (4, 0)), ((2, 0), (6, 0))) == pytest.approx(2)
    assert geometry.shared_length(((0, 0), (4, 0)), ((4, 0), (6, 0))) == 0
    assert geometry.segments_cross(((0, 0), (2, 2)), ((0, 2), (2, 0)))
    assert not geometry.segments_cross(((0, 0), (2, 0)), ((2, 0), (2, 2)))
