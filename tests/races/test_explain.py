"""Every race decision refused with its own rule and reason (the `explain` hook, §8): the answers to a
race's prompt and its own actions never get the generic "must first answer" or "unknown action"."""

from __future__ import annotations

from pathlib import Path

import pytest

from smallworld import scenario
from smallworld.engine.model.errors import IllegalActionError
from smallworld.engine.model.state import State

FILES = Path(__file__).resolve().parent.parent / "scenarios" / "races"


def _state(race: str, name: str, actions: list[str]) -> State:
    st = scenario.build(scenario.load(FILES / race / f"{name}.json"))
    for text in actions:
        st.apply(scenario.to_action(st, text))
    return st


# (folder, file, actions to play first, refused action, rule, words the message must hold)
CASES = [
    ("worgen", "no_coins_no_worgen_form", ["expand"], "form worgen", "§8.16", "1 VC"),
    ("worgen", "expand_asks_form_first", ["expand"], "conquer T:3", "§8.16", "form human"),
    ("forsaken", "buy_more_than_losses_refused", ["end"], "buy 2", "§8.5", "at most 1"),
    ("forsaken", "buy_more_than_losses_refused", ["end"], "deploy T:1", "§8.5", "buy k"),
    ("goblins", "bomb_out_of_reach_refused", ["end", "deploy T:1"], "bomb T:7", "§8.7", "not next to"),
    ("goblins", "bomb_out_of_reach_refused", ["end", "deploy T:1"], "bomb T:1", "§8.7", "no opponent"),
    ("humans", "objective_refused_in_alliance_region", ["end"], "objective T:1", "§8.8", "Alliance"),
    ("gnomes", "second_assault_refused", [], "airborne T:7", "§8.6", "once per turn"),
    ("gnomes", "no_lake_immune_or_own", [], "airborne T:6", "§6.5", "Sea or Lake"),
    ("gnomes", "short_asks_final_or_cancel", ["airborne T:3"], "end", "§8.6", "airborne_final"),
    (
        "ethereals",
        "steal_refused_after_discount",
        ["conquer T:3 ethereals"],
        "steal T:2 doomhammer",
        "§8.4",
        "once per turn",
    ),
    ("ethereals", "face_down_not_eligible", [], "steal T:2 doomhammer", "§8.4", "face-up"),
    ("ethereals", "face_down_not_eligible", [], "conquer T:3 ethereals", "§8.4", "Legendary Place"),
]


@pytest.mark.parametrize(("race", "name", "before", "action", "rule", "words"), CASES)
def test_refused_race_decision_names_its_rule(
    race: str, name: str, before: list[str], action: str, rule: str, words: str
) -> None:
    st = _state(race, name, before)
    snapshot = st.to_json()
    with pytest.raises(IllegalActionError) as info:
        st.apply(scenario.to_action(st, action))
    assert info.value.rule == rule, str(info.value)
    assert words in str(info.value), str(info.value)
    assert st.to_json() == snapshot
