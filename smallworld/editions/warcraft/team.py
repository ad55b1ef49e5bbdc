"""The team variant "Battle for Azeroth" (§11): faction columns, a shared power column, picks paid
to the stash, and faction scores (AMB-37 settles the details the sheet leaves open).

The offer lives in `st.offer` (exact in JSON):

    {"Alliance": [...], "Horde": [...], "Neutral": [...], "powers": [...]}

Each list is a column read top first and then its stack (§11.3 engine model): rows 1-3 are items
0-2 and the stack top (row 4) is item 3, so the first four are visible and `pick N` takes item N
for N VC. Neutral has no stack: its list is the column. The power column is the badge stack, so
`st.power_stack`, `st.race_stack` and `st.row` stay empty in team games; `st.power_discard` is the
badge discard pile as in the standard game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld.editions.warcraft.factions import ALLIANCE, FACTIONS, HORDE, NEUTRAL
from smallworld.engine.model.actions import PICK, Action
from smallworld.engine.model.errors import PositionError, Why
from smallworld.engine.rules.variants.base import Variant

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

POWERS = "powers"
OFFER_KEYS = (*FACTIONS, POWERS)
ROWS = 4  # rows 1-3 of a column plus the stack top (§11.2)

# §11.1: seating order Alliance 1, Horde 1, Neutral, Alliance 2, Horde 2, skipping absent seats.
_SEATING = {
    2: (ALLIANCE, HORDE),
    3: (ALLIANCE, HORDE, NEUTRAL),
    4: (ALLIANCE, HORDE, ALLIANCE, HORDE),
    5: (ALLIANCE, HORDE, NEUTRAL, ALLIANCE, HORDE),
}


def seat_factions(players: int) -> list[str]:
    """The faction of each seat, in seat order (§11.1)."""
    if players not in _SEATING:
        raise PositionError("settings.players", f"the team variant needs 2 to 5 players, got {players}")
    return list(_SEATING[players])


def allies(players: int, seat: int) -> list[int]:
    """The seats of `seat`'s faction, itself included (§11.1)."""
    factions = seat_factions(players)
    return [i for i, f in enumerate(factions) if f == factions[seat]]


def faction_scores(coins: list[int]) -> dict[str, int]:
    """§11.4: a faction scores the lowest score among its players (with one player: that score)."""
    out: dict[str, int] = {}
    for faction, c in zip(seat_factions(len(coins)), coins, strict=True):
        out[faction] = min(out.get(faction, c), c)
    return out


def offer_from_json(st: State, data: Any) -> dict[str, list[str]]:
    """Validate the `offer` of a position (keys left out keep the state's lists)."""
    game = st.game
    if not isinstance(data, dict):
        raise PositionError("position.offer", f"must be an object with keys {list(OFFER_KEYS)}")
    offer = {k: list(v) for k, v in (st.offer or empty_offer()).items()}
    for key, items in data.items():
        where = f"position.offer.{key}"
        if key not in OFFER_KEYS:
            raise PositionError(where, f"unknown column; known: {list(OFFER_KEYS)}")
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise PositionError(where, "must be a list of ids, top first")
        for i, x in enumerate(items):
            if key == POWERS:
                if x not in game.power_value:
                    raise PositionError(f"{where}[{i}]", f"unknown power {x!r}")
            elif x not in game.race_value or game.faction.get(x) != key:
                raise PositionError(f"{where}[{i}]", f"{x!r} is not a {key} race")
        offer[key] = list(items)
    banners = [x for k in FACTIONS for x in offer[k]]
    if len(set(banners)) != len(banners):
        raise PositionError("position.offer", "a banner appears twice")
    if len(set(offer[POWERS])) != len(offer[POWERS]):
        raise PositionError("position.offer.powers", "a badge appears twice")
    return offer


def empty_offer() -> dict[str, list[str]]:
    return {k: [] for k in OFFER_KEYS}


class Team(Variant):
    id = "team"

    def validate(self, players: int) -> None:
        seat_factions(players)

    def setup_offer(self, st: State, banners: list[str], badges: list[str]) -> None:
        # §11.2 shuffles each faction apart; filtering one uniform shuffle by faction gives each
        # faction a uniform order too, and keeps the generator's draws those of the standard setup.
        game = st.game
        seated = seat_factions(game.players)
        offer = empty_offer()
        for race in banners:
            faction = game.faction.get(race)
            if faction is not None and faction in seated:  # 2 or 4 players: Neutral stays in the box
                offer[faction].append(race)
        offer[POWERS] = badges
        # A player picks only in their own faction, and each of them may hold two races (Active
        # and In Decline) while picking again: fewer banners would leave a seat without a pick.
        for faction in set(seated):
            need = 2 * seated.count(faction)
            if len(offer[faction]) < need:
                raise PositionError(
                    "settings.races",
                    f"the team variant needs {need} {faction} banners for {game.players} players, "
                    f"got {len(offer[faction])}",
                )
        st.offer = offer

    def first_seat(self, st: State) -> int | None:
        return 0  # AMB-37: Alliance 1 plays first

    def pick_actions(self, st: State, seat: int) -> list[Action]:
        offer = _offer(st)
        column = offer[seat_factions(st.game.players)[seat]]
        # AMB-37: a row needs both a banner and a badge; its cost is its row, even below gaps.
        rows = min(ROWS, len(column), len(offer[POWERS]), st.seats[seat].coins + 1)
        return [Action(PICK, None, i) for i in range(rows)]

    def take_combo(self, st: State, seat: int, position: int) -> tuple[str, str]:
        offer = _offer(st)
        st.pay(seat, None, position)  # §11.3: paid to the stash, nothing lies on the combos
        race = offer[seat_factions(st.game.players)[seat]].pop(position)
        power = offer[POWERS].pop(position)
        # AMB-37: an exhausted badge stack is rebuilt from the shuffled discards (base rule); the
        # faction columns need nothing, as the rows below move up by the list model itself.
        if len(offer[POWERS]) < ROWS and st.power_discard:
            fresh = st.power_discard
            st.power_discard = []
            st.rng.shuffle(fresh)
            offer[POWERS].extend(fresh)
        return race, power

    def return_banner(self, st: State, race: str) -> None:
        # §11.3 engine model: the end of the faction's list is the bottom of its stack, or the
        # topmost empty slot when the column has a gap (Neutral: always the column).
        faction = st.game.faction.get(race)
        if faction is not None and faction in seat_factions(st.game.players):
            _offer(st)[faction].append(race)

    def winners(self, st: State) -> tuple[list[int], dict[str, Any]]:
        """§11.4: the highest faction score; tie: the higher best individual score; still tied:
        shared. The base tie-break on tokens is not used (AMB-37)."""
        coins = [s.coins for s in st.seats]
        factions = seat_factions(len(coins))
        scores = faction_scores(coins)
        best_individual = {f: max(c for g, c in zip(factions, coins, strict=True) if g == f) for f in scores}
        top = max(scores.values())
        tied = [f for f in scores if scores[f] == top]
        best = max(best_individual[f] for f in tied)
        won = [f for f in tied if best_individual[f] == best]
        seats = [i for i, f in enumerate(factions) if f in won]
        out: dict[str, Any] = {"factions": scores, "winning_factions": won}
        if len(tied) > 1:
            # The figures of the tie-break, in the result only when faction scores tie.
            out["tie_break"] = {
                "rule": "§11.4",
                "by": "best_score",
                "tied": [{"faction": f, "value": best_individual[f]} for f in tied],
                "shared": len(won) > 1,
            }
        return seats, out

    def teams(self, players: int) -> list[Any]:
        return list(seat_factions(players))

    def coins_seen_by(self, st: State, seat: int | None) -> list[int]:
        # §11.1: totals "may be shared between allies at any time"; the engine assumes they are,
        # so allies see each other's coins and everyone else sees none until the end.
        return [] if seat is None else allies(st.game.players, seat)

    def hide(self, view: dict[str, Any], seat: int | None) -> None:
        # Columns are face up; stacks show only their top (row 4), so the rest is a count.
        offer = view.get("offer")
        if isinstance(offer, dict):
            shown: dict[str, Any] = {}
            for key, items in offer.items():
                visible = items if key == NEUTRAL else items[:ROWS]
                shown[key] = {"rows": list(visible), "hidden": len(items) - len(visible)}
            view["offer"] = shown
        view["factions"] = seat_factions(len(view["seats"]))

    def banners_in_the_box(self, game: Any) -> frozenset[str]:
        seated = set(seat_factions(game.players))  # 2 or 4 players: the Neutral banners (§11.2)
        return frozenset(r for r in game.race_pool if game.faction.get(r) not in seated)

    def withdraw_banners(self, st: State, in_play: set[str]) -> None:
        offer = _offer(st)
        for key in FACTIONS:
            offer[key] = [r for r in offer[key] if r not in in_play]

    def withdraw_badges(self, st: State, in_play: set[str]) -> None:
        offer = _offer(st)
        offer[POWERS] = [p for p in offer[POWERS] if p not in in_play]

    def offer_from_json(self, st: State, data: Any) -> dict[str, list[str]] | None:
        return offer_from_json(st, data)

    def combos(self, st: State, seat: int) -> list[tuple[str | None, str | None, int]]:
        offer = _offer(st)
        column = offer[seat_factions(st.game.players)[seat]]
        powers = offer[POWERS]
        return [
            (column[i] if i < len(column) else None, powers[i] if i < len(powers) else None, 0)
            for i in range(ROWS)
        ]

    def explain_pick(self, st: State, seat: int, action: Action) -> Why:
        row = action.arg
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < ROWS:
            return Why(
                "§11.3",
                f"pick needs a row 0..{ROWS - 1} (rows 1-4 of the columns; cost = row number - 1)",
                "edition.team_row",
                most=ROWS - 1,
            )
        offer = _offer(st)
        faction = seat_factions(st.game.players)[seat]
        if row >= len(offer[faction]):
            others = [f for f in FACTIONS if f != faction and row < len(offer[f])]
            elsewhere = (
                f"; the {' and '.join(others)} banner there is not yours: a player picks only from "
                f"their own faction's column"
                if others
                else ""
            )
            return Why(
                "§11.3",
                f"row {row + 1} of the {faction} column (seat {seat}) is empty{elsewhere}",
                "edition.team_row_empty",
                row=row + 1,
                faction=faction,
                others=bool(others),
            )
        if row >= len(offer[POWERS]):
            return Why(
                "§11.3",
                f"row {row + 1} of the power column is empty: a row needs a banner and a badge",
                "edition.team_no_power",
                row=row + 1,
            )
        coins = st.seats[seat].coins
        return Why(
            "§11.3",
            f"row {row + 1} costs {row} VC (paid to the stash) and seat {seat} has {coins}",
            "edition.team_row_cost",
            row=row + 1,
            cost=row,
            coins=coins,
        )


def _offer(st: State) -> dict[str, list[str]]:
    if st.offer is None:  # a team state always has one: setup lays it out
        raise PositionError("position.offer", "a team game needs the faction and power columns")
    return st.offer
