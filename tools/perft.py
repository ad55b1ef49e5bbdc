"""Perft: legal-move counts to a fixed depth from fixed positions, frozen as a test oracle.

perft(state, depth) is the number of leaves of the tree of legal action sequences of that depth:
perft(s, 0) = 1, a game-over state is a leaf at any depth (perft(over, d) = 1), and otherwise
perft(s, d) = sum of perft(s after a, d - 1) over `legal_actions(s)`. The engine is deterministic
(die rolls come from the generator stored in the state), so the counts are exact and reproducible;
they change only when a rule changes what is legal, or what follows an action.

    python tools/perft.py                 # table: position, depth, count, seconds
    python tools/perft.py --write         # recompute and rewrite tests/perft/perft.json
    python tools/perft.py --check         # compare with the frozen file; exit 1 on a difference
    python tools/perft.py --divide ID     # perft(depth - 1) after each legal action of one position
    python tools/perft.py --depth 4 --only new-2p-standard-s1   # explore other depths (no writing)

The positions are `CATALOGUE` below: new games, positions of the project's position files
(`tests/scenarios/`, after some of the file's own actions) and positions reached by a fixed script
from a new game. Each is described by how to rebuild it, never copied, so the oracle stays small.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python tools/perft.py` from a checkout without an installed package
    sys.path.insert(0, str(ROOT))

from smallworld import scenario  # noqa: E402
from smallworld.engine import Action, Game, Settings, State  # noqa: E402
from smallworld.engine.api.notation import to_text  # noqa: E402
from smallworld.engine.flow.turn import apply_unchecked, legal_actions  # noqa: E402

SCENARIOS = ROOT / "tests" / "scenarios"
ORACLE = ROOT / "tests" / "perft" / "perft.json"
FORMAT = "smallworld-perft/1"
DEFINITION = (
    "counts[d - 1] = perft(position, d): leaves of the tree of legal action sequences of length d "
    "(flow.legal_actions, state.clone, flow.apply_unchecked); a game-over state is a leaf at any depth"
)

Source = dict[str, Any]


# --- counting --------------------------------------------------------------------------------
def perft(st: State, depth: int) -> int:
    """Leaves of the tree of legal action sequences of `depth` from `st` (not changed)."""
    if depth == 0 or st.is_over():
        return 1
    total = 0
    for a in legal_actions(st):
        child = st.clone()
        apply_unchecked(child, a)
        total += perft(child, depth - 1)
    return total


def perft_counts(st: State, depth: int) -> list[int]:
    """[perft(st, 1), ..., perft(st, depth)] in one walk of the depth-`depth` tree."""
    counts = [0] * (depth + 1)

    def walk(node: State, level: int) -> None:
        if node.is_over():  # a leaf at every depth from its own level on
            for d in range(level, depth + 1):
                counts[d] += 1
            return
        counts[level] += 1
        if level == depth:
            return
        for a in legal_actions(node):
            child = node.clone()
            apply_unchecked(child, a)
            walk(child, level + 1)

    walk(st, 0)
    return counts[1:]


def divide(st: State, depth: int) -> list[tuple[str, int]]:
    """perft(depth - 1) after each legal action: where two engines (or two commits) differ."""
    out = []
    for a in legal_actions(st):
        child = st.clone()
        apply_unchecked(child, a)
        out.append((to_text(st.game, a), perft(child, depth - 1)))
    return out


# --- positions -------------------------------------------------------------------------------
POLICIES: dict[str, Callable[[list[Action]], Action]] = {
    "first": lambda la: la[0],  # the first legal action (in the start step: decline)
    "middle": lambda la: la[len(la) // 2],  # the legal action at index n // 2 (start step: expand)
}


def new_game(source: Source) -> State:
    g = source["new_game"]
    settings = Settings(
        players=g["players"],
        seed=g["seed"],
        variant=g.get("variant", "standard"),
        edition=g.get("edition", "warcraft"),
    )
    return Game(settings).new_initial_state()


def scenario_key(data: dict[str, Any], applied: int) -> dict[str, Any]:
    """What a position file's position depends on (its title, rules and expectations do not count)."""
    keys = ("settings", "fragment", "position", "rolls")
    key = {k: data[k] for k in keys if k in data}
    key["actions"] = data.get("actions", [])[:applied]
    return key


def scenario_digest(path: str, applied: int) -> str:
    """A short hash of what the position of `path` after `applied` actions is built from."""
    key = scenario_key(scenario.load(SCENARIOS / path), applied)
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def build(source: Source) -> State:
    """The position a source describes:

    - `{"new_game": {"players", "seed", "variant"}}`: a new game's initial state;
    - `{"scenario": PATH, "applied": N}`: the position file `tests/scenarios/PATH` after its first N
      actions (applied with the checked `State.apply`);
    - `{"new_game": ..., "policy": "first" | "middle", "plies": N}`: a new game after N actions, each
      chosen by the policy among the legal actions;
    - `{"new_game": ..., "actions": [TEXT, ...]}`: a new game after a fixed list of text actions.
    """
    if "scenario" in source:
        data = scenario.load(SCENARIOS / source["scenario"])
        st = scenario.build(data)
        for item in data.get("actions", [])[: source["applied"]]:
            st.apply(scenario.to_action(st, item))
        return st
    st = new_game(source)
    if "policy" in source:
        choose = POLICIES[source["policy"]]
        for _ in range(source["plies"]):
            st.apply(choose(legal_actions(st)))
    for text in source.get("actions", []):
        st.apply(scenario.to_action(st, text))
    return st


@dataclass(frozen=True)
class Position:
    id: str
    description: str
    source: Source
    depth: int


def _new(players: int, seed: int, variant: str = "standard", edition: str = "warcraft") -> Source:
    game: dict[str, Any] = {"players": players, "seed": seed, "variant": variant}
    if edition != "warcraft":  # the Warcraft entries keep the source they were frozen with
        game["edition"] = edition
    return {"new_game": game}


def _file(path: str, applied: int) -> Source:
    return {"scenario": path, "applied": applied}


# A fixed game of 2 players, seed 3 (55 actions, into round 4): seat 1 picks Kobolds + Beast Master
# (3rd combo) and conquers with a final attempt; seat 0 picks Draenei + Sailing and seat 1 redeploys
# its withdrawn tokens; seat 1 conquers with Frostmourne; seat 1 declines in round 3 and seat 0 wipes
# out the In-Decline Kobolds; seat 1 picks Humans + Marshdweller in round 4 and ends its turn at the
# Humans' Military Objective prompt.
SCRIPT_2P_SEED3 = [
    "pick 2", "conquer L1b:11", "conquer L1b:10", "conquer S1b:2", "final S1b:1",
    *["deploy S1b:1"] * 6,
    "pick 2", "conquer S1b:2", "conquer S1b:1",
    *["deploy S1b:2"] * 10,
    *["deploy L1b:11"] * 6,
    "expand", "conquer S1b:3", "conquer S1b:1", "conquer L1b:9 frostmourne", "deploy L1b:11 all",
    "deploy S1b:2 all",
    "expand", "conquer S1b:3", "conquer S1b:1", "conquer S1b:4", "final S1b:5", "deploy S1b:3 all",
    "decline",
    "expand", "abandon S1b:1", "conquer S1b:7", "conquer L1b:11", "conquer L1b:10", "deploy S1b:3 all",
    "pick 3", "conquer S1b:2", "conquer S1b:1", "conquer S1b:4", "deploy S1b:2 all", "deploy S1b:3 all",
]  # fmt: skip

CATALOGUE: list[Position] = [
    # 1. New games: the pick step, then the first conquests on the drawn boards.
    Position(
        "new-2p-standard-s1", "new 2-player game, seed 1: pick, first conquests, redeployment", _new(2, 1), 4
    ),
    Position("new-2p-standard-s7", "new 2-player game, seed 7 (other boards and row)", _new(2, 7), 4),
    Position("new-3p-standard-s1", "new 3-player game, seed 1", _new(3, 1), 3),
    Position("new-3p-standard-s7", "new 3-player game, seed 7", _new(3, 7), 4),
    Position("new-4p-standard-s1", "new 4-player game, seed 1", _new(4, 1), 3),
    Position("new-5p-standard-s1", "new 5-player game, seed 1: the largest map", _new(5, 1), 3),
    Position(
        "new-2p-team-s1", "team variant (§11), 2 players, seed 1: faction columns", _new(2, 1, "team"), 3
    ),
    Position("new-3p-team-s1", "team variant, 3 players, seed 1: a Neutral seat", _new(3, 1, "team"), 3),
    Position("new-4p-team-s1", "team variant, 4 players, seed 1", _new(4, 1, "team"), 3),
    Position("new-4p-team-s2", "team variant, 4 players, seed 2", _new(4, 2, "team"), 3),
    Position("new-5p-team-s1", "team variant, 5 players, seed 1", _new(5, 1, "team"), 3),
    # 2. Positions of the project's position files (tests/scenarios/PATH after N of its actions).
    Position(
        "options-ethereals-frostmourne",
        "conquest step with named options: ethereals, frostmourne and ethereals+frostmourne per target",
        _file("races/ethereals/discount_with_frostmourne.json", 0),
        4,
    ),
    Position(
        "options-ethereals-steal-doomhammer",
        "Ethereals after stealing the Doomhammer: doomhammer option and the steal action",
        _file("races/ethereals/once_per_turn_steal_then_discount.json", 1),
        4,
    ),
    Position(
        "gnomes-airborne-frostmourne",
        "Gnomes' airborne assault on any region, with and without Frostmourne; the short-by-1..3 prompt",
        _file("races/gnomes/airborne_final_with_frostmourne.json", 0),
        4,
    ),
    Position(
        "gnomes-airborne-prompt",
        "the airborne assault's prompt: airborne_final (second roll) or airborne_cancel",
        _file("races/gnomes/toll_paid_at_declaration.json", 1),
        4,
    ),
    Position(
        "ashes-frostmourne",
        "Ashes of Al'ar with Frostmourne: many targets, each with its frostmourne option",
        _file("relics/ashes_of_alar/with_frostmourne.json", 0),
        4,
    ),
    Position(
        "doomhammer-tauren",
        "Doomhammer option for Tauren (two tokens placed), then the defender's withdrawn tokens",
        _file("relics/doomhammer/tauren_place_two.json", 0),
        4,
    ),
    Position(
        "final-vector8",
        "§14 vector 8: three final die attempts (shortfall 1..3, the first roll scripted) or end",
        _file("core/final/vector8_roll_3_succeeds.json", 0),
        4,
    ),
    Position(
        "redeploy-step",
        "redeployment after a conquest and end: one token or all tokens into each held region",
        _file("core/redeploy/step_choices.json", 2),
        4,
    ),
    Position(
        "withdrawn-two-defenders",
        "two defenders redeploy their withdrawn tokens in turn, clockwise (§6.9)",
        _file("core/losses/withdrawn_second_defender.json", 3),
        4,
    ),
    Position(
        "withdrawn-beast",
        "a defender redeploys withdrawn tokens and a withdrawn Beast (deploy r beast)",
        _file("powers/beast_master/withdrawn_beast_redeployed_by_owner.json", 3),
        4,
    ),
    Position(
        "goblins-bombs",
        "the Goblins' end-of-turn bomb placement prompt (bomb r / bomb_done)",
        _file("races/goblins/place_from_top_then_stop.json", 1),
        4,
    ),
    Position(
        "worgen-form",
        "the Worgen form prompt right after picking",
        _file("races/worgen/choose_right_after_picking.json", 1),
        4,
    ),
    Position(
        "forsaken-purchase",
        "the Forsaken purchase prompt before redeployment, capped by the tray",
        _file("races/forsaken/tray_caps_purchase.json", 2),
        4,
    ),
    Position(
        "intimidating-tauren",
        "Intimidating against Tauren: move or discard, and the owner's regroup prompt for a lone token",
        _file("powers/intimidating/tauren_owner_asked_where_lone_token_goes.json", 0),
        4,
    ),
    Position(
        "intimidating-declined",
        "Intimidating on In-Decline tokens that pile up, next to conquests, abandon and end",
        _file("powers/intimidating/declined_tokens_pile_up.json", 0),
        4,
    ),
    Position(
        "portal-mage",
        "Portal Mage swaps of Magic regions next to conquests and final attempts",
        _file("powers/portal_mage/control_follows_the_tokens.json", 0),
        4,
    ),
    Position(
        "champion",
        "Championing: the Champion's free conquest next to final attempts, after readying it",
        _file("powers/championing/readied_from_the_board_and_used.json", 1),
        4,
    ),
    Position(
        "battleground-faction",
        "the Battleground faction prompt on taking it: fight_for Alliance, Horde or Neutral",
        _file("relics/battleground/horde_choice_and_military_objective.json", 1),
        4,
    ),
    Position(
        "well-of-eternity",
        "the Well of Eternity prompt: the revealer chooses among several waters",
        _file("relics/well_of_eternity/several_waters_prompt.json", 1),
        4,
    ),
    Position(
        "team-neutral-pick",
        "team variant pick step: the Neutral seat's column and the shared power column",
        _file("team/neutral_column_pick.json", 0),
        4,
    ),
    Position(
        "humans-objectives",
        "the Humans' Military Objective placement prompt at the end of the turn",
        _file("races/humans/placement_choices.json", 1),
        4,
    ),
    Position(
        "defensive-towers",
        "Defensive with more than six regions: the owner places the towers one by one (8 regions)",
        _file("powers/defensive/more_than_six_prompt_choices.json", 1),
        4,
    ),
    Position(
        "game-end-2p",
        "the last turn of a 2-player game: the game ends inside the tree (game-over leaves)",
        _file("core/flow/game_ends_2_players.json", 0),
        4,
    ),
    # 3. Positions reached by a fixed script from a new game.
    Position(
        "script-3p-middle-88",
        "3 players, seed 11, 88 actions each the legal action at index n // 2: round 5, conquest step",
        {**_new(3, 11), "policy": "middle", "plies": 88},
        3,
    ),
    Position(
        "script-2p-middle-161",
        "2 players, seed 11, 161 actions by index n // 2: the last turn, game over within 4 actions",
        {**_new(2, 11), "policy": "middle", "plies": 161},
        4,
    ),
    Position(
        "script-5p-first-100",
        "5 players, seed 11, 100 actions each the first legal one (declining at every start): round 5",
        {**_new(5, 11), "policy": "first", "plies": 100},
        4,
    ),
    Position(
        "script-2p-fixed-55",
        "2 players, seed 3, a fixed list of 55 text actions (a decline in round 3): round 4, seat 1's "
        "Humans' objective prompt",
        {**_new(2, 3), "actions": SCRIPT_2P_SEED3},
        4,
    ),
    # 4. Classic Small World (classic-rules.md): each map (one per player count), then a position
    #    for each race and power that adds decisions or targets, then scripted classic games.
    Position(
        "new-classic-2p-s1", "classic, 2 players, seed 1: the 23-region map", _new(2, 1, edition="classic"), 3
    ),
    Position("new-classic-3p-s1", "classic, 3 players: the 30-region map", _new(3, 1, edition="classic"), 3),
    Position("new-classic-4p-s1", "classic, 4 players: the 39-region map", _new(4, 1, edition="classic"), 3),
    Position("new-classic-5p-s1", "classic, 5 players: the 48-region map", _new(5, 1, edition="classic"), 3),
    Position(
        "classic-ghouls-rise",
        "In-Decline Ghouls open the turn: rise or skip, their own conquests and redeployment (§7)",
        _file("classic/races/ghouls/conquer_in_decline.json", 0),
        4,
    ),
    Position(
        "classic-sorcerers-convert",
        "Sorcerer conversions of lone Active tokens, once per opponent, next to conquests (§7)",
        _file("classic/races/sorcerers/once_per_opponent.json", 0),
        4,
    ),
    Position(
        "classic-berserk",
        "Berserk: the roll before a conquest instead of a final attempt (§8, CL-AMB-26)",
        _file("classic/powers/berserk/roll_then_conquer.json", 0),
        4,
    ),
    Position(
        "classic-diplomat-peace",
        "the Diplomat's end-of-turn ally prompt, then the ally's turn under the peace (§8, CL-AMB-09)",
        _file("classic/powers/diplomat/ally_may_not_attack.json", 1),
        4,
    ),
    Position(
        "classic-fortified",
        "the Fortress placement prompt at the end of the turn, or skipping it (§8, CL-AMB-13)",
        _file("classic/powers/fortified/fortress_scores_same_turn.json", 1),
        4,
    ),
    Position(
        "classic-heroic",
        "the Heroes' placement prompt, two regions (§8, CL-AMB-11)",
        _file("classic/powers/heroic/two_heroes.json", 1),
        4,
    ),
    Position(
        "classic-stout",
        "Stout after scoring: decline or pass, then the next turn (§8, CL-AMB-15)",
        _file("classic/powers/stout/decline_after_scoring.json", 2),
        4,
    ),
    Position(
        "classic-dragon-master",
        "the Dragon conquest option on every target, once per turn (§8, CL-AMB-10)",
        _file("classic/powers/dragon_master/dragon_conquest.json", 0),
        4,
    ),
    Position(
        "classic-flying",
        "Flying: any land region is a target (§8, CL-AMB-05)",
        _file("classic/powers/flying/anywhere_but_water.json", 0),
        4,
    ),
    Position(
        "classic-seafaring",
        "Seafaring: a Lake among the targets (§8, CL-AMB-04)",
        _file("classic/powers/seafaring/lake_from_the_shore.json", 0),
        4,
    ),
    Position(
        "classic-underworld",
        "Underworld: Caverns adjacent to one another (§8, CL-AMB-18)",
        _file("classic/powers/underworld/caverns_adjacent.json", 0),
        4,
    ),
    Position(
        "classic-halflings",
        "Halflings enter through any region; their Holes (§7, CL-AMB-24)",
        _file("classic/races/halflings/enter_anywhere.json", 0),
        4,
    ),
    Position(
        "classic-amazons",
        "Amazons: the 4 set-aside tokens back at Ready-troops, and removed after redeployment (§7)",
        _file("classic/races/amazons/back_at_ready_troops.json", 0),
        4,
    ),
    Position(
        "classic-bivouacking",
        "Bivouacking: Encampments placed during redeployment (deploy r encampment) (§8)",
        _file("classic/powers/bivouacking/place_encampments.json", 1),
        4,
    ),
    Position(
        "classic-spirit",
        "Spirit: a decline that keeps the badge, then a pick from a row refilled without it (§5.4, §8)",
        _file("classic/powers/spirit/badge_never_offered_while_kept.json", 0),
        4,
    ),
    Position(
        "script-classic-3p-first-80",
        "classic, 3 players, seed 11, 80 actions each the first legal one (declining at every start)",
        {**_new(3, 11, edition="classic"), "policy": "first", "plies": 80},
        4,
    ),
    Position(
        "script-classic-4p-first-100",
        "classic, 4 players, seed 11, 100 first legal actions: a Spirit race beside In-Decline Ghouls",
        {**_new(4, 11, edition="classic"), "policy": "first", "plies": 100},
        4,
    ),
    Position(
        "script-classic-2p-middle-120",
        "classic, 2 players, seed 11, 120 actions by index n // 2: the last round, the Fortress prompt",
        {**_new(2, 11, edition="classic"), "policy": "middle", "plies": 120},
        4,
    ),
]


# --- the oracle file -------------------------------------------------------------------------
def entry(pos: Position, counts: list[int]) -> dict[str, Any]:
    source = dict(pos.source)
    if "scenario" in source:
        source["sha256"] = scenario_digest(source["scenario"], source["applied"])
    return {"id": pos.id, "description": pos.description, "source": source, "counts": counts}


Result = tuple[Position, list[int], float]  # a position, its counts at depths 1.., seconds


def compute(positions: Iterable[Position], depth: int | None = None) -> list[Result]:
    out = []
    for pos in positions:
        t = time.perf_counter()
        counts = perft_counts(build(pos.source), depth or pos.depth)
        out.append((pos, counts, time.perf_counter() - t))
    return out


def document(results: list[Result]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "definition": DEFINITION,
        "regenerate": "python tools/perft.py --write",
        "positions": [entry(pos, counts) for pos, counts, _ in results],
    }


def dumps(doc: dict[str, Any]) -> str:
    """One line per position, so that a diff shows which counts changed."""
    lines = ["{"]
    for key in ("format", "definition", "regenerate"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(doc[key])},")
    lines.append('  "positions": [')
    items = [f"    {json.dumps(e, ensure_ascii=False)}" for e in doc["positions"]]
    lines.append(",\n".join(items))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def load_oracle(path: Path = ORACLE) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path}: expected format {FORMAT!r}")
    return doc


def print_table(results: list[Result], frozen: dict[str, list[int]]) -> None:
    print(f"{'position':36} {'depth':>5} {'count':>10} {'seconds':>8}  frozen")
    total = 0.0
    for pos, counts, secs in results:
        total += secs
        known = frozen.get(pos.id, [])
        for d, n in enumerate(counts, 1):
            mark = ""
            if d <= len(known):
                mark = "ok" if known[d - 1] == n else f"DIFFERS (frozen {known[d - 1]})"
            shown = f"{secs:8.3f}" if d == len(counts) else ""
            print(f"{pos.id:36} {d:5} {n:10} {shown:>8}  {mark}")
    print(f"{len(results)} positions, {total:.2f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument(
        "--write", action="store_true", help=f"recompute and rewrite {ORACLE.relative_to(ROOT)}"
    )
    mode.add_argument(
        "--check", action="store_true", help="compare with the frozen file; exit 1 on a difference"
    )
    mode.add_argument(
        "--divide", metavar="ID", help="perft(depth - 1) after each legal action of one position"
    )
    ap.add_argument("--only", metavar="ID", action="append", help="only these positions (repeatable)")
    ap.add_argument(
        "--depth", type=int, help="this depth instead of the catalogue's (not with --write/--check)"
    )
    args = ap.parse_args(argv)
    by_id = {p.id: p for p in CATALOGUE}
    if len(by_id) != len(CATALOGUE):
        raise SystemExit("duplicate position ids in CATALOGUE")
    wanted = args.only or ([args.divide] if args.divide else None)
    unknown = [i for i in wanted or [] if i not in by_id]
    if unknown:
        raise SystemExit(f"unknown position ids: {unknown}; known: {sorted(by_id)}")
    positions = [by_id[i] for i in wanted] if wanted else CATALOGUE
    if args.depth is not None and (args.write or args.check):
        raise SystemExit("--depth is for exploring; the catalogue fixes the depths of the frozen file")
    if args.only and (args.write or args.check):
        raise SystemExit("--write and --check work on the whole catalogue")

    if args.divide:
        pos = positions[0]
        depth = args.depth or pos.depth
        st = build(pos.source)
        rows = divide(st, depth)
        for text, n in rows:
            print(f"{text:40} {n}")
        print(f"{pos.id}: perft({depth}) = {sum(n for _, n in rows)}")
        return 0

    results = compute(positions, args.depth)
    if args.write:
        ORACLE.parent.mkdir(parents=True, exist_ok=True)
        ORACLE.write_text(dumps(document(results)), encoding="utf-8")
        print_table(results, {})
        print(f"wrote {ORACLE.relative_to(ROOT)}")
        return 0
    try:
        frozen_doc: dict[str, Any] | None = load_oracle()
    except FileNotFoundError:
        frozen_doc = None
    frozen = {e["id"]: e["counts"] for e in frozen_doc["positions"]} if frozen_doc else {}
    print_table(results, frozen)
    if args.check:
        if frozen_doc is None:
            print(f"no {ORACLE.relative_to(ROOT)}: run tools/perft.py --write")
            return 1
        fresh = document(results)
        if fresh == frozen_doc:
            print("the frozen counts match")
            return 0
        old = {e["id"]: e for e in frozen_doc["positions"]}
        new = {e["id"]: e for e in fresh["positions"]}
        for i in sorted(old.keys() | new.keys()):
            if old.get(i) != new.get(i):
                print(f"DIFFERS {i}: frozen {old.get(i)}\n        now    {new.get(i)}")
        if [k for k in fresh if k != "positions" and fresh[k] != frozen_doc.get(k)]:
            print("DIFFERS in the file's header")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
