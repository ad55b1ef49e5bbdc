"""Every `smallworld` command the README lists runs in each edition without a traceback (issue 26:
`smallworld content --edition classic` ended in a TypeError), with small arguments so it is quick.
The server commands (`serve`, `bench server`) are left to tests/server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smallworld.cli import main

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ("warcraft", "classic", "classic_core")


def readme_commands() -> set[str]:
    """The subcommands the README's table of commands names (`smallworld play`, ...)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return {m.group(1) for m in re.finditer(r"^\| `smallworld (\w+)", text, re.M)}


RUNS = {
    "play": ["play", "--players", "3", "--seed", "4"],
    "bench": ["bench", "--players", "2", "--games", "1"],
    "simulate": ["simulate", "--players", "2", "--games", "1", "--bots", "greedy,random", "--no-progress"],
    "content": ["content"],
    "ladder": ["ladder", "--bots", "random,greedy", "--games", "1", "--out", "{tmp}/l", "--no-progress"],
    "schema": ["schema", "--out", "{tmp}"],
    "boards": ["boards", "render", "--players", "3", "-o", "{tmp}/table.svg"],
}
SKIPPED = {"serve", "scenario"}  # a server; a position file of one edition (tests/test_scenarios.py)


def test_the_readme_lists_the_commands_this_test_runs() -> None:
    assert readme_commands() == set(RUNS) | SKIPPED


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("command", sorted(RUNS))
def test_every_readme_command_runs_in_each_edition(
    command: str,
    edition: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def no_input(_prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_input)
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in RUNS[command]]
    assert main([*argv, "--edition", edition]) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    if command == "content":
        assert "Races" in out.out
    if command == "play":
        assert "End of input" in out.out
