"""A hard boundary: every input of the engine and the command line — files, settings, positions,
actions of any Python type — is checked where it comes in and refused with the engine's own error
naming the field, before anything changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from smallworld import scenario
from smallworld.cli import main
from smallworld.engine import Action, Game, PositionError, Settings, SmallworldError
from smallworld.engine.api.files import load_options_file
from smallworld.engine.api.record import Record, load, save
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.errors import GameOverError, MalformedActionError, NotYourTurnError

HERE = Path(__file__).parent
POSITION = HERE / "scenarios" / "core" / "final" / "vector8_roll_3_succeeds.json"


def _snapshot(st: Any) -> str:
    return json.dumps(st.to_json(), sort_keys=True)


# --- files ----------------------------------------------------------------------------------------
def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (_nested(5000), "nested"),
        ('{"players": ' + "9" * 5000 + "}", "JSON"),
        (b'{"players": 2, "seed": 1, "x": "\xff"}', "UTF-8"),
        ("{not json", "JSON"),
    ],
)
def test_bad_bytes_in_any_file_name_the_file(tmp_path: Path, text: str | bytes, words: str) -> None:
    """Issue 11 item 1 too: a save, a position file, an options file or a board side that is not
    JSON the engine can read ends in one error naming the file, never a traceback."""
    path = tmp_path / "f.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    for read in (load, scenario.load, load_options_file):
        with pytest.raises(PositionError) as e:
            read(path)  # type: ignore[operator]
        assert words in str(e.value), (read, e.value)
    from smallworld.boards.errors import BoardFormatError
    from smallworld.boards.loader import load_file

    with pytest.raises(BoardFormatError):
        load_file(path)


def test_the_commands_refuse_a_bad_file_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(_nested(3000).encode())
    assert main(["scenario", "run", str(path)]) == 2
    assert main(["bench", "--games", "1", "--options", str(path)]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err


# --- settings ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"players": 3, "races": ["orcs", "orcs", "naga"]}, "settings.races"),
        ({"players": 3, "races": ["orcs", "naga"]}, "settings.races"),
        ({"players": 2, "powers": ["mining"]}, "settings.powers"),
        ({"players": 2, "seed": 2**70}, "settings.seed"),
        ({"players": 2, "seed": True}, "settings.seed"),
        ({"players": 2.0}, "settings.players"),
        (
            {"players": 2, "values": {"races": {"orcs": {"value": 10**4000}}}},
            "settings.values.races.orcs.value",
        ),
        ({"players": 2, "values": {"races": []}}, "settings.values.races"),
        ({"players": 2, "options": {"die_faces": [0, True]}}, "settings.options.die_faces"),
        (
            {
                "players": 2,
                "boards": [
                    {"id": "X", "size": "S", "regions": [{"id": 1, "terrain": "Fields", "adjacent": [9]}]}
                ],
            },
            "settings.boards[0]",
        ),
    ],
)
def test_settings_are_refused_naming_the_field(settings: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError) as e:
        Game(Settings.from_json(settings))
    assert e.value.field.startswith(field), e.value


# --- positions -------------------------------------------------------------------------------------
# A tie-break as the engine writes it in a result (§7): a position may carry a finished game's.
_TIE: dict[str, Any] = {
    "rule": "§7",
    "by": "race_tokens",
    "tied": [{"seat": 0, "value": 3}, {"seat": 1, "value": 2}],
    "shared": False,
}


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"tray": {"orcs": "many"}}, "position.tray.orcs"),
        ({"tray": {"nobody": 1}}, "position.tray.nobody"),
        ({"supply": {"fort": -1}}, "position.supply.fort"),
        ({"supply": []}, "position.supply"),
        (
            {"regions": {"T:3": {"race": "orcs", "tokens": 1, "pieces": {"fort": "x"}}}},
            "position.regions.T:3.pieces.fort",
        ),
        ({"regions": {"T:99": {"race": "orcs"}}}, "position.regions.T:99"),
        ({"row": [{"race": "orcs", "power": "mining", "coins": -2}]}, "position.row[0].coins"),
        ({"row": "orcs"}, "position.row"),
        ({"turn": {"conquests": "1"}}, "position.turn.conquests"),
        ({"turn": {"data": {"nobody": {}}}}, "position.turn.data.nobody"),
        ({"turn": {"data": {"worgen": {"form": "bear"}}}}, "position.turn.data.worgen.form"),
        ({"events": [{"type": "no_such_event"}]}, "position.events[0].type"),
        ({"events": "die"}, "position.events"),
        ({"pending": [{"unit": "worgen", "prompt": "nope", "seat": 0}]}, "position.pending[0]"),
        (
            {"pending": [{"unit": "forsaken", "prompt": "buy", "seat": 0, "most": "lots"}]},
            "position.pending[0].most",
        ),
        ({"round": 99}, "position.round"),
        ({"ply": -1}, "position.ply"),
        ({"seats": [{"coins": 1.5}, {}]}, "position.seats[0].coins"),
        (
            {"seats": [{"ext": {"goblins": {"stack": ["boom"]}}}, {}]},
            "position.seats[0].ext.goblins.stack[0]",
        ),
        ({"rng": "zz"}, "position.rng"),
        ({"markers": {"T:1": [{"id": "frostmourne", "face_up": "yes"}]}}, "position.markers.T:1[0].face_up"),
        ({"result": {"scores": [8, 8], "winners": [0], "tie_break": []}}, "position.result.tie_break"),
        (
            {"result": {"scores": [8, 8], "winners": [0], "tie_break": {**_TIE, "tied": [{"seat": 0}]}}},
            "position.result.tie_break.tied",
        ),
        (
            {
                "result": {
                    "scores": [8, 8],
                    "winners": [0],
                    "tie_break": {**_TIE, "tied": [{"seat": 2}, {"seat": 0}]},
                }
            },
            "position.result.tie_break.tied[0].seat",
        ),
        (
            {"result": {"scores": [8, 8], "winners": [0], "tie_break": {**_TIE, "shared": "no"}}},
            "position.result.tie_break.shared",
        ),
    ],
)
def test_positions_are_refused_naming_the_field(patch: dict[str, Any], field: str) -> None:
    data = scenario.load(POSITION)
    data["position"] = {**data["position"], **patch}
    with pytest.raises(PositionError) as e:
        scenario.build(data)
    assert e.value.field.startswith(field), e.value


def test_a_position_that_breaks_an_invariant_needs_to_say_it_is_a_fragment() -> None:
    data = scenario.load(POSITION)
    data["position"]["supply"] = {"fort": 3}  # seven Forts nowhere: the box would not add up
    with pytest.raises(PositionError, match="invariant"):
        scenario.build(data)
    data["fragment"] = True
    assert scenario.build(data).supply["fort"] == 3


# --- actions ----------------------------------------------------------------------------------------
def _first_pick() -> Any:
    return Game(Settings(players=2, seed=1)).new_initial_state()


@pytest.mark.parametrize(
    "bad",
    [
        Action("pick", None, 0.0),
        Action("pick", None, True),
        Action("pick", None, "0"),
        Action("pick", 0, 0),
        Action("conquer", -1),
        Action("conquer", 10**30),
        Action("conquer", 1.0),
        Action("conquer", "L9z:1"),
        Action(7),  # type: ignore[arg-type]
        ["pick"],
        {"kind": "pick", "arg": 0, "extra": 1},
        "pick 0",
        None,
        Action("no_such_kind"),
    ],
)
def test_malformed_actions_change_nothing(bad: Any) -> None:
    st = _first_pick()
    before = _snapshot(st)
    with pytest.raises(SmallworldError) as e:
        st.apply(bad)
    assert e.value.code in ("malformed_action", "illegal_action"), e.value
    assert _snapshot(st) == before


def test_numpy_integers_are_integers() -> None:
    """An RL agent's numpy index or count is read as the integer it is; the state keeps plain ints."""
    st = _first_pick()
    st.apply(Action("pick", None, np.int64(0)))
    assert json.loads(json.dumps(st.to_json()))["ply"] == 1


def test_a_prompt_answered_outside_the_map_is_refused() -> None:
    """A negative region would wrap around a Python list: it is refused before it reaches one."""
    data = scenario.load(HERE / "scenarios" / "relics" / "well_of_eternity" / "several_waters_prompt.json")
    st = scenario.build(data)
    st.apply(scenario.to_action(st, data["actions"][0]))
    assert st.pending and st.pending[0]["prompt"] == "move"
    before = _snapshot(st)
    for region in (-1, st.game.map.n, "nowhere"):
        with pytest.raises(MalformedActionError):
            st.apply(["well", region])
    assert _snapshot(st) == before


def test_seats_and_the_end_of_the_game() -> None:
    st = _first_pick()
    with pytest.raises(NotYourTurnError) as e:
        st.apply(Action("pick", None, 0), seat=1 - st.acting_seat)
    assert e.value.code == "not_your_turn"
    st.apply(Action("pick", None, 0), seat=st.acting_seat)
    end = state_from_json(
        st.game,
        {**st.to_json(), "phase": "over", "acting_seat": -1, "result": {"scores": [5, 5], "winners": [0, 1]}},
    )
    with pytest.raises(GameOverError) as over:
        end.apply(Action("end"))
    assert over.value.code == "game_over" and over.value.rule == "§7"


def test_a_corrupt_save_is_refused_naming_the_action(tmp_path: Path) -> None:
    st = _first_pick()
    log = [st.legal_actions()[0]]
    st.apply(log[0])
    rec = Record(Settings(players=2, seed=1), log)
    path = tmp_path / "s.json"
    save(path, rec, st)
    data = json.loads(path.read_text())
    data["actions"][0]["arg"] = 1.5
    path.write_text(json.dumps(data))
    with pytest.raises(PositionError, match=r"actions\[0\]"):
        load(path)


def test_a_finished_games_tie_break_survives_a_round_trip() -> None:
    """§7: the result's tie-break figures are part of the saved position and load back unchanged."""
    out = scenario.run(scenario.load(HERE / "scenarios" / "core" / "flow" / "tie_break_race_tokens.json"))
    st = out.state
    assert st.result is not None and st.result["tie_break"] == _TIE
    again = state_from_json(st.game, st.to_json())
    assert again.result == st.result and again.to_json() == st.to_json()
