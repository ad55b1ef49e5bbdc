"""The play screen as plain text lines: header, players, combo row, board table, moves."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from smallworld.engine import view_for
from smallworld.engine.model.state import State
from smallworld.engine.rules.scoring import turn_score
from smallworld.words.describe import combo_name, combo_tokens, region_label, say, where
from smallworld.words.voice import Voice


class Style:
    """ANSI styling that collapses to plain text when off (not a TTY, or NO_COLOR is set)."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _sgr(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on and text else text

    def bold(self, text: str) -> str:
        return self._sgr("1", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def you(self, text: str) -> str:
        return self._sgr("1;32", text)

    def bad(self, text: str) -> str:
        return self._sgr("31", text)

    def head(self, text: str) -> str:
        return self._sgr("1;36", text)


def blocks(
    rows: Sequence[Sequence[str]],
    indent: str = "  ",
    width: int | None = None,
    align: str = "",
    labels: bool = False,
) -> list[list[str]]:
    """The lines of each row of a table with left-aligned columns (">" in `align` right-aligns that
    column). When the rows are wider than `width`, the columns that do not fit go on a line of their
    own below each row (only when it has something in them), so the table fits the terminal;
    `labels`: each such value is named by its column's header (the first row), which then lists
    only the columns that fit."""
    if not rows:
        return []
    n = len(rows[0])
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    k = n
    if width is not None:
        while k > 2 and len(indent) + sum(widths[:k]) + 2 * (k - 1) > width:
            k -= 1
    under = indent + " " * (widths[0] + 2)
    if labels:  # under the columns that still fit, past the name of the row
        under = indent + " " * (sum(widths[:2]) + 4)
    out = []
    for j, row in enumerate(rows):
        cells = [
            c.rjust(w) if align[i : i + 1] == ">" else c.ljust(w)
            for i, (c, w) in enumerate(zip(row[:k], widths[:k], strict=True))
        ]
        lines = [indent + "  ".join(cells).rstrip()]
        if labels and j == 0:
            out.append(lines)
            continue
        rest = [f"{rows[0][i]}: {c}" if labels else c for i, c in enumerate(row) if i >= k and c]
        if rest:
            lines += textwrap.wrap(
                " · ".join(rest),
                width or 80,
                initial_indent=under,
                subsequent_indent=under + "  ",
                break_on_hyphens=False,
            )
        out.append(lines)
    return out


def table(
    rows: Sequence[Sequence[str]],
    styles: Sequence[Any] | None = None,
    indent: str = "  ",
    width: int | None = None,
    labels: bool = False,
) -> list[str]:
    """`blocks` as lines; styles (one callable or None per row) are applied after padding so escape
    codes never upset the widths."""
    out = []
    for i, lines in enumerate(blocks(rows, indent, width, labels=labels)):
        fn = styles[i] if styles else None
        out += [fn(line) if fn else line for line in lines]
    return out


def header(st: State, v: Voice, style: Style, width: int | None = None) -> list[str]:
    """The turn's title line (two when the terminal is too narrow for it)."""
    text = _header(st, v)
    lines = textwrap.wrap(text, width or len(text), subsequent_indent="   ", break_on_hyphens=False)
    return [style.head(x) for x in lines]


def _header(st: State, v: Voice) -> str:
    game = st.game
    if st.is_over():
        return say(v, "header.over", rounds=game.rounds)
    placing = ""
    if st.acting_seat != st.turn_seat:
        placing = say(v, "header.placing", seat=v.seat(st.acting_seat), seat_you=st.acting_seat == v.viewer)
    return say(
        v,
        "header",
        round=st.round,
        rounds=game.rounds,
        seat=v.seat(st.turn_seat),
        seat_you=st.turn_seat == v.viewer,
        phase=v.phase(st.phase),
        placing=placing,
    )


def _combo(v: Voice, race: str | None, power: str | None) -> str:
    return combo_name(v, race, power)


PLAYER_COLS = ("player", "coins", "regions", "active", "declined", "hand")


def players(st: State, v: Voice, style: Style, width: int | None = None) -> list[str]:
    """A row per seat: coins, regions, the active combo, the race in decline and what is in hand.
    When the table is too wide for the terminal the race in decline is named without its power;
    what still does not fit goes under its row, each value with its column's name ("in hand: 3")
    so that it never reads as another player."""
    human = v.viewer
    view = view_for(st, human)
    rows = [["", *(say(v, f"col.{c}") for c in PLAYER_COLS)]]
    styles: list[Any] = [style.dim]
    short: list[str] = []  # the in-decline column with the races alone
    for i, s in enumerate(st.seats):
        coins = view["seats"][i]["coins"]
        hand = ""
        if s.active:
            active = _combo(v, s.active, s.power)
            held = [f"{n} {v.piece(k, n)}" for k, n in sorted(s.held.items()) if n]
            if s.hand or held:
                hand = " + ".join(([str(s.hand)] if s.hand else []) + held)
        else:
            active = "-"
        regions = st.occupied_mask(s.active).bit_count() + st.occupied_mask(s.declined).bit_count()
        declined = _combo(v, s.declined, s.declined_power) if s.declined else ""
        short.append(v.unit(s.declined) if s.declined else "")
        mark = ">" if i == st.turn_seat and not st.is_over() else ""
        name = v.seat(i)
        if "factions" in view:
            name = say(v, "players.faction", seat=name, faction=v.faction(view["factions"][i]))
        rows.append([mark, name, "?" if coins is None else str(coins), str(regions), active, declined, hand])
        styles.append(style.you if i == human else None)
    # The columns that nobody has anything in (no race in decline, nothing in hand) are left out.
    keep = [i for i in range(len(rows[0])) if i < 5 or any(row[i] for row in rows[1:])]
    if width is not None and 5 in keep and _wide([[row[i] for i in keep] for row in rows]) > width:
        for row, race in zip(rows[1:], short, strict=True):
            row[5] = race
    rows = [[row[i] for i in keep] for row in rows]
    return table(rows, styles, width=width, labels=True)


def _wide(rows: Sequence[Sequence[str]], indent: str = "  ") -> int:
    """The width of a table's lines with every column on them."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    used = [w for w in widths if w]
    return len(indent) + sum(used) + 2 * (len(used) - 1)


def combo_row(
    st: State, v: Voice, style: Style, seat: int | None = None, width: int | None = None
) -> list[str]:
    """The combos `seat` may pick (the standard row, or the seat's faction column in team play)."""
    combos = st.game.variant.combos(st, st.acting_seat if seat is None else seat)
    rows = [[say(v, f"col.{c}") for c in ("pos", "combo", "tokens", "cost", "coins_on")]]
    for pos, (race, power, coins) in enumerate(combos):
        rows.append(
            [
                str(pos + 1),  # counted from 1 as the rulebook does; `pick N` takes the same N
                _combo(v, race, power),
                str(combo_tokens(st, race, power)) if race and power else "",
                str(pos),
                str(coins) if coins else "",
            ]
        )
    return table(rows, [style.dim] + [None] * len(combos), width=width)


def _features(st: State, v: Voice, features: frozenset[str], board: int) -> str:
    """A region's features as they read on the map (a size icon shows its island's size)."""
    size = st.game.map.sides[board].size
    size_word = v.text("edition", f"size.{size}") if v.has("edition", f"size.{size}") else size
    return ", ".join(v.feature(f, size=size_word) for f in sorted(features))


def board(st: State, v: Voice, style: Style, width: int | None = None) -> list[str]:
    """Every region by island: number to type, name, terrain, holder, tokens, then features, pieces
    and markers (on a line below when the terminal is too narrow for them)."""
    human = v.viewer
    m = st.game.map
    # Markers come from the human's view: a face-down one is "?" to everybody (§10.1).
    markers = {m.index(ref): here for ref, here in view_for(st, human)["markers"].items()}
    head = [
        say(v, f"col.{c}") for c in ("n", "region", "terrain", "held", "tok", "features", "pieces", "marker")
    ]
    rows: list[list[str]] = [head]
    kinds: list[str] = ["head"]  # per row: "side", "head", "you", "" (for styling)
    for b, side in enumerate(m.sides):
        rows.append([say(v, "island", name=side.name, id=side.id)])
        kinds.append("side")
        for reg in m.regions:
            if reg.board != b:
                continue
            r = reg.index
            race = st.race[r]
            owner = st.owner_seat(race)
            if race is None:
                who = ""
            elif race == st.game.natives:
                who = v.unit(race)
            else:
                declined = owner is not None and race in st.seats[owner].declined_races()
                who = say(
                    v,
                    "board.declined" if declined else "board.held",
                    seat=v.seat(owner) if owner is not None else "?",
                    race=v.unit(race),
                )
            here = sorted((st.pieces[r] or {}).items())
            pieces = ", ".join(f"{v.piece(k, n)}×{n}" if n > 1 else v.piece(k) for k, n in here)
            marks = ", ".join(
                v.unit(mk["id"]) if mk["face_up"] and mk["id"] else "?" for mk in markers.get(r, [])
            )
            rows.append(
                [
                    str(r),
                    reg.name,
                    v.terrain(reg.terrain),
                    who,
                    str(st.tokens[r]) if race else "",
                    _features(st, v, reg.features, reg.board),
                    pieces,
                    marks,
                ]
            )
            kinds.append("you" if owner == human and race is not None else "")
    laid = iter(blocks([row for row in rows if len(row) > 1], width=width, align=">"))
    out: list[str] = []
    for row, kind in zip(rows, kinds, strict=True):
        if kind == "side":
            out.append(style.bold(f" {row[0]}"))
            continue
        fn = style.dim if kind == "head" else style.you if kind == "you" else None
        out += [fn(line) if fn else line for line in next(laid)]
    return out


def scoring_hint(st: State, v: Voice) -> str | None:
    """What the human would score if the turn ended now (only on their own turn)."""
    human = v.viewer
    if human is None or st.turn_seat != human or st.phase not in ("conquer", "redeploy"):
        return None
    items = turn_score(st, human)
    if not items:
        return None
    text = v.score_items(items)
    return say(v, "scoring.hint", total=sum(items.values()), items=text, items_any=bool(text))


def combos(st: State, v: Voice, style: Style, width: int | None = None) -> list[str]:
    """The combo row with its title (the seat's faction column in team play)."""
    human = v.viewer
    factions = view_for(st, human).get("factions")
    title = (
        say(v, "combos.faction", faction=v.faction(factions[human]))
        if factions and human is not None
        else say(v, "combos.title")
    )
    return [style.bold(title), *combo_row(st, v, style, human, width)]


def full_screen(st: State, v: Voice, style: Style, width: int | None = None) -> list[str]:
    """Everything: the title, the players, the combo row and the whole board (`board`)."""
    out = ["", *header(st, v, style, width), *players(st, v, style, width)]
    if not st.is_over():
        out += ["", *combos(st, v, style, width)]
    out += ["", *board(st, v, style, width)]
    return out


def neighbours(st: State, r: int) -> list[int]:
    """The regions next to `r` (§2.2), by number."""
    return [x for x in range(st.game.map.n) if (st.game.map.adj[r] >> x) & 1]


def region_map(st: State, v: Voice, width: int, style: Style) -> list[str]:
    """Every region with the numbers of the regions next to it, island by island (`map`)."""
    m = st.game.map
    out = ["", style.bold(say(v, "map.title"))]
    for b, side in enumerate(m.sides):
        out.append(style.bold(f" {say(v, 'island', name=side.name, id=side.id)}"))
        for reg in m.regions:
            if reg.board != b:
                continue
            near = ", ".join(str(x) for x in neighbours(st, reg.index))
            text = say(v, "map.line", region=region_label(st, v, reg.index), near=near)
            out += textwrap.wrap(
                text, width, initial_indent="  ", subsequent_indent="      ", break_on_hyphens=False
            )
    return out


def look(st: State, v: Voice, r: int, width: int, style: Style) -> list[str]:
    """One region: what it is, what it holds, and each region next to it with what that holds."""
    m = st.game.map
    reg = m.regions[r]
    markers = view_for(st, v.viewer)["markers"].get(m.ref(r), [])
    here = sorted((st.pieces[r] or {}).items())
    facts = [
        _features(st, v, reg.features, reg.board),
        ", ".join(f"{v.piece(k, n)}×{n}" if n > 1 else v.piece(k) for k, n in here),
        ", ".join(v.unit(mk["id"]) if mk["face_up"] and mk["id"] else "?" for mk in markers),
    ]
    shown = " · ".join(f for f in facts if f)
    head = say(v, "look.title", where=where(st, v, r), facts=shown, facts_any=bool(shown))
    lines = textwrap.wrap(head, width, initial_indent=" ", subsequent_indent="   ", break_on_hyphens=False)
    out = ["", *[style.bold(x) for x in lines]]
    out.append(say(v, "look.next"))
    for x in neighbours(st, r):
        out += textwrap.wrap(
            where(st, v, x), width, initial_indent="    ", subsequent_indent="      ", break_on_hyphens=False
        )
    return out
