"""Options files: rule options and content values set from a file (§1.4 AMB-01, §8.0, §9.0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smallworld.cli import main
from smallworld.engine import Game, PositionError
from smallworld.engine.api.files import load_options_file
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.options import option_specs
from smallworld.engine.model.settings import make_settings

ROOT = Path(__file__).resolve().parents[1]


def test_every_rule_option_is_documented() -> None:
    doc = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    for edition in ("warcraft", "classic"):
        for spec in option_specs(get_edition(edition)):
            assert f"| `{spec.name}` |" in doc, f"docs/options.md does not document {spec.name}"


def test_the_example_file_changes_the_game() -> None:
    """§9.0: badge values are estimates a user can override; AMB-01 die faces too."""
    overrides = load_options_file(ROOT / "examples" / "options.json")
    game = Game(make_settings(3, 1, "standard", overrides))
    assert game.race_value["tauren"] == 10
    assert game.power_value["sailing"] == 4
    assert game.options.die_faces == (0, 0, 1, 1, 2, 3)
    assert game.options.chapel_protects == "region"
    default = Game(make_settings(3, 1, "standard", None))
    assert default.race_value["tauren"] == 11 and default.options.die_faces == (0, 0, 0, 1, 2, 3)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"options": {"die_faces": "x"}}, "settings.options.die_faces"),
        ({"options": {"no_such": 1}}, "settings.options.no_such"),
        ({"options": {"own_decline_bonus": "yes"}}, "settings.options.own_decline_bonus"),
        ({"values": {"races": {"tauren": {"value": 99}}}}, "settings.values.races.tauren.value"),
        ({"values": {"races": {"elves": {"value": 3}}}}, "settings.values.races.elves"),
        ({"races": ["orcs", "nope"]}, "settings.races"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_files_name_the_field(tmp_path: Path, data: dict, field: str) -> None:
    p = tmp_path / "o.json"
    p.write_text(json.dumps(data))
    with pytest.raises(PositionError) as e:
        load_options_file(p)
    assert e.value.field.startswith(field)


def test_commands_refuse_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "o.json"
    p.write_text('{"options": {"tie_break": "coin toss"}}')
    assert main(["bench", "--games", "1", "--options", str(p)]) == 2
    assert "settings.options.tie_break" in capsys.readouterr().err


def test_content_shows_user_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "--json", "--options", str(ROOT / "examples" / "options.json")]) == 0
    data = json.loads(capsys.readouterr().out)
    tauren = next(r for r in data["races"] if r["id"] == "tauren")
    assert tauren["value"] == 10 and tauren["source"] == "user"


def test_every_rule_option_is_in_the_position_schema() -> None:
    """Position files may set every rule option: the schema must know them all."""
    schema = json.loads((ROOT / "docs" / "position.schema.json").read_text(encoding="utf-8"))

    def option_blocks(o: object) -> list[dict]:
        if isinstance(o, dict):
            props = o.get("properties", {})
            found = [props] if "die_faces" in props and "tie_break" in props else []
            return found + [b for v in o.values() for b in option_blocks(v)]
        if isinstance(o, list):
            return [b for v in o for b in option_blocks(v)]
        return []

    blocks = option_blocks(schema)
    assert blocks
    for props in blocks:
        for edition in ("warcraft", "classic"):
            assert {s.name for s in option_specs(get_edition(edition))} <= set(props)
