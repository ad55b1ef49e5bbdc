"""A fixed-size observation vector per seat, built from `view_for(st, seat)` only (docs/rl.md).

The vector never reads the State: its dynamic part comes from the seat's view (which already lacks
other players' coins, stack order, face-down marker ids, the generator), and its static part from
the game's map and content values, which every player sees on the table. Seats are listed relative
to the observer (slot 0 = the observer, then clockwise), so one policy plays any seat.

Counts (coins, tokens, pieces) are raw numbers; everything else is 0/1. The layout is a list of
named fields (`ObservationEncoder.fields()`), from which docs/rl.md's table is generated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import PHASES
from smallworld.engine.model.board_map import Map
from smallworld.engine.model.edition import Edition, get_edition
from smallworld.env.encoding import max_regions_in_catalogue

MAX_SEATS = 5
MAX_ROUNDS = 10
PLAYER_COUNTS = (2, 3, 4, 5)
VARIANTS = ("standard", "team")
# Piece kinds known when the layout was fixed; pieces of kinds added later count under "other".
MAX_BOARDS = 5
ROW_SLOTS = 6  # §6.3: the standard row of combos
TEAM_COLUMNS = ("Alliance", "Horde", "Neutral", "powers")
TEAM_ROWS = 4  # §11.2: rows 1-3 plus the stack top
OWNER_CLASSES = (
    "empty",
    "murlocs",
    *(f"active_{k}" for k in range(MAX_SEATS)),
    *(f"declined_{k}" for k in range(MAX_SEATS)),
)
HIGH = 10_000.0  # the Box's upper bound: above any count a game reaches


def vocab(edition: Edition | None = None) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Races, powers and relics in the edition's order (its data files): the one-hot orders."""
    ed = edition or get_edition("warcraft")
    return tuple(ed.races), tuple(ed.powers), tuple(ed.relics)


@dataclass(frozen=True)
class Field:
    name: str
    offset: int  # from the start of its block (a region or seat slot) or of the vector
    size: int
    doc: str


class _Layout:
    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, doc: str) -> int:
        self.fields.append(Field(name, self.size, size, doc))
        self.size += size
        return self.size - size


class ObservationEncoder:
    """Turns one seat's view into a float32 vector of fixed length `size` (see module doc)."""

    version = 1

    def __init__(self, max_regions: int | None = None, edition: Edition | None = None) -> None:
        self.max_regions = max_regions if max_regions is not None else max_regions_in_catalogue()
        ed = edition or get_edition("warcraft")
        self.natives = ed.natives.id if ed.natives is not None else None
        self.races, self.powers, self.relics = vocab(ed)
        self.units = (*self.races, *self.powers, *self.relics)
        self._race_i = {r: i for i, r in enumerate(self.races)}
        self._power_i = {p: i for i, p in enumerate(self.powers)}
        self._relic_i = {m: i for i, m in enumerate(self.relics)}
        self._unit_i = {u: i for i, u in enumerate(self.units)}
        # Terrains, features and piece kinds in the edition's order (sorted names): one-hot orders.
        self.terrains = tuple(sorted(ed.terrains))
        self.features = tuple(sorted(ed.features))
        self.pieces = tuple(sorted(ed.pieces))
        self._piece_i = {p: i for i, p in enumerate(self.pieces)}
        nr, np_, nm, nu = len(self.races), len(self.powers), len(self.relics), len(self.units)
        npc = len(self.pieces) + 1

        g = _Layout()
        self.g_players = g.add("players", len(PLAYER_COUNTS), "one-hot: 2, 3, 4, 5 players")
        self.g_variant = g.add("variant", len(VARIANTS), "one-hot: standard, team")
        self.g_round = g.add("round", MAX_ROUNDS, "one-hot: game turn 1..10")
        self.g_rounds_left = g.add("rounds_left", 1, "count: game turns after this one")
        self.g_phase = g.add("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.g_prompt = g.add("prompt", 1, "1 if a prompt for the observer (or a public one) waits")
        self.g_prompt_unit = g.add("prompt_unit", nu, "one-hot: the unit asking (races, powers, relics)")
        self.g_turn_seat = g.add("turn_seat", MAX_SEATS, "one-hot: whose turn, relative seat")
        self.g_acting_seat = g.add("acting_seat", MAX_SEATS, "one-hot: who decides now, relative seat")
        self.g_first_seat = g.add("first_seat", MAX_SEATS, "one-hot: first player, relative seat")
        self.g_conquests = g.add("turn_conquests", 1, "count: successful conquests this turn")
        self.g_done = g.add("turn_done", 1, "1 once conquests are over this turn")
        self.g_over = g.add("over", 1, "1 when the game is over")
        self.g_stacks = g.add(
            "stacks",
            3,
            "counts: banners in the race stack, badges in the power stack, markers left out of the game",
        )
        self.g_discard = g.add("power_discard", np_, "multi-hot: badges in the discard pile")
        self.g_tray = g.add("tray", nr + 1, "counts: tokens left in each race's tray, then Murlocs")
        self.g_supply = g.add("supply", npc, f"counts: pieces in the box: {', '.join(self.pieces)}, other")

        row = _Layout()
        self.c_present = row.add("present", 1, "1 if the slot holds a combo")
        self.c_race = row.add("race", nr, "one-hot race")
        self.c_power = row.add("power", np_, "one-hot power")
        self.c_coins = row.add("coins", 1, "count: coins lying on the combo")
        self.c_tokens = row.add("tokens", 1, "count: race value + power value")
        self.row_layout = row

        team = _Layout()
        self.t_present = team.add("present", 1, "1 if the row holds an item")
        self.t_race = team.add("race", nr, "one-hot race (faction columns)")
        self.t_power = team.add("power", np_, "one-hot power (power column)")
        self.team_layout = team

        seat = _Layout()
        self.s_present = seat.add("present", 1, "1 if this relative seat is in the game")
        self.s_coins = seat.add("coins", 1, "count: coins, 0 when unknown")
        self.s_coins_known = seat.add("coins_known", 1, "1 if the observer may see these coins")
        self.s_active = seat.add("active_race", nr, "one-hot: Active race")
        self.s_power = seat.add("active_power", np_, "one-hot: its power")
        self.s_declined = seat.add("declined_race", nr, "one-hot: In-Decline race")
        self.s_declined_power = seat.add("declined_power", np_, "one-hot: its power")
        self.s_hand = seat.add("hand", 1, "count: Active-race tokens in hand")
        self.s_held = seat.add("held", npc, "counts: troop pieces in hand, piece order as supply")
        self.s_ally = seat.add("ally", 1, "1 if an ally of the observer (team variant; the observer too)")
        self.s_winner = seat.add("winner", 1, "1 if among the winners (game over)")
        self.seat_layout = seat

        reg = _Layout()
        n = self.max_regions
        self.r_present = reg.add("present", 1, "1 if the slot is a region of this game")
        self.r_board = reg.add("board", MAX_BOARDS, "one-hot: position of its board side in the draw")
        self.r_terrain = reg.add("terrain", len(self.terrains), f"one-hot: {', '.join(self.terrains)}")
        self.r_features = reg.add("features", len(self.features), f"multi-hot: {', '.join(self.features)}")
        self.r_adjacent = reg.add("adjacent", n, "multi-hot: adjacent region slots")
        self.r_owner = reg.add(
            "owner",
            len(OWNER_CLASSES),
            "one-hot: empty, Murlocs, seat k's Active race, seat k's In-Decline "
            "race (k relative, 0 = observer)",
        )
        self.r_race = reg.add("race", nr, "one-hot: the race occupying it (not Murlocs)")
        self.r_tokens = reg.add("tokens", 1, "count: race tokens")
        self.r_pieces = reg.add("pieces", npc, "counts: pieces, piece order as supply")
        self.r_markers = reg.add("markers_up", nm, "multi-hot: face-up Artifact / Place markers")
        self.r_markers_down = reg.add("markers_down", 1, "count: face-down markers (ids unseen)")
        self.region_layout = reg

        self.global_layout = g
        self.row_base = g.size
        self.team_base = self.row_base + ROW_SLOTS * row.size
        self.team_hidden = self.team_base + len(TEAM_COLUMNS) * TEAM_ROWS * team.size
        self.seat_base = self.team_hidden + len(TEAM_COLUMNS)
        self.region_base = self.seat_base + MAX_SEATS * seat.size
        self.size = self.region_base + n * reg.size
        self._map: tuple[Map, np.ndarray] | None = None  # the last map seen and its part (`_map_part`)

    # --- documentation -------------------------------------------------------------------------
    def blocks(self) -> list[tuple[str, int, int, str]]:
        """(name, offset, size, meaning) of the top-level blocks (docs/rl.md)."""
        out = [(f"game.{f.name}", f.offset, f.size, f.doc) for f in self.global_layout.fields]
        out.append(
            (
                "row",
                self.row_base,
                ROW_SLOTS * self.row_layout.size,
                f"{ROW_SLOTS} combo slots (position 0 first) x {self.row_layout.size}: combo fields",
            )
        )
        out.append(
            (
                "team_offer",
                self.team_base,
                len(TEAM_COLUMNS) * TEAM_ROWS * self.team_layout.size,
                f"columns {', '.join(TEAM_COLUMNS)} x {TEAM_ROWS} rows x {self.team_layout.size} team fields",
            )
        )
        out.append(("team_hidden", self.team_hidden, len(TEAM_COLUMNS), "counts: unseen items under each"))
        out.append(
            (
                "seats",
                self.seat_base,
                MAX_SEATS * self.seat_layout.size,
                f"{MAX_SEATS} relative seats (0 = observer) x {self.seat_layout.size}: seat fields",
            )
        )
        out.append(
            (
                "regions",
                self.region_base,
                self.max_regions * self.region_layout.size,
                f"{self.max_regions} region slots (flat map index) x {self.region_layout.size} fields",
            )
        )
        return out

    # --- encoding ------------------------------------------------------------------------------
    def encode(self, view: dict[str, Any], game: Game) -> np.ndarray:
        """The observation of `view["viewer"]`; `game` gives the map and content values only."""
        me = view["viewer"]
        if not isinstance(me, int):
            raise ValueError("observations are per seat: the view of a spectator has no observer")
        gm = game.map
        if gm.n > self.max_regions:
            raise ValueError(f"the map has {gm.n} regions, more than max_regions={self.max_regions}")
        seats: list[dict[str, Any]] = view["seats"]
        n_seats = len(seats)
        o = self._map_part(gm).copy()

        def rel(seat: int) -> int:
            return (seat - me) % n_seats

        def hot(base: int, i: int | None) -> None:
            if i is not None:
                o[base + i] = 1.0

        hot(self.g_players, PLAYER_COUNTS.index(n_seats))
        hot(self.g_variant, VARIANTS.index(game.variant.id) if game.variant.id in VARIANTS else None)
        rnd = int(view["round"])
        hot(self.g_round, min(rnd, MAX_ROUNDS) - 1)
        o[self.g_rounds_left] = max(game.rounds - rnd, 0)
        hot(self.g_phase, PHASES.index(view["phase"]) if view["phase"] in PHASES else None)
        pending = view.get("pending") or []
        if pending:
            o[self.g_prompt] = 1.0
            hot(self.g_prompt_unit, self._unit_i.get(pending[0].get("unit")))
        hot(self.g_turn_seat, rel(view["turn_seat"]))
        if view["acting_seat"] >= 0:
            hot(self.g_acting_seat, rel(view["acting_seat"]))
        hot(self.g_first_seat, rel(view["first_seat"]))
        turn = view.get("turn") or {}
        o[self.g_conquests] = turn.get("conquests", 0)
        o[self.g_done] = float(bool(turn.get("done")))
        over = view.get("result") is not None
        o[self.g_over] = float(over)
        o[self.g_stacks] = _count(view.get("race_stack"))
        o[self.g_stacks + 1] = _count(view.get("power_stack"))
        o[self.g_stacks + 2] = _count(view.get("spare_markers"))
        for p in view.get("power_discard") or []:
            hot(self.g_discard, self._power_i.get(p))
        for race, left in (view.get("tray") or {}).items():
            i = len(self.races) if race == self.natives else self._race_i.get(race)
            if i is not None:
                o[self.g_tray + i] = left
        self._pieces(o, self.g_supply, view.get("supply") or {})

        for k, combo in enumerate((view.get("row") or [])[:ROW_SLOTS]):
            b = self.row_base + k * self.row_layout.size
            o[b + self.c_present] = 1.0
            hot(b + self.c_race, self._race_i.get(combo["race"]))
            hot(b + self.c_power, self._power_i.get(combo["power"]))
            o[b + self.c_coins] = combo.get("coins") or 0
            value = game.race_value.get(combo["race"], 0) + game.power_value.get(combo["power"], 0)
            o[b + self.c_tokens] = value

        offer = view.get("offer")
        if isinstance(offer, dict):
            for c, col in enumerate(TEAM_COLUMNS):
                shown = offer.get(col) or {}
                for k, item in enumerate((shown.get("rows") or [])[:TEAM_ROWS]):
                    b = self.team_base + (c * TEAM_ROWS + k) * self.team_layout.size
                    o[b + self.t_present] = 1.0
                    if col == "powers":
                        hot(b + self.t_power, self._power_i.get(item))
                    else:
                        hot(b + self.t_race, self._race_i.get(item))
                o[self.team_hidden + c] = shown.get("hidden", 0)

        owner_of: dict[str, int] = {}  # race -> owner class index
        factions = view.get("factions")
        winners = set((view.get("result") or {}).get("winners") or [])
        for i, s in enumerate(seats):
            k = rel(i)
            b = self.seat_base + k * self.seat_layout.size
            o[b + self.s_present] = 1.0
            if s.get("coins") is not None:
                o[b + self.s_coins] = s["coins"]
                o[b + self.s_coins_known] = 1.0
            hot(b + self.s_active, self._race_i.get(str(s.get("active"))))
            hot(b + self.s_power, self._power_i.get(str(s.get("power"))))
            hot(b + self.s_declined, self._race_i.get(str(s.get("declined"))))
            hot(b + self.s_declined_power, self._power_i.get(str(s.get("declined_power"))))
            o[b + self.s_hand] = s.get("hand") or 0
            self._pieces(o, b + self.s_held, s.get("held") or {})
            if isinstance(factions, list) and factions[i] == factions[me]:
                o[b + self.s_ally] = 1.0
            if i in winners:
                o[b + self.s_winner] = 1.0
            if s.get("active"):
                owner_of[s["active"]] = 2 + k
            if s.get("declined"):
                owner_of[s["declined"]] = 2 + MAX_SEATS + k

        regions = view.get("regions") or {}
        markers = view.get("markers") or {}
        stride = self.region_layout.size
        for reg in gm.regions:
            b = self.region_base + reg.index * stride
            entry = regions.get(reg.ref)
            race = entry.get("race") if entry else None
            if race is None:
                owner = 0
            elif race == self.natives:
                owner = 1
            else:
                owner = owner_of.get(race, 0)
                hot(b + self.r_race, self._race_i.get(race))
            o[b + self.r_owner + owner] = 1.0
            if entry:
                o[b + self.r_tokens] = entry.get("tokens") or 0
                self._pieces(o, b + self.r_pieces, entry.get("pieces") or {})
            for m in markers.get(reg.ref) or []:
                if m.get("face_up") and m.get("id") is not None:
                    hot(b + self.r_markers, self._relic_i.get(m["id"]))
                else:
                    o[b + self.r_markers_down] += 1.0
        return o

    def _map_part(self, gm: Map) -> np.ndarray:
        """A vector holding only what the map fixes (each region's slot, board, terrain, features and
        neighbours), the same at every ply: made once per map, copied by each `encode`."""
        if self._map is not None and self._map[0] is gm:
            return self._map[1]
        o = np.zeros(self.size, dtype=np.float32)
        stride = self.region_layout.size
        for reg in gm.regions:
            b = self.region_base + reg.index * stride
            o[b + self.r_present] = 1.0
            if reg.board < MAX_BOARDS:
                o[b + self.r_board + reg.board] = 1.0
            if reg.terrain in self.terrains:
                o[b + self.r_terrain + self.terrains.index(reg.terrain)] = 1.0
            for f in reg.features:
                if f in self.features:
                    o[b + self.r_features + self.features.index(f)] = 1.0
            adj = gm.adj[reg.index]
            while adj:
                low = adj & -adj
                o[b + self.r_adjacent + low.bit_length() - 1] = 1.0
                adj ^= low
        self._map = (gm, o)
        return o

    def _pieces(self, o: np.ndarray, base: int, counts: dict[str, int]) -> None:
        for kind, c in counts.items():
            o[base + self._piece_i.get(kind, len(self.pieces))] += c


def _count(x: Any) -> int:
    if isinstance(x, dict):
        return int(x.get("count", 0))
    return len(x) if isinstance(x, list) else 0
