"""Issue 11: the terminal game as a new user meets it. Each test drives `smallworld play` (or the
command line around it) through its input and reads its output."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from test_tui import Script, joined, play_args, run

from smallworld.cli import main
from smallworld.engine.api import record as records
from smallworld.engine.model.state import State

BAD_BYTE = b'{"format": "smallworld-save/2", "x": "\xff"}'


# --- 1. unreadable files --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--load", "{file}"],
        ["scenario", "run", "{file}"],
        ["play", "--options", "{file}", "--seed", "1"],
        ["bench", "--options", "{file}", "--games", "1"],
    ],
)
def test_a_file_that_is_not_utf8_gives_one_line_and_exit_code_2(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD_BYTE)
    rc = main([a.replace("{file}", str(bad)) for a in argv])
    got = capsys.readouterr()
    text = got.out + got.err
    assert rc == 2
    assert "Traceback" not in text
    assert "not UTF-8 text: byte 38" in text  # the byte offset of \xff
    if argv[0] != "scenario":  # `scenario run` answers in JSON; the others in one line
        assert len(text.strip().splitlines()) == 1, text


# --- 2. faithful saves ------------------------------------------------------------------------------
def _bot_lines(out: list[str]) -> list[str]:
    """What the game told: bot summaries, the human's own moves and the final scores (not the
    tables, which a resumed game prints once more on its first screen)."""
    return [line for line in out if line.startswith(("  Seat ", "  You ", " Final", " This game"))]


# Seeds and save points where a resumed game went another way before saves kept the bots' generator.
@pytest.mark.parametrize(("bots", "seed", "answers"), [("greedy", 1, 6), ("random", 11, 12)])
def test_a_saved_game_resumes_exactly_as_the_unsaved_one_goes_on(
    tmp_path: Path, bots: str, seed: int, answers: int
) -> None:
    save = tmp_path / "mid.json"
    # The whole game: the human answers 1 a few times, saves, then answers 1 to the end.
    first = Script(["1"] * answers + [f"save {save}"], then="1")
    rc, whole = run(play_args(tmp_path, players=3, seed=seed, bots=bots, seat=1), first)
    assert rc == 0 and " Final scores:" in whole
    at = next(i for i, line in enumerate(whole) if line.startswith("  Saved to"))
    assert f"play --load {save}" in joined(whole[at : at + 4])  # the full command: seats are saved
    meta = json.loads(save.read_text(encoding="utf-8"))["meta"]
    assert meta["human"] == 1 and meta["bots"] == [bots, None, bots]
    assert "bot_rng" in meta and set(meta["bot_memory"]) == ({"0", "2"} if bots == "greedy" else set())

    # Resumed with no --seat or --bots: the save's own, and the same bot choices from there on.
    rc, resumed = run(play_args(tmp_path, load=save, seat=None, bots=None, seed=None), Script([], then="1"))
    assert rc == 0
    head = joined(resumed[:6])
    assert "Turn order: Seat 0, You, Seat 2" in head and ("greedy" in head) == (bots == "greedy")
    told = _bot_lines(resumed)
    assert len(told) > 20 and told == _bot_lines(whole[at + 1 :])
    assert resumed[-4:] == whole[-4:]


def test_the_mcts_bot_thinks_its_time_says_so_once_a_turn_and_a_save_keeps_its_time(tmp_path: Path) -> None:
    save = tmp_path / "mcts.json"
    script = Script(["1"] * 5 + [f"save {save}"], then="1")
    rc, out = run(play_args(tmp_path, seed=4, bots="mcts", think=0.02), script)
    assert rc == 0 and " Final scores:" in out and "You play against the mcts bot." in joined(out[:4])
    thinking = [i for i, line in enumerate(out) if line == "Seat 1 is thinking…"]
    # Before its own turn in each of the 10 rounds at least, and once between two decisions of the human.
    assert len(thinking) >= 10 and all(b - a > 1 for a, b in itertools.pairwise(thinking))
    meta = json.loads(save.read_text(encoding="utf-8"))["meta"]
    assert meta["bots"] == [None, "mcts"] and meta["bot_seconds"] == 0.02

    rc, resumed = run(play_args(tmp_path, load=save, seat=None, bots=None, seed=None), Script([], then="1"))
    assert rc == 0 and " Final scores:" in resumed and "Seat 1 is thinking…" in resumed
    meta["bot_seconds"] = 0
    data = json.loads(save.read_text(encoding="utf-8"))
    save.write_text(json.dumps({**data, "meta": meta}), encoding="utf-8")
    rc, refused = run(play_args(tmp_path, load=save, seat=None, bots=None, seed=None), Script([]))
    assert rc == 2 and "meta.bot_seconds" in refused[-1] and "at most 60" in refused[-1]


def test_the_command_offers_the_bots_the_terminal_game_plays() -> None:
    """`smallworld play --bots` lists its choices without importing the game (for a quick --help):
    the list must stay the game's own."""
    from smallworld import cli
    from smallworld.tui import app

    assert cli.PLAY_BOTS == app.PLAY_BOTS


@pytest.mark.parametrize("think", [0.0, -1.0, 61.0])
def test_think_out_of_range_is_refused_before_the_game(tmp_path: Path, think: float) -> None:
    rc, out = run(play_args(tmp_path, bots="mcts", think=think), Script([]))
    assert rc == 2 and out == [f"smallworld play: --think must be seconds above 0, at most 60, not {think:g}"]


# --- 3. saving: atomic, asks before overwriting, saves/ by default, Ctrl-C, autosave -------------------
def test_save_asks_before_overwriting_and_a_failed_save_leaves_nothing(tmp_path: Path) -> None:
    there = tmp_path / "there.json"
    there.write_text("keep me", encoding="utf-8")
    folder = tmp_path / "folder"
    folder.mkdir()
    lines = [f"save {there}", "n", f"save {there}", "y", f"save {there}", f"save {folder}"]
    rc, out = run(play_args(tmp_path), Script(lines))
    text = joined(out)
    assert rc == 0
    assert "Not saved: " in text  # "n" kept the old file
    assert text.count(f"Saved to {there}") == 2  # after "y", and again without asking
    records.load(there)  # a real save now
    assert "cannot save to" in text and "is a folder" in text  # a folder is not replaced by a file...
    assert not list(tmp_path.glob("*.tmp")) and folder.is_dir()  # ...and nothing is left behind


def test_save_goes_under_saves_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    rc, out = run(play_args(tmp_path, save=None), Script(["save"]))
    assert rc == 0 and any(line.startswith("  Saved to saves/game.json") for line in out)
    records.load(tmp_path / "saves" / "game.json")
    assert (Path(__file__).resolve().parents[1] / ".gitignore").read_text().count("/saves/") == 1


def test_the_game_autosaves_after_each_turn_and_ctrl_c_says_so(tmp_path: Path) -> None:
    class CtrlC(Script):
        def __call__(self, prompt: str) -> str:
            if not self.lines:
                raise KeyboardInterrupt
            return super().__call__(prompt)

    auto = tmp_path / "save.autosave.json"
    rc, out = run(play_args(tmp_path), CtrlC([]))  # at the first question: nothing saved yet
    assert rc == 130 and "was not saved" in joined(out[-3:]) and "first turn" in joined(out[-3:])
    assert not auto.exists()
    rc, out = run(play_args(tmp_path), CtrlC(["1"] * 20))
    tail = joined(out[-4:])
    assert rc == 130 and "was not saved now" in tail and f"play --load {auto}" in tail
    rec, st = records.load(auto)
    assert rec.meta["human"] == 0 and st.turn_seat == 1  # saved at the end of a turn of ours
    rc, resumed = run(play_args(tmp_path, load=auto, seat=None), Script([]))
    assert rc == 0 and f"{len(rec.actions)} moves replayed" in joined(resumed[:3])


# --- 4. --seat ------------------------------------------------------------------------------------
def test_seat_out_of_range_is_refused_before_anything_is_printed(tmp_path: Path) -> None:
    for seat in (3, -1):
        rc, out = run(play_args(tmp_path, players=3, seat=seat), Script([]))
        assert rc == 2 and out == ["smallworld play: --seat must be 0..2"]
    save = tmp_path / "two.json"
    run(play_args(tmp_path), Script([f"save {save}"]))
    rc, out = run(play_args(tmp_path, load=save, seat=2), Script([]))
    assert rc == 2 and out == ["smallworld play: --seat must be 0..1"]


# --- 5. make play ---------------------------------------------------------------------------------
def test_make_tui_installs_only_the_game_and_make_play_the_server() -> None:
    """`make tui` is the terminal game with the package alone; `make play` the web app (issue 13)
    with the server's dependencies and mypyc for its compiled build (issue 30), but no development
    tools; both pass ARGS."""
    import subprocess

    root = Path(__file__).resolve().parents[1]

    def dry(*args: str) -> list[str]:
        cmd = ["make", "-n", "-B", *args]
        out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True)
        return out.stdout.splitlines()

    tui = dry("tui", "ARGS=--players 3 --bots greedy")
    installs = [line for line in tui if "pip install" in line and "-e" in line]
    assert installs == [".venv/bin/python -m pip install --quiet -e ."]  # no extras at all
    assert ".venv/bin/smallworld play --players 3 --bots greedy" in tui
    play = dry("play", "ARGS=--port 8123")
    installs = [line for line in play if "pip install" in line and "-e" in line]
    assert installs == [".venv/bin/python -m pip install --quiet -e '.[server,speed]'"]
    assert ".venv/bin/smallworld serve --open --port 8123" in play
    assert any("-e '.[dev]'" in line for line in dry("test"))
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Playing in the terminal") :]
    for flag in ("--bots", "--seat", "--lang", "--load", ".venv/bin/smallworld", 'ARGS="', "make tui"):
        assert flag in section, flag


# --- 9. combos counted 1..6 -----------------------------------------------------------------------
def test_combos_are_numbered_from_1_and_pick_n_is_menu_entry_n(tmp_path: Path) -> None:
    rc, typed = run(play_args(tmp_path, players=3, seed=5), Script(["pick 3"]), (80, 60))
    rc2, menu = run(play_args(tmp_path, players=3, seed=5), Script(["3"]))
    assert rc == rc2 == 0
    row = [line.split()[0] for line in typed if line.startswith("  ") and " + " in line and ")" not in line]
    assert row[:7] == ["pos", "1", "2", "3", "4", "5", "6"]  # the row as the rulebook counts it
    picked = [line for line in typed if line.startswith("  You pick ")]
    assert picked and picked == [line for line in menu if line.startswith("  You pick ")]
    assert "paying 2 coins" in picked[0]  # position 3 costs 2 (one per combo above)
    rc, out = run(play_args(tmp_path, players=3, seed=5), Script(["pick 0", "pick 7"]))
    assert sum("pick 1..6" in line for line in out) == 2


# --- 12. the conquest step ends by itself when `end` is all that is left ----------------------------
def _state_after(seed: int, moves: int) -> tuple[records.Record, State]:
    import random

    from smallworld.engine import Game, Settings

    game = Game(Settings(players=3, seed=seed))
    st = game.new_initial_state()
    rec = records.Record(game.settings)
    rng = random.Random(seed)
    for _ in range(moves):
        a = rng.choice(st.legal_actions())
        st.apply(a)
        rec.actions.append(a)
    return rec, st


@pytest.mark.parametrize(("seed", "moves", "race"), [(1, 107, "tauren"), (4, 15, "tauren")])
def test_a_conquest_step_with_only_end_left_ends_by_itself(
    tmp_path: Path, seed: int, moves: int, race: str
) -> None:
    from smallworld.tui.app import Session
    from smallworld.tui.screen import Style

    rec, st = _state_after(seed, moves)
    seat = st.acting_seat
    assert st.seats[seat].active == race and [a.kind for a in st.legal_actions()] == ["end"]
    out: list[str] = []
    session = Session(st, rec, seat, tmp_path / "s.json", Script([]), out.append, Style(False))
    assert session.run() == 0
    assert "  No other move: your conquests end." in out
    assert not any(line.strip().startswith("1) end conquests") for line in out)
    assert session.st.phase != "conquer" or session.st.turn_seat != seat


# --- 15. wording ----------------------------------------------------------------------------------
def test_wording_counts_and_names(tmp_path: Path) -> None:
    bad = re.compile(r"\b1 (tokens|moves|coins)\b|\ball 1 tokens\b|\ba [AEIOU]\w+ token|\bSeat 0\b")
    for seed in (0, 3):
        rc, out = run(play_args(tmp_path, players=2, seed=seed, bots="greedy"), Script([], then="1"))
        assert rc == 0 and not [line for line in out if bad.search(line)]
    save = tmp_path / "one.json"
    rec, st = _state_after(3, 1)
    records.save(save, rec, st)
    rc, out = run(play_args(tmp_path, load=save, seat=None), Script([]))
    assert ": 1 move replayed." in joined(out[:3])
    assert "Turn order: Seat 1, Seat 2, You." in joined(out[:5])  # the player is "you", not seat 0
    rc, out = run(play_args(tmp_path), Script(["conquer a"]))
    assert re.search(r"matches several regions: [^✗]*, and \d+ more ", joined(out))  # cut short


# --- 11. messages that misled ----------------------------------------------------------------------
def _human_from(tmp_path: Path, seed: int, moves: int, lines: list[str]) -> list[str]:
    """Random moves up to a position, then the seat to act is the human, answering `lines` then 1."""
    from smallworld.tui.app import Session
    from smallworld.tui.screen import Style

    rec, st = _state_after(seed, moves)
    script = Script(lines, then="1", limit=800)
    Session(st, rec, st.acting_seat, tmp_path / "s.json", script, script.out.append, Style(False)).run()
    return script.out


def test_the_orcs_coin_is_told_at_once_and_counted_in_the_turn_score(tmp_path: Path) -> None:
    out = _human_from(tmp_path, 0, 23, ["conquer 6"])  # the Orcs take an Alliance region (§8.12)
    text = joined(out)
    assert re.search(r"You take 6 [^.]* from the Alliance [^.]*: \+1 coin \(Orcs\)", text)
    assert "end of the turn" not in text
    assert re.search(r"You score \d+ coins \([^)]*\) \(and 1 coin earlier this turn, counted at once\)", text)


def test_the_last_conquest_says_the_tokens_are_to_redeploy_not_left_in_hand(tmp_path: Path) -> None:
    text = joined(_human_from(tmp_path, 0, 24, ["conquer 22"]))
    assert re.search(r"You conquer 22 [^;]* with 5; conquests are over: 6 tokens to redeploy ", text)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_team_game_names_the_winning_faction(tmp_path: Path, seat: int) -> None:
    rc, out = run(play_args(tmp_path, players=4, seed=1, seat=seat, variant="team"), Script([], then="1"))
    assert rc == 0
    text = "\n".join(out[out.index(" Final scores:") :])
    assert "Shared victory" not in text  # one faction won outright (§11.4)
    won = "The Horde wins (Seat 1 and Seat 3)." if seat == 0 else "Your faction, the Horde, wins!"
    assert won in text, text


# --- 14. the greedy bot: default opponent, no undoing swaps, bombs in words --------------------------
def test_greedy_bots_are_the_default_and_never_repeat_a_content_action_in_a_turn(tmp_path: Path) -> None:
    import random

    from smallworld.bots import make_bot, public_game
    from smallworld.engine import Game, Settings, view_for

    rc, out = run(play_args(tmp_path, players=3, bots=None), Script([]))
    assert rc == 0 and "You play against the greedy bot. Turn order: " in joined(out[:6])

    # Seeds where the Portal Mage swapped the same two regions twice in a turn (undoing itself).
    for seed in (0, 9):
        st = Game(Settings(players=3, seed=seed)).new_initial_state()
        seen = public_game(st.game)
        bots = [make_bot("greedy") for _ in st.seats]
        for i, bot in enumerate(bots):
            bot.start(seen, i)
        rng = random.Random(seed)
        taken: dict[tuple[int, int], list[object]] = {}
        swaps = 0
        while not st.is_over():
            seat = st.acting_seat
            a = bots[seat].choose(view_for(st, seat), st.legal_actions(), rng)
            if a.kind == "portal" and not st.pending:
                swaps += 1
                turn = taken.setdefault((st.round, st.turn_seat), [])
                assert a not in turn, (seed, a)
                turn.append(a)
            st.apply(a)
        assert swaps  # the Portal Mage was played


def test_a_goblin_that_places_no_bomb_is_not_said_to_place_no_more() -> None:
    from smallworld.engine import Game, Settings
    from smallworld.engine.model.actions import Action
    from smallworld.words.describe import describe, voice

    st = Game(Settings(players=3, seed=1)).new_initial_state()
    words = describe(st, Action("bomb_done"), voice(st.game, "en", 1))
    assert words == "keep the rest of the bomb stack for a later turn"  # true with 0 or 3 bombs placed


# --- 8. an 80x24 screen ----------------------------------------------------------------------------
def test_every_line_fits_80_columns_and_the_board_is_printed_before_the_first_decision(
    tmp_path: Path,
) -> None:
    for lang in ("en", "de"):
        rc, out = run(play_args(tmp_path, players=3, seed=2, lang=lang, bots="greedy"), Script([], then="1"))
        assert rc == 0
        wide = [line for line in out if len(line) > 80]
        assert not wide, wide
    boards = [i for i, line in enumerate(out) if line.startswith("   #  Region ")]
    assert len(boards) == 1 + 1  # before the first decision, and the final one (`board`: any time)
    # Seed 5: the human places withdrawn tokens in a bot's turn (a long title, on two lines).
    rc, out = run(play_args(tmp_path, players=3, seed=5, bots="greedy"), Script(["3", "3"], then="1"))
    assert rc == 0 and "(you to place them) ==" in joined(out)  # wrapped: it did not fit
    assert not [line for line in out if len(line) > 80]


def test_moves_that_differ_only_by_their_region_share_one_line() -> None:
    from smallworld.tui.text import fold
    from smallworld.words.describe import voice

    _rec, st = _state_after(10, 145)  # a Gnome turn: 76 moves, airborne assaults on every land region
    legal = st.legal_actions()
    entries = fold(st, legal, voice(st.game, "en", st.acting_seat))
    assert len(legal) == 76 and len(entries) == 23
    assert sorted(repr(a) for e in entries for a in e.actions) == sorted(map(repr, legal))  # each once
    airborne = [e for e in entries if e.actions[0].kind == "airborne" and len(e.actions) > 1]
    assert airborne and all(", in one of: " in e.text for e in airborne)


def test_a_folded_move_asks_its_region(tmp_path: Path) -> None:
    """The region of a folded move is asked by its number on the board (or its name): one meaning,
    said on screen, never the place in the list; a command typed there is run as at the move prompt."""
    # Seed 5: after picking combo 3, entry 3 is "conquer a region — costs 3 tokens ..., in one of: 8 ..."
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return answers.pop(0) if answers else "quit"

    answers = ["3", "3", "Eldertree", "2", "", "3", "8", "5", "help", "5", "16"]
    out: list[str] = []
    from smallworld.tui import run_play

    assert run_play(play_args(tmp_path, players=3, seed=5), read, out.append) == 0
    text = joined(out)
    assert "Regions of this move: 8 Stonehorn Hills, 10 Lanternlight Pasture, 16 Brackenmire" in text
    assert asked[2] == "Which region? Its number (or name; Enter: back)> "
    assert "2 Eldertree Glade (Forest) is not one of this move's regions (8, 10, 16, 18, 20, 26, 28)" in text
    assert text.count("is not one of this move's regions") == 2  # "2" is region 2, not the 2nd listed
    assert asked[5].startswith("Your move") and asked[6].startswith("Which region?")  # Enter: back
    assert "You conquer 8 Stonehorn Hills (Hill) with 3; 7 left in hand" in text
    assert asked[8].startswith("Which region?") and "A turn: pick a race and power" in text  # help ran
    assert asked[9].startswith("Your move") and asked[10].startswith("Which region?")
    assert "You conquer 16 Brackenmire (Swamp) with 3; 4 left in hand" in text


# --- 6. the map with neighbours; a saved game drawn -------------------------------------------------
def test_map_and_look_show_each_region_and_its_neighbours(tmp_path: Path) -> None:
    rc, out = run(play_args(tmp_path, players=3, seed=5), Script(["map", "look 8", "map Stonehorn"]))
    assert rc == 0
    assert "  8 Stonehorn Hills (Hill): next to 2, 7, 9" in out  # the board's adjacency (§2.2)
    at = out.index(" 8 Stonehorn Hills (empty Hill) · Entry")
    assert out[at + 1 : at + 5] == [
        "  Next to it:",
        "    2 Eldertree Glade (empty Forest)",
        "    7 Sludgeback Swamp (Murlocs, 1 token)",
        "    9 Cragmaw Heights (Murlocs, 1 token)",
    ]
    assert out.count(" 8 Stonehorn Hills (empty Hill) · Entry") == 2  # look and map NAME alike


def test_boards_render_draws_a_saved_game_numbered_as_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    run(play_args(tmp_path, players=3, seed=5), Script(["3", "conquer 8", f"save {save}"]))
    svg = tmp_path / "game.svg"
    assert main(["boards", "render", "--load", str(save), "-o", str(svg)]) == 0
    drawing = svg.read_text(encoding="utf-8")
    assert ">8 · Stonehorn</text>" in drawing and "You: Blood Elves" not in drawing
    assert "<title>8. Stonehorn Hills (Hill): Seat 0: Blood Elves, 3 tokens</title>" in drawing
    assert ">Seat 0: Blood Elves + Championing</text>" in drawing  # public facts: holder, tokens
    assert "L2b M2a S1a" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD_BYTE)
    assert main(["boards", "render", "--load", str(bad), "-o", str(svg)]) == 2
    assert "not UTF-8 text: byte 38" in capsys.readouterr().err


# --- 7. rules cards on demand, combos with their gist, reveals that say what they do ---------------------
def test_info_shows_a_units_card_and_picks_show_what_each_combo_does(tmp_path: Path) -> None:
    rc, out = run(
        play_args(tmp_path, players=3, seed=5), Script(["info karazhan", "info elves", "info zzz"]), (80, 60)
    )
    text = joined(out)
    assert rc == 0
    assert "Karazhan (§10.3) At the end of your turn, the race holding Karazhan scores" in text
    assert "'elves' names several: Blood Elves, Night Elves" in text
    assert "no race, power, artifact or place is called 'zzz'" in text
    at = out.index("  3) pick Blood Elves + Championing (10 tokens) — costs 2 coins")
    assert out[at + 1].startswith("       Blood Elves: At the end of your turn, the Active Blood Elves")
    assert out[at + 2].startswith("       Championing: The race has a Champion")
    rc, out = run(play_args(tmp_path, players=3, seed=5, lang="de"), Script(["info Karazhan"]))
    assert rc == 0 and "Karazhan (§10.3) Am Ende deines Zuges" in joined(out)


def test_a_marker_revealed_says_what_it_is_and_does(tmp_path: Path) -> None:
    text = joined(_human_from(tmp_path, 0, 8, ["conquer 11"]))
    assert re.search(r"You reveal [\w' ]+ in 11 Ironbough Heartwood — [A-Z][^.;]+ ", text)


# --- 10. everything that changes the board is told -------------------------------------------------------
def test_towers_forts_and_a_race_leaving_the_board_are_told(tmp_path: Path) -> None:
    text = joined(_human_from(tmp_path, 13, 41, ["deploy 19 all"]))  # Defensive (§9.6)
    assert re.search(r"You put a Watch Tower in \d+ ", text)
    text = joined(_human_from(tmp_path, 5, 138, []))  # Seat 1 is Garrisoned (§9.11)
    assert re.search(r"Seat 1 \([^)]*\): [^.]*puts a Fort in \d+ ", text)
    text = joined(_human_from(tmp_path, 0, 43, ["decline"]))  # a second decline (§6.14)
    assert "The Pandaren leave the board: their last tokens are removed" in text


# --- 13. the Champion on the redeploy and abandon lines, and picked up when readying leaves it ----------
def test_redeploy_lines_say_when_a_troop_is_in_the_region(tmp_path: Path) -> None:
    answers = ["3", "3", "8", "conquer 10", "5", "2", "5"]  # the Champion takes 2 Eldertree Glade alone
    out: list[str] = []
    from smallworld.tui import run_play

    def read(_prompt: str) -> str:
        if not answers:
            raise EOFError
        return answers.pop(0)

    assert run_play(play_args(tmp_path, players=3, seed=5), read, out.append) == 0
    text = joined(out)
    assert "1) deploy 1 token to 2 Eldertree Glade (Forest) (then 1 there) — with the Champion there" in text
    assert "3) deploy 1 token to 8 Stonehorn Hills (Hill) (then 2 there) 4)" in text  # no troop there


def test_the_champion_kept_by_readying_is_picked_up_and_conquers_again(tmp_path: Path) -> None:
    """§6.2, §9.5 (AMB-26, AMB-11): Knoll holds 1 Tauren token and the Champion, which readying
    keeps; the move list offers to take the Champion into hand (a token from hand in its place),
    `ready 1` does it, and the Champion then conquers for free, told with what went in."""
    from smallworld import scenario
    from smallworld.tui.app import Session
    from smallworld.tui.screen import Style

    where = Path(__file__).parent / "scenarios/powers/championing/trap_champion_kept_by_readying.json"
    st = scenario.build({**scenario.load(where), "actions": []})
    out: list[str] = []
    script = Script(["expand", "ready 0", "ready 1", "3"])  # 3: the Champion's free conquest of 2 Ridge
    rec = records.Record(st.game.settings)
    Session(st, rec, 0, tmp_path / "s.json", script, out.append, Style(False)).run()
    text = joined(out)
    assert "6) abandon 1 Knoll (Hill) (take back 1 token) — with the Champion there" in text
    assert "7) take the Champion in 1 Knoll (Hill) into hand, 1 token from hand taking its" in text
    assert "✗ Harbor holds no troop to take into hand" in text
    assert "You take the Champion in 1 Knoll into hand; a token from hand takes its place" in text
    assert "You: the Champion conquers 2 Ridge for free" in text
    assert "You conquer 2 Ridge with 1 token of the Tauren and 1 Champion" in text  # not "with 0 ... tokens"
    assert st.race[2] == "tauren" and st.pieces[2] == {"champion": 1} and st.tokens[1] == 2


def test_a_power_move_typed_with_a_region_number_means_the_screen_number(tmp_path: Path) -> None:
    """§9.5: `champion 2` names region 2 as the screen numbers it (2 Ridge), like `conquer 2`, not
    the one-side map's local id 2, which is another region."""
    from smallworld import scenario
    from smallworld.tui.app import Session
    from smallworld.tui.screen import Style

    where = Path(__file__).parent / "scenarios/powers/championing/trap_champion_kept_by_readying.json"
    st = scenario.build({**scenario.load(where), "actions": []})
    assert st.game.map.regions[2].ref != "2" and st.game.map.refs.get("2") not in (None, 2)
    out: list[str] = []
    rec = records.Record(st.game.settings)
    Session(
        st, rec, 0, tmp_path / "s.json", Script(["expand", "ready 1", "champion 2"]), out.append, Style(False)
    ).run()
    assert "You: the Champion conquers 2 Ridge for free" in joined(out)
    assert st.pieces[2] == {"champion": 1}
