"""The game loop of `smallworld play`: the human's decisions at the prompt, bots in between."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import secrets
import shlex
import shutil
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smallworld.bots import BOT_NAMES, Bot, make_bot, public_game
from smallworld.engine import Game, conquest, view_for
from smallworld.engine import record as records
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, END, EXPAND, FINAL, PICK, Action
from smallworld.engine.errors import PositionError, SmallworldError
from smallworld.engine.files import load_options_file
from smallworld.engine.keyed_rng import KEYED, SPLITMIX
from smallworld.engine.settings import make_settings
from smallworld.engine.state import CONQUER as CONQUER_STEP
from smallworld.engine.state import State
from smallworld.tui import screen
from smallworld.tui.events import event_text, prompt_rule, prompt_text, prompt_why, told
from smallworld.tui.text import Entry, InputError, find_region, fold, parse_move
from smallworld.words import DEFAULT, LANGS
from smallworld.words.describe import (
    combo_tokens,
    describe,
    dues_text,
    holder,
    pick_combo,
    region_label,
    said,
    say,
    voice,
)
from smallworld.words.voice import Voice

Reader = Callable[[str], str]
Writer = Callable[[str], None]

REVEAL = "reveal"  # the core event of a marker turned face up (§10.1)
WIDTH = 80  # lines are wrapped to the terminal's width, 80 columns when it is not a terminal


@dataclass
class Before:
    """What a move is about to change, captured for the line that reports it."""

    hand: int
    race: str
    own_turn: bool
    cost: int = 0
    holder: str | None = None
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
        bots: str | list[str | None] = "random",
        lang: str = DEFAULT,
        memory: dict[str, Any] | None = None,
        width: int = WIDTH,
    ) -> None:
        self.st = st
        self.rec = rec
        self.human = human
        self.save_path = save_path
        # Written after every turn of the human, so that Ctrl-C or a crash loses at most one turn.
        self.autosave_path = save_path.with_name(save_path.stem + ".autosave" + (save_path.suffix or ".json"))
        self.autosaved = False
        self.autosave_warned = False
        self.written: set[Path] = set()  # files this session wrote: saving again needs no question
        self.read = read
        self.write = write
        self.style = style
        self.lang = lang
        self.v: Voice = voice(st.game, lang, human)
        # The bots' own generator: seeded from the game for a new one, restored from the save for a
        # loaded one (`memory`), so a resumed game goes on exactly as it would have.
        self.bots = random.Random(f"bots:{rec.settings.seed}:{len(rec.actions)}")
        # The bot kind of every seat (None: the human's).
        n = len(st.seats)
        self.kinds: list[str | None] = list(bots) if isinstance(bots, list) else [bots] * n
        self.kinds[human] = None
        # Bots other than `random` see only their seat's view (smallworld.bots), like in `simulate`.
        self.players: dict[int, Bot] = {}
        seen = public_game(st.game) if any(k not in (None, "random") for k in self.kinds) else None
        for seat, kind in enumerate(self.kinds):
            if kind is not None and kind != "random" and seen is not None:
                self.players[seat] = make_bot(kind)
                self.players[seat].start(seen, seat)
        if memory:
            self.bots.setstate(memory["rng"])
            for seat, bot in self.players.items():
                bot.recall(memory["bots"].get(seat, {}))
        self.shown: tuple[object, ...] | None = None
        self.step: tuple[object, ...] | None = None
        self.entries: list[Entry] = []  # the numbered moves on screen
        self.width = width
        self.earned = 0  # coins the human gained during their turn before its scoring
        self.bot_notes: dict[int, list[str]] = {}
        # Bots place tokens one at a time; counted here so a turn reads "redeploys 6 tokens".
        self.bot_deployed: dict[int, tuple[str, int]] = {}

    def meta(self) -> dict[str, Any]:
        """What a save records besides the moves: who plays which seat and what the bots remember."""
        version, internal, gauss = self.bots.getstate()
        return {
            "human": self.human,
            "bots": list(self.kinds),
            "bot_rng": [version, list(internal), gauss],
            "bot_memory": {str(seat): bot.memory() for seat, bot in self.players.items()},
        }

    def t(self, key: str, **params: Any) -> str:
        return say(self.v, key, **params)

    def you(self, seat: int | None) -> dict[str, Any]:
        """The parameters `seat` and `seat_you` of a sentence about `seat`."""
        return {"seat": self.v.seat(seat), "seat_you": seat == self.human}

    # --- output -----------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        for line in lines:
            self.write(line)

    def tell(self, text: str, indent: str = "", style: Callable[[str], str] | None = None) -> None:
        """A sentence folded to the screen's width (styled line by line)."""
        self.say(*(style(line) if style else line for line in wrap(text, self.width, indent)))

    def flush_bots(self) -> None:
        for seat in list(self.bot_deployed):
            self._fold(seat)
        for seat, notes in self.bot_notes.items():
            if not notes:
                continue
            s = self.st.seats[seat]
            race = s.active or s.declined
            who = (
                self.t("summary.race", seat=self.v.seat(seat), race=self.v.unit(race))
                if race
                else self.v.seat(seat)
            )
            text = self.t("summary", who=who, notes=self.t("summary.sep").join(notes))
            self.say(*textwrap.wrap(text, self.width, initial_indent="  ", subsequent_indent="      "))
        self.bot_notes.clear()

    def _fold(self, seat: int) -> None:
        key, n = self.bot_deployed.pop(seat, ("", 0))
        if n:
            self.note(seat, self.t(key, n=n, **self.you(seat)))

    def note(self, seat: int, text: str) -> None:
        if seat == self.human:
            self.tell(text, "  ")
            return
        self._fold(seat)
        # Sentences name their subject first; in the seat's own summary it goes without saying.
        me = self.v.seat(seat)
        for subject in (f"{me}: ", f"{me} "):
            if text.startswith(subject):
                text = text[len(subject) :]
                break
        self.bot_notes.setdefault(seat, []).append(text)

    def moves(self, legal: list[Action]) -> None:
        st, v = self.st, self.v
        hint = screen.scoring_hint(st, v)
        s = st.seats[self.human]
        lines = [""]
        if s.active:
            head = self.t("you.header", race=v.unit(s.active), power=v.unit(s.power), hand=s.hand)
            text = head + (f" · {hint}" if hint else "")
            lines += [self.style.bold(x) for x in textwrap.wrap(text, self.width, subsequent_indent="   ")]
        if st.pending:
            # A race, power or marker asks something out of the usual turn order; say what and why.
            prompt = st.pending[0]
            rule = prompt_rule(st, prompt)
            question = prompt_text(st, prompt, v)
            ask = self.t("prompt.line", text=question, rule=rule, rule_any=bool(rule))
            lines += [
                self.style.bold(x) for x in textwrap.wrap(ask, self.width, subsequent_indent="   ")
            ]
            lines += textwrap.wrap(
                prompt_why(st, prompt, v), self.width, initial_indent="   ", subsequent_indent="   "
            )
        lines.append(self.style.bold(self.t("moves.title")))
        self.entries = fold(st, legal, v)
        width = len(str(len(self.entries)))
        for i, entry in enumerate(self.entries, 1):
            head = f"  {str(i).rjust(width)}) "
            lines += textwrap.wrap(
                entry.text, self.width, initial_indent=head, subsequent_indent=" " * (len(head) + 2)
            )
            combo = pick_combo(st, entry.actions[0])
            if combo is not None:  # what the race and the power do, a line each (`info NAME`: all)
                indent = " " * (len(head) + 2)
                for u in combo[:2]:
                    gist = f"{v.unit(u)}: {first_sentence(v.card(u))}"
                    short = textwrap.shorten(gist, self.width - len(indent), placeholder=" …")
                    lines.append(self.style.dim(indent + short))
        self.say(*lines)

    def which(self, entry: Entry) -> Action | None:
        """The region of a folded entry, asked: its number or name, or its place in the list (a
        number that is not one of the listed regions); None (an empty line) goes back to the list."""
        names = ", ".join(str(r) for r in entry.regions)
        while True:
            try:
                line = self.read(self.t("fold.which", regions=names, n=len(entry.regions))).strip()
            except EOFError:
                return None
            if not line:
                return None
            try:
                r, _ = find_region(self.st, line.split())
            except InputError as e:
                r, error = None, e
            if r is not None and r in entry.regions:
                return entry.actions[entry.regions.index(r)]
            if line.isdigit() and 1 <= int(line) <= len(entry.regions):
                return entry.actions[int(line) - 1]
            if r is not None:
                error = InputError("fold.not_one", region=region_label(self.st, self.v, r))
            self.tell(f"✗ {error.words(self.v)}", "  ", self.style.bad)

    def info(self, name: str) -> None:
        """The rules card of the race, power, artifact or place whose name (in the game's language
        or in English) contains `name`."""
        st, v = self.st, self.v
        if not name:
            self.tell(f"✗ {self.t('info.which')}", "  ", self.style.bad)
            return
        english = voice(st.game, DEFAULT, self.human)
        names = {u: {v.unit(u).lower(), english.unit(u).lower()} for u in st.game.units if v.has(u, "card")}
        want = name.lower()
        exact = [u for u, said in names.items() if want in said]
        hits = exact or [u for u, said in names.items() if any(want in x for x in said)]
        if len(hits) != 1:
            listed = ", ".join(sorted(v.unit(u) for u in hits))
            key = "info.several" if hits else "info.none"
            self.tell(f"✗ {self.t(key, name=name, names=listed)}", "  ", self.style.bad)
            return
        uid = hits[0]
        section = getattr(st.game.units[uid], "section", "")
        head = self.t("info.title", name=v.unit(uid), section=section, section_any=bool(section))
        self.say("", self.style.bold(head))
        self.tell(v.card(uid), "  ")

    def cards(self) -> None:
        """The rules cards of every race, power and marker on offer or in play."""
        st, v = self.st, self.v
        seen: list[str] = []
        for race, power, _coins in st.game.variant.combos(st, self.human):
            seen += [x for x in (race, power) if x]
        for s in st.seats:
            seen += [x for x in (s.active, s.power, s.declined, s.declined_power) if x]
        for here in st.markers.values():
            seen += [rid for rid, up in here if up]
        self.say("", self.style.bold(self.t("cards.title")))
        for uid in dict.fromkeys(seen):
            text = f"{v.unit(uid)}: {v.card(uid)}"
            self.say(*textwrap.wrap(text, self.width, initial_indent="  ", subsequent_indent="    "))

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        st = self.st
        if not st.is_over():
            self.say(self.style.dim(self.t("round", round=st.round, rounds=st.game.rounds)))
        try:
            while not st.is_over():
                if st.acting_seat == self.human:
                    self.flush_bots()
                    self.human_turn()
                else:
                    self.play(self.bot_move())
        except Quit:
            return 0
        except KeyboardInterrupt:
            # Ctrl-C asks nothing: it says what is kept and how to come back.
            self.say("")
            if self.autosaved:
                path = self.autosave_path
                self.tell(self.t("interrupted.autosave", path=path, command=self.resume(path)))
            else:
                self.tell(self.t("interrupted.none"))
            return 130
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
        # The whole board once per turn (and on `board`); each step after shows only the moves.
        # and the players' table again when the step changes.
        key = (st.round, st.turn_seat)
        step = (st.phase, len(st.pending))
        if key != self.shown:
            self.shown, self.step = key, step
            self.say(*screen.full_screen(st, self.v, self.style, self.width))
        elif step != self.step:
            self.step = step
            self.say("", *screen.header(st, self.v, self.style, self.width))
            self.say(*screen.players(st, self.v, self.style, self.width))
        legal = st.legal_actions()
        if len(legal) == 1 and legal[0].kind == END and st.phase == CONQUER_STEP and not st.pending:
            # Ending conquests is all that is left (a race's or power's own move, now spent, kept the
            # step open): it ends by itself, as the engine ends it for a seat with nothing in hand.
            self.tell(self.t("auto.end"), "  ")
            self.play(legal[0])
            return
        self.moves(legal)
        while True:
            try:
                line = self.read(self.t("ask", n=len(self.entries))).strip()
            except EOFError:
                self.say("")
                self.tell(self.t("eof", **self.kept()))
                raise Quit from None
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                self.tell(self.t("bye", **self.kept()))
                raise Quit
            if word in ("help", "h", "?"):
                self.say(self.t("help"))
                continue
            if word in ("board", "b"):
                self.say(*screen.full_screen(st, self.v, self.style, self.width))
                self.moves(legal)
                continue
            if word in ("map", "look", "l"):
                try:
                    if rest.strip():
                        r, _ = find_region(st, rest.split())
                        self.say(*screen.look(st, self.v, r, self.width, self.style))
                    else:
                        self.say(*screen.region_map(st, self.v, self.width, self.style))
                except InputError as e:
                    self.tell(f"✗ {e.words(self.v)}", "  ", self.style.bad)
                continue
            if word in ("info", "i"):
                self.info(rest.strip())
                continue
            if word in ("moves", "m"):
                self.moves(legal)
                continue
            if word in ("cards", "c"):
                self.cards()
                continue
            if word == "save":
                self.save(Path(rest.strip()) if rest.strip() else self.save_path)
                continue
            try:
                if line.isdigit():
                    n = int(line)
                    if not 1 <= n <= len(self.entries):
                        raise InputError("input.range", n=len(self.entries))
                    entry = self.entries[n - 1]
                    if len(entry.actions) == 1:
                        actions = [entry.actions[0]]
                    else:
                        chosen = self.which(entry)
                        if chosen is None:
                            continue
                        actions = [chosen]
                else:
                    actions = parse_move(st, line)
                for action in actions:
                    self.play(action)
                return
            except InputError as e:
                self.tell(f"✗ {e.words(self.v)}", "  ", self.style.bad)
            except SmallworldError as e:
                # An illegal move's text starts with its rule, e.g. "§6.5: ..."
                self.tell(f"✗ {self.v.error(e)}", "  ", self.style.bad)

    def resume(self, path: Path) -> str:
        """The command that resumes a save of this game (the save holds the seats and the bots)."""
        lang = f" --lang {self.lang}" if self.lang != DEFAULT else ""
        return f"{command_name()} play --load {shlex.quote(str(path))}{lang}"

    def kept(self) -> dict[str, Any]:
        """The parameters `saved` and `command` of a goodbye: is there an autosave to resume?"""
        return {"saved": self.autosaved, "command": self.resume(self.autosave_path)}

    def write_save(self, path: Path) -> None:
        """Write the game to `path` (atomically: `records.save`), creating its folder."""
        self.rec.meta = self.meta()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise PositionError("save", f"cannot write {path}: {e.strerror or e}") from None
        records.save(path, self.rec, self.st)
        self.written.add(path.resolve())

    def save(self, path: Path) -> None:
        if path.exists() and path.resolve() not in self.written:
            try:
                answer = self.read(self.t("save.overwrite", path=path)).strip().lower()
            except EOFError:
                answer = ""
            if answer[:1] not in ("y", "s", "j"):  # yes, sim, ja
                self.tell(self.t("save.kept", path=path), "  ")
                return
        try:
            self.write_save(path)
        except SmallworldError as e:
            self.tell(f"✗ {self.t('save.fail', path=path, error=e)}", "  ", self.style.bad)
            return
        self.tell(self.t("save.done", path=path, command=self.resume(path)), "  ")

    def autosave(self) -> None:
        """After each turn of the human; a failure is told once and does not stop the game."""
        try:
            self.write_save(self.autosave_path)
        except SmallworldError as e:
            if not self.autosave_warned:
                self.autosave_warned = True
                self.tell(f"✗ {self.t('save.fail', path=self.autosave_path, error=e)}", "  ", self.style.bad)
            self.autosaved = False
            return
        self.autosaved = True

    # --- applying a move and telling what happened ---------------------------------------------
    def play(self, action: Action) -> None:
        """Apply a move (raises IllegalActionError, changing nothing, if it is not legal now)."""
        st = self.st
        seat, turn_seat, rnd = st.acting_seat, st.turn_seat, st.round
        before = self._before(action)
        coins = st.seats[self.human].coins
        st.apply(action)
        self.rec.actions.append(action)
        scored = any(e.get("type") == "score" for e in st.events)
        if turn_seat == self.human and action.kind != PICK and not scored:
            # Coins a race or power gives at once (a bonus per conquest...): the score line says them.
            self.earned += max(st.seats[self.human].coins - coins, 0)
        texts = [(e, self._told(e)) for e in st.events if not told(action.kind, e)]
        self._after(seat, action, before, bool(texts))
        for e, text in texts:
            self._event(seat, e, text)
        if action.kind in (CONQUER, FINAL):
            self._loss(seat, action, before)
        if st.is_over() or st.turn_seat != turn_seat or st.round != rnd:
            if turn_seat == self.human and not st.is_over():
                self.autosave()
            self.flush_bots()
            if not st.is_over() and st.round != rnd:
                self.say(self.style.dim(self.t("round", round=st.round, rounds=st.game.rounds)))

    def _told(self, e: dict[str, Any]) -> str:
        """An event in words; a marker turned face up also says what it does (its card's gist)."""
        text = event_text(self.st, e, self.v)
        relic = e.get("relic")
        if e.get("type") == REVEAL and isinstance(relic, str) and self.v.has(relic, "card"):
            text = self.t("event.gist", text=text, gist=first_sentence(self.v.card(relic)).rstrip("."))
        return text

    def _event(self, actor: int, e: dict[str, Any], text: str) -> None:
        """One thing the move set off: said at once when it is the human's, else summarised."""
        seat = e.get("seat")
        if not isinstance(seat, int) or seat == self.human:
            seat = actor
        if e.get("type") == "score" and e.get("seat") == self.human:
            self.flush_bots()
            coins = self.st.seats[self.human].coins
            earlier = self.t("score.earlier", n=self.earned) if self.earned else ""
            self.earned = 0
            self.tell(f"{text}{earlier}{self.t('score.now', coins=coins)}.", "  ", self.style.you)
            return
        self.note(seat, text)

    def _before(self, a: Action) -> Before:
        """Facts about the move that the move itself will change (cost, defender, hand, die)."""
        st, v = self.st, self.v
        seat = st.acting_seat
        s = st.seats[seat]
        b = Before(s.hand, v.unit(s.active), seat == st.turn_seat)
        if a.kind in (CONQUER, FINAL) and a.region is not None:
            opt = a.arg if isinstance(a.arg, str) else None
            b.cost = conquest.cost(st, conquest.Attack(st, seat), a.region, opt)
            b.holder = holder(st, v, a.region)
            b.defender = st.owner_seat(st.race[a.region])
            b.defenders = st.tokens[a.region]
            b.human_hand = st.seats[self.human].hand
            b.in_decline = (
                b.defender is not None and st.race[a.region] in st.seats[b.defender].declined_races()
            )
        elif a.kind not in (PICK, DECLINE, ABANDON, DEPLOY, END, EXPAND):
            b.words = describe(st, a, v)
        if a.region is not None:
            b.dues = dues_text(st, v, seat, a.region)[1]
        if (combo := pick_combo(st, a)) is not None:
            race, power, coins = combo
            b.combo = self.t("combo", race=v.unit(race), power=v.unit(power))
            b.tokens = combo_tokens(st, race, power)
            b.coins = coins
        return b

    def _after(self, seat: int, a: Action, b: Before, events: bool) -> None:
        st, v = self.st, self.v
        you = seat == self.human
        r = a.region
        name = region_label(st, v, r) if r is not None else ""
        who = self.you(seat)
        frm = v.core("clause.from", holder=b.holder) if b.holder else ""
        if a.kind == PICK:
            cost = int(a.arg or 0)
            self.note(
                seat,
                self.t("done.pick", combo=b.combo, tokens=b.tokens, cost=cost, paid=cost > 0, coins=b.coins,
                       collect=b.coins > 0, **who),
            )  # fmt: skip
        elif a.kind == DECLINE:
            self.note(seat, self.t("done.decline", race=b.race, **who))
        elif a.kind == CONQUER:
            self.note(
                seat,
                self.t("done.conquer", region=name, cost=b.cost, dues=b.dues, paying=bool(b.dues),
                       hand=st.seats[seat].hand, over=not conquest.conquests_open(st, seat), **{"from": frm},
                       **who),
            )  # fmt: skip
        elif a.kind == FINAL:
            self.note(
                seat,
                self.t("done.final", region=name, short=b.cost - b.hand, dues=b.dues, paying=bool(b.dues),
                       **{"from": frm}, **who),
            )  # fmt: skip
        elif a.kind == ABANDON:
            self.note(seat, self.t("done.abandon", region=name, **who))
        elif a.kind == DEPLOY:
            if you:
                n = st.tokens[r] if r is not None else 0
                self.note(seat, self.t("done.deploy", region=name, n=n, hand=st.seats[seat].hand))
            else:
                key = "note.redeploys" if b.own_turn else "note.puts_back"
                old, n = self.bot_deployed.get(seat, (key, 0))
                if old != key:
                    self._fold(seat)
                    n = 0
                self.bot_deployed[seat] = (key, n + b.hand - st.seats[seat].hand)
        elif a.kind not in (END, EXPAND) and not events:
            # A move of a race, power or marker whose events said nothing: say the move itself.
            self.note(seat, self.t("done.other", words=b.words, **who))

    def _loss(self, seat: int, a: Action, b: Before) -> None:
        """Tell the human what a conquest of their region cost them."""
        st = self.st
        r = a.region
        if b.defender != self.human or seat == self.human or r is None:
            return
        if st.owner_seat(st.race[r]) != seat:
            return  # the attempt failed
        if b.in_decline:
            what = self.t("loss.declined", n=b.defenders)
        else:
            back = st.seats[self.human].hand - b.human_hand
            lost = max(b.defenders - back, 0)
            if back:
                what = self.t("loss.back", back=back, lost=lost)
            else:
                what = self.t("loss.all", lost=lost) if lost else self.t("loss.none")
        self.note(seat, self.t("loss", region=region_label(st, self.v, r), what=what))

    def finish(self) -> None:
        st, v = self.st, self.v
        self.say("", *screen.full_screen(st, v, self.style, self.width), "")
        result = st.result or {"scores": [s.coins for s in st.seats], "winners": []}
        scores = result["scores"]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        self.say(self.style.bold(self.t("final.title")))
        width = max(8, *(len(v.seat(i)) for i in order))
        for i in order:
            mark = " *" if i in result["winners"] else ""
            line = f"  {v.seat(i):<{width}} {scores[i]:>3} {self.t('final.coins', n=scores[i])}{mark}"
            self.say(self.style.you(line) if i == self.human else line)
        factions = result.get("factions")
        if factions:  # team variant: the faction scores decide (§11.4)
            parts = ", ".join(f"{v.faction(name)} {score}" for name, score in factions.items())
            self.tell(self.t("final.factions", scores=parts))
        self.tell_tie_break(result.get("tie_break"))
        winners = list(result["winners"])
        won = result.get("winning_factions")
        if factions and won:  # §11.4: a faction wins (the seats listed are its players)
            seats = v.join((v.seat(w, listed=True) for w in winners), last=True)
            if len(won) > 1:
                names = v.join((v.faction(f) for f in won), last=True)
                self.tell(self.t("final.factions_shared", factions=names))
            elif self.human in winners:
                self.say(self.style.you(self.t("final.faction_you", faction=v.faction(won[0]))))
            else:
                self.tell(self.t("final.faction_one", faction=v.faction(won[0]), seats=seats))
        elif winners == [self.human]:
            self.say(self.style.you(self.t("final.you")))
        elif len(winners) == 1:
            self.say(self.t("final.one", seat=v.seat(winners[0])))
        else:
            seats = v.join((v.seat(w, listed=True) for w in winners), last=True)
            self.tell(self.t("final.shared", seats=seats))
        # The seed is told only now: it would let a player rebuild the stacks and markers.
        self.tell(self.t("final.seed", seed=st.game.settings.seed))

    def tell_tie_break(self, tie: dict[str, Any] | None) -> None:
        """The figures of a tie on the top score (§7, classic §5.5, team §11.4), as the result
        gives them; the winners' line that follows says who won by them."""
        if not tie:
            return
        v = self.v
        names = [v.seat(e["seat"]) if "seat" in e else v.faction(e["faction"]) for e in tie["tied"]]
        figures = ", ".join(
            f"{n} {e['value']}" for n, e in zip(names, tie["tied"], strict=True) if "value" in e
        )
        key = {"race_tokens": "final.tie_tokens", "best_score": "final.tie_best"}.get(
            tie["by"], "final.tie_none"
        )
        self.tell(self.t(key, rule=tie["rule"], figures=figures))


def _options_file(args: argparse.Namespace, lang: str, write: Writer) -> dict[str, Any] | None:
    path = getattr(args, "options", None)
    if path is None:
        return None
    overrides = load_options_file(path)
    names = ", ".join(sorted(overrides)) or said(lang, "options.nothing")
    wrapped(write, said(lang, "options", path=path, names=names))
    return overrides


def first_sentence(text: str) -> str:
    """The first sentence of a rules card (its gist)."""
    return re.split(r"(?<=\.)\s", text, maxsplit=1)[0]


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """A sentence folded to the screen's width; paths and commands are never cut."""
    return textwrap.wrap(
        text,
        width,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,
        break_long_words=False,
    )


def wrapped(write: Writer, text: str, width: int = WIDTH) -> None:
    """A sentence folded to the screen's width (errors stay on one line: they are not wrapped)."""
    for line in wrap(text, width):
        write(line)


def command_name() -> str:
    """How the user can type this command again: `smallworld` when it is on the PATH, else the path
    they ran (`.venv/bin/smallworld` after `make play`)."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is None or argv0.name != "smallworld":
        return "smallworld"
    found = shutil.which("smallworld")
    if found and Path(found).resolve() == argv0.resolve():
        return "smallworld"
    try:
        return shlex.quote(os.path.relpath(argv0))
    except ValueError:  # another drive (Windows)
        return shlex.quote(str(argv0))


@dataclass
class Seating:
    """Who plays which seat, and what the bots remember: from a save's `meta`, or fresh."""

    human: int | None = None
    bots: list[str | None] | None = None
    memory: dict[str, Any] | None = None


META = "meta"  # the field of a save that holds the seats (error messages name it)


def seating(meta: dict[str, Any], players: int) -> Seating:
    """Read the seats of a save (`Session.meta`); a save without them (an older one) gives an empty
    Seating. Raises PositionError naming the field."""
    out = Seating()
    if "human" in meta:
        human = meta["human"]
        if not isinstance(human, int) or isinstance(human, bool) or not 0 <= human < players:
            raise PositionError(f"{META}.human", f"must be a seat 0..{players - 1}")
        out.human = human
    if "bots" in meta:
        bots = meta["bots"]
        if not isinstance(bots, list) or len(bots) != players:
            raise PositionError(f"{META}.bots", f"must list the {players} seats")
        for i, kind in enumerate(bots):
            if kind is not None and kind not in BOT_NAMES:
                known = ", ".join(BOT_NAMES)
                raise PositionError(f"{META}.bots[{i}]", f"unknown bot {kind!r}; known: {known}")
        out.bots = list(bots)
    if "bot_rng" in meta:
        rng = meta["bot_rng"]
        memory = meta.get("bot_memory", {})
        try:
            version, internal, gauss = rng
            state = (int(version), tuple(int(x) for x in internal), gauss)
            random.Random().setstate(state)  # checks the length and values
        except (TypeError, ValueError) as e:
            raise PositionError(f"{META}.bot_rng", f"not a generator state ({e})") from None
        if not isinstance(memory, dict) or not all(isinstance(m, dict) for m in memory.values()):
            raise PositionError(f"{META}.bot_memory", "must map seats to objects")
        try:
            bots_memory = {int(k): m for k, m in memory.items()}
        except ValueError:
            raise PositionError(f"{META}.bot_memory", "its keys must be seat numbers") from None
        out.memory = {"rng": state, "bots": bots_memory}
    return out


def new_seed() -> int:
    """A new game's seed: a 128-bit key of the keyed generator, from the OS's generator. Keys below
    2**64 are left out (one draw in 2**64) so that `generator_of` tells the two kinds apart."""
    return 2**64 + secrets.randbelow(2**128 - 2**64)


def generator_of(seed: int) -> str:
    """The generator of a seed: the keyed one (`engine/keyed_rng.py`, as the server's games) for the
    128-bit keys `play` draws, so that the opening position tells nothing of the stacks, the
    face-down markers or the dice to come; SplitMix64 for a seed below 2**64, so that every
    `--seed` given or told before keeps its game."""
    return KEYED if seed >= 2**64 else SPLITMIX


def _start(
    args: argparse.Namespace, lang: str, write: Writer
) -> tuple[State, records.Record, Seating] | None:
    """The game to play (new or loaded) and its seats; None after an error was told (exit code 2).
    --seat is checked before anything else is printed."""
    seat = getattr(args, "seat", None)
    load: Path | None = getattr(args, "load", None)
    if load is not None:
        try:
            rec, st = records.load(load)
            seats = seating(rec.meta, len(st.seats))
        except SmallworldError as e:
            write(said(lang, "load.fail", path=load, error=e))
            return None
        if seat is not None and not 0 <= seat < len(st.seats):
            write(said(lang, "bad.seat", last=len(st.seats) - 1))
            return None
        wrapped(write, said(lang, "load.done", path=load, n=len(rec.actions)))
        return st, rec, seats
    if seat is not None and not 0 <= seat < args.players:
        write(said(lang, "bad.seat", last=args.players - 1))
        return None
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = new_seed()
    try:
        overrides = {**(_options_file(args, lang, write) or {}), "rng": generator_of(seed)}
        settings = make_settings(
            args.players,
            seed,
            getattr(args, "variant", "standard"),
            overrides,
            getattr(args, "edition", "warcraft"),
        )
        st = Game(settings).new_initial_state()
    except SmallworldError as e:
        write(said(lang, "start.fail", error=e))
        return None
    sides = ", ".join(said(lang, "island", name=s.name, id=s.id) for s in st.game.map.sides)
    wrapped(write, said(lang, "new", players=args.players, sides=sides))
    return st, records.Record(settings), Seating()


DEFAULT_BOTS = "greedy"  # the opponents of `play` unless --bots says otherwise
SAVES = Path("saves")  # where `save` writes by default (ignored by git)


def run_play(args: argparse.Namespace, read: Reader | None = None, write: Writer | None = None) -> int:
    """Play one game in the terminal; returns the exit code. `read`/`write` replace
    input()/print() (tests script them). `args.lang` (en, pt, de) is the language of the screen."""
    color = write is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out: Writer = write or (lambda line: print(line, flush=True))
    # The real terminal's width when there is one (at most 120 columns: tables read badly wider).
    width = min(shutil.get_terminal_size((WIDTH, 24)).columns, 120) - 1 if write is None else WIDTH
    lang = getattr(args, "lang", None) or DEFAULT
    if lang not in LANGS:
        out(f"smallworld play: unknown --lang {lang!r}; known: {', '.join(LANGS)}")
        return 2
    bots: str | None = getattr(args, "bots", None)
    if bots is not None and bots not in BOT_NAMES:
        out(said(lang, "bad.bots", bots=bots, known=", ".join(BOT_NAMES)))
        return 2
    started = _start(args, lang, out)
    if started is None:
        return 2
    st, rec, seats = started
    v = voice(st.game, lang, None)
    seat = getattr(args, "seat", None)
    human = seat if seat is not None else seats.human if seats.human is not None else 0
    # A loaded game keeps its bots (and what they remember) unless --bots names others.
    kinds: str | list[str | None] = bots or DEFAULT_BOTS
    memory = None
    if bots is None and seats.bots is not None:
        kinds = seats.bots
        if human != seats.human:  # the human took another seat: the one they left gets a bot
            kinds[seats.human if seats.human is not None else 0] = DEFAULT_BOTS
        memory = seats.memory
    named = [k for k in (kinds if isinstance(kinds, list) else [kinds]) if k is not None]
    kind = (
        say(v, "bots.random")
        if set(named) <= {"random"}
        else say(v, "bots.named", bots=", ".join(dict.fromkeys(named)))
    )
    n = len(st.seats)
    order = ", ".join(voice(st.game, lang, human).seat((st.first_seat + k) % n) for k in range(n))
    wrapped(out, say(v, "welcome", kind=kind, order=order), width)
    if read is None:
        with contextlib.suppress(ImportError):  # absent on some platforms
            import readline  # noqa: F401  (gives input() line editing and history)
    save_path = getattr(args, "save", None) or SAVES / "game.json"
    session = Session(
        st, rec, human, Path(save_path), read or input, out, screen.Style(color), kinds, lang, memory, width
    )
    return session.run()
