"""`explain(region)`: the conquest cost term by term, or why a region cannot be attacked (§6.5-§6.7),
always in agreement with the legal actions and their errors."""

from __future__ import annotations

import random
from pathlib import Path

from smallworld import scenario
from smallworld.engine import Game, IllegalActionError, Settings
from smallworld.engine.model.actions import Action
from smallworld.engine.rules.conquest import Attack, cost

SCENARIOS = Path(__file__).parent / "scenarios"


def _conquest_steps(seed: int, players: int) -> list[object]:
    """States of random games in a conquest step of the Active race, with tokens in hand."""
    st = Game(Settings(players=players, seed=seed)).new_initial_state()
    rnd = random.Random(seed)
    out = []
    while not st.is_over():
        if st.phase == "conquer" and not st.pending and st.seats[st.acting_seat].hand:
            out.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rnd.randrange(len(legal))])
    return out


def test_terms_add_up_to_the_cost_and_match_the_legal_actions() -> None:
    """§6.6: each way's terms sum to its cost; the ways are exactly the legal conquests and final
    attempts of the region; a region with no way gives the rule of the error its action would get."""
    checked = refused = 0
    for seed in range(4):
        for st in _conquest_steps(seed, 2 + seed % 3)[::3]:
            legal = {(a.kind, a.region, a.arg) for a in st.legal_actions() if a.kind in ("conquer", "final")}
            att = Attack(st, st.acting_seat)
            for r in range(st.game.map.n):
                info = st.explain(r)
                ways = {(w["kind"], r, w["option"]) for w in info["ways"]}
                assert ways == {x for x in legal if x[1] == r}, (r, info)
                for w in info["ways"]:
                    assert sum(t["value"] for t in w["terms"]) == w["cost"] == cost(st, att, r, w["option"])
                    assert all(t["unit"] for t in w["terms"])
                    checked += 1
                if not info["ways"]:
                    assert info["reasons"] and not info["attackable"]
                    try:
                        st.apply(Action("conquer", r))
                    except IllegalActionError as e:
                        assert e.rule in {x["rule"] for x in info["reasons"]}, (e, info["reasons"])
                    refused += 1
    assert checked > 100 and refused > 100


def test_a_travel_term_and_a_reduction_name_their_units() -> None:
    """§6.5, §6.6: an Entry region reached by travel shows the +1 of the core, a Mountain its +1, a
    defender its tokens, and the Blacksmith's -1 names its unit."""
    data = scenario.load(SCENARIOS / "powers" / "championing" / "targets_adjacent_or_entry.json")
    data["position"]["seats"][0].update(power="blacksmith", hand=6, held={})
    data["position"]["regions"]["T:8"] = {"race": "dwarves", "tokens": 2}
    st = scenario.build(data)
    far = st.explain(st.game.map.index("T:5"))  # Tower: an Entry region not next to Harbor
    terms = [(t["term"], t["value"], t["unit"]) for t in far["ways"][0]["terms"]]
    assert terms == [("base", 2, "core"), ("travel", 1, "core"), ("reduction", -1, "blacksmith")]
    assert far["ways"][0]["cost"] == 2 and far["ways"][0]["kind"] == "conquer"
    peak = st.explain(st.game.map.index("T:8"))  # Peak: a Mountain with 2 Dwarves, not reachable
    assert not peak["ways"] and peak["reasons"][0]["rule"] == "§6.5"
    assert peak["holder"] == {"race": "dwarves", "seat": 1, "tokens": 2}


def test_outside_the_conquest_step_it_says_so() -> None:
    st = Game(Settings(players=3, seed=2)).new_initial_state()
    info = st.explain(0)
    assert not info["attackable"] and info["reasons"][0]["code"] == "not_now"
    assert info["region"] == st.game.map.ref(0)
