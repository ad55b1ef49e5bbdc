"""The play screen as plain text lines: header, players, combo row, board table, moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from smallworld.engine import view_for
from smallworld.engine.scoring import turn_score
from smallworld.engine.state import State
from smallworld.tui.text import combo_tokens, say
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


def table(
    rows: Sequence[Sequence[str]], styles: Sequence[Any] | None = None, indent: str = "  "
) -> list[str]:
    """Left-aligned columns; styles (one callable or None per row) are applied after padding so
    escape codes never upset the widths."""
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for k, row in enumerate(rows):
        line = "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        fn = styles[k] if styles else None
        out.append(indent + (fn(line) if fn else line))
    return out


def header(st: State, v: Voice, style: Style) -> str:
    game = st.game
    if st.is_over():
        return style.head(say(v, "header.over", rounds=game.rounds))
    placing = ""
    if st.acting_seat != st.turn_seat:
        placing = say(v, "header.placing", seat=v.seat(st.acting_seat), seat_you=st.acting_seat == v.viewer)
    return style.head(
        say(
            v,
            "header",
            round=st.round,
            rounds=game.rounds,
            seat=v.seat(st.turn_seat),
            seat_you=st.turn_seat == v.viewer,
            phase=v.phase(st.phase),
            placing=placing,
        )
    )


def _combo(v: Voice, race: str | None, power: str | None) -> str:
    return say(v, "combo", race=v.unit(race), power=v.unit(power))


def players(st: State, v: Voice, style: Style) -> list[str]:
    human = v.viewer
    view = view_for(st, human)
    rows = [["", *(say(v, f"col.{c}") for c in ("player", "coins", "active", "regions", "declined"))]]
    styles: list[Any] = [style.dim]
    for i, s in enumerate(st.seats):
        coins = view["seats"][i]["coins"]
        if s.active:
            active = _combo(v, s.active, s.power)
            held = [f"{n} {v.piece(k, n)}" for k, n in sorted(s.held.items()) if n]
            if s.hand or held:
                active += " " + say(
                    v, "players.hand", items=" + ".join(([str(s.hand)] if s.hand else []) + held)
                )
        else:
            active = "-"
        regions = st.occupied_mask(s.active).bit_count() + st.occupied_mask(s.declined).bit_count()
        declined = _combo(v, s.declined, s.declined_power) if s.declined else "-"
        mark = ">" if i == st.turn_seat and not st.is_over() else ""
        name = v.seat(i)
        if "factions" in view:
            name = say(v, "players.faction", seat=name, faction=v.faction(view["factions"][i]))
        rows.append([mark, name, "?" if coins is None else str(coins), active, str(regions), declined])
        styles.append(style.you if i == human else None)
    return table(rows, styles)


def combo_row(st: State, v: Voice, style: Style, seat: int | None = None) -> list[str]:
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
    return table(rows, [style.dim] + [None] * len(combos))


def _features(st: State, v: Voice, features: frozenset[str], board: int) -> str:
    """A region's features as they read on the map (a size icon shows its island's size)."""
    size = st.game.map.sides[board].size
    size_word = v.text("edition", f"size.{size}") if v.has("edition", f"size.{size}") else size
    return ", ".join(v.feature(f, size=size_word) for f in sorted(features))


def board(st: State, v: Voice, style: Style) -> list[str]:
    """Every region by island: number to type, name, terrain, features, holder, tokens, pieces."""
    human = v.viewer
    m = st.game.map
    # Markers come from the human's view: a face-down one is "?" to everybody (§10.1).
    markers = {m.index(ref): here for ref, here in view_for(st, human)["markers"].items()}
    rows: list[list[str]] = []
    kinds: list[str] = []  # per row: "side", "head", "you", "" (for styling)
    for b, side in enumerate(m.sides):
        rows.append([say(v, "island", name=side.name, id=side.id), "", "", "", "", "", "", ""])
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
                    _features(st, v, reg.features, reg.board),
                    who,
                    str(st.tokens[r]) if race else "",
                    pieces,
                    marks,
                ]
            )
            kinds.append("you" if owner == human and race is not None else "")
    head = [
        say(v, f"col.{c}") for c in ("n", "region", "terrain", "features", "held", "tok", "pieces", "marker")
    ]
    widths = [
        max(len(r[i]) for r in [head, *[x for x, k in zip(rows, kinds, strict=True) if k != "side"]])
        for i in range(len(head))
    ]
    out = ["  " + style.dim("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip())]
    for row, kind in zip(rows, kinds, strict=True):
        if kind == "side":
            out.append(style.bold(f" {row[0]}"))
            continue
        cells = [row[0].rjust(widths[0])] + [c.ljust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        line = "  " + "  ".join(cells).rstrip()
        out.append(style.you(line) if kind == "you" else line)
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


def full_screen(st: State, v: Voice, style: Style) -> list[str]:
    human = v.viewer
    out = ["", header(st, v, style), *players(st, v, style)]
    if st.phase == "pick" or any(c for _r, _p, c in st.row):
        factions = view_for(st, human).get("factions")
        title = (
            say(v, "combos.faction", faction=v.faction(factions[human]))
            if factions and human is not None
            else say(v, "combos.title")
        )
        out += ["", style.bold(title), *combo_row(st, v, style, human)]
    out += ["", *board(st, v, style)]
    return out
