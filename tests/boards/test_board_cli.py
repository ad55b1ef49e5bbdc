"""The `boards` subcommand: validate, list and render."""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from smallworld.boards.cli import add_parser, main
from smallworld.boards.loader import SIDES_DIR, side_ids


def test_add_parser_registers_boards() -> None:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["boards", "list", "--json"])
    assert args.command == "boards" and args.json and callable(args.func)


def test_validate_all_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith("OK: 12 side(s)")


def test_validate_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((SIDES_DIR / "S1a.json").read_text(encoding="utf-8"))
    for r in data["regions"]:
        r["features"] = [f for f in r["features"] if f != "Size"]
    path = tmp_path / "S1a.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert "side S1a: [size-icon]" in capsys.readouterr().out


def test_validate_bad_terrain_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((SIDES_DIR / "S1a.json").read_text(encoding="utf-8"))
    data["regions"][2]["terrain"] = "Tundra"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "side S1a, region 3: [terrain] terrain must be one of" in out and "'Tundra'" in out


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == side_ids()
    for r in rows:
        assert {"id", "size", "regions", "water", "murlocs", "mountains", "entries"} <= set(r)
        assert r["size"] in ("S", "M", "L") and r["water"] in (0, 1)
    assert sum(r["water"] for r in rows) == 8


def test_list_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["id", "size", "regions"] and len(lines) == 13


def test_render_side_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = tmp_path / "one.svg"
    assert main(["render", "L1a", "-o", str(one)]) == 0
    root = ET.parse(one).getroot()
    assert root.tag.endswith("svg")
    assert "Emberwatch Isle" in one.read_text(encoding="utf-8")
    table = tmp_path / "table.svg"
    assert main(["render", "--players", "5", "--seed", "3", "-o", str(table)]) == 0
    ET.parse(table)
    drawn = capsys.readouterr().out.splitlines()[-2].split(": ")[1].split()
    assert len(drawn) == 5
    text = table.read_text(encoding="utf-8")
    assert all(f'data-side="{i}"' in text for i in drawn)


def test_render_needs_side_or_players(tmp_path: Path) -> None:
    assert main(["render", "-o", str(tmp_path / "x.svg")]) == 2
    assert main(["render", "Z9z", "-o", str(tmp_path / "x.svg")]) == 2
