"""The seams a second edition needs, proved with a test-only edition (tests/mini_edition.py).

Each test names the difference of the classic game it stands for (classic-rules.md §12) and the
section of warcraft-rules.md that Small World of Warcraft plays instead.
"""

from __future__ import annotations

import mini_edition
import pytest
from support import play_random

from smallworld.engine import Action, Game, IllegalActionError, PositionError, Settings
from smallworld.engine.api.invariants import check_invariants
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.rules.conquest import Attack, cost, targets

ED = mini_edition.EDITION


def _game(**kw: object) -> Game:
    return Game(Settings.from_json({"edition": mini_edition.ID, "players": 2, "seed": 3, **kw}))


def _ref(g: Game, rid: int) -> int:
    return g.map.index(f"MINI:{rid}")


def _position(g: Game, position: dict[str, object]) -> object:
    return state_from_json(g, position)


def test_settings_name_the_edition_and_saves_keep_it() -> None:
    """An edition is chosen in the settings and recorded with them (§3, saves)."""
    s = Settings.from_json({"edition": "mini", "players": 2})
    assert s.edition == "mini" and s.to_json()["edition"] == "mini"
    assert Settings.from_json({"players": 2}).edition == "warcraft"
    with pytest.raises(PositionError, match=r"settings\.edition"):
        Settings.from_json({"edition": "nope", "players": 2})
    with pytest.raises(PositionError, match=r"settings\.players"):
        Settings.from_json({"edition": "mini", "players": 3})  # two banners: the mini edition plays 2


def test_complete_random_games_keep_every_invariant() -> None:
    """A whole game of the mini edition runs on the same engine, seam after seam."""
    kinds: set[str] = set()
    for seed in range(12):
        settings = Settings.from_json({"edition": "mini", "players": 2, "seed": seed})
        st, log = play_random(settings, seed, check=True)
        kinds.update(a.kind for a in log)
        assert st.result is not None
    # The seams were all walked through by random play.
    assert {"rise", "skip", "pass", "decline", "conquer"} <= kinds, kinds


def test_first_conquest_through_a_border_region_without_travel() -> None:
    """Classic §5.2 (Warcraft §6.5 has Entry regions and +1 travel): a race enters the map through a
    region on its border, at the normal cost."""
    g = _game()
    st = _position(
        g,
        {
            "turn_seat": 0,
            "phase": "conquer",
            "seats": [{"active": "gnolls", "power": "stubborn", "hand": 7}, {}],
            "regions": {
                "MINI:2": {"race": "wildlings", "tokens": 1},
                "MINI:5": {"race": "wildlings", "tokens": 1},
            },
        },
    )
    att = Attack(st, 0)
    first = {g.map.regions[r].local_id for r in range(g.map.n) if (targets(st, att) >> r) & 1}
    assert first == {1, 2, 3, 4, 5, 6}  # the border, not the Sea, not the inland regions
    assert cost(st, att, _ref(g, 1)) == 2  # no travel cost
    assert cost(st, att, _ref(g, 3)) == 3  # Mountain +1: the edition's terrain defence
    assert cost(st, att, _ref(g, 2)) == 2  # 2 + 1 wildling - 1 (Gnolls on Tundra, a terrain of its own)


def test_later_conquests_need_adjacency_only() -> None:
    """Classic §5.2: no region is reachable from afar once the race is on the map."""
    g = _game()
    st = _position(
        g,
        {
            "turn_seat": 0,
            "phase": "conquer",
            "seats": [{"active": "gnolls", "power": "stubborn", "hand": 5}, {}],
            "regions": {"MINI:1": {"race": "gnolls", "tokens": 2}},
        },
    )
    att = Attack(st, 0)
    reach = {g.map.regions[r].local_id for r in range(g.map.n) if (targets(st, att) >> r) & 1}
    assert reach == {2, 6, 7}


def test_natives_of_the_edition_start_on_their_symbol_and_never_come_back() -> None:
    """Classic §9 Lost Tribes (Warcraft §3.2 step 5: Murlocs)."""
    g = _game()
    st = g.new_initial_state()
    assert {g.map.regions[r].local_id for r in range(g.map.n) if st.race[r] == "wildlings"} == {2, 5}
    assert st.tray["wildlings"] == 4
    st = _position(
        g,
        {
            "turn_seat": 0,
            "phase": "conquer",
            "seats": [{"active": "gnolls", "power": "stubborn", "hand": 7}, {}],
            "regions": {"MINI:2": {"race": "wildlings", "tokens": 1}},
            "tray": {"wildlings": 5, "gnolls": 5, "wraiths": 12},
        },
    )
    st.apply(Action("conquer", _ref(g, 2)))
    assert st.tray["wildlings"] == 5  # discarded, not returned


def test_no_factions_and_no_markers() -> None:
    """Classic §12: no factions, no Faction Bonus, no Artifacts or Places."""
    g = _game()
    st = g.new_initial_state()
    assert not st.markers and not st.spare_markers and not g.relics
    assert all(f is None for f in g.faction.values())
    st, _log = play_random(Settings.from_json({"edition": "mini", "players": 2, "seed": 5}), 5)
    assert st.result is not None


def test_terrains_and_features_are_the_editions_own() -> None:
    """Open sets (Warcraft §2.3 lists its own): a board with a terrain the edition lacks is refused."""
    side = dict(mini_edition.SIDE, id="X", regions=[dict(r) for r in mini_edition.SIDE["regions"]])
    side["regions"][0]["terrain"] = "Fields"  # a Warcraft terrain, not the mini edition's
    with pytest.raises(PositionError, match=r"settings\.boards\[0\].*terrain"):
        _game(boards=[side])
    assert _game().map.terrain_mask["Tundra"]


def test_in_decline_race_conquers_in_a_phase_of_its_own() -> None:
    """Classic §7 Ghouls (CL-AMB-06): the In-Decline race opens its owner's turn with its own phase;
    its owner may not decline that turn. Warcraft has no such race (§6.16)."""
    g = _game()
    st = _position(
        g,
        {
            "round": 2,
            "turn_seat": 0,
            "phase": "pick",
            "seats": [
                {"declined": "wraiths", "declined_power": "haunting"},
                {"active": "gnolls", "power": "stubborn"},
            ],
            "regions": {
                "MINI:1": {"race": "wraiths", "tokens": 4},
                "MINI:7": {"race": "gnolls", "tokens": 1},
            },
        },
    )
    from smallworld.engine.flow.turn import begin_turn

    begin_turn(st, 0)  # the start of seat 0's turn
    assert st.phase == "rise" and st.legal_actions() == [Action("rise"), Action("skip")]
    st.apply(Action("rise"))
    assert st.phase == "conquer" and st.turn.race == "wraiths" and st.seats[0].hand == 3
    st.apply(Action("conquer", _ref(g, 7)))  # 2 + 1 gnoll: the In-Decline race takes it
    assert st.race[_ref(g, 7)] == "wraiths" and st.seats[1].hand == 0 and st.tray["gnolls"] == 12 - 0
    assert st.phase == "redeploy"  # no token left in hand: its conquests are over
    while st.phase == "redeploy":
        st.apply(st.legal_actions()[0])
    assert st.turn.race is None and st.turn.risen
    assert st.phase == "pick"  # then the player picks as usual
    check_invariants(st)


def test_after_its_phase_the_player_may_not_decline() -> None:
    g = _game()
    st = _position(
        g,
        {
            "round": 2,
            "turn_seat": 0,
            "phase": "start",
            "seats": [
                {
                    "active": "gnolls",
                    "power": "stubborn",
                    "declined": "wraiths",
                    "declined_power": "haunting",
                },
                {},
            ],
            "regions": {
                "MINI:1": {"race": "wraiths", "tokens": 2},
                "MINI:4": {"race": "gnolls", "tokens": 2},
            },
            "turn": {"risen": True},
        },
    )
    assert st.legal_actions() == [Action("expand")]
    with pytest.raises(IllegalActionError) as e:
        st.apply(Action("decline"))
    assert e.value.rule == ED.cite(Rule.DECLINE) == "M§18"  # the edition's own citation


def test_decline_after_scoring() -> None:
    """Classic Stout (§5.4, CL-AMB-15): after a normal turn's scoring the race may decline; the next
    turn begins with a pick. Warcraft declines only instead of expanding (§6.16)."""
    g = _game()
    st = _position(
        g,
        {
            "round": 2,
            "turn_seat": 0,
            "phase": "conquer",
            "seats": [{"active": "gnolls", "power": "stubborn", "hand": 0, "coins": 5}, {}],
            "regions": {"MINI:1": {"race": "gnolls", "tokens": 3}},
        },
    )
    st.apply(Action("end"))
    while st.phase == "redeploy":
        st.apply(st.legal_actions()[0])
    assert st.phase == "after_score" and st.seats[0].coins == 6
    assert st.legal_actions() == [Action("decline"), Action("pass")]
    st.apply(Action("decline"))
    s = st.seats[0]
    assert s.active is None and s.declined == "gnolls" and s.coins == 6  # no second scoring
    assert st.turn_seat == 1


def test_a_second_in_decline_race_through_its_power() -> None:
    """Classic Spirit (§8, test vector 6): its race stays In Decline beside the other; a later
    decline removes the other one, never it. Warcraft: one In-Decline race (§6.16 step 1)."""
    g = _game()
    st = _position(
        g,
        {
            "round": 3,
            "turn_seat": 0,
            "phase": "start",
            "seats": [
                {
                    "active": "wraiths",
                    "power": "haunting",
                    "declined": "gnolls",
                    "declined_power": "stubborn",
                },
                {},
            ],
            "regions": {
                "MINI:1": {"race": "wraiths", "tokens": 2},
                "MINI:4": {"race": "gnolls", "tokens": 1},
            },
        },
    )
    st.apply(Action("decline"))
    s = st.seats[0]
    assert s.declined == "wraiths" and s.more_declined == [["gnolls", "stubborn"]]
    assert st.race[_ref(g, 4)] == "gnolls"  # both stay
    assert st.owner_seat("gnolls") == 0 and sorted(s.declined_races()) == ["gnolls", "wraiths"]
    score = next(e for e in st.events if e["type"] == "score")
    assert score["items"] == {"declined_regions": 2}  # both score
    again = state_from_json(g, st.to_json())
    assert again.to_json() == st.to_json()


def test_the_engine_cites_the_editions_rulebook() -> None:
    """An engine rule broken in the mini edition cites the mini edition's section."""
    g = _game()
    st = g.new_initial_state()
    with pytest.raises(IllegalActionError) as e:
        st.apply(Action("pick", None, 5))
    assert e.value.rule.startswith("M§")


def test_nothing_left_to_pick_passes_the_turn() -> None:
    """With two banners and both in play, a seat with no Active race passes (its In-Decline race still
    scores) instead of being stuck."""
    g = _game()
    st = _position(
        g,
        {
            "round": 2,
            "turn_seat": 0,
            "phase": "pick",
            "seats": [
                {"declined": "gnolls", "declined_power": "stubborn"},
                {"active": "wraiths", "power": "haunting"},
            ],
            "regions": {
                "MINI:1": {"race": "gnolls", "tokens": 1},
                "MINI:4": {"race": "wraiths", "tokens": 2},
            },
            "row": [],
            "race_stack": [],
            "power_stack": ["reckless", "truce"],
            "power_discard": ["stubborn"],
        },
    )
    assert st.legal_actions() == [Action("pass")]
    coins = st.seats[0].coins
    st.apply(Action("pass"))
    assert st.seats[0].coins == coins + 1 and st.turn_seat == 1


def test_games_replay_from_their_seed_and_log() -> None:
    from smallworld.engine.api.record import Record

    settings = Settings.from_json({"edition": "mini", "players": 2, "seed": 11})
    st, log = play_random(settings, 2)
    again = Record(settings, log).replay()
    assert again.to_json() == st.to_json()


def test_a_power_without_the_final_attempt() -> None:
    """Classic Berserk (CL-AMB-26) uses the die its own way: a unit with `final_attempt = False`
    is offered no target-first final attempt (Warcraft §6.10 offers it to every race)."""
    g = _game()
    position = {
        "turn_seat": 0,
        "phase": "conquer",
        "seats": [{"active": "gnolls", "power": "stubborn", "hand": 1}, {}],
        "regions": {"MINI:1": {"race": "gnolls", "tokens": 1}},
        "turn": {"conquests": 1},
    }
    st = _position(g, position)
    assert Action("final", _ref(g, 7)) in st.legal_actions()  # 2 against 1 in hand: shortfall 1
    position["seats"] = [{"active": "gnolls", "power": "reckless", "hand": 1}, {}]
    st = _position(g, position)
    assert Action("final", _ref(g, 7)) not in st.legal_actions()
    with pytest.raises(IllegalActionError) as e:
        st.apply(Action("final", _ref(g, 7)))
    assert e.value.rule == ED.cite(Rule.FINAL)


def test_a_defender_shields_its_regions_from_one_opponent() -> None:
    """Classic Diplomat (CL-AMB-09): the `shielded` defender hook takes the owner's regions out of
    one opponent's targets; another opponent, or the owner's own races, are not bound."""
    g = _game()
    st = _position(
        g,
        {
            "turn_seat": 0,
            "phase": "conquer",
            "seats": [
                {"active": "gnolls", "power": "stubborn", "hand": 6},
                {"active": "wraiths", "power": "truce", "ext": {"truce": {"with": 0}}},
            ],
            "regions": {
                "MINI:1": {"race": "gnolls", "tokens": 1},
                "MINI:7": {"race": "wraiths", "tokens": 1},
            },
            "turn": {"conquests": 1},
        },
    )
    assert Action("conquer", _ref(g, 7)) not in st.legal_actions()
    assert Action("conquer", _ref(g, 2)) in st.legal_actions()
    with pytest.raises(IllegalActionError):
        st.apply(Action("conquer", _ref(g, 7)))
    st.seats[1].ext["truce"]["with"] = 1  # at peace with nobody who attacks now
    assert Action("conquer", _ref(g, 7)) in st.legal_actions()
