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
from smallworld.engine.actions import ABANDON, CONQUER, DECLINE, DEPLOY, END, EXPAND, FINAL, PICK, Action
from smallworld.engine.errors import SmallworldError
from smallworld.engine.files import load_options_file
from smallworld.engine.settings import make_settings
from smallworld.engine.state import State
from smallworld.tui import screen
from smallworld.tui.events import event_text, prompt_rule, prompt_text, prompt_why, told
from smallworld.tui.text import (
    InputError,
    combo_tokens,
    describe,
    dues_text,
    holder,
    parse_move,
    pick_combo,
    region_label,
    said,
    say,
    voice,
)
from smallworld.words import DEFAULT, LANGS
from smallworld.words.voice import Voice

Reader = Callable[[str], str]
Writer = Callable[[str], None]

WIDTH = 106  # wrapped lines


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
        bots: str = "random",
        lang: str = DEFAULT,
    ) -> None:
        self.st = st
        self.rec = rec
        self.human = human
        self.save_path = save_path
        self.read = read
        self.write = write
        self.style = style
        self.v: Voice = voice(st.game, lang, human)
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

    def t(self, key: str, **params: Any) -> str:
        return say(self.v, key, **params)

    def you(self, seat: int | None) -> dict[str, Any]:
        """The parameters `seat` and `seat_you` of a sentence about `seat`."""
        return {"seat": self.v.seat(seat), "seat_you": seat == self.human}

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
            who = (
                self.t("summary.race", seat=self.v.seat(seat), race=self.v.unit(race))
                if race
                else self.v.seat(seat)
            )
            text = self.t("summary", who=who, notes=self.t("summary.sep").join(notes))
            self.say(*textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="      "))
        self.bot_notes.clear()

    def _fold(self, seat: int) -> None:
        key, n = self.bot_deployed.pop(seat, ("", 0))
        if n:
            self.note(seat, self.t(key, n=n, **self.you(seat)))

    def note(self, seat: int, text: str) -> None:
        if seat == self.human:
            self.say(f"  {text}")
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
            lines.append(self.style.bold(head) + (f" · {hint}" if hint else ""))
        if st.pending:
            # A race, power or marker asks something out of the usual turn order; say what and why.
            prompt = st.pending[0]
            rule = prompt_rule(st, prompt)
            question = prompt_text(st, prompt, v)
            lines.append(
                self.style.bold(self.t("prompt.line", text=question, rule=rule, rule_any=bool(rule)))
            )
            lines += textwrap.wrap(
                prompt_why(st, prompt, v), WIDTH, initial_indent="   ", subsequent_indent="   "
            )
        lines.append(self.style.bold(self.t("moves.title")))
        width = len(str(len(legal)))
        lines += [f"  {str(i).rjust(width)}) {describe(st, a, v)}" for i, a in enumerate(legal, 1)]
        self.say(*lines)

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
            self.say(*textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    "))

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
            self.say(*screen.full_screen(st, self.v, self.style))
        legal = st.legal_actions()
        self.moves(legal)
        while True:
            try:
                line = self.read(self.t("ask", n=len(legal))).strip()
            except EOFError:
                self.say("", self.t("eof"))
                raise Quit from None
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                self.say(self.t("bye"))
                raise Quit
            if word in ("help", "h", "?"):
                self.say(self.t("help"))
                continue
            if word in ("board", "b"):
                self.say(*screen.full_screen(st, self.v, self.style))
                self.moves(legal)
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
                    if not 1 <= n <= len(legal):
                        raise InputError("input.range", n=len(legal))
                    actions = [legal[n - 1]]
                else:
                    actions = parse_move(st, line)
                for action in actions:
                    self.play(action)
                return
            except InputError as e:
                self.say(self.style.bad(f"  ✗ {e.words(self.v)}"))
            except SmallworldError as e:
                # An illegal move's text starts with its rule, e.g. "§6.5: ..."
                self.say(self.style.bad(f"  ✗ {self.v.error(e)}"))

    def save(self, path: Path) -> None:
        try:
            records.save(path, self.rec, self.st)
        except OSError as e:
            self.say(self.style.bad(f"  ✗ {self.t('save.fail', path=path, error=e)}"))
            return
        seat = f" --seat {self.human}" if self.human else ""
        self.say("  " + self.t("save.done", path=path, seat=seat))

    # --- applying a move and telling what happened ---------------------------------------------
    def play(self, action: Action) -> None:
        """Apply a move (raises IllegalActionError, changing nothing, if it is not legal now)."""
        st = self.st
        seat, turn_seat, rnd = st.acting_seat, st.turn_seat, st.round
        before = self._before(action)
        st.apply(action)
        self.rec.actions.append(action)
        texts = [(e, event_text(st, e, self.v)) for e in st.events if not told(action.kind, e)]
        self._after(seat, action, before, bool(texts))
        for e, text in texts:
            self._event(seat, e, text)
        if action.kind in (CONQUER, FINAL):
            self._loss(seat, action, before)
        if st.is_over() or st.turn_seat != turn_seat or st.round != rnd:
            self.flush_bots()
            if not st.is_over() and st.round != rnd:
                self.say(self.style.dim(self.t("round", round=st.round, rounds=st.game.rounds)))

    def _event(self, actor: int, e: dict[str, Any], text: str) -> None:
        """One thing the move set off: said at once when it is the human's, else summarised."""
        seat = e.get("seat")
        if not isinstance(seat, int) or seat == self.human:
            seat = actor
        if e.get("type") == "score" and e.get("seat") == self.human:
            self.flush_bots()
            coins = self.st.seats[self.human].coins
            self.say(self.style.you(f"  {text}{self.t('score.now', coins=coins)}."))
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
                       hand=st.seats[seat].hand, **{"from": frm}, **who),
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
            what = self.t("loss.back", back=back, lost=lost) if back else self.t("loss.all", lost=lost)
        self.note(seat, self.t("loss", region=region_label(st, self.v, r), what=what))

    def finish(self) -> None:
        st, v = self.st, self.v
        self.say("", *screen.full_screen(st, v, self.style), "")
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
            self.say(self.t("final.factions", scores=parts))
        winners = list(result["winners"])
        if winners == [self.human]:
            self.say(self.style.you(self.t("final.you")))
        elif len(winners) == 1:
            self.say(self.t("final.one", seat=v.seat(winners[0])))
        else:
            self.say(
                self.t("final.shared", seats=v.join((v.seat(w, listed=True) for w in winners), last=True))
            )
        # The seed is told only now: it would let a player rebuild the stacks and markers.
        self.say(self.t("final.seed", seed=st.game.settings.seed))


def _options_file(args: argparse.Namespace, lang: str, write: Writer) -> dict[str, Any] | None:
    path = getattr(args, "options", None)
    if path is None:
        return None
    overrides = load_options_file(path)
    names = ", ".join(sorted(overrides)) or said(lang, "options.nothing")
    write(said(lang, "options", path=path, names=names))
    return overrides


def _start(args: argparse.Namespace, lang: str, write: Writer) -> tuple[State, records.Record] | None:
    load: Path | None = getattr(args, "load", None)
    if load is not None:
        try:
            rec, st = records.load(load)
        except SmallworldError as e:
            write(said(lang, "load.fail", path=load, error=e))
            return None
        write(said(lang, "load.done", path=load, n=len(rec.actions)))
        return st, rec
    seed = args.seed if getattr(args, "seed", None) is not None else random.SystemRandom().randrange(10**9)
    try:
        overrides = _options_file(args, lang, write)
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
    write(said(lang, "new", players=args.players, sides=sides))
    return st, records.Record(settings)


def run_play(args: argparse.Namespace, read: Reader | None = None, write: Writer | None = None) -> int:
    """Play one game in the terminal; returns the exit code. `read`/`write` replace
    input()/print() (tests script them). `args.lang` (en, pt, de) is the language of the screen."""
    color = write is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out: Writer = write or (lambda line: print(line, flush=True))
    lang = getattr(args, "lang", None) or DEFAULT
    if lang not in LANGS:
        out(f"smallworld play: unknown --lang {lang!r}; known: {', '.join(LANGS)}")
        return 2
    started = _start(args, lang, out)
    if started is None:
        return 2
    st, rec = started
    v = voice(st.game, lang, None)
    human = int(getattr(args, "seat", 0) or 0)
    if not 0 <= human < len(st.seats):
        out(say(v, "bad.seat", last=len(st.seats) - 1))
        return 2
    bots = getattr(args, "bots", None) or "random"
    if bots not in BOT_NAMES:
        out(say(v, "bad.bots", bots=bots, known=", ".join(BOT_NAMES)))
        return 2
    kind = say(v, "bots.random") if bots == "random" else say(v, "bots.named", bots=bots)
    out(say(v, "welcome", seat=human, kind=kind))
    if read is None:
        with contextlib.suppress(ImportError):  # absent on some platforms
            import readline  # noqa: F401  (gives input() line editing and history)
    save_path = getattr(args, "save", None) or Path("smallworld-save.json")
    session = Session(st, rec, human, Path(save_path), read or input, out, screen.Style(color), bots, lang)
    return session.run()
