"""The initial state of a game (§3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.board_map import bits
from smallworld.engine.constants import MURLOCS
from smallworld.engine.rng import Rng, seed_state
from smallworld.engine.state import State

if TYPE_CHECKING:
    from smallworld.engine.game import Game


def initial_state(game: Game) -> State:
    from smallworld.engine.flow import begin_turn

    st = State(game)
    st.rng = Rng(seed_state(game.settings.seed))
    banners = list(game.race_pool)
    badges = list(game.power_pool)
    st.rng.shuffle(banners)
    st.rng.shuffle(badges)
    game.variant.setup_offer(st, banners, badges)
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
            st.markers[slots[0]] = [[markers.pop(0), False]]
    st.spare_markers = markers
    first = game.options.first_player
    if first is None:
        first = game.variant.first_seat(st)
    st.first_seat = first % game.players if first is not None else st.rng.randbelow(game.players)
    begin_turn(st, st.first_seat)
    return st


def return_banner(st: State, race: str) -> None:
    """A race leaves play: the variant decides where its banner goes (§6.17, §11.3)."""
    st.game.variant.return_banner(st, race)
