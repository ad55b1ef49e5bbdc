"""The game loop of `smallworld play`: the human's decisions at the prompt, bots in between."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smallworld.engine import Game, conquest
from smallworld.engine import record as records
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, FINAL, PICK, Action
from smallworld.engine.errors import SmallworldError
from smallworld.engine.options import load_options_file, make_settings
from smallworld.engine.state import State
from smallworld.tui import screen
from smallworld.tui.text import (
    InputError,
    combo_tokens,
    describe,
    holder,
    parse_move,
    pick_combo,
    plural,
    power_name,
    race_name,
    region_label,
    seat_name,
)

Reader = Callable[[str], str]
Writer = Callable[[str], None]

HELP = """\
Type the number of a move, or the move in words:
  pick 2            take the combo at position 2 of the row (costs 2 coins)
  expand | decline  at the start of your turn
  conquer 7         conquer region 7 (or: conquer Ashen Vale; a short unique part of the name works)
  final 7           the final attempt with the reinforcement die
  abandon 7         give up region 7 before your first conquest
  end               end your conquests
  deploy 7 [all|3]  put 1 token (or all in hand, or 3) on region 7
Commands: board (show everything again), moves, save [FILE], help, quit"""


@dataclass
class Before:
    """What a move is about to change, captured for the line that reports it."""

    hand: int
    race: str
    own_turn: bool
    cost: int = 0
    holder: str = "empty"
    paid: int = 0
    die: int = 0
    combo: str = ""
    tokens: int = 0
    coins: int = 0


class Quit(Exception):
    """The player left (quit or end of input)."""


class Session:
    def __init__(
        self,
        st: State,
        rec: records.Record,
        human: int,
        save_path: Path,
        read: Reader,
        write: Writer,
        style: screen.Style,
    ) -> None:
        self.st = st
        self.rec = rec
        self.human = human
        self.save_path = save_path
        self.read = read
        self.write = write
        self.style = style
        # Seeded from the game and its length so a replayed session makes the same bot moves.
        self.bots = random.Random(f"bots:{rec.settings.seed}:{len(rec.actions)}")
        self.shown: tuple[object, ...] | None = None
        self.bot_notes: dict[int, list[str]] = {}
        # Bots place tokens one at a time; counted here so a turn reads "redeploys 6 tokens".
        self.bot_deployed: dict[int, tuple[str, int]] = {}

    # --- output -----------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        for line in lines:
            self.write(line)

    def flush_bots(self) -> None:
        for seat in list(self.bot_deployed):
            self._fold(seat)
        for seat, notes in self.bot_notes.items():
            if not notes:
                continue
            s = self.st.seats[seat]
            race = s.active or s.declined
            who = f"Seat {seat}" + (f" ({race_name(race)})" if race else "")
            text = f"{who}: " + "; ".join(notes) + "."
            self.say(*textwrap.wrap(text, 106, initial_indent="  ", subsequent_indent="      "))
        self.bot_notes.clear()

    def _fold(self, seat: int) -> None:
        verb, n = self.bot_deployed.pop(seat, ("", 0))
        if n:
            noun = "token" if verb == "redeploys" else "withdrawn token"
            self.bot_notes.setdefault(seat, []).append(f"{verb} {plural(n, noun)}")

    def note(self, seat: int, text: str) -> None:
        if seat == self.human:
            self.say(f"  {text}")
            return
        self._fold(seat)
        self.bot_notes.setdefault(seat, []).append(text)

    def moves(self, legal: list[Action]) -> None:
        hint = screen.scoring_hint(self.st, self.human)
        s = self.st.seats[self.human]
        lines = [""]
        if s.active:
            lines.append(
                self.style.bold(
                    f" You: {race_name(s.active)} + {power_name(s.power)}, {plural(s.hand, 'token')} in hand"
                )
                + (f" · {hint}" if hint else "")
            )
        if self.st.pending:
            # A race or power asks something out of the usual turn order; say what it asks.
            prompt = self.st.pending[0]
            rule = f" ({prompt['rule']})" if prompt.get("rule") else ""
            lines.append(self.style.bold(f" {prompt.get('text', 'A decision is asked of you')}{rule}"))
        lines.append(self.style.bold(" Your moves:"))
        width = len(str(len(legal)))
        lines += [
            f"  {str(i).rjust(width)}) {describe(self.st, a, self.human)}" for i, a in enumerate(legal, 1)
        ]
        self.say(*lines)

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        st = self.st
        if not st.is_over():
            self.say(self.style.dim(f"-- Round {st.round}/{st.game.rounds} --"))
        try:
            while not st.is_over():
                if st.acting_seat == self.human:
                    self.flush_bots()
                    self.human_turn()
                else:
                    self.play(self.bots.choice(st.legal_actions()))
        except Quit:
            return 0
        self.flush_bots()
        self.finish()
        return 0

    def human_turn(self) -> None:
        st = self.st
        key = (st.round, st.turn_seat, st.phase, len(st.pending))
        if key != self.shown:
            self.shown = key
            self.say(*screen.full_screen(st, self.human, self.style))
        legal = st.legal_actions()
        self.moves(legal)
        while True:
            try:
                line = self.read(f"Your move (1-{len(legal)}, or help)> ").strip()
            except EOFError:
                self.say("", "End of input: leaving the game (use 'save' first to keep it).")
                raise Quit from None
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                self.say("Bye. (Games are kept only with 'save'.)")
                raise Quit
            if word in ("help", "h", "?"):
                self.say(HELP)
                continue
            if word in ("board", "b"):
                self.say(*screen.full_screen(st, self.human, self.style))
                self.moves(legal)
                continue
            if word == "moves":
                self.moves(legal)
                continue
            if word == "save":
                self.save(Path(rest.strip()) if rest.strip() else self.save_path)
                continue
            try:
                if line.isdigit():
                    n = int(line)
                    if not 1 <= n <= len(legal):
                        raise InputError(f"not a number in 1..{len(legal)}")
                    actions = [legal[n - 1]]
                else:
                    actions = parse_move(st, line)
                for action in actions:
                    self.play(action)
                return
            except (InputError, SmallworldError) as e:
                # IllegalActionError text already starts with its rule, e.g. "§6.5: ..."
                self.say(self.style.bad(f"  ✗ {e}"))

    def save(self, path: Path) -> None:
        try:
            records.save(path, self.rec, self.st)
        except OSError as e:
            self.say(self.style.bad(f"  ✗ cannot save to {path}: {e}"))
            return
        seat = f" --seat {self.human}" if self.human else ""
        self.say(f"  Saved to {path}. Resume with: smallworld play --load {path}{seat}")

    # --- applying a move and telling what happened ---------------------------------------------
    def play(self, action: Action) -> None:
        """Apply a move (raises IllegalActionError, changing nothing, if it is not legal now)."""
        st = self.st
        seat, turn_seat, rnd = st.acting_seat, st.turn_seat, st.round
        coins_before = st.seats[turn_seat].coins
        before = self._before(action)
        st.apply(action)
        self.rec.actions.append(action)
        self._after(seat, action, before)
        if st.is_over() or st.turn_seat != turn_seat or st.round != rnd:
            # The turn ended and was scored; its breakdown is gone with the old Turn, so the
            # score is what the coins grew by, plus what this move paid to defenders.
            scored = st.seats[turn_seat].coins - coins_before + before.paid
            if turn_seat == self.human:
                self.flush_bots()
                self.say(
                    self.style.you(f"  You score {plural(scored, 'coin')} (now {st.seats[turn_seat].coins}).")
                )
            else:
                self.note(turn_seat, f"scores {scored}")
                self.flush_bots()
            if not st.is_over() and st.round != rnd:
                self.say(self.style.dim(f"-- Round {st.round}/{st.game.rounds} --"))

    def _before(self, a: Action) -> Before:
        """Facts about the move that the move itself will change (cost, defender, hand, die)."""
        st = self.st
        seat = st.acting_seat
        b = Before(st.seats[seat].hand, race_name(st.seats[seat].active), seat == st.turn_seat)
        if a.kind in (CONQUER, FINAL) and a.region is not None:
            opt = a.arg if isinstance(a.arg, str) else None
            b.cost = conquest.cost(st, conquest.Attack(st, seat), a.region, opt)
            b.holder = holder(st, a.region, self.human)
            dues = sum(d[1] for d in conquest.payments(st, seat, a.region))
            b.paid = min(dues, st.seats[seat].coins)
            if a.kind == FINAL:
                # The die is gone with the turn if the turn ends; a clone rolls the same face.
                b.die = st.clone().roll_die()
        elif (combo := pick_combo(st, a)) is not None:
            race, power, coins = combo
            b.combo = f"{race_name(race)} + {power_name(power)}"
            b.tokens = combo_tokens(st, race, power)
            b.coins = coins
        return b

    def _after(self, seat: int, a: Action, b: Before) -> None:
        st = self.st
        you = seat == self.human
        r = a.region
        name = region_label(st, r) if r is not None else ""
        if a.kind == PICK:
            cost = f", paying {plural(int(a.arg or 0), 'coin')}" if a.arg else ""
            got = f", collecting {plural(b.coins, 'coin')}" if b.coins else ""
            self.note(seat, f"{'You pick' if you else 'picks'} {b.combo} ({b.tokens} tokens){cost}{got}")
        elif a.kind == DECLINE:
            self.note(seat, f"{'You put' if you else 'puts'} {b.race} into decline")
        elif a.kind == CONQUER:
            frm = "" if b.holder == "empty" else f" from {b.holder}"
            left = f"; {b.hand - b.cost} left in hand" if you else ""
            self.note(seat, f"{'You conquer' if you else 'conquers'} {name}{frm} with {b.cost}{left}")
        elif a.kind == FINAL:
            ok = r is not None and st.race[r] is not None and st.race[r] == st.seats[seat].active
            outcome = "takes it" if ok else "fails"
            who = "Your final attempt" if you else "final attempt"
            self.note(seat, f"{who} on {name}, {b.cost - b.hand} short: the die shows {b.die}, {outcome}")
        elif a.kind == ABANDON:
            self.note(seat, f"{'You abandon' if you else 'abandons'} {name}")
        elif a.kind == DEPLOY:
            if you:
                n = st.tokens[r] if r is not None else 0
                self.note(seat, f"{name} now holds {n}; {st.seats[seat].hand} left in hand")
            else:
                verb = "redeploys" if b.own_turn else "puts back"
                old_verb, n = self.bot_deployed.get(seat, (verb, 0))
                if old_verb != verb:
                    self._fold(seat)
                    n = 0
                self.bot_deployed[seat] = (verb, n + b.hand - st.seats[seat].hand)
        elif not you and a.kind not in ("end", "expand"):
            self.note(seat, a.kind)

    def finish(self) -> None:
        st = self.st
        self.say("", *screen.full_screen(st, self.human, self.style), "")
        result = st.result or {"scores": [s.coins for s in st.seats], "winners": []}
        scores = result["scores"]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        self.say(self.style.bold(" Final scores:"))
        for i in order:
            mark = " *" if i in result["winners"] else ""
            line = f"  {seat_name(i, self.human):<8} {scores[i]:>3} coins{mark}"
            self.say(self.style.you(line) if i == self.human else line)
        factions = result.get("factions")
        if factions:  # team variant: the faction scores decide (§11.4)
            parts = ", ".join(f"{name} {score}" for name, score in factions.items())
            self.say(f" Faction scores (each the lowest of its players): {parts}")
        winners = [seat_name(i, self.human) for i in result["winners"]]
        if winners == ["You"]:
            self.say(self.style.you(" You win!"))
        elif len(winners) == 1:
            self.say(f" {winners[0]} wins.")
        else:
            self.say(f" Shared victory: {', '.join(winners)}.")


def _options_file(args: argparse.Namespace, write: Writer) -> dict[str, Any] | None:
    path = getattr(args, "options", None)
    if path is None:
        return None
    overrides = load_options_file(path)
    write(f"Options from {path}: {', '.join(sorted(overrides)) or 'nothing'}.")
    return overrides


def _start(args: argparse.Namespace, write: Writer) -> tuple[State, records.Record] | None:
    load: Path | None = getattr(args, "load", None)
    if load is not None:
        try:
            rec, st = records.load(load)
        except SmallworldError as e:
            write(f"smallworld play: cannot load {load}: {e}")
            return None
        write(f"Resumed {load}: {len(rec.actions)} moves replayed.")
        return st, rec
    seed = args.seed if getattr(args, "seed", None) is not None else random.SystemRandom().randrange(10**6)
    settings = make_settings(
        args.players, seed, getattr(args, "variant", "standard"), _options_file(args, write)
    )
    try:
        st = Game(settings).new_initial_state()
    except SmallworldError as e:
        write(f"smallworld play: {e}")
        return None
    sides = ", ".join(f"{s.name} ({s.id})" for s in st.game.map.sides)
    write(f"New {args.players}-player game, seed {seed} (replay it with --seed {seed}); islands: {sides}.")
    return st, records.Record(settings)


def run_play(args: argparse.Namespace, read: Reader | None = None, write: Writer | None = None) -> int:
    """Play one game in the terminal; returns the exit code. `read`/`write` replace
    input()/print() (tests script them)."""
    color = write is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out: Writer = write or (lambda line: print(line, flush=True))
    started = _start(args, out)
    if started is None:
        return 2
    st, rec = started
    human = int(getattr(args, "seat", 0) or 0)
    if not 0 <= human < len(st.seats):
        out(f"smallworld play: --seat must be 0..{len(st.seats) - 1}")
        return 2
    out(f"You are seat {human}; the other seats are bots playing random legal moves. Type 'help' for help.")
    if read is None:
        with contextlib.suppress(ImportError):  # absent on some platforms
            import readline  # noqa: F401  (gives input() line editing and history)
    save_path = getattr(args, "save", None) or Path("smallworld-save.json")
    session = Session(st, rec, human, Path(save_path), read or input, out, screen.Style(color))
    return session.run()
