"""Artifact and Legendary Place markers (§3.2 step 7, §10.1): hidden while face down, public once
revealed, several in one region, and every marker in play in random games.

Position files (tests/scenarios/relics/) check each marker's rule; this module checks what they
cannot: what each seat's view shows, the JSON form, the content listing and long random games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from smallworld import cli, scenario
from smallworld.engine import Game, PositionError, Settings, State, view_for
from smallworld.engine.api.invariants import check_invariants
from smallworld.engine.api.serialize import state_from_json, state_to_json
from smallworld.engine.model.edition import get_edition

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _hidden_ids(st: State) -> set[str]:
    """Ids nobody may see: face-down markers on the boards and the markers left out (§3.2 step 7)."""
    down = {rid for here in st.markers.values() for rid, up in here if not up}
    return down | set(st.spare_markers)


def _check_views(st: State) -> None:
    hidden = _hidden_ids(st)
    for seat in [*range(len(st.seats)), None]:
        v = view_for(st, seat)
        text = json.dumps(v)
        for rid in hidden:
            assert f'"{rid}"' not in text, f"seat {seat} can see the hidden marker {rid}"
        assert v["spare_markers"] == {"count": len(st.spare_markers)}
        for ref, here in v["markers"].items():
            full = st.markers[st.game.map.index(ref)]
            assert len(here) == len(full), "a view must still show where face-down markers lie"
            for m, (rid, up) in zip(here, full, strict=True):
                assert m["face_up"] == up
                assert m["id"] == (rid if up else None)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_face_down_markers_hidden_from_every_seat(players: int) -> None:
    """§3.2 step 7: one face-down marker per board, the rest unused and unseen; the state keeps all."""
    st = Game(Settings(players=players, seed=31 + players)).new_initial_state()
    placed = [rid for here in st.markers.values() for rid, _up in here]
    assert len(placed) == len(st.game.map.sides)
    assert not any(up for here in st.markers.values() for _rid, up in here)
    assert sorted(placed + st.spare_markers) == sorted(get_edition("warcraft").relics)
    full = json.dumps(st.to_json())
    for rid in get_edition("warcraft").relics:
        assert f'"{rid}"' in full, "the full state keeps every marker"
    _check_views(st)


def test_revealed_marker_is_visible_to_all() -> None:
    """§10.1: a marker turned face up stays face up and everyone sees it."""
    data = scenario.load(SCENARIOS / "relics" / "dark_portal" / "revealed_by_conquest.json")
    st = scenario.build(data)
    for seat in (0, 1, None):
        assert view_for(st, seat)["markers"]["T:2"] == [{"id": None, "face_up": False}]
    st.apply(scenario.to_action(st, "conquer T:2"))
    for seat in (0, 1, None):
        assert view_for(st, seat)["markers"]["T:2"] == [{"id": "dark_portal", "face_up": True}]
    _check_views(st)


def test_random_games_never_show_face_down_markers() -> None:
    """Views hide face-down and unused markers at every step of random games (§10.1)."""
    revealed = 0
    for seed in range(3):
        st = Game(Settings(players=3 + seed, seed=seed)).new_initial_state()
        rnd = random.Random(seed)
        while not st.is_over():
            la = st.legal_actions()
            st.apply(la[rnd.randrange(len(la))])
            _check_views(st)
        revealed += sum(up for here in st.markers.values() for _rid, up in here)
    assert revealed, "no marker was revealed: the test saw nothing become public"


@pytest.mark.parametrize("players", [4, 5])
def test_team_games_never_show_face_down_markers(players: int) -> None:
    """The team variant (§11.2: "everything else follows the base setup") hides markers the same way."""
    st = Game(Settings(players=players, seed=40 + players, variant="team")).new_initial_state()
    assert sum(len(here) for here in st.markers.values()) == players  # one per board (§3.1, §3.2 step 7)
    rnd = random.Random(players)
    while not st.is_over():
        la = st.legal_actions()
        st.apply(la[rnd.randrange(len(la))])
        _check_views(st)


def _position(markers: dict[str, Any]) -> dict[str, Any]:
    data = scenario.load(SCENARIOS / "relics" / "ashes_of_alar" / "with_frostmourne.json")
    data["position"]["markers"] = markers
    return data


def test_several_markers_in_one_region_round_trip() -> None:
    """§10.1: an Artifact may join a region that already holds a marker; the JSON form is exact."""
    both = [{"id": "ashes_of_alar", "face_up": True}, {"id": "karazhan", "face_up": False}]
    st = scenario.build(_position({"T:1": both}))
    js = state_to_json(st)
    assert js["markers"]["T:1"] == both
    assert "ashes_of_alar" not in js["spare_markers"] and "karazhan" not in js["spare_markers"]
    again = state_to_json(state_from_json(st.game, json.loads(json.dumps(js))))
    assert again == js
    assert st.marker_region("karazhan") == st.game.map.index("T:1")


def test_rules_do_not_depend_on_the_order_markers_arrived_in() -> None:
    """A state and its JSON copy behave the same: hooks of face-up markers are asked in region order,
    not in the order the markers came to their regions (the JSON form sorts them), and the Aegis is
    placed before the Heart whatever their regions (§6.13 steps 5-6)."""
    data = scenario.load(SCENARIOS / "relics" / "aegis_of_aggramar" / "placed_before_the_heart.json")
    data["position"]["markers"] = {}
    st = scenario.build(data)
    index = st.game.map.index
    for rid, ref in (("heart_of_azeroth", "T:2"), ("aegis_of_aggramar", "T:1"), ("dark_portal", "T:4")):
        st.move_marker(rid, index(ref), face_up=True)  # regions enter the dict as 2, 1, 4
    st.spare_markers = [x for x in st.spare_markers if x not in ("heart_of_azeroth", "aegis_of_aggramar")]
    st.spare_markers.remove("dark_portal")
    copy = state_from_json(st.game, json.loads(json.dumps(state_to_json(st))))
    assert list(st.markers) != list(copy.markers)  # the JSON form lists regions in order
    assert [u.id for u in copy.units(0)] == [u.id for u in st.units(0)]
    for s in (st, copy):
        s.apply(scenario.to_action(s, "end"))
        # The Heart's step waits until the Aegis's prompt is answered (§6.13).
        assert [p["unit"] for p in s.pending] == ["aegis_of_aggramar"]
        s.apply(s.legal_actions()[0])
        assert [p["unit"] for p in s.pending] == ["heart_of_azeroth"]
    assert state_to_json(copy) == state_to_json(st)


def test_single_marker_object_is_accepted() -> None:
    st = scenario.build(_position({"T:2": {"id": "karazhan", "face_up": True}}))
    assert state_to_json(st)["markers"] == {"T:2": [{"id": "karazhan", "face_up": True}]}


def test_a_marker_placed_twice_is_refused() -> None:
    """§10.1: the 12 markers are unique."""
    with pytest.raises(PositionError) as e:
        scenario.build(_position({"T:1": {"id": "karazhan"}, "T:2": {"id": "karazhan"}}))
    assert "markers" in e.value.field


def test_content_lists_artifacts_and_places(capsys: pytest.CaptureFixture[str]) -> None:
    """§10: `smallworld content --json` lists the 5 Artifacts and the 7 Legendary Places, all written."""
    assert cli.main(["content", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["races"]) == 16 and len(data["powers"]) == 20
    artifacts = {e["id"] for e in data["artifacts"]}
    places = {e["id"] for e in data["places"]}
    assert artifacts == {
        "aegis_of_aggramar", "ashes_of_alar", "doomhammer", "frostmourne", "heart_of_azeroth",
    }  # fmt: skip
    assert places == {
        "battleground", "dark_portal", "karazhan", "lights_hope_chapel", "meeting_stone", "spirit_healer",
        "well_of_eternity",
    }  # fmt: skip
    for e in data["artifacts"] + data["places"]:
        assert e["implemented"] and e["kind"] in ("artifact", "place"), e


def _all_face_up(st: State, rnd: random.Random) -> None:
    """Every marker face up on the boards, so that each one acts in a random game."""
    m = st.game.map
    land = [r for r in range(m.n) if not (m.water >> r) & 1]
    for rid in list(st.spare_markers):
        st.move_marker(rid, rnd.choice(land), face_up=True)
    st.spare_markers = []
    for here in st.markers.values():
        for mk in here:
            mk[1] = True


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_every_marker_face_up(seed: int) -> None:
    """All 12 markers act at once in random complete games: the invariants hold after every action
    and the game replays the same from its JSON form (§1.2, §10)."""
    game = Game(Settings(players=2 + seed % 4, seed=seed))
    st = game.new_initial_state()
    rnd = random.Random(seed)
    _all_face_up(st, rnd)
    while not st.is_over():
        la = st.legal_actions()
        # Lean towards content actions, so that the Artifacts' own actions get played.
        special = [a for a in la if a.kind not in ("deploy", "end") or a.arg not in (None, "all")]
        a = rnd.choice(special) if special and rnd.random() < 0.6 else rnd.choice(la)
        st.apply(a)
        check_invariants(st)
        on_board = [rid for here in st.markers.values() for rid, _up in here]
        assert len(on_board) == len(set(on_board)), "a marker is in two places"
    back = state_from_json(game, json.loads(json.dumps(st.to_json())))
    assert state_to_json(back) == state_to_json(st)
