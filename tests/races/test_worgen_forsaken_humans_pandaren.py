"""Unit-level checks of the Worgen (§8.16), Forsaken (§8.5), Humans (§8.8) and Pandaren (§8.13) that
position files cannot express: views, JSON round trips and clones with prompts pending, the loss
count of the Forsaken, a faction changed through the `faction` hook, and random complete games.
The rules themselves are checked by the position files under tests/scenarios/races/."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from support import play_random

from smallworld import scenario
from smallworld.editions.warcraft.factions import HORDE, NEUTRAL
from smallworld.editions.warcraft.races import naga
from smallworld.editions.warcraft.races.forsaken import forced_losses
from smallworld.editions.warcraft.races.humans import OBJECTIVE
from smallworld.engine import Action, Game, Settings, State, view_for
from smallworld.engine.api.notation import parse
from smallworld.engine.api.record import Record
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.hooks import CONQUEST_FIELDS, ConquestInfo, Unit
from smallworld.engine.rules.scoring import effective_faction

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "races"


def _state(rel: str, upto: int | None = None) -> State:
    """The state of a position file after its first `upto` actions (all of them by default)."""
    data = scenario.load(SCENARIOS / rel)
    actions = data.get("actions", [])
    data = {**data, "actions": actions[:upto] if upto is not None else actions}
    outcome = scenario.run(data)
    assert outcome.error is None, outcome.error
    return outcome.state


# Positions with a prompt of each unit waiting for an answer.
PROMPTS = {
    "worgen": ("worgen/expand_asks_form_first.json", 1),
    "forsaken": ("forsaken/vector7_purchase_offer.json", None),
    "humans": ("humans/placement_choices.json", None),
}


@pytest.mark.parametrize("unit", sorted(PROMPTS))
def test_prompt_survives_json_round_trip(unit: str) -> None:
    """§8.16, §8.5, §8.8: a pending prompt is plain data; the restored state offers the same answers."""
    rel, upto = PROMPTS[unit]
    st = _state(rel, upto)
    assert st.pending and st.pending[0]["unit"] == unit
    back = state_from_json(st.game, json.loads(json.dumps(st.to_json())))
    assert back.to_json() == st.to_json()
    assert back.legal_actions() == st.legal_actions()


@pytest.mark.parametrize("unit", sorted(PROMPTS))
def test_answering_a_clone_leaves_the_original(unit: str) -> None:
    """§8.16, §8.5, §8.8: answering a prompt in a clone changes nothing in the state it came from."""
    rel, upto = PROMPTS[unit]
    st = _state(rel, upto)
    before = json.dumps(st.to_json(), sort_keys=True)
    twin = st.clone()
    twin.apply(twin.legal_actions()[0])
    assert json.dumps(st.to_json(), sort_keys=True) == before
    assert twin.to_json() != st.to_json()


def test_prompt_answer_texts_are_arguments_on_a_one_side_map() -> None:
    """§8.5: 'buy 1' names the purchase of one token even on a map where '1' is also a region id."""
    st = _state("forsaken/vector7_purchase_offer.json")
    assert parse(st, "buy 1") == Action("buy", None, 1)
    assert parse(st, "buy 0") == Action("buy", None, 0)


def test_harmony_is_public_in_every_view() -> None:
    """§8.13: Harmony tokens lie on the table: every seat and spectators see who holds one."""
    st = _state("pandaren/harmony_to_unattacked_opponents.json")
    for viewer in (0, 1, 2, None):
        assert view_for(st, viewer)["seats"][0]["ext"] == {"pandaren": {"holders": [2]}}


def test_harmony_lists_are_not_shared_by_clones() -> None:
    """§8.13: a clone's Harmony handout must not leak into the state it was cloned from."""
    data = scenario.load(SCENARIOS / "pandaren/harmony_to_unattacked_opponents.json")
    st = scenario.build(data)
    twin = st.clone()
    for text in data["actions"]:
        twin.apply(scenario.to_action(twin, text))
    assert twin.seats[0].ext == {"pandaren": {"holders": [2]}}
    assert st.seats[0].ext == {}


def _info(**kw: Any) -> ConquestInfo:
    base: dict[str, Any] = dict(
        region=0,
        attacker=0,
        defender_race="orcs",
        defender_seat=1,
        defender_tokens=1,
        was_nonempty=True,
        own_declined=False,
    )
    base.update(kw)
    return ConquestInfo(**base)


def test_conquest_info_json_has_every_field_and_comes_back() -> None:
    """A conquest waiting for a prompt is saved as JSON (`Turn.resume`): `to_json` writes every field
    of the dataclass, those `CONQUEST_FIELDS` declare, and `from_json` reads it back unchanged."""
    info = _info(option="frostmourne", lost=1, prevented="draenei")
    data = info.to_json()
    assert list(data) == [f.name for f in dataclasses.fields(ConquestInfo)]
    assert list(data) == [f.name for f in CONQUEST_FIELDS]
    assert ConquestInfo.from_json(data) == info
    game = Game(Settings(players=2, seed=1))
    m = game.map
    written = info.to_json(m.ref)
    assert written["region"] == m.ref(0)
    assert ConquestInfo.from_json(written, m.index) == info


def test_forced_losses_as_amb31_counts_them() -> None:
    """§8.5, AMB-31: discarded tokens count, own In-Decline tokens and prevented losses do not, and a Beast
    discarded in place of a token does."""
    game = Game(Settings(players=2, seed=1))
    assert forced_losses(game, _info(lost=1)) == 1
    assert forced_losses(game, _info(lost=2)) == 2  # a 2-token In-Decline region
    assert forced_losses(game, _info(defender_race="murlocs", defender_seat=None, lost=1)) == 1
    assert forced_losses(game, _info(lost=2, own_declined=True)) == 0
    assert forced_losses(game, _info(lost=0, prevented="draenei")) == 0
    assert forced_losses(game, _info(lost=0, prevented="beast_master")) == 1


def test_effective_faction_is_the_banner_faction_by_default() -> None:
    """§6.15, §8.8: without a `faction` hook the race fights for its banner's faction."""
    st = _state("humans/naga_conquest_pays_both.json", 0)
    assert effective_faction(st, 0) == NEUTRAL
    assert effective_faction(st, 1) == "Alliance"


class _HordeNaga(Unit):
    """The Naga fighting for the Horde, as the Battleground's `faction` hook makes them. It plays the
    Naga's own hook instead of subclassing the Naga: the optional compiled build's units take no
    interpreted subclasses (only `Unit` does)."""

    id = "naga"
    kind = "race"
    holds_water = True

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        return naga.UNIT.extra_targets(st, seat, first)

    def faction(self, st: State, seat: int, base: str | None) -> str | None:
        return HORDE


def test_neutral_fighting_for_the_horde_gets_nothing_from_an_objective() -> None:
    """§8.8: a Neutral race that declared Horde (Battleground, through the `faction` hook) counts as Horde:
    it takes the Military Objective region for nothing and the objective stays."""
    data = scenario.load(SCENARIOS / "humans/naga_conquest_pays_both.json")
    st = scenario.build(data)
    st.game.set_unit("naga", _HordeNaga())
    assert effective_faction(st, 0) == HORDE
    r = st.game.map.index("T:2")
    st.apply(Action("conquer", r))
    assert [s.coins for s in st.seats] == [5, 5]
    assert st.pieces[r] == {OBJECTIVE: 1}


RACES = (
    "worgen",
    "forsaken",
    "humans",
    "pandaren",
    "orcs",
    "naga",
    "dwarves",
    "trolls",
    "kobolds",
    "tauren",
    "blood_elves",
    "night_elves",
)


def _check(st: State) -> None:
    """The pieces of these races against the box (the engine's invariants run too)."""
    assert st.supply.get(OBJECTIVE, 0) + sum((p or {}).get(OBJECTIVE, 0) for p in st.pieces) == 2
    harmony = [s.ext.get("pandaren", {}).get("holders", []) for s in st.seats]
    assert sum(len(h) for h in harmony) <= 4, "§1.1: 4 Harmony tokens"


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 5), (4, 8), (5, 13)])
def test_random_games_with_these_races(players: int, seed: int) -> None:
    """§5, §1.2: complete games drawing only from these races keep every count and replay exactly."""
    settings = Settings(players=players, seed=seed, races=RACES)
    st, log = play_random(settings, seed, check=True, each=_check)
    replay = Record(settings, log).replay()
    assert json.dumps(replay.to_json(), sort_keys=True) == json.dumps(st.to_json(), sort_keys=True)
    # The games must have gone through these units' prompts, or they checked nothing of them.
    assert {a.kind for a in log} & {"form", "buy", "objective", "objective_done"}
