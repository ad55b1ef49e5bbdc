"""`smallworld boards render --load`: a saved game drawn as its edition draws it, with what each
region holds (issue 26): the holder's seat by colour and its tokens, a race in decline as a dashed
ring, the pieces (Champion, Encampments, Heroes...) and the markers (face down: "?"), and labels
that stay inside their regions."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from smallworld.boards import geometry
from smallworld.boards.cli import main
from smallworld.boards.render import _label_font, _wrap
from smallworld.engine import Game, view_for
from smallworld.engine.api import record as records
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.settings import make_settings

SVG = "{http://www.w3.org/2000/svg}"


def saved(tmp_path: Path, edition: str, players: int, seed: int) -> tuple[Path, dict]:
    """A game of random moves saved once a race is in decline and pieces stand on the board."""
    settings = make_settings(players, seed, "standard", {}, edition)
    st = Game(settings).new_initial_state()
    rec = records.Record(settings)
    rng = random.Random(seed)
    while not st.is_over():
        a = rng.choice(st.legal_actions())
        st.apply(a)
        rec.actions.append(a)
        view = view_for(st, None)
        pieces = any(r.get("pieces") for r in view["regions"].values())
        if pieces and any(s["declined"] for s in view["seats"]) and st.acting_seat == st.turn_seat:
            break
    path = tmp_path / f"{edition}.json"
    records.save(path, rec, st)
    return path, view


def drawn(path: Path, tmp_path: Path, lang: str = "en") -> tuple[str, ET.Element]:
    out = tmp_path / "game.svg"
    assert main(["render", "--load", str(path), "-o", str(out), "--lang", lang]) == 0
    text = out.read_text(encoding="utf-8")
    return text, ET.fromstring(text)


@pytest.mark.parametrize(("edition", "players", "seed"), [("warcraft", 3, 4), ("classic", 3, 2)])
def test_a_saved_game_is_drawn_with_its_editions_legend_holders_decline_and_pieces(
    tmp_path: Path, edition: str, players: int, seed: int
) -> None:
    path, view = saved(tmp_path, edition, players, seed)
    text, root = drawn(path, tmp_path)
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    if edition == "classic":
        assert "Farmland" in words and "Lost Tribe start" in words and "Lost Tribes" in words
        assert "Murloc" not in words and "Entry (anchor)" not in words and "Size icon" not in words
    else:
        assert "Murloc start" in words and "Entry (anchor)" in words and "Farmland" not in words
    # Every seat's races in the key; a race in decline as a dashed ring, here and in the key.
    for i, seat in enumerate(view["seats"]):
        if seat["declined"]:
            assert f"Seat {i}: " in words and "(in decline)" in words
    assert "stroke-dasharray" in text
    # Each region's tooltip says who holds it and what stands there.
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert any(re.search(r"\(in decline\), \d+ tokens?$", t) for t in titles)
    kinds = {k for r in view["regions"].values() for k in (r.get("pieces") or {})}
    assert kinds
    ed = get_edition(edition)
    owners = {p.id: uid for uid, unit in ed.units.items() for p in unit.pieces}
    assert any(k in owners for k in kinds)
    # Face-down markers stay "?" (public facts only).
    if any(not mk["face_up"] for marks in view["markers"].values() for mk in marks):
        assert "face-down marker" in words


def test_a_save_of_the_previous_format_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": "smallworld-save/1", "settings": {"players": 3}, "actions": []}))
    assert main(["render", "--load", str(old), "-o", str(tmp_path / "x.svg")]) == 2
    assert "previous save format" in capsys.readouterr().err


@pytest.mark.parametrize("edition", ["warcraft", "classic"])
def test_labels_stay_inside_their_regions(edition: str) -> None:
    """No region's label is wider than the region where it stands (neighbouring labels ran into each
    other), unless it is at the smallest size a label takes."""
    boards = get_edition(edition).boards
    for side_id in boards.ids():
        side = boards.side(side_id)
        for r in side.regions:
            (cx, cy), room = geometry.interior_point(r.polygon)
            for lines in (_wrap(r.name), [f"{r.id} · {_wrap(r.name)[0]}", *_wrap(r.name)[1:]]):
                font = _label_font(r, lines, cx, cy, room)
                wide = 0.56 * font * max(len(line) for line in lines)
                assert font == 1.3 or wide <= geometry.span_at(r.polygon, cx, cy) + 0.01, (side_id, r.name)


@pytest.mark.parametrize(("edition", "players", "seed"), [("warcraft", 3, 4), ("classic", 3, 2)])
def test_a_saved_game_is_drawn_in_the_readers_language(
    tmp_path: Path, edition: str, players: int, seed: int
) -> None:
    """The legend, the titles, the key and the tooltips in German: the edition's words for terrains
    and features, the renderer's own from words/boards.json; no English word of the English drawing
    is left."""
    path, _view = saved(tmp_path, edition, players, seed)
    _text, root = drawn(path, tmp_path, "de")
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    words += " ".join(t.text or "" for t in root.iter(f"{SVG}tspan"))
    titles = " ".join(t.text or "" for t in root.iter(f"{SVG}title"))
    assert "Wald" in words and "Hügel" in words and "Größe" in words
    if edition == "classic":
        assert "Ackerland" in words and "Verlorener Stamm (Start)" in words and "Randregion" in words
    else:
        assert "Felder" in words and "Zugang (Anker)" in words and "Größensymbol (S/M/L)" in words
    assert "(untergegangen)" in words and "(untergegangen), " in titles
    # Region names are the boards' proper names, in every language; terrains are words.
    english_words = ("(Forest)", "(Hill)", "size ", "Entry", "anchor", "start", "in decline", "token")
    for english in english_words:
        assert english not in words and english not in titles, english
    assert "face-down" not in words + titles
