"""The initial state of a game (§3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.board_map import bits
from smallworld.engine.constants import MURLOCS
from smallworld.engine.rng import Rng, seed_state
from smallworld.engine.state import State

if TYPE_CHECKING:
    from smallworld.engine.game import Game

ROW_SIZE = 6  # 5 column combos + the two stack tops (§3.2 step 4)


def initial_state(game: Game) -> State:
    from smallworld.engine.flow import begin_turn

    st = State(game)
    st.rng = Rng(seed_state(game.settings.seed))
    banners = list(game.race_pool)
    badges = list(game.power_pool)
    st.rng.shuffle(banners)
    st.rng.shuffle(badges)
    st.race_stack = banners
    st.power_stack = badges
    refill_row(st)
    # §3.2 step 5: one Murloc on every Murloc symbol, as far as the 15 tokens go.
    for r in bits(game.map.murloc_start):
        if st.tray[MURLOCS] > 0 and game.map.regions[r].terrain not in ("Sea", "Lake"):
            st.set_region(r, MURLOCS, 1)
            st.tray[MURLOCS] -= 1
    # §3.2 step 7: the 12 markers shuffled face down, one per board on its size-icon region.
    markers = sorted(game.relics)
    st.rng.shuffle(markers)
    for b in range(len(game.map.sides)):
        slots = [r for r in bits(game.map.size_icon & game.map.board_mask[b])]
        if slots and markers:
            st.markers[slots[0]] = [markers.pop(0), False]
    st.spare_markers = markers
    first = game.options.first_player
    st.first_seat = first % game.players if first is not None else st.rng.randbelow(game.players)
    begin_turn(st, st.first_seat)
    return st


def draw_badge(st: State) -> str | None:
    """Top badge of the stack; when it is empty, the discards are shuffled into a new one (§6.3)."""
    if not st.power_stack and st.power_discard:
        st.power_stack = st.power_discard
        st.power_discard = []
        st.rng.shuffle(st.power_stack)
    return st.power_stack.pop(0) if st.power_stack else None


def refill_row(st: State) -> None:
    """Fill the visible combos from the stack tops, up to six (§6.3 step 4)."""
    while len(st.row) < ROW_SIZE and st.race_stack:
        badge = draw_badge(st)
        if badge is None:
            return
        st.row.append([st.race_stack.pop(0), badge, 0])


def return_banner(st: State, race: str) -> None:
    """A race leaves play: its banner goes to the first empty row slot or under the stack (§6.17)."""
    if st.game.options.returned_banner == "first_empty_slot" and len(st.row) < ROW_SIZE:
        badge = draw_badge(st)
        if badge is not None:
            st.row.append([race, badge, 0])
            return
    st.race_stack.append(race)
