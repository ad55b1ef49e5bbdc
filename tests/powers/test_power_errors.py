"""Refused power decisions name the rule they break and say why in words (§9.5, §9.13, §9.17, §6.11).

Position files check the rule of a refused action; these tests also read the message, which must
name the regions as players write them (`T:7`, not a flat index) and the reason that applies.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from smallworld import scenario
from smallworld.engine import Action
from smallworld.engine.model.errors import IllegalActionError

T: dict[str, Any] = {
    "id": "T",
    "size": "S",
    "regions": [
        {"id": 1, "name": "Harbor", "terrain": "Fields", "features": ["Entry"], "adjacent": [2, 3]},
        {"id": 2, "name": "Meadow", "terrain": "Fields", "features": ["Magic"], "adjacent": [1, 3, 4]},
        {"id": 3, "name": "Crag", "terrain": "Mountain", "features": [], "adjacent": [1, 2, 4, 5]},
        {"id": 4, "name": "Knoll", "terrain": "Hill", "features": ["Magic"], "adjacent": [2, 3, 5, 6, 7]},
        {"id": 5, "name": "Cove", "terrain": "Swamp", "features": ["Entry"], "adjacent": [3, 4, 6]},
        {"id": 6, "name": "Mere", "terrain": "Lake", "features": [], "adjacent": [4, 5, 7]},
        {"id": 7, "name": "Grove", "terrain": "Forest", "features": [], "adjacent": [4, 6]},
    ],
}


def _state(power: str, regions: dict[str, Any], **seat0: Any):  # type: ignore[no-untyped-def]
    data = {
        "settings": {"players": 2, "seed": 1, "boards": [copy.deepcopy(T)]},
        "position": {
            "round": 2,
            "turn_seat": 0,
            "phase": "conquer",
            "turn": {"conquests": 1},
            "seats": [
                {"active": "orcs", "power": power, "hand": 2, **seat0},
                {"active": "dwarves", "power": "farmer"},
            ],
            "regions": regions,
        },
    }
    return scenario.build(data)


def _refusal(st, action: Action) -> IllegalActionError:  # type: ignore[no-untyped-def]
    """The error refusing `action`, checking that the state is left untouched."""
    before = st.to_json()
    with pytest.raises(IllegalActionError) as info:
        st.apply(action)
    assert st.to_json() == before
    return info.value


ORCS_DWARVES = {
    "T:1": {"race": "orcs", "tokens": 1},
    "T:2": {"race": "dwarves", "tokens": 2},
    "T:7": {"race": "dwarves", "tokens": 1},
}


@pytest.mark.parametrize(
    "action,rule,words",
    [
        (Action("intimidate", 1, 2), "§9.13", "another region of the same race: T:7"),
        (Action("intimidate_remove", 1, "fort"), "§9.13", "holds no Wisp Wall or Fort"),
        (Action("intimidate_troop", 1, 6), "§9.13", "holds no troop"),
        (Action("intimidate", 6, 1), "§9.13", "not an opponent's region adjacent"),
    ],
)
def test_intimidating_refusals(action: Action, rule: str, words: str) -> None:
    err = _refusal(_state("intimidating", ORCS_DWARVES), action)
    assert err.rule == rule and words in str(err)


def test_intimidating_names_the_piece_to_remove() -> None:
    regions = {**ORCS_DWARVES, "T:2": {"race": "dwarves", "tokens": 2, "pieces": {"fort": 1}}}
    st = _state("intimidating", regions)
    err = _refusal(st, Action("intimidate", 1, 6))
    assert err.rule == "§9.13" and "must be removed first" in str(err)
    assert "one of: fort" in str(_refusal(st, Action("intimidate_remove", 1, "wisp_wall")))


@pytest.mark.parametrize(
    "action,rule,words",
    [
        (Action("champion", 5), "§6.5", "Sea or Lake"),
        (Action("champion", 0), "§6.5", "already held by your Active race"),
        (Action("champion", 6), "§6.5", "not adjacent"),
    ],
)
def test_championing_refusals(action: Action, rule: str, words: str) -> None:
    regions = {"T:1": {"race": "orcs", "tokens": 1}, "T:2": {"race": "orcs", "tokens": 1}}
    st = _state("championing", regions, held={"champion": 1})
    err = _refusal(st, action)
    assert err.rule == rule and words in str(err)


def test_portal_refusals() -> None:
    st = _state("portal_mage", {**ORCS_DWARVES, "T:3": {"race": "dwarves", "tokens": 1}})
    err = _refusal(st, Action("portal", 1, 2))
    assert err.rule == "§9.17" and "Magic" in str(err)
    st.apply(Action("end"))
    assert _refusal(st, Action("portal", 1, 3)).rule == "§6.11"


def test_another_seats_power_is_no_answer() -> None:
    """An action of a power the acting seat does not have is refused by the power that declares it,
    citing its section (§9.5 Championing, §9.17 Portal Mage, §9.13 Intimidating)."""
    st = _state("mining", ORCS_DWARVES)
    for a, rule in (
        (Action("champion", 1), "§9.5"),
        (Action("portal", 1, 3), "§9.17"),
        (Action("intimidate", 1, 6), "§9.13"),
    ):
        err = _refusal(st, a)
        assert err.rule == rule, err
        assert {"§9.5": "Championing", "§9.17": "Portal Mage", "§9.13": "Intimidating"}[rule] in str(err), err
