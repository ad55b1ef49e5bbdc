"""The initial state of a game (§3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.flow.turn import begin_turn
from smallworld.engine.model import derived
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.keyed_rng import game_rng
from smallworld.engine.model.state import State

if TYPE_CHECKING:
    from smallworld.engine.api.game import Game


def initial_state(game: Game) -> State:
    st = State(game)
    st.rng = game_rng(game.settings.rng, game.settings.seed)
    banners = list(game.race_pool)
    badges = list(game.power_pool)
    st.rng.shuffle(banners)
    st.rng.shuffle(badges)
    game.variant.setup_offer(st, banners, badges)
    # The natives: one token on every land region with their symbol, as far as the box holds them.
    natives = game.edition.natives
    if natives is not None:
        m = game.map
        for r in bits(m.feature(natives.feature) & ~m.water):
            if st.tray[natives.id] > 0:
                st.set_region(r, natives.id, 1)
                st.tray[natives.id] -= 1
    # The markers shuffled face down, one per board on the region with the marker feature.
    markers = sorted(game.relics)
    st.rng.shuffle(markers)
    feature = game.edition.marker_feature
    if feature is not None:
        for b in range(len(game.map.sides)):
            slots = list(bits(game.map.feature(feature) & game.map.board_mask[b]))
            if slots and markers:
                st.markers[slots[0]] = [[markers.pop(0), False]]
    st.spare_markers = markers
    derived.forget(st)
    first = game.options.first_player
    if first is None:
        first = game.variant.first_seat(st)
    st.first_seat = first % game.players if first is not None else st.rng.randbelow(game.players)
    begin_turn(st, st.first_seat)
    return st
