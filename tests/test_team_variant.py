"""The team variant "Battle for Azeroth" (§11, AMB-37): seating, faction columns and the shared
power column, picks paid to the stash, returned banners, faction scores, views and JSON."""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from support import play_random, tiny_side

from smallworld import cli
from smallworld.editions.warcraft.team import FACTIONS, Team, faction_scores, seat_factions
from smallworld.engine import Action, Game, IllegalActionError, PositionError, Settings, State, view_for
from smallworld.engine.api.invariants import check_invariants
from smallworld.engine.api.record import Record
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.actions import END
from smallworld.engine.model.edition import get_edition
from smallworld.engine.rules.losses import badge_kept
from smallworld.measure.engine import bench
from smallworld.tui import run_play

ALLIANCE_RACES = {"draenei", "dwarves", "gnomes", "humans", "night_elves", "worgen"}
HORDE_RACES = {"blood_elves", "forsaken", "goblins", "orcs", "tauren", "trolls"}
NEUTRAL_RACES = {"ethereals", "kobolds", "naga", "pandaren"}


def team_game(players: int, seed: int = 1, **extra: Any) -> Game:
    boards = [tiny_side("A", "L"), tiny_side("B")]
    return Game(
        Settings.from_json({"players": players, "seed": seed, "variant": "team", "boards": boards, **extra})
    )


def team_state(players: int, position: dict[str, Any], **extra: Any) -> State:
    """A position of a team game. The positions here give only the columns a test is about (the
    other banners and badges are left out), so they are test fragments: banner and badge
    conservation is checked by the random games below (`check_team`, `check_invariants`)."""
    return state_from_json(team_game(players, **extra), position, fragment=True)


def pick(row: int) -> Action:
    return Action("pick", None, row)


def snapshot(st: State) -> str:
    return json.dumps(st.to_json(), sort_keys=True)


def finish_turn(st: State) -> None:
    """Play the rest of the current turn: end conquests at once, then the first legal choice."""
    seat = st.turn_seat
    while not st.is_over() and st.turn_seat == seat:
        la = st.legal_actions()
        st.apply(Action(END) if Action(END) in la else la[0])


def check_team(st: State) -> None:
    """Team-specific invariants: every banner of a seated faction is in exactly one place (its
    faction's list or a seat of that faction), every badge too (a badge kept beside an In-Decline
    banner, AMB-65, counts there); the standard offer stays empty."""
    game = st.game
    factions = seat_factions(game.players)
    assert st.offer is not None
    assert st.row == [] and st.race_stack == [] and st.power_stack == []
    held: list[str] = []
    for i, s in enumerate(st.seats):
        for race in (s.active, s.declined):
            if race:
                assert game.faction[race] == factions[i], f"seat {i} ({factions[i]}) holds {race}"
                held.append(race)
    for f in FACTIONS:
        assert all(game.faction[r] == f for r in st.offer[f]), f"{f} column: {st.offer[f]}"
    places = Counter(held + [r for f in FACTIONS for r in st.offer[f]])
    for race in game.race_pool:
        want = 1 if game.faction[race] in factions else 0
        assert places[race] == want, f"{race} is in {places[race]} places"
    kept = [s.declined_power for s in st.seats if badge_kept(st, s.declined_power)]  # AMB-65
    badges = Counter(st.offer["powers"] + st.power_discard + [s.power for s in st.seats if s.power] + kept)
    assert badges == Counter(game.power_pool), "every badge is in the column, the discards or in play"


# --- §11.1 seating ----------------------------------------------------------------------------
def test_seat_factions_follow_the_player_count() -> None:
    assert seat_factions(2) == ["Alliance", "Horde"]
    assert seat_factions(3) == ["Alliance", "Horde", "Neutral"]
    assert seat_factions(4) == ["Alliance", "Horde", "Alliance", "Horde"]
    assert seat_factions(5) == ["Alliance", "Horde", "Neutral", "Alliance", "Horde"]
    with pytest.raises(PositionError, match=r"settings\.players"):
        Team().validate(6)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_alliance_1_plays_first_and_every_seat_sees_the_factions(players: int) -> None:
    """AMB-37: seat 0 (Alliance 1) takes the first turn, whatever the seed."""
    for seed in range(4):
        st = Game(Settings(players=players, seed=seed, variant="team")).new_initial_state()
        assert st.first_seat == st.turn_seat == st.acting_seat == 0
        assert st.phase == "pick"
        for seat in (*range(players), None):
            assert view_for(st, seat)["factions"] == seat_factions(players)


def test_team_is_a_registered_variant_and_a_cli_choice() -> None:
    variants = get_edition("warcraft").variants
    assert isinstance(variants["team"], Team)
    assert set(cli.VARIANT_CHOICES) == set(variants)
    assert Settings.from_json({"players": 4, "variant": "team"}).to_json()["variant"] == "team"


# --- §11.2 setup ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_lays_out_the_faction_and_power_columns(players: int) -> None:
    st = Game(Settings(players=players, seed=players, variant="team")).new_initial_state()
    assert st.offer is not None
    assert set(st.offer["Alliance"]) == ALLIANCE_RACES and len(st.offer["Alliance"]) == 6
    assert set(st.offer["Horde"]) == HORDE_RACES and len(st.offer["Horde"]) == 6
    # With 2 or 4 players the Neutral banners go back in the box.
    assert set(st.offer["Neutral"]) == (NEUTRAL_RACES if players in (3, 5) else set())
    assert Counter(st.offer["powers"]) == Counter(st.game.power_pool) and len(st.offer["powers"]) == 20
    assert st.row == [] and st.race_stack == [] and st.power_stack == [] and st.power_discard == []
    assert [s.coins for s in st.seats] == [5] * players
    assert st.legal_actions() == [pick(0), pick(1), pick(2), pick(3)]
    check_invariants(st)
    check_team(st)


def test_setup_shuffle_is_the_standard_shuffle_split_by_faction() -> None:
    """Each faction's order is the engine's one seeded shuffle filtered by faction, so the team
    setup draws exactly what the standard setup draws (same boards, banners, badges, markers)."""
    std = Game(Settings(players=3, seed=12)).new_initial_state()
    team = Game(Settings(players=3, seed=12, variant="team")).new_initial_state()
    banners = [c[0] for c in std.row] + std.race_stack
    badges = [c[1] for c in std.row] + std.power_stack
    assert team.offer is not None
    for f in FACTIONS:
        assert team.offer[f] == [r for r in banners if std.game.faction[r] == f]
    assert team.offer["powers"] == badges
    assert team.markers == std.markers  # only the first player is not drawn (AMB-37)


def test_faction_overrides_move_banners_between_columns() -> None:
    """Factions are content values (§8.0, AMB-04): an override moves the banner to that column."""
    st = team_game(3, values={"races": {"naga": {"faction": "Alliance"}}}).new_initial_state()
    assert st.offer is not None
    assert "naga" in st.offer["Alliance"] and len(st.offer["Alliance"]) == 7
    assert "naga" not in st.offer["Neutral"] and len(st.offer["Neutral"]) == 3


def test_too_few_banners_for_a_faction_is_refused() -> None:
    """Each player may hold two races while picking again, so a faction needs two banners a seat."""
    with pytest.raises(PositionError, match=r"settings\.races"):
        team_game(2, races=["humans", "orcs", "forsaken"]).new_initial_state()
    st = team_game(2, races=["humans", "dwarves", "orcs", "forsaken"]).new_initial_state()
    assert st.offer is not None and sorted(st.offer["Alliance"]) == ["dwarves", "humans"]


# --- §11.3 picking ----------------------------------------------------------------------------
WORKED = {
    "phase": "pick",
    "seats": [{"coins": 5}, {"coins": 5}],
    "regions": {},
    "offer": {
        "Alliance": ["dwarves", "humans", "night_elves", "draenei", "gnomes"],
        "Horde": ["trolls", "orcs", "forsaken", "goblins", "tauren", "blood_elves"],
        "Neutral": [],
        "powers": ["farmer", "enraged", "intimidating", "sailing", "mining", "ranger"],
    },
}


def test_worked_example_every_faction_sees_the_power_column_shift() -> None:
    """§11.3 worked example: Alliance picks row 2, Enraged Humans, paying 1 VC to the stash; the
    Orcs are then Intimidating and the Forsaken Sailing for the Horde player."""
    st = team_state(2, WORKED)
    variant = st.game.variant
    assert variant.combos(st, 1)[1:3] == [("orcs", "enraged", 0), ("forsaken", "intimidating", 0)]
    st.apply(pick(1))
    assert (st.seats[0].active, st.seats[0].power) == ("humans", "enraged")
    assert st.seats[0].coins == 4 and st.seats[1].coins == 5  # the VC went to the stash
    assert st.offer is not None
    assert st.offer["Alliance"] == ["dwarves", "night_elves", "draenei", "gnomes"]
    assert st.offer["powers"] == ["farmer", "intimidating", "sailing", "mining", "ranger"]
    assert st.offer["Horde"] == WORKED["offer"]["Horde"]  # untouched, but its combos changed
    finish_turn(st)
    assert st.turn_seat == 1 and st.phase == "pick"
    assert variant.combos(st, 1)[1:3] == [("orcs", "intimidating", 0), ("forsaken", "sailing", 0)]
    other = st.clone()
    st.apply(pick(1))
    assert (st.seats[1].active, st.seats[1].power) == ("orcs", "intimidating")
    other.apply(pick(2))
    assert (other.seats[1].active, other.seats[1].power) == ("forsaken", "sailing")
    assert other.seats[1].coins == 3


def test_a_player_picks_only_from_their_own_faction() -> None:
    """§11.3: the Horde player sees only the Horde column, even where the Alliance one is fuller."""
    pos = {**WORKED, "turn_seat": 1, "offer": {**WORKED["offer"], "Horde": ["orcs", "trolls"]}}
    st = team_state(2, pos)
    assert st.acting_seat == 1
    assert st.legal_actions() == [pick(0), pick(1)]
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="own faction") as e:
        st.apply(pick(2))
    assert e.value.rule == "§11.3" and "Horde column" in str(e.value)
    assert snapshot(st) == before
    st.apply(pick(0))
    assert st.seats[1].active == "orcs" and st.seats[0].active is None


def test_cost_is_the_row_and_is_paid_to_the_stash() -> None:
    for row in range(4):
        st = team_state(2, WORKED)
        st.apply(pick(row))
        assert [s.coins for s in st.seats] == [5 - row, 5]
        assert st.row == []  # no coins lie on any combo


def test_a_player_who_cannot_pay_cannot_pick_the_row() -> None:
    st = team_state(2, {**WORKED, "seats": [{"coins": 1}, {"coins": 5}]})
    assert st.legal_actions() == [pick(0), pick(1)]
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="costs 2 VC") as e:
        st.apply(pick(2))
    assert e.value.rule == "§11.3"
    assert snapshot(st) == before
    with pytest.raises(IllegalActionError, match=r"row 0\.\.3") as e:
        st.apply(pick(4))
    assert e.value.rule == "§11.3"


def test_a_row_needs_a_banner_and_a_badge() -> None:
    """AMB-37: with no badge stack and no discards the power column has gaps; such rows are not
    available, and the cost still follows the row number."""
    pos = {**WORKED, "offer": {**WORKED["offer"], "powers": ["farmer", "enraged"]}, "power_discard": []}
    st = team_state(2, pos)
    assert st.legal_actions() == [pick(0), pick(1)]
    with pytest.raises(IllegalActionError, match="power column is empty"):
        st.apply(pick(2))
    st.apply(pick(1))
    assert st.offer is not None and st.offer["powers"] == ["farmer"]
    assert st.seats[0].coins == 4


def test_the_faction_column_moves_up_and_reveals_the_stack_top() -> None:
    st = team_state(2, WORKED)
    st.apply(pick(0))
    assert st.offer is not None
    # Rows 1-3 are now humans, night_elves, draenei; the stack top (row 4) shows the gnomes.
    assert st.game.variant.combos(st, 0) == [
        ("humans", "enraged", 0),
        ("night_elves", "intimidating", 0),
        ("draenei", "sailing", 0),
        ("gnomes", "mining", 0),
    ]
    # Without a stack the slot stays empty.
    st2 = team_state(2, {**WORKED, "offer": {**WORKED["offer"], "Alliance": ["dwarves", "humans", "gnomes"]}})
    st2.apply(pick(0))
    assert st2.game.variant.combos(st2, 0)[2:] == [(None, "sailing", 0), (None, "mining", 0)]


def test_the_badge_discards_become_the_new_stack_when_it_runs_out() -> None:
    """AMB-37: when the badge stack runs out the discards are shuffled into a new one (base rule)."""
    discards = ["herbalist", "fishing", "explorer", "defensive"]
    pos = {
        **WORKED,
        "offer": {**WORKED["offer"], "powers": ["farmer", "enraged", "intimidating", "sailing"]},
        "power_discard": discards,
    }
    st = team_state(2, pos)
    again = st.clone()
    st.apply(pick(0))
    assert st.offer is not None
    assert st.offer["powers"][:3] == ["enraged", "intimidating", "sailing"]
    assert sorted(st.offer["powers"][3:]) == sorted(discards)
    assert st.power_discard == []
    again.apply(pick(0))
    assert snapshot(again) == snapshot(st)  # the shuffle comes from the state's generator
    # With a stack left, the discards wait.
    st3 = team_state(2, {**WORKED, "power_discard": discards})
    st3.apply(pick(0))
    assert st3.power_discard == discards


def test_neutral_column_has_no_stack() -> None:
    st = Game(Settings(players=3, seed=2, variant="team")).new_initial_state()
    assert st.offer is not None
    neutral = list(st.offer["Neutral"])
    assert st.game.variant.combos(st, 2) == [
        (r, p, 0) for r, p in zip(neutral, st.offer["powers"][:4], strict=True)
    ]
    for _ in range(2):
        finish_turn(st)
    assert st.acting_seat == 2 and st.phase == "pick"
    row = st.offer["powers"][3]
    st.apply(pick(3))
    assert (st.seats[2].active, st.seats[2].power) == (neutral[3], row)
    assert st.offer["Neutral"] == neutral[:3]
    assert st.game.variant.combos(st, 2)[3][0] is None


# --- §11.3 returned banners ---------------------------------------------------------------------
def test_decline_twice_returns_the_old_banner_to_the_topmost_empty_slot() -> None:
    """§11.3 worked example, second part: an Alliance player declines the Night Elves while the
    Humans are In Decline; the Humans go to the topmost empty slot of the Alliance column."""
    pos = {
        "round": 3,
        "phase": "start",
        "seats": [
            {
                "coins": 9,
                "active": "night_elves",
                "power": "farmer",
                "declined": "humans",
                "declined_power": "enraged",
            },
            {"coins": 7},
        ],
        "regions": {"A:1": {"race": "night_elves", "tokens": 3}, "A:5": {"race": "humans", "tokens": 1}},
        "offer": {
            **WORKED["offer"],
            "Alliance": ["dwarves", "draenei"],
            "powers": ["intimidating", "sailing", "mining", "ranger"],
        },
        "power_discard": ["enraged"],
    }
    # Every banner and badge of this game is named (the invariants are checked at the end).
    races = ["dwarves", "draenei", "night_elves", "humans", *WORKED["offer"]["Horde"]]
    powers = ["farmer", "enraged", "intimidating", "sailing", "mining", "ranger"]
    st = team_state(2, pos, races=races, powers=powers)
    assert st.legal_actions() == [Action("decline"), Action("expand")]
    st.apply(Action("decline"))
    assert st.offer is not None
    assert st.offer["Alliance"] == ["dwarves", "draenei", "humans"]  # row 3, the topmost gap
    assert st.seats[0].declined == "night_elves" and st.seats[0].active is None
    assert st.race[st.game.map.index("A:5")] is None
    check_invariants(st)


def test_a_returned_banner_goes_to_the_bottom_of_a_full_faction_stack() -> None:
    st = team_state(2, WORKED)
    st.game.variant.return_banner(st, "worgen")
    assert st.offer is not None
    assert st.offer["Alliance"] == [*WORKED["offer"]["Alliance"], "worgen"]


def test_returned_neutral_banners_fill_the_column_or_stay_in_the_box() -> None:
    st = team_state(3, {"offer": {"Neutral": ["naga", "kobolds"]}})
    st.game.variant.return_banner(st, "pandaren")
    assert st.offer is not None and st.offer["Neutral"] == ["naga", "kobolds", "pandaren"]
    st4 = team_state(4, {})
    st4.game.variant.return_banner(st4, "pandaren")  # only a position can bring it into play
    assert st4.offer is not None and st4.offer["Neutral"] == []


# --- §11.4 winners ------------------------------------------------------------------------------
def final_state(coins: list[int]) -> State:
    st = team_state(len(coins), {"seats": [{"coins": c} for c in coins]})
    from smallworld.engine.rules.scoring import end_game

    end_game(st)
    return st


def test_worked_example_horde_wins_with_72() -> None:
    """§11.4: Alliance 51 (P1 51, P4 88), Neutral 67, Horde 72 (P2 79, P5 72): the Horde wins."""
    st = final_state([51, 79, 67, 88, 72])
    assert st.result == {
        "scores": [51, 79, 67, 88, 72],
        "winners": [1, 4],
        "factions": {"Alliance": 51, "Horde": 72, "Neutral": 67},
        "winning_factions": ["Horde"],
    }
    assert st.is_over() and st.legal_actions() == []


def test_with_two_or_three_players_a_faction_scores_its_player() -> None:
    assert faction_scores([40, 55]) == {"Alliance": 40, "Horde": 55}
    st = final_state([40, 55, 61])
    assert st.result is not None
    assert st.result["winners"] == [2] and st.result["winning_factions"] == ["Neutral"]


def test_ties_go_to_the_best_individual_score_then_are_shared() -> None:
    st = final_state([50, 50, 60, 55])  # Alliance 50 (best 60), Horde 50 (best 55)
    assert st.result is not None
    assert st.result["winners"] == [0, 2] and st.result["winning_factions"] == ["Alliance"]
    st = final_state([50, 60, 60, 50])
    assert st.result is not None
    assert st.result["winners"] == [0, 1, 2, 3]
    assert st.result["winning_factions"] == ["Alliance", "Horde"]


def test_the_token_tie_break_is_not_used() -> None:
    """AMB-37: a tie on faction and best scores is shared, however many tokens are on the boards."""
    pos = {
        "phase": "start",
        "seats": [{"coins": 30, "active": "humans", "power": "farmer"}, {"coins": 30}],
        "regions": {"A:1": {"race": "humans", "tokens": 5}},
    }
    st = team_state(2, pos)
    from smallworld.engine.rules.scoring import end_game

    end_game(st)
    assert st.result is not None and st.result["winners"] == [0, 1]


# --- hidden information -------------------------------------------------------------------------
def test_views_share_coins_between_allies_and_hide_the_stacks() -> None:
    st = Game(Settings(players=5, seed=3, variant="team")).new_initial_state()
    for i, s in enumerate(st.seats):
        s.coins = 10 + i
    assert st.offer is not None
    for seat, seen in {0: {0, 3}, 1: {1, 4}, 2: {2}, 3: {0, 3}, 4: {1, 4}, None: set()}.items():
        v = view_for(st, seat)
        coins = [s["coins"] for s in v["seats"]]
        assert coins == [10 + i if i in seen else None for i in range(5)]
        assert v["offer"]["Alliance"] == {"rows": st.offer["Alliance"][:4], "hidden": 2}
        assert v["offer"]["Horde"] == {"rows": st.offer["Horde"][:4], "hidden": 2}
        assert v["offer"]["Neutral"] == {"rows": st.offer["Neutral"], "hidden": 0}
        assert v["offer"]["powers"] == {"rows": st.offer["powers"][:4], "hidden": 16}
        text = json.dumps(v)
        for key in ("Alliance", "Horde", "powers"):
            assert json.dumps(st.offer[key][4:]) not in text
        assert "rng" not in v
    st.result = {"scores": [], "winners": []}
    assert [s["coins"] for s in view_for(st, 2)["seats"]] == [10, 11, 12, 13, 14]


def test_standard_views_and_json_are_unchanged() -> None:
    st = Game(Settings(players=3, seed=8)).new_initial_state()
    assert st.offer is None and "offer" not in st.to_json()
    v = view_for(st, 0)
    assert "factions" not in v and "offer" not in v
    assert [s["coins"] for s in v["seats"]] == [5, None, None]
    with pytest.raises(PositionError, match=r"position\.offer"):
        state_from_json(st.game, {"offer": {"powers": []}})


# --- JSON ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_json_round_trip_of_a_team_game_is_exact_at_every_step(players: int) -> None:
    st = Game(Settings(players=players, seed=70 + players, variant="team")).new_initial_state()
    rnd = random.Random(players)
    while not st.is_over():
        data = st.to_json()
        assert "offer" in data
        again = state_from_json(st.game, json.loads(json.dumps(data)))
        assert again.to_json() == data
        la = st.legal_actions()
        assert again.legal_actions() == la
        a = la[rnd.randrange(len(la))]
        st.apply(a)
        again.apply(a)
        assert again.to_json() == st.to_json()
    assert json.loads(json.dumps(st.result)) == st.result


@pytest.mark.parametrize(
    ("offer", "field"),
    [
        ([], "position.offer"),
        ({"Orcs": []}, "position.offer.Orcs"),
        ({"Alliance": "humans"}, "position.offer.Alliance"),
        ({"Alliance": ["orcs"]}, r"position.offer.Alliance\[0\]"),
        ({"Horde": ["orcs", "nobody"]}, r"position.offer.Horde\[1\]"),
        ({"powers": ["enraged", "humans"]}, r"position.offer.powers\[1\]"),
        ({"powers": ["enraged", "enraged"]}, "position.offer.powers"),
        ({"Alliance": ["humans", "humans"]}, "position.offer"),
    ],
)
def test_bad_offers_are_refused_naming_the_field(offer: Any, field: str) -> None:
    game = team_game(3)
    with pytest.raises(PositionError, match=field):
        state_from_json(game, {"offer": offer})


def test_a_position_may_give_only_some_columns() -> None:
    st = team_state(3, {"offer": {"Neutral": ["naga"]}})
    base = team_game(3).new_initial_state()
    assert st.offer is not None and base.offer is not None
    assert st.offer == {**base.offer, "Neutral": ["naga"]}


# --- random complete games ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_team_games_keep_the_invariants_and_replay(players: int, seed: int) -> None:
    cfg = Settings(players=players, seed=100 * players + seed, variant="team")
    st = Game(cfg).new_initial_state()
    rnd = random.Random(seed)
    log: list[Action] = []
    factions = seat_factions(players)
    while not st.is_over():
        la = st.legal_actions()
        a = la[rnd.randrange(len(la))]
        st.apply(a)
        log.append(a)
        check_invariants(st)
        check_team(st)
    assert st.round == {2: 10, 3: 10, 4: 9, 5: 8}[players]
    assert st.result is not None
    won = set(st.result["winning_factions"])
    assert st.result["winners"] == [i for i, f in enumerate(factions) if f in won]
    replayed = Record(cfg, log).replay()
    assert snapshot(replayed) == snapshot(st)
    again, _ = play_random(cfg, seed)
    assert snapshot(again) == snapshot(st)


# --- tools --------------------------------------------------------------------------------------
def test_bench_and_cli_play_team_games(capsys: pytest.CaptureFixture[str]) -> None:
    out = bench(4, 2, seed=3, variant="team")
    assert out["variant"] == "team" and out["games"] == 2 and out["decisions"] > 0
    assert cli.main(["bench", "--players", "4", "--games", "1", "--variant", "team", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "team"
    args = cli.build_parser().parse_args(["play", "--players", "4", "--variant", "team"])
    assert args.variant == "team"


def test_terminal_play_of_a_team_game(tmp_path: Path) -> None:
    """`smallworld play --variant team`: factions in the players table, the seat's faction column as
    the combos, and the faction scores at the end."""
    args = argparse.Namespace(players=4, seed=5, seat=1, load=None, save=tmp_path / "s.json", variant="team")
    out: list[str] = []
    asked = 0

    def answer(prompt: str) -> str:
        nonlocal asked
        asked += 1
        assert asked < 5000
        if prompt.startswith("Which region?"):  # a folded move: the first region it lists
            return next(re.findall(r"Regions of this move: (\d+)", line)[0] for line in reversed(out)
                        if "Regions of this move: " in line)  # fmt: skip
        return "1"

    assert run_play(args, answer, out.append) == 0
    text = "\n".join(out)
    assert "You (Horde)" in text and "Seat 0 (Alliance)" in text
    assert "Combos of your Horde column (a pick pays 1 coin to the stash for each combo above it)" in text
    assert "Faction scores (each the lowest of its players): Alliance" in text
