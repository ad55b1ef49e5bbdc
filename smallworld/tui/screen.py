"""The play screen as plain text lines: header, players, combo row, board table, moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from smallworld.engine import view_for
from smallworld.engine.scoring import turn_score
from smallworld.engine.state import State
from smallworld.tui.events import score_items
from smallworld.tui.text import combo_tokens, piece_name, plural, power_name, race_name, relic_name, seat_name

PHASE_WORDS = {
    "pick": "pick a race and power",
    "start": "decline or expand",
    "conquer": "conquests",
    "redeploy": "redeployment",
    "withdrawn": "withdrawn tokens go back on the board",
    "redeploy_begin": "redeployment",
    "after_conquests": "after conquests",
    "turn_end": "end of turn",
    "score": "end of turn",
    "over": "game over",
}


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


def header(st: State, human: int, style: Style) -> str:
    game = st.game
    if st.is_over():
        return style.head(f"== Game over after {game.rounds} rounds ==")
    who = "Your" if st.turn_seat == human else f"Seat {st.turn_seat}'s"
    phase = PHASE_WORDS.get(st.phase, st.phase.replace("_", " "))
    if st.acting_seat != st.turn_seat:
        phase += f" ({seat_name(st.acting_seat, human)} to place them)"
    return style.head(f"== Round {st.round}/{game.rounds} · {who} turn · {phase} ==")


def players(st: State, human: int, style: Style) -> list[str]:
    view = view_for(st, human)
    rows = [["", "player", "coins", "active race (tokens in hand)", "regions", "in decline"]]
    styles: list[Any] = [style.dim]
    for i, s in enumerate(st.seats):
        coins = view["seats"][i]["coins"]
        if s.active:
            active = f"{race_name(s.active)} + {power_name(s.power)}"
            held = [plural(n, piece_name(k)) for k, n in sorted(s.held.items()) if n]
            if s.hand or held:
                active += f" ({' + '.join(([str(s.hand)] if s.hand else []) + held)} in hand)"
        else:
            active = "-"
        regions = st.occupied_mask(s.active).bit_count() + st.occupied_mask(s.declined).bit_count()
        declined = f"{race_name(s.declined)} + {power_name(s.declined_power)}" if s.declined else "-"
        mark = ">" if i == st.turn_seat and not st.is_over() else ""
        name = seat_name(i, human) + (f" ({view['factions'][i]})" if "factions" in view else "")
        rows.append([mark, name, "?" if coins is None else str(coins), active, str(regions), declined])
        styles.append(style.you if i == human else None)
    return table(rows, styles)


def combo_row(st: State, style: Style, seat: int | None = None) -> list[str]:
    """The combos `seat` may pick (the standard row, or the seat's faction column in team play)."""
    combos = st.game.variant.combos(st, st.acting_seat if seat is None else seat)
    rows = [["pos", "race + power", "tokens", "cost", "coins on it"]]
    for pos, (race, power, coins) in enumerate(combos):
        rows.append(
            [
                str(pos),
                f"{race_name(race)} + {power_name(power)}",
                str(combo_tokens(st, race, power)) if race and power else "",
                str(pos),
                str(coins) if coins else "",
            ]
        )
    return table(rows, [style.dim] + [None] * len(combos))


def _features(st: State, features: frozenset[str], board: int) -> str:
    """A region's features as they read on the map: the size icon shows its island's size letter."""
    words = [f for f in sorted(features) if f != "Size"]
    if "Size" in features:
        words.append(f"size icon {st.game.map.sides[board].size}")
    return ", ".join(words)


def board(st: State, human: int, style: Style) -> list[str]:
    """Every region by island: number to type, name, terrain, features, holder, tokens, pieces."""
    m = st.game.map
    # Markers come from the human's view: a face-down one is "?" to everybody (§10.1).
    markers = {m.index(ref): here for ref, here in view_for(st, human)["markers"].items()}
    rows: list[list[str]] = []
    kinds: list[str] = []  # per row: "side", "head", "you", "" (for styling)
    for b, side in enumerate(m.sides):
        rows.append([f"{side.name} ({side.id})", "", "", "", "", "", "", ""])
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
                who = "Murlocs"
            else:
                who = f"{seat_name(owner, human) if owner is not None else '?'}: {race_name(race)}"
                if owner is not None and st.seats[owner].declined == race:
                    who += " (in decline)"
            here = sorted((st.pieces[r] or {}).items())
            pieces = ", ".join(f"{piece_name(k)}×{n}" if n > 1 else piece_name(k) for k, n in here)
            marks = ", ".join(
                relic_name(st, mk["id"]) if mk["face_up"] and mk["id"] else "?" for mk in markers.get(r, [])
            )
            rows.append(
                [
                    str(r),
                    reg.name,
                    reg.terrain,
                    _features(st, reg.features, reg.board),
                    who,
                    str(st.tokens[r]) if race else "",
                    pieces,
                    marks,
                ]
            )
            kinds.append("you" if owner == human and race is not None else "")
    head = ["#", "region", "terrain", "features", "held by", "tok", "pieces", "marker"]
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


def scoring_hint(st: State, human: int) -> str | None:
    """What the human would score if the turn ended now (only on their own turn)."""
    if st.turn_seat != human or st.phase not in ("conquer", "redeploy"):
        return None
    items = turn_score(st, human)
    if not items:
        return None
    detail = f" ({score_items(st, items)})" if any(items.values()) else ""
    return f"Scoring now: {plural(sum(items.values()), 'coin')}{detail}"


def full_screen(st: State, human: int, style: Style) -> list[str]:
    out = ["", header(st, human, style), *players(st, human, style)]
    if st.phase == "pick" or any(c for _r, _p, c in st.row):
        factions = view_for(st, human).get("factions")
        title = (
            f" Combos of your {factions[human]} column (cost = position, paid to the stash)"
            if factions
            else " Combos (cost = position; pass 1 coin to each combo above)"
        )
        out += ["", style.bold(title), *combo_row(st, style, human)]
    out += ["", *board(st, human, style)]
    return out
