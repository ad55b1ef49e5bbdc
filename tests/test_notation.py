"""Text forms of actions round-trip for every legal action of random games (§6 decisions)."""

from __future__ import annotations

import random

import pytest

from smallworld.engine import Game, IllegalActionError, Settings
from smallworld.engine.api.notation import parse, to_text


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_legal_action_reads_back_from_its_text(players: int) -> None:
    checked = 0
    for seed in range(6):
        st = Game(Settings(players=players, seed=100 + seed)).new_initial_state()
        rnd = random.Random(seed)
        while not st.is_over():
            legal = st.legal_actions()
            for a in legal:
                assert parse(st, to_text(st.game, a)) == a
                checked += 1
            st.apply(legal[rnd.randrange(len(legal))])
    assert checked > 1000


def test_unknown_region_names_its_rule() -> None:
    st = Game(Settings(players=2, seed=1)).new_initial_state()
    st.apply(st.legal_actions()[0])  # pick: now conquests
    with pytest.raises(IllegalActionError, match=r"§2\.2"):
        parse(st, "conquer Nowhere Land")
