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

from smallworld.bots import BOT_NAMES, Bot, is_search_bot, make_bot, public_game
from smallworld.engine import Game, view_for
from smallworld.engine.api import record as records
from smallworld.engine.api.files import load_options_file
from smallworld.engine.model.actions import (
    ABANDON,
    CONQUER,
    DECLINE,
    DEPLOY,
    END,
    EXPAND,
    FINAL,
    PICK,
    Action,
)
from smallworld.engine.model.errors import PositionError, SmallworldError
from smallworld.engine.model.jsonio import read_json
from smallworld.engine.model.keyed_rng import KEYED, SPLITMIX
from smallworld.engine.model.settings import make_settings
from smallworld.engine.model.state import CONQUER as CONQUER_STEP
from smallworld.engine.model.state import PICK as PICK_STEP
from smallworld.engine.model.state import START as START_STEP
from smallworld.engine.model.state import Phase, State
from smallworld.engine.rules import conquest
from smallworld.tui import screen
from smallworld.tui.events import event_text, prompt_rule, prompt_text, prompt_why, told
from smallworld.tui.text import PATH_MAX, Entry, InputError, find_region, fold, number, parse_move, typed
from smallworld.words import DEFAULT, LANGS
from smallworld.words.describe import (
    combo_name,
    combo_tokens,
    describe,
    dues_text,
    error_said,
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
HEIGHT = 24  # a decision fits the terminal's height, 24 lines when it is not a terminal
THINK = 1.0  # a search bot's seconds a decision: the server's (its ladder rating is at this budget)
THINK_MAX = 60.0
RISE_STEP = Phase.RISE
LOG_ROUND = "\x00"  # a log entry that heads a round or a turn (not indented when paged)


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


@dataclass
class Summary:
    """A bot's sentence in the summary: who, its notes (text, kept in a short summary), and what
    its moves cost the human (said on lines of their own)."""

    who: str
    notes: list[tuple[str, bool]]
    losses: list[str]


@dataclass
class Part:
    """Lines of a decision screen; `drop`: 0 when they always show, else the order in which they
    give way when the screen is too short (the highest first); parts of one `group` show together
    or not at all."""

    lines: list[str]
    drop: int = 0
    group: str = ""


# What gives way, first to last, when a decision does not fit the terminal's height: the blank lines
# between parts, the combo row and the players' table while picking (the moves say what the row
# says), the one-line gists of the races and powers on offer, the "You: ..." line, the players'
# table, then the combo row at "decline or expand"; what fits again comes back. What never gives
# way: the bots' summary, the turn's title, the question of a prompt and the moves (shortened
# first, cut last with a line that says how to see them all).
DROP_BLANK, DROP_ROW_PICK, DROP_GIST, DROP_YOU, DROP_PLAYERS, DROP_ROW = 6, 5, 4, 3, 2, 1
COMMANDS = frozenset(
    {"quit", "exit", "q", "help", "h", "?", "board", "b", "map", "look", "l", "info", "i", "moves", "m",
     "cards", "c", "save", "log"}
)  # fmt: skip


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
        height: int = HEIGHT,
        size: Callable[[], tuple[int, int]] | None = None,
        think: float = THINK,
    ) -> None:
        self.st = st
        self.rec = rec
        self.human = human
        self.save_path = save_path
        # Written after every turn of the human, so that Ctrl-C or a crash loses at most one turn.
        self.autosave_path = save_path.with_name(save_path.stem + ".autosave" + (save_path.suffix or ".json"))
        self.autosaved = False
        self.autosave_warned = False
        self.autosaving = True  # off while a loaded game's log is rebuilt (`narrate`)
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
        # A search bot thinks `think` seconds a decision, as the server's do: with a time budget its
        # choices depend on the machine, so a resumed game goes on as it would have only with the others.
        self.think = think
        self.searching = {seat for seat, k in enumerate(self.kinds) if k is not None and is_search_bot(k)}
        for seat, kind in enumerate(self.kinds):
            if kind is not None and kind != "random" and seen is not None:
                budget = {"seconds": think, "playouts": None} if seat in self.searching else {}
                self.players[seat] = make_bot(kind, **budget)
                self.players[seat].start(seen, seat)
        self.thinking: set[int] = set()  # the bots whose "thinking" line was shown since the human's decision
        if memory:
            self.bots.setstate(memory["rng"])
            for seat, bot in self.players.items():
                bot.recall(memory["bots"].get(seat, {}))
        self.shown: tuple[object, ...] | None = None
        self.step: tuple[object, ...] | None = None
        self.board_shown = False  # the whole board comes once, before the first decision
        self.entries: list[Entry] = []  # the numbered moves on screen
        self.width = width
        self.height = height
        self.size = size  # the terminal's (columns, lines) now, when there is a terminal
        self.earned = 0  # coins the human gained during their turn before its scoring
        # What the bots did since the human's last decision: a compact sentence per bot turn
        # (`pending`, shown where the next decision is asked), each turn's notes gathered first.
        self.bot_notes: dict[int, list[tuple[str, bool]]] = {}
        self.bot_losses: dict[int, list[str]] = {}
        self.pending: list[str | Summary] = []
        # Bots place tokens one at a time and conquer region after region; counted and listed here so
        # a turn reads "redeploys 6 tokens" and "conquers 7 Ashen Vale, 9 Blackrock".
        self.bot_deployed: dict[int, tuple[str, int]] = {}
        self.bot_conquered: dict[int, list[str]] = {}
        # The whole game in words, sentence by sentence (`log`): every move and what it set off.
        self.log: list[str] = []

    def meta(self) -> dict[str, Any]:
        """What a save records besides the moves: who plays which seat and what the bots remember."""
        version, internal, gauss = self.bots.getstate()
        meta = {
            "human": self.human,
            "bots": list(self.kinds),
            "bot_rng": [version, list(internal), gauss],
            "bot_memory": {str(seat): bot.memory() for seat, bot in self.players.items()},
        }
        if self.searching:
            meta["bot_seconds"] = self.think
        return meta

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

    def refuse(self, text: str) -> None:
        self.tell(f"✗ {text}", "  ", self.style.bad)

    def measure(self) -> None:
        """Follow the terminal's size (it may change during the game)."""
        if self.size is not None:
            self.width, self.height = self.size()

    def flush_bots(self) -> None:
        """The bots' notes so far, a sentence per bot, onto what the next decision shows."""
        for seat in list(self.bot_deployed):
            self._fold(seat)
        for seat in list(self.bot_conquered):
            self._conquests(seat)
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
            last = self.pending[-1] if self.pending else None
            if isinstance(last, Summary) and last.who == who:  # the same bot again: one sentence
                last.notes += notes
                last.losses += self.bot_losses.get(seat, [])
            else:
                self.pending.append(Summary(who, list(notes), list(self.bot_losses.get(seat, []))))
        self.bot_notes.clear()
        self.bot_losses.clear()

    def shown_pending(self, short: bool = False) -> list[str]:
        """What happened since the last decision, as lines; `short`: a bot's sentence keeps only
        what matters most (its pick or decline, conquests, score; what it cost the human), "…"
        where the rest was (`log` has it all)."""
        out: list[str] = []
        for item in self.pending:
            if isinstance(item, str):
                out.append(item)
                continue
            notes = [text for text, main in item.notes if main or not short]
            key = "summary" if len(notes) == len(item.notes) else "summary.cut"
            if notes:
                text = self.t(key, who=item.who, notes=self.t("summary.sep").join(notes))
                out += wrap(text, self.width, "  ", "    ")
            for loss in item.losses:
                out += [self.style.bad(x) for x in wrap(f"✗ {loss}", self.width, "  ", "    ")]
        return out

    def show_pending(self) -> None:
        self.flush_bots()
        self.say(*self.shown_pending())
        self.pending = []

    def _fold(self, seat: int) -> None:
        key, n = self.bot_deployed.pop(seat, ("", 0))
        if n:
            self.note(seat, self.t(key, n=n, **self.you(seat)))

    def _conquests(self, seat: int) -> None:
        regions = self.bot_conquered.pop(seat, [])
        if regions:
            text = self.t("note.conquers", regions=self.v.join(regions), **self.you(seat))
            self._summarise(seat, text, True)

    def note(self, seat: int, text: str, main: bool = False) -> None:
        """A sentence about a move of `seat`: into the log; said at once when it is the human's,
        else kept for the bot's summary (`main`: what a short summary keeps)."""
        self.log.append(text)
        if seat == self.human:
            self.mine(text)
            return
        self._fold(seat)
        self._conquests(seat)
        self._summarise(seat, text, main)

    def mine(self, text: str, style: Callable[[str], str] | None = None) -> None:
        """A sentence about the human's own move or turn: said at once, or after the bots' notes
        that came before it (they are shown together where the next decision is asked)."""
        self.flush_bots()
        lines = wrap(text, self.width, "  ")
        if style is not None:
            lines = [style(x) for x in lines]
        if self.pending:
            self.pending += lines
        else:
            self.say(*lines)

    def _summarise(self, seat: int, text: str, main: bool) -> None:
        # Sentences name their subject first; in the seat's own summary it goes without saying.
        me = self.v.seat(seat)
        for subject in (f"{me}: ", f"{me} "):
            if text.startswith(subject):
                text = text[len(subject) :]
                break
        self.bot_notes.setdefault(seat, []).append((text, main))

    # --- the decision screen ------------------------------------------------------------------
    def moves(self, legal: list[Action], short: int = 0) -> list[Part]:
        """The human's moves as parts: their race and hand, a prompt's question and why, then the
        numbered moves (a pick shows what its race and power do, a line each). Shorter for a short
        screen: `short` 1 names the regions of a folded move by number alone, 2 cuts each move to
        one line (`moves` lists them whole)."""
        st, v = self.st, self.v
        hint = screen.scoring_hint(st, v)
        s = st.seats[self.human]
        parts = [Part([""], DROP_BLANK)]
        if s.active:
            head = self.t("you.header", combo=combo_name(v, s.active, s.power), hand=s.hand)
            text = head + (f" · {hint}" if hint else "")
            parts.append(Part([self.style.bold(x) for x in wrap(text, self.width, "", "   ")], DROP_YOU))
        if st.pending:
            # A race, power or marker asks something out of the usual turn order; say what and why.
            prompt = st.pending[0]
            rule = prompt_rule(st, prompt)
            question = prompt_text(st, prompt, v)
            ask = self.t("prompt.line", text=question, rule=rule, rule_any=bool(rule))
            lines = [self.style.bold(x) for x in wrap(ask, self.width, "", "   ")]
            parts.append(Part(lines))
            parts.append(Part(wrap(prompt_why(st, prompt, v), self.width, "   ", "   "), DROP_GIST))
        parts.append(Part([self.style.bold(self.t("moves.title"))]))
        self.entries = fold(st, legal, v)
        width = len(str(len(self.entries)))
        for i, entry in enumerate(self.entries, 1):
            head = f"  {str(i).rjust(width)}) "
            text = entry.short if short and entry.short else entry.text
            if short > 1:
                cut = textwrap.shorten(text, max(self.width - len(head), 10), placeholder=" …")
                parts.append(Part([head + cut]))
            else:
                parts.append(Part(wrap(text, self.width, head, " " * (len(head) + 2))))
            combo = pick_combo(st, entry.actions[0])
            if combo is not None:  # what the race and the power do, a line each (`info NAME`: all)
                indent = " " * (len(head) + 2)
                gists = []
                for u in combo[:2]:
                    gist = f"{v.unit(u)}: {first_sentence(v.card(u))}"
                    cut = textwrap.shorten(gist, self.width - len(indent), placeholder=" …")
                    gists.append(self.style.dim(indent + cut))
                parts.append(Part(gists, DROP_GIST, "gists"))
        return parts

    def decision(self, legal: list[Action], view: str) -> list[str]:
        """What the screen shows where the human decides: the bots' summary since the last
        decision, then (for a new turn or step) the turn's title, the players and the combo row,
        then the moves; fitted to the terminal's height so that nothing the decision needs has
        scrolled away (`log` pages the whole game, `board` shows everything)."""
        st, v = self.st, self.v
        self.flush_bots()
        if view != "moves" and self.pending and self.pending[-1] == self.style.dim(self.round_line()):
            self.pending.pop()  # the turn's title says the round
        parts: list[Part] = []
        if view != "moves":
            parts.append(Part([""], DROP_BLANK))
            parts.append(Part(screen.header(st, v, self.style, self.width)))
            # Picking, the moves say what the row says, and what the combos do matters more than
            # the players' table.
            picking = st.phase == PICK_STEP
            table = screen.players(st, v, self.style, self.width)
            parts.append(Part(table, DROP_ROW_PICK if picking else DROP_PLAYERS))
            if st.phase in (PICK_STEP, START_STEP, RISE_STEP):
                drop = DROP_ROW_PICK if picking else DROP_ROW
                parts.append(Part([""], DROP_BLANK))
                parts.append(Part(screen.combos(st, v, self.style, self.width), drop))
        out = self.fitted(parts, legal, summary=True)
        self.pending = []
        return out

    def fitted(self, parts: list[Part], legal: list[Action], summary: bool = False) -> list[str]:
        """What happened since the last decision (`summary`), `parts` and the moves in the
        terminal's height. When they would not fit otherwise: the folded moves name their regions
        by number alone, then the bots' sentences keep what matters most, then each move is cut to
        one line; the parts give way as `fit` says."""
        rows = self.height - 1
        full: list[Part] = []
        for short_summary, short_moves in ((False, 0), (False, 1), (True, 0), (True, 1), (True, 2)):
            told = [Part(self.shown_pending(short_summary))] if summary else []
            full = told + parts + self.moves(legal, short_moves)
            if least(full) <= rows:
                break
        return fit(full, rows, self.t("moves.more", n=len(self.entries)))

    # --- asked questions ------------------------------------------------------------------------
    def which(self, entry: Entry) -> Action | str | None:
        """The region of a folded entry, asked: its number on the board (or its name), one meaning
        only. None (an empty line) goes back to the list; a command (`q`, `save`, ...) is handed
        back to the move prompt, which runs it."""
        names = ", ".join(str(r) for r in entry.regions)
        listed = ", ".join(self.v.region(r) for r in entry.regions)
        self.tell(self.t("fold.regions", regions=listed), "  ")
        while True:
            try:
                line = self.read(self.t("fold.which")).strip()
            except EOFError:
                return None
            if not line:
                return None
            if line.split()[0].lower() in COMMANDS:
                return line
            try:
                r, _ = find_region(self.st, line.split())
            except InputError as e:
                self.refuse(e.words(self.v))
                continue
            if r in entry.regions:
                return entry.actions[entry.regions.index(r)]
            self.refuse(self.t("fold.not_one", region=region_label(self.st, self.v, r), regions=names))

    def yes(self, question: str) -> bool:
        """An explicit yes in the game's language (`answer.yes`); anything else is no."""
        try:
            answer = self.read(question).strip().lower()
        except EOFError:
            return False
        return answer in self.t("answer.yes").split()

    def page_log(self, rest: str) -> None:
        """The whole game in words, a screen at a time (`log`, or `log N` from round N)."""
        lines: list[str] = []
        start = 0
        first = number(rest) if rest else None
        if rest and first is None:
            self.refuse(self.t("log.form"))
            return
        wanted = LOG_ROUND + self.t("round", round=first, rounds=self.st.game.rounds) if first else None
        for entry in self.log:
            if entry == wanted:
                start = len(lines)
            if entry.startswith(LOG_ROUND):
                lines += wrap(entry[len(LOG_ROUND) :], self.width, "", "  ")
            else:
                lines += wrap(entry, self.width, "  ", "      ")
        if not lines:
            self.tell(self.t("log.empty"), "  ")
            return
        page = max(self.height - 2, 4)
        i = start
        while True:
            self.say(*lines[i : i + page])
            i += page
            if i >= len(lines):
                self.tell(self.t("log.end"), "  ", self.style.dim)
                return
            try:
                answer = self.read(self.t("log.more", shown=i, total=len(lines)))
            except EOFError:
                return
            if answer.strip():
                return

    def info(self, name: str) -> None:
        """The rules card of the race, power, artifact or place whose name (in the game's language
        or in English) contains `name`."""
        st, v = self.st, self.v
        if not name:
            self.refuse(self.t("info.which", relics=bool(st.game.relics)))
            return
        english = voice(st.game, DEFAULT, self.human)
        names = {u: {v.unit(u).lower(), english.unit(u).lower()} for u in st.game.units if v.has(u, "card")}
        want = name.lower()
        exact = [u for u, said in names.items() if want in said]
        hits = exact or [u for u, said in names.items() if any(want in x for x in said)]
        if len(hits) != 1:
            listed = ", ".join(sorted(v.unit(u) for u in hits))
            key = "info.several" if hits else "info.none"
            self.refuse(self.t(key, name=typed(name), names=listed, relics=bool(st.game.relics)))
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
            self.say(*wrap(f"{v.unit(uid)}: {v.card(uid)}", self.width, "  ", "    "))

    def help(self) -> None:
        """The rules in brief and the commands, with a region of this map as the example."""
        st, v = self.st, self.v
        m = st.game.map
        land = [r for r in m.regions if r.terrain not in st.game.edition.water] or list(m.regions)
        example = land[min(7, len(land) - 1)]
        text = self.t(
            "help",
            n=example.index,
            name=example.name,
            mountain=v.piece("mountain"),
            relics=bool(st.game.relics),
        )
        self.say(*help_lines(text, self.width))

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        st = self.st
        if not st.is_over():
            self.say(self.style.dim(self.t("round", round=st.round, rounds=st.game.rounds)))
        try:
            while not st.is_over():
                if st.acting_seat == self.human:
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
        self.finish()
        return 0

    def bot_move(self) -> Action:
        st = self.st
        legal = st.legal_actions()
        seat = st.acting_seat
        bot = self.players.get(seat)
        if bot is None:
            return self.bots.choice(legal)
        if seat in self.searching and len(legal) > 1 and seat not in self.thinking:
            # Seconds of search with nothing on screen would read as a hang: said once for each bot
            # between two decisions of the human.
            self.thinking.add(seat)
            self.tell(self.t("bots.thinking", seat=self.v.seat(seat)), "", self.style.dim)
        return bot.choose(view_for(st, seat), list(legal), self.bots)

    def human_turn(self) -> None:
        st = self.st
        self.thinking.clear()
        self.measure()
        if not self.board_shown:
            # The whole board once, before the first decision; then a screen that fits (`board`).
            self.board_shown = True
            self.say("", *screen.board(st, self.v, self.style, self.width))
        legal = st.legal_actions()
        if len(legal) == 1 and legal[0].kind == END and st.phase == CONQUER_STEP and not st.pending:
            # Ending conquests is all that is left (a race's or power's own move, now spent, kept the
            # step open): it ends by itself, as the engine ends it for a seat with nothing in hand.
            self.show_pending()
            self.tell(self.t("auto.end"), "  ")
            self.play(legal[0])
            return
        # A new turn (or a decision in another seat's turn) shows the players and the row again, as
        # does a new step of the turn; each move after that shows the moves.
        key = (st.round, st.turn_seat)
        step = (st.phase, len(st.pending))
        view = "turn" if key != self.shown else "step" if step != self.step else "moves"
        self.shown, self.step = key, step
        self.say(*self.decision(legal, view))
        queued: str | None = None
        while True:
            if queued is not None:
                line, queued = queued, None
            else:
                try:
                    line = self.read(self.t("ask", n=len(self.entries))).strip()
                except EOFError:
                    self.say("")
                    self.tell(self.t("eof", **self.kept()))
                    raise Quit from None
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word, rest = word.lower(), rest.strip()
            if word in ("quit", "exit", "q"):
                self.tell(self.t("bye", **self.kept()))
                raise Quit
            if word in ("help", "h", "?"):
                self.help()
                continue
            if word in ("board", "b"):
                self.say(*screen.full_screen(st, self.v, self.style, self.width))
                self.say(*lines_of(self.moves(legal)))
                continue
            if word in ("map", "look", "l"):
                try:
                    if rest:
                        r, _ = find_region(st, rest.split())
                        self.say(*screen.look(st, self.v, r, self.width, self.style))
                    else:
                        self.say(*screen.region_map(st, self.v, self.width, self.style))
                except InputError as e:
                    self.refuse(e.words(self.v))
                continue
            if word in ("info", "i"):
                self.info(rest)
                continue
            if word in ("moves", "m"):
                self.say(*lines_of(self.moves(legal)))
                continue
            if word in ("cards", "c"):
                self.cards()
                continue
            if word == "log":
                self.page_log(rest)
                self.say(*self.fitted([], legal))
                continue
            if word == "save":
                self.save(Path(rest) if rest else self.save_path)
                continue
            try:
                n = number(line)
                if n is not None:
                    if not 1 <= n <= len(self.entries):
                        raise InputError("input.range", n=len(self.entries))
                    entry = self.entries[n - 1]
                    if len(entry.actions) == 1:
                        actions = [entry.actions[0]]
                    else:
                        chosen = self.which(entry)
                        if isinstance(chosen, str):
                            queued = chosen
                            continue
                        if chosen is None:
                            continue
                        actions = [chosen]
                else:
                    actions = parse_move(st, line)
                for action in actions:
                    self.play(action)
                return
            except InputError as e:
                self.refuse(e.words(self.v))
            except SmallworldError as e:
                # An illegal move's text starts with its rule, e.g. "§6.5: ..."
                self.refuse(self.v.error(e))

    def resume(self, path: Path) -> str:
        """The command that resumes a save of this game (the save holds the seats and the bots)."""
        lang = f" --lang {self.lang}" if self.lang != DEFAULT else ""
        return f"{command_name()} play --load {shlex.quote(str(path))}{lang}"

    def kept(self) -> dict[str, Any]:
        """The parameters `saved` and `command` of a goodbye: is there an autosave to resume?"""
        return {"saved": self.autosaved, "command": self.resume(self.autosave_path)}

    def write_save(self, path: Path) -> None:
        """Write the game to `path` (atomically: `records.save`); the folder `saves/` is created
        when missing, any other folder must exist (a typing slip makes no folders)."""
        self.rec.meta = self.meta()
        folder = path.parent
        if not folder.is_dir():
            if folder != SAVES:
                raise SaveError(self.t("save.no_folder", folder=typed(str(folder), PATH_MAX)))
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                shown = typed(str(path), PATH_MAX)
                raise SaveError(self.t("save.fail", path=shown, error=e.strerror or e)) from None
        try:
            records.save(path, self.rec, self.st)
        except SmallworldError:
            why = self.t("save.unwritable")
            raise SaveError(self.t("save.fail", path=typed(str(path), PATH_MAX), error=why)) from None
        self.written.add(path.resolve())

    def save(self, path: Path) -> None:
        """`save [FILE]`: a file this session did not write is overwritten only on an explicit yes."""
        shown = typed(str(path), PATH_MAX)
        if path.is_dir():
            self.refuse(self.t("save.fail", path=shown, error=self.t("save.is_folder")))
            return
        exists = path.exists() and path.resolve() not in self.written
        if exists:  # the question on lines of its own, so that a long path never breaks the prompt
            self.tell(self.t("save.exists", path=shown), "  ")
        if exists and not self.yes(self.t("save.overwrite")):
            self.tell(self.t("save.kept", path=shown), "  ")
            return
        try:
            self.write_save(path)
        except SaveError as e:
            self.refuse(str(e))
            return
        self.tell(self.t("save.done", path=shown, command=self.resume(path)), "  ")

    def autosave(self) -> None:
        """After each turn of the human; a failure is told once and does not stop the game."""
        if not self.autosaving:
            return
        try:
            self.write_save(self.autosave_path)
        except SaveError as e:
            if not self.autosave_warned:
                self.autosave_warned = True
                self.refuse(str(e))
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
        texts = [(e, self._told(seat, e)) for e in st.events if not told(action.kind, e)]
        self._after(seat, action, before, bool(texts))
        for e, text in texts:
            self._event(seat, turn_seat, e, text)
        if action.kind in (CONQUER, FINAL):
            self._loss(seat, action, before)
        if st.is_over() or st.turn_seat != turn_seat or st.round != rnd:
            if turn_seat == self.human and not st.is_over():
                self.autosave()
            self.flush_bots()
            if not st.is_over() and st.round != rnd:
                self.log.append(LOG_ROUND + self.round_line())
                self.pending.append(self.style.dim(self.round_line()))
            if not st.is_over():
                self._log_turn()

    def round_line(self) -> str:
        return self.t("round", round=self.st.round, rounds=self.st.game.rounds)

    def begin_log(self) -> None:
        """The log's first lines: the round and the turn the game starts in."""
        st = self.st
        self.log.append(LOG_ROUND + self.t("round", round=st.round, rounds=st.game.rounds))
        self._log_turn()

    def _log_turn(self) -> None:
        s = self.st.seats[self.st.turn_seat]
        combo = combo_name(self.v, s.active, s.power) if s.active else ""
        text = self.t("log.turn", combo=combo, combo_any=bool(combo), **self.you(self.st.turn_seat))
        self.log.append(LOG_ROUND + text)

    def _told(self, seat: int, e: dict[str, Any]) -> str:
        """An event in words; a marker that the human turns face up also says what it does (its
        card's gist, which speaks to its holder)."""
        text = event_text(self.st, e, self.v)
        relic = e.get("relic")
        mine = seat == self.human and e.get("type") == REVEAL
        if mine and isinstance(relic, str) and self.v.has(relic, "card"):
            text = self.t("event.gist", text=text, gist=first_sentence(self.v.card(relic)).rstrip("."))
        return text

    def _event(self, actor: int, turn_seat: int, e: dict[str, Any], text: str) -> None:
        """One thing the move set off: said at once when it is the human's, else summarised."""
        seat = e.get("seat")
        if not isinstance(seat, int) or (seat == self.human and turn_seat != self.human):
            seat = actor  # what a bot's move does to the human is part of the bot's turn
        if e.get("type") == "score" and e.get("seat") == self.human:
            coins = self.st.seats[self.human].coins
            earlier = self.t("score.earlier", n=self.earned) if self.earned else ""
            self.earned = 0
            line = f"{text}{earlier}{self.t('score.now', coins=coins)}."
            self.log.append(line)
            self.mine(line, self.style.you)
            return
        self.note(seat, text, main=e.get("type") == "score")

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
            b.combo = combo_name(v, race, power)
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
                main=True,
            )  # fmt: skip
        elif a.kind == DECLINE:
            self.note(seat, self.t("done.decline", race=b.race, **who), main=True)
        elif a.kind == CONQUER:
            text = self.t(
                "done.conquer", region=name, cost=b.cost, dues=b.dues, paying=bool(b.dues),
                hand=st.seats[seat].hand, over=not conquest.conquests_open(st, seat), **{"from": frm}, **who,
            )  # fmt: skip
            if you or r is None:
                self.note(seat, text)
            else:
                # A bot's conquests read as one list in its summary ("conquers 7 Ashen Vale, 9 ...").
                self.log.append(text)
                self._fold(seat)
                self._conquered(seat, r, b)
        elif a.kind == FINAL:
            text = self.t("done.final", region=name, short=b.cost - b.hand, dues=b.dues, paying=bool(b.dues),
                          **{"from": frm}, **who)  # fmt: skip
            if you:
                self.note(seat, text)
            else:
                # A bot's summary tells the die's roll; a region taken joins its conquests.
                self.log.append(text)
                self._fold(seat)
                if r is not None and b.defender != seat and st.owner_seat(st.race[r]) == seat:
                    self._conquered(seat, r, b)
                else:
                    self._conquests(seat)
        elif a.kind == ABANDON:
            self.note(seat, self.t("done.abandon", region=name, **who), main=True)
        elif a.kind == DEPLOY:
            if you and isinstance(a.arg, str) and a.arg != "all" and r is not None:
                # A piece from hand (an Encampment, a Hero...): what is left of that piece.
                left = st.seats[seat].held.get(a.arg, 0)
                self.note(
                    seat,
                    self.t("done.deploy_piece", region=name, piece=v.piece(a.arg), left=left,
                           pieces=v.piece(a.arg, left)),
                )  # fmt: skip
            elif you:
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

    def _conquered(self, seat: int, r: int, b: Before) -> None:
        """A region a bot took, for the list of its conquests ("(yours)" when it was the human's)."""
        short = self.v.region(r)
        if b.defender == self.human:
            short = self.t("note.yours", region=short)
        self.bot_conquered.setdefault(seat, []).append(short)

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
        text = self.t("loss", region=region_label(st, self.v, r), what=what)
        self.log.append(text)
        self.bot_losses.setdefault(seat, []).append(text)

    def finish(self) -> None:
        st, v = self.st, self.v
        self.say("", *screen.full_screen(st, v, self.style, self.width), "")
        self.show_pending()
        self.say("")
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


class SaveError(Exception):
    """A save that could not be written; its message is in the player's language."""


def fit(parts: list[Part], rows: int, more: str) -> list[str]:
    """The lines of `parts` in at most `rows` lines: parts give way by their `drop` order (the
    highest first), then those that fit again come back, the most needed first; when that is not
    enough, the last moves are cut and `more` says so."""
    shown = [bool(p.lines) for p in parts]

    def total() -> int:
        return sum(len(p.lines) for p, on in zip(parts, shown, strict=True) if on)

    for level in sorted({p.drop for p in parts if p.drop}, reverse=True):
        if total() <= rows:
            break
        shown = [on and p.drop != level for p, on in zip(parts, shown, strict=True)]
    for i in sorted(range(len(parts)), key=lambda i: parts[i].drop):
        if not parts[i].drop or shown[i]:
            continue
        together = [j for j, p in enumerate(parts) if p.group and p.group == parts[i].group] or [i]
        if total() + sum(len(parts[j].lines) for j in together) <= rows:
            for j in together:
                shown[j] = True
    for i, p in enumerate(parts):  # a blank line separates what is shown, it never stands alone
        if p.drop == DROP_BLANK and shown[i] and not any(shown[i + 1 : i + 2]):
            shown[i] = False
    out = lines_of([p for p, on in zip(parts, shown, strict=True) if on])
    if len(out) > rows:
        out = [*out[: max(rows - 1, 1)], more]
    return out


def least(parts: list[Part]) -> int:
    """The lines of `parts` once everything that may give way has."""
    return sum(len(p.lines) for p in parts if not p.drop)


def lines_of(parts: list[Part]) -> list[str]:
    out: list[str] = []
    for p in parts:
        out += p.lines
    return out


def help_lines(text: str, width: int) -> list[str]:
    """The help text laid out for the screen: a line "COMMAND<tab>WHAT" becomes two columns, the
    second wrapped under itself; other lines are paragraphs, wrapped."""
    out: list[str] = []
    for line in text.split("\n"):
        if "\t" in line:
            command, what = line.split("\t", 1)
            head = f"  {command.strip():<17} "
            out += wrap(what, width, head, " " * len(head))
        elif line.strip():
            out += wrap(line, width, "", "")
        else:
            out.append("")
    return out


def first_sentence(text: str) -> str:
    """The first sentence of a rules card (its gist)."""
    return re.split(r"(?<=\.)\s", text, maxsplit=1)[0]


def wrap(text: str, width: int, indent: str = "", more: str | None = None) -> list[str]:
    """A sentence folded to the screen's width (the lines after the first indented by `more`,
    two spaces deeper than the first by default); paths, commands and hyphenated names
    (`Sumpf-Orks`) are never cut."""
    return textwrap.wrap(
        text,
        max(width, 20),
        initial_indent=indent,
        subsequent_indent=indent + "  " if more is None else more,
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
    think: float | None = None  # the search bots' seconds a decision


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
    if "bot_seconds" in meta:
        think = meta["bot_seconds"]
        if not isinstance(think, (int, float)) or isinstance(think, bool) or not 0 < think <= THINK_MAX:
            raise PositionError(f"{META}.bot_seconds", f"must be seconds above 0, at most {THINK_MAX:g}")
        out.think = float(think)
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
    """The generator of a seed: the keyed one (`engine/model/keyed_rng.py`, as the server's games) for the
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
        loaded = _load(load, lang, write)
        if loaded is None:
            return None
        rec, st, seats = loaded
        if seat is not None and not 0 <= seat < len(st.seats):
            write(said(lang, "bad.seat", last=len(st.seats) - 1))
            return None
        wrapped(write, said(lang, "load.done", path=typed(str(load), PATH_MAX), n=len(rec.actions)))
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
        write(said(lang, "start.fail", error=error_said(lang, e)))
        return None
    sides = ", ".join(said(lang, "island", name=s.name, id=s.id) for s in st.game.map.sides)
    islands = len(st.game.map.sides) > 1  # several boards are islands; a single one is the map
    wrapped(write, said(lang, "new", players=args.players, sides=sides, islands=islands))
    return st, records.Record(settings), Seating()


def _load(path: Path, lang: str, write: Writer) -> tuple[records.Record, State, Seating] | None:
    """A saved game and its seats; None after the reason it cannot be played was told. A save of
    the previous format (`smallworld-save/1`) is refused with a word on why: its moves were made
    under rules and draws that this version no longer replays, so no migration can rebuild them."""
    shown = typed(str(path), PATH_MAX)
    try:
        data = read_json(path, "save")
        fmt = data.get("format") if isinstance(data, dict) else None
        if fmt in records.OLD_FORMATS:
            wrapped(write, said(lang, "load.old", path=shown, format=fmt))
            return None
        rec, st = records.load(path)
        seats = seating(rec.meta, len(st.seats))
    except PositionError as e:
        if e.field == "state_hash" or (e.field.startswith("actions[") and "replayed" in str(e)):
            wrapped(write, said(lang, "load.replay", path=shown))
        else:
            write(said(lang, "load.fail", path=shown, error=error_said(lang, e)))
        return None
    except SmallworldError as e:
        write(said(lang, "load.fail", path=shown, error=error_said(lang, e)))
        return None
    return rec, st, seats


def narrate(rec: records.Record, human: int, lang: str, width: int) -> list[str]:
    """The log of a loaded game, its moves told again from the start as they were when played."""
    st = Game(rec.settings).new_initial_state()
    teller = Session(st, records.Record(rec.settings), human, SAVES / "unused.json", _no_input, _no_output,
                     screen.Style(False), "random", lang, width=width)  # fmt: skip
    teller.autosaving = False
    teller.begin_log()
    for a in rec.actions:
        teller.play(a)
    return teller.log


def _no_input(_prompt: str) -> str:
    raise EOFError


def _no_output(_line: str) -> None:
    pass


DEFAULT_BOTS = "greedy"  # the opponents of `play` unless --bots says otherwise
# What --bots offers (the others need optional packages); cli.py lists them too, for --help.
PLAY_BOTS = ("random", "greedy", "mcts")
SAVES = Path("saves")  # where `save` writes by default (ignored by git)


def run_play(
    args: argparse.Namespace,
    read: Reader | None = None,
    write: Writer | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Play one game in the terminal; returns the exit code. `read`/`write` replace
    input()/print() (tests script them), on a screen of `size` (columns, lines; 80×24 by default).
    `args.lang` (en, pt, de) is the language of the screen."""
    color = write is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out: Writer = write or (lambda line: print(line, flush=True))
    # The real terminal's size when there is one (at most 120 columns: tables read badly wider).
    width = min(shutil.get_terminal_size((WIDTH, HEIGHT)).columns, 120) - 1 if write is None else WIDTH
    if write is not None and size is not None:
        width = size[0]
    lang = getattr(args, "lang", None) or DEFAULT
    if lang not in LANGS:
        out(said(DEFAULT, "bad.lang", value=typed(str(lang)), known=", ".join(LANGS)))
        return 2
    bots: str | None = getattr(args, "bots", None)
    if bots is not None and bots not in PLAY_BOTS:
        out(said(lang, "bad.bots", bots=bots, known=", ".join(PLAY_BOTS)))
        return 2
    think: float | None = getattr(args, "think", None)
    if think is not None and not 0 < think <= THINK_MAX:
        out(said(lang, "bad.think", value=think, most=THINK_MAX))
        return 2
    save_path = Path(getattr(args, "save", None) or SAVES / "game.json")
    if not save_path.parent.is_dir() and save_path.parent != SAVES:
        out(said(lang, "bad.save", folder=typed(str(save_path.parent), PATH_MAX)))
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
    if think is None:
        think = seats.think if seats.think is not None else THINK
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

    def terminal() -> tuple[int, int]:
        columns, lines = shutil.get_terminal_size((WIDTH, HEIGHT))
        return min(columns, 120) - 1, max(lines, 10)

    live = terminal if write is None else None
    width, height = live() if live else size or (WIDTH, HEIGHT)
    session = Session(st, rec, human, save_path, read or input, out, screen.Style(color), kinds, lang, memory,
                      width, height, live, think)  # fmt: skip
    if rec.actions:
        session.log = narrate(rec, human, lang, width)
    else:
        session.begin_log()
    return session.run()
