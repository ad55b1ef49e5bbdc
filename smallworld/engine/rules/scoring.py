"""End-of-turn scoring, the Faction Bonus (§6.14, §6.15) and the end of the game (§7)."""

from __future__ import annotations

from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.state import Ph, State


def _relics(st: State, seat: int) -> list[Unit]:
    """Face-up Artifacts and Places whose hooks apply to the seat: owned by its Active race, or
    working for everyone (Well of Eternity, §10.3)."""
    if not st.markers:
        return []
    return [u for u in st.marker_units(seat) if u.kind == "relic"]


def effective_faction(st: State, seat: int, relics: list[Unit] | None = None) -> str | None:
    """The faction the seat's Active race fights for this turn (§6.15, §8.8; the `faction` hook).
    `relics`: `_relics(st, seat)` when the caller has them."""
    s = st.seats[seat]
    if not s.active:
        return None
    game = st.game
    units = game.units
    faction = game.faction.get(s.active)
    changers = game.implementers("faction")
    if not changers:
        return faction  # the hot path: an edition whose factions no unit changes
    if relics is None:
        relics = _relics(st, seat)
    for u in (units[s.active], units[s.power] if s.power else None, *relics):
        if u is not None and u.id in changers:
            faction = u.faction(st, seat, faction)
    return faction


def turn_score(st: State, seat: int) -> dict[str, int]:
    """What `seat` scores now, by item (regions, bonuses, Faction Bonus)."""
    s = st.seats[seat]
    game = st.game
    units = game.units
    out: dict[str, int] = {}
    relics = _relics(st, seat)
    scorers = game.implementers("score")
    if s.active:
        out["active_regions"] = st.race_mask.get(s.active, 0).bit_count()
        for uid in (s.active, s.power):
            if uid and uid in scorers:
                v = units[uid].score(st, seat)
                if v:
                    out[uid] = v
        for u in relics:  # §6.14: Places score for the Active race
            if u.id in scorers:
                v = u.score(st, seat)
                if v:
                    out[u.id] = v
        opposed = game.edition.opposed
        enemy = opposed.get(effective_faction(st, seat, relics) or "") if opposed else None
        if enemy:
            bonus = sum(1 for race in st.turn.took if game.faction.get(race) == enemy)
            if bonus:
                out["faction_bonus"] = bonus
    if s.declined:
        out["declined_regions"] = sum(st.occupied_mask(r).bit_count() for r in s.declined_races())
        pairs = [(s.declined, s.declined_power), *((r, p) for r, p in s.more_declined)]
        declined_scorers = game.implementers("score_declined")
        for uid in (x for pair in pairs for x in pair):
            if uid and uid in declined_scorers:
                v = units[uid].score_declined(st, seat)
                if v:
                    out[f"{uid}_declined"] = v
        for u in relics:  # §6.14: the Well of Eternity also scores for the In-Decline race
            if u.id in declined_scorers:
                v = u.score_declined(st, seat)
                if v:
                    out[f"{u.id}_declined"] = v
    return out


def score_turn(st: State, seat: int) -> int:
    items = turn_score(st, seat)
    total = sum(items.values())
    st.seats[seat].coins += total
    st.turn.scored = items
    return total


def end_game(st: State) -> None:
    """§7 (§11.4 in the team variant): the variant names the winners."""
    winners, extra = st.game.variant.winners(st)
    st.result = {"scores": [s.coins for s in st.seats], "winners": winners, **extra}
    st.phase = Ph.OVER
    st.acting_seat = -1
