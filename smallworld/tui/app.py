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

from smallworld.bots import BOT_NAMES, Bot, make_bot, public_game
from smallworld.engine import Game, conquest, view_for
from smallworld.engine import record as records
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, FINAL, PICK, Action
from smallworld.engine.errors import SmallworldError
from smallworld.engine.files import load_options_file
from smallworld.engine.settings import make_settings
from smallworld.engine.state import State
from smallworld.tui import screen
from smallworld.tui.events import PROMPT_WHY, event_text, prompt_text
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
A turn: pick a race and power from the row (the first time, or after a decline), or choose to
expand or go into decline; then conquer regions one at a time (a region costs 2 tokens + 1 per
token, mountain, fort... in it), try a final attempt with the reinforcement die when a few tokens
short, end conquests, redeploy the tokens in hand, and score 1 coin per region you hold plus
bonuses. Races and powers may ask you something (a form, bombs, where a piece goes): the prompt
says why, with its rule section. The player with most coins after the last round wins.

Type the number of a move, or the move in words:
  pick 2            take the combo at position 2 of the row (costs 2 coins)
  expand | decline  at the start of your turn
  conquer 7         conquer region 7 (or: conquer Ashen Vale; a short unique part of the name works)
  final 7           the final attempt with the reinforcement die
  abandon 7         give up region 7 before your first conquest
  end               end your conquests
  deploy 7 [all|3]  put 1 token (or all in hand, or 3) on region 7
Commands:
  board (b)         show the players, the row and the map again
  moves (m)         list your moves again
  save [FILE]       save the game (resume with --load FILE)
  help (h, ?)       this text
  quit (q)          leave the game"""


@dataclass
class Before:
    """What a move is about to change, captured for the line that reports it."""

    hand: int
    race: str
    own_turn: bool
    cost: int = 0
    holder: str = "empty"
    defender: int | None = None
    defenders: int = 0
    dues: str = ""
    in_decline: bool = False
    human_hand: int = 0
    words: str = ""
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
        bots: str = "random",
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
        self.bot_kind = bots
        # Bots other than `random` see only their seat's view (smallworld.bots), like in `simulate`.
        self.players: dict[int, Bot] = {}
        if bots != "random":
            seen = public_game(st.game)
            for seat in range(len(st.seats)):
                if seat != human:
                    self.players[seat] = make_bot(bots)
                    self.players[seat].start(seen, seat)
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
        # Event sentences name their subject; in the seat's own summary line it goes without saying.
        me = f"Seat {seat}"
        for subject, instead in ((f"{me}: ", ""), (f"{me} ", ""), (f"{me}'s ", "their ")):
            if text.startswith(subject):
                text = instead + text[len(subject) :]
                break
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
            spec = self.st.game.prompt_specs.get((prompt["unit"], prompt.get("prompt", "")))
            rule = f" ({spec.rule})" if spec is not None and spec.rule else ""
            lines.append(self.style.bold(f" ? {prompt_text(self.st, prompt)}{rule}"))
            why = PROMPT_WHY.get(str(prompt.get("unit")))
            if why:
                lines += textwrap.wrap(why, 106, initial_indent="   ", subsequent_indent="   ")
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
                    self.play(self.bot_move())
        except Quit:
            return 0
        self.flush_bots()
        self.finish()
        return 0

    def bot_move(self) -> Action:
        st = self.st
        legal = st.legal_actions()
        bot = self.players.get(st.acting_seat)
        if bot is None:
            return self.bots.choice(legal)
        return bot.choose(view_for(st, st.acting_seat), list(legal), self.bots)

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
            if word in ("moves", "m"):
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
        before = self._before(action)
        st.apply(action)
        self.rec.actions.append(action)
        self._after(seat, action, before)
        for e in st.events:
            self._event(seat, e)
        if action.kind in (CONQUER, FINAL):
            self._loss(seat, action, before)
        if st.is_over() or st.turn_seat != turn_seat or st.round != rnd:
            self.flush_bots()
            if not st.is_over() and st.round != rnd:
                self.say(self.style.dim(f"-- Round {st.round}/{st.game.rounds} --"))

    def _event(self, actor: int, e: dict[str, Any]) -> None:
        """One thing the move set off: said at once when it is the human's, else summarised."""
        text = event_text(self.st, e, self.human)
        if text is None:
            return
        seat = e.get("seat")
        if not isinstance(seat, int) or seat == self.human:
            seat = actor
        if e.get("type") == "score" and e.get("seat") == self.human:
            self.flush_bots()
            text += f" — now {plural(self.st.seats[self.human].coins, 'coin')}"
            self.say(self.style.you(f"  {text}."))
            return
        self.note(seat, text)

    def _before(self, a: Action) -> Before:
        """Facts about the move that the move itself will change (cost, defender, hand, die)."""
        st = self.st
        seat = st.acting_seat
        b = Before(st.seats[seat].hand, race_name(st.seats[seat].active), seat == st.turn_seat)
        if a.kind in (CONQUER, FINAL) and a.region is not None:
            opt = a.arg if isinstance(a.arg, str) else None
            b.cost = conquest.cost(st, conquest.Attack(st, seat), a.region, opt)
            b.holder = holder(st, a.region, self.human)
            b.defender = st.owner_seat(st.race[a.region])
            b.defenders = st.tokens[a.region]
            b.human_hand = st.seats[self.human].hand
            b.in_decline = b.defender is not None and st.seats[b.defender].declined == st.race[a.region]
        elif a.kind not in (PICK, DECLINE, ABANDON, DEPLOY, "end", "expand"):
            b.words = describe(st, a, self.human)
        if a.region is not None and st.race[a.region] is not None:
            dues = conquest.payments(st, seat, a.region)
            if dues:
                b.dues = ", ".join(
                    f"{plural(n, 'coin')} to {seat_name(p, self.human) if p is not None else 'the stash'}"
                    f" ({why.partition(' ')[2] or why})"
                    for p, n, why in dues
                )
        if (combo := pick_combo(st, a)) is not None:
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
            left = f"; {st.seats[seat].hand} left in hand" if you else ""
            pay = f", paying {b.dues}" if b.dues else ""
            self.note(seat, f"{'You conquer' if you else 'conquers'} {name}{frm} with {b.cost}{pay}{left}")
        elif a.kind == FINAL:
            frm = "" if b.holder == "empty" else f" from {b.holder}"
            pay = f", paying {b.dues}" if b.dues else ""
            who = "Your final attempt" if you else "final attempt"
            self.note(seat, f"{who} on {name}{frm}, {b.cost - b.hand} short{pay}")
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
        elif a.kind not in ("end", "expand") and not any(
            e.get("type") not in ("turn", "score") for e in st.events
        ):
            # A move of a race, power or relic: its events tell what happened; said here otherwise.
            self.note(seat, f"You: {b.words}" if you else f"chooses to {b.words}")

    def _loss(self, seat: int, a: Action, b: Before) -> None:
        """Tell the human what a conquest of their region cost them."""
        st = self.st
        r = a.region
        if b.defender != self.human or seat == self.human or r is None:
            return
        if st.owner_seat(st.race[r]) != seat:
            return  # the attempt failed
        if b.in_decline:
            what = f"your {plural(b.defenders, 'in-decline token')} there discarded"
        else:
            back = st.seats[self.human].hand - b.human_hand
            lost = max(b.defenders - back, 0)
            what = f"{back} back to your hand to redeploy, {lost} lost"
            if not back:
                what = f"your {plural(lost, 'token')} lost"
        self.note(seat, f"YOU LOSE {region_label(st, r)} ({what})")

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
        # The seed is told only now: it would let a player rebuild the stacks and markers.
        seed = st.game.settings.seed
        self.say(f" This game was seed {seed}: replay it with --seed {seed}.")


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
    seed = args.seed if getattr(args, "seed", None) is not None else random.SystemRandom().randrange(10**9)
    try:
        overrides = _options_file(args, write)
        settings = make_settings(args.players, seed, getattr(args, "variant", "standard"), overrides)
        st = Game(settings).new_initial_state()
    except SmallworldError as e:
        write(f"smallworld play: {e}")
        return None
    sides = ", ".join(f"{s.name} ({s.id})" for s in st.game.map.sides)
    write(f"New {args.players}-player game (its seed is shown at the end); islands: {sides}.")
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
    bots = getattr(args, "bots", None) or "random"
    if bots not in BOT_NAMES:
        out(f"smallworld play: unknown --bots {bots!r}; known: {', '.join(BOT_NAMES)}")
        return 2
    kind = "random legal moves" if bots == "random" else f"the {bots} bot"
    out(f"You are seat {human}; the other seats are bots playing {kind}. Type 'help' for help.")
    if read is None:
        with contextlib.suppress(ImportError):  # absent on some platforms
            import readline  # noqa: F401  (gives input() line editing and history)
    save_path = getattr(args, "save", None) or Path("smallworld-save.json")
    session = Session(st, rec, human, Path(save_path), read or input, out, screen.Style(color), bots)
    return session.run()
