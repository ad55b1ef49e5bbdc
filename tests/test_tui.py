"""`smallworld play` driven by scripted input: whole games, bad input, save and resume, EOF."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

from smallworld.engine import Action, Game, Settings
from smallworld.engine import record as records
from smallworld.tui import run_play
from smallworld.tui.app import Session
from smallworld.tui.screen import Style
from smallworld.tui.text import InputError, parse_move


def play_args(tmp_path: Path, **kw: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "players": 2,
        "seed": 3,
        "seat": 0,
        "load": None,
        "save": tmp_path / "save.json",
    }
    base.update(kw)
    return argparse.Namespace(**base)


class Script:
    """Answers prompts from a list, then from `then` (if given) forever, else ends input (EOF)."""

    def __init__(self, lines: Iterable[str], then: str | None = None, limit: int = 5000) -> None:
        self.lines = list(lines)
        self.then = then
        self.limit = limit
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            raise AssertionError("the game asked for too many moves")
        if self.lines:
            return self.lines.pop(0)
        if self.then is None:
            raise EOFError
        return self.then


def run(args: argparse.Namespace, script: Script) -> tuple[int, list[str]]:
    out: list[str] = []
    rc = run_play(args, script, out.append)
    return rc, out


def test_whole_two_player_game_always_answering_1(tmp_path: Path) -> None:
    script = Script([], then="1")
    rc, out = run(play_args(tmp_path), script)
    assert rc == 0
    assert len(script.prompts) > 50  # the human really played every turn
    text = "\n".join(out)
    assert "Game over after 10 rounds" in text
    assert "Final scores:" in text
    tail = out[out.index(" Final scores:") :]
    assert len([line for line in tail if "coins" in line]) == 2
    assert any("win" in line or "Shared victory" in line for line in tail)
    assert "\x1b[" not in text  # no colour when output is not a terminal


def test_first_screen_shows_board_row_and_hidden_coins(tmp_path: Path) -> None:
    rc, out = run(play_args(tmp_path, players=3, seed=7), Script([]))
    assert rc == 0
    text = "\n".join(out)
    assert "Round 1/10" in text
    assert "pos  race + power" in text  # the combo row during picks
    assert "held by" in text and "Murlocs" in text
    assert " ?  " in text  # other players' coins are hidden
    assert "1) pick " in text


def test_bad_input_is_rejected_with_a_reason_and_the_game_goes_on(tmp_path: Path) -> None:
    script = Script(["99", "conquer nowhere", "conquer 0", "frobnicate", "1"])
    rc, out = run(play_args(tmp_path), script)
    assert rc == 0
    text = "\n".join(out)
    assert "not a number in 1..6" in text
    assert "no region 'nowhere'" in text
    assert "✗ §" in text  # a well-formed but illegal move names its rule
    assert "unknown move or command 'frobnicate'" in text
    assert "You pick " in text  # the valid answer afterwards was played
    assert len(script.prompts) >= 6  # asked again after each bad line


def test_moves_in_words(tmp_path: Path) -> None:
    game = Game(Settings(players=2, seed=3))
    st = game.new_initial_state()
    assert parse_move(st, "pick 2") == [Action("pick", None, 2)]
    name = game.map.regions[5].name
    assert parse_move(st, f"conquer {name.lower()}") == [Action("conquer", 5)]
    assert parse_move(st, "deploy 5 all") == [Action("deploy", 5, "all")]
    assert parse_move(st, "end") == [Action("end")]
    for bad in ("conquer nowhere", "pick", "deploy 99", "dance"):
        try:
            parse_move(st, bad)
        except InputError:
            continue
        raise AssertionError(f"{bad!r} should be rejected")


def test_save_then_load_resumes_the_same_position(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    game = Game(Settings(players=2, seed=3))
    rec = records.Record(game.settings)
    script = Script(["1", "1", "1", "save", "2", "1", f"save {tmp_path / 'later.json'}"])
    session = Session(game.new_initial_state(), rec, 0, save, script, lambda _line: None, Style(False))
    assert session.run() == 0
    _, later = records.load(tmp_path / "later.json")
    assert later.to_json() == session.st.to_json()

    _, saved = records.load(save)
    out: list[str] = []
    resumed = Script([f"save {tmp_path / 'again.json'}"])
    assert run_play(play_args(tmp_path, load=save, seed=None), resumed, out.append) == 0
    assert any("Resumed" in line for line in out)
    _, again = records.load(tmp_path / "again.json")
    assert again.to_json() == saved.to_json()


def test_eof_ends_cleanly(tmp_path: Path) -> None:
    rc, out = run(play_args(tmp_path), Script([]))
    assert rc == 0
    assert "End of input" in out[-1]


def test_quit_and_bad_setup(tmp_path: Path) -> None:
    rc, out = run(play_args(tmp_path), Script(["quit"]))
    assert rc == 0 and out[-1].startswith("Bye")
    rc, out = run(play_args(tmp_path, seat=5), Script([]))
    assert rc == 2 and "--seat" in out[-1]
    rc, out = run(play_args(tmp_path, load=tmp_path / "missing.json"), Script([]))
    assert rc == 2 and "cannot load" in out[-1]


def test_every_seat_count_plays_to_the_end(tmp_path: Path) -> None:
    for players in (3, 5):
        rc, out = run(
            play_args(tmp_path, players=players, seed=players, seat=players - 1), Script([], then="1")
        )
        assert rc == 0 and " Final scores:" in out
