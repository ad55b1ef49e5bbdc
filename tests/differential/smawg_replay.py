"""Replay a game that smawg (another engine of classic Small World's core rules) played, in our
engine, and compare the two step by step.

A trace (`traces/README.md`, format `smawg-trace/1`) holds smawg's setup with every random outcome
(board, deck order, dice), each decision with what smawg allowed there and the state after each
action. We play the same game in the core-rules edition (`classic_core`: no race or power effect)
with smawg's readings that our rules give as options (`SMAWG_OPTIONS`): the board is built from the
trace, the row, stacks and dice are forced through a position (docs/positions.md: `row`,
`race_stack`, `power_stack`, `rolls`), each smawg action is translated into ours, and at each of our
decisions the state and the legal choices are compared with smawg's. docs/engine.md ("A second
engine") lists how each difference of turn mechanics is normalised and each difference of rules
reading is handled.

Nothing here changes the engine: a second engine's trace is read as data, and our engine plays
through its public interface (`State.apply`, `legal_actions`, `to_json`).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smallworld import scenario
from smallworld.engine.model.actions import (
    ABANDON,
    CONQUER,
    DECLINE,
    DEPLOY,
    END,
    EXPAND,
    FINAL,
    PICK,
    Action,
)
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import SmallworldError
from smallworld.engine.model.state import Ph, State

TRACES = Path(__file__).parent / "traces"
EDITION = "classic_core"
SIDE = "S"  # the id of the one board side built from a trace's map
# smawg's readings that are rule options of ours (docs/engine.md, traces/README.md table #2, #12).
SMAWG_OPTIONS = {"conquest_base": 3, "discarded_badges": "stack_bottom", "first_player": 0}
TERRAINS = {
    "farmland": "Farmland",
    "forest": "Forest",
    "hill": "Hill",
    "lake": "Lake",
    "mountain": "Mountain",
    "sea": "Sea",
    "swamp": "Swamp",
}
FEATURES = {"cavern": "Cavern", "magic": "Magic", "mine": "Mine"}
WATER = {"sea", "lake"}
# Our phases in smawg's words (its `stage`).
STAGES = {
    Ph.PICK: "select_combo",
    Ph.START: "can_decline",
    Ph.REDEPLOY: "redeployment",
    Ph.WITHDRAWN: "redeployment_turn",
    Ph.OVER: "ended",
}
NO_CHOICE = {"pick": [], "decline": False, "abandon": [], "conquer": [], "conquer_die": []}


def trace_paths() -> list[Path]:
    return sorted(TRACES.glob("smawg-*.json.gz"))


def load_trace(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


# --- the game of a trace ------------------------------------------------------------------------
def board_side(setup: dict[str, Any]) -> dict[str, Any]:
    """smawg's map as one of our board sides: its region ids, terrains, symbols, Lost Tribes and
    adjacency; the regions a first conquest may enter carry our `Border` feature."""
    regions = []
    for r in setup["map"]["regions"]:
        features = [FEATURES[f] for f in r["features"]]
        if r["lost_tribe"]:
            features.append("LostTribe")
        # Our entry rule is "a Border region, never water" (classic §5.2, CL-AMB-33): a land region
        # is Border where smawg's first conquest may enter; a Sea or Lake keeps smawg's edge flag.
        if r["first_conquest"] if r["terrain"] not in WATER else r["border"]:
            features.append("Border")
        regions.append(
            {
                "id": r["id"],
                "name": f"Region {r['id']}",
                "terrain": TERRAINS[r["terrain"]],
                "features": sorted(features),
                "adjacent": r["adjacent"],
            }
        )
    return {"id": SIDE, "size": "L", "name": setup["asset"], "regions": regions}


def position(trace: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The trace's opening as a position file: smawg's board, options, row, stacks and dice."""
    setup = trace["setup"]
    combos = [{"race": c["race"], "power": c["power"], "coins": c["coins"]} for c in setup["row"]]
    return {
        "format": scenario.FORMAT,
        "title": f"smawg game {trace['generator']['seed']}",
        "rules": ["§5"],
        "settings": {
            "edition": EDITION,
            "players": setup["players"],
            "seed": trace["generator"]["seed"],
            "boards": [board_side(setup)],
            "options": SMAWG_OPTIONS if options is None else options,
        },
        "position": {
            "row": combos,
            "race_stack": setup["race_stack"],
            "power_stack": setup["power_stack"],
            "power_discard": [],
        },
        "rolls": setup["dice"],
    }


def setup_problems(trace: dict[str, Any], st: State) -> list[str]:
    """What of smawg's setup our edition does not give by itself: content values, trays, rounds,
    coins, row size, die faces, the first-conquest regions, the Lost Tribes and the Mountains."""
    setup = trace["setup"]
    game = st.game
    out = []
    for r in setup["races"]:
        ours = (game.race_value[r["id"]], game.tray_size[r["id"]])
        if ours != (r["tokens"], r["max_tokens"]):
            out.append(f"race {r['id']}: smawg {r['tokens']}/{r['max_tokens']}, ours {ours[0]}/{ours[1]}")
    for p in setup["powers"]:
        if game.power_value[p["id"]] != p["tokens"]:
            out.append(f"power {p['id']}: smawg {p['tokens']}, ours {game.power_value[p['id']]}")
    if sorted(r["id"] for r in setup["races"]) != sorted(game.race_pool):
        out.append("the banners are not our edition's")
    if sorted(p["id"] for p in setup["powers"]) != sorted(game.power_pool):
        out.append("the badges are not our edition's")
    if game.rounds != setup["rounds"]:
        out.append(f"rounds: smawg {setup['rounds']}, ours {game.rounds}")
    if any(s.coins != setup["start_coins"] for s in st.seats):
        out.append("start coins differ")
    if len(st.row) != setup["visible_combos"]:
        out.append(f"visible combos: smawg {setup['visible_combos']}, ours {len(st.row)}")
    if list(game.options.die_faces) != setup["die_faces"]:
        out.append(f"die faces: smawg {setup['die_faces']}, ours {list(game.options.die_faces)}")
    if st.first_seat != setup["first_player"]:
        out.append("first player differs")
    m = game.map
    if [m.regions[r].local_id for r in range(m.n)] != [r["id"] for r in setup["map"]["regions"]]:
        out.append("our flat region index is not smawg's region id")  # both are used as one below
    first = {r["id"] for r in setup["map"]["regions"] if r["first_conquest"]}
    ours_first = {m.regions[r].local_id for r in bits(game.first_mask & ~m.water)}
    if first != ours_first:
        out.append(f"first-conquest regions: smawg {sorted(first)}, ours {sorted(ours_first)}")
    edges = {tuple(sorted(e)) for e in setup["map"]["borders"]}
    ours_edges = {(a, b) for a in range(m.n) for b in bits(m.adj[a]) if a < b}
    if edges != ours_edges:
        out.append("the adjacency differs from smawg's edge list")
    tribes = [r for r in range(m.n) if st.race[r] == game.natives]
    if tribes != setup["lost_tribes"]:
        out.append(f"Lost Tribes: smawg {setup['lost_tribes']}, ours {tribes}")
    mountains = [r for r in range(m.n) if m.defence[r]]
    if mountains != setup["mountains"]:
        out.append(f"Mountains: smawg {setup['mountains']}, ours {mountains}")
    return out


# --- states in smawg's terms --------------------------------------------------------------------
def snapshot(st: State) -> dict[str, Any]:
    """Our state in the words of a trace's snapshot (regions by smawg id = our flat index)."""
    game = st.game
    m = game.map
    over = st.phase == Ph.OVER
    stage = STAGES.get(st.phase)
    if st.phase == Ph.CONQUER:
        stage = "conquests" if st.turn.conquests else "active"
    regions = []
    for r in range(m.n):
        race = st.race[r]
        markers = ["mountain"] if m.regions[r].terrain == "Mountain" else []
        if race is not None and race == game.natives:
            markers.insert(0, "lost_tribe")
            race = None
        owner = st.owner_seat(race)
        regions.append(
            {
                "id": r,
                "owner": owner,
                "race": race,
                "tokens": st.tokens[r] if race is not None else 0,
                "declined": owner is not None and st.seats[owner].active != race,
                "markers": markers,
            }
        )
    return {
        "round": st.round + 1 if over else st.round,
        "to_move": None if over else st.acting_seat,
        "stage": stage,
        "players": [
            {"coins": s.coins, "active": s.active, "power": s.power, "declined": s.declined, "hand": s.hand}
            for s in st.seats
        ],
        "row": [{"race": race, "power": power, "coins": coins} for race, power, coins in st.row],
        "race_stack": list(st.race_stack),
        "power_stack": list(st.power_stack),
        "regions": regions,
    }


def overlay(state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The full snapshot after a step: the one before with the step's changes (traces/README.md)."""
    out = dict(state)
    for key in ("round", "to_move", "stage", "players", "row", "race_stack", "power_stack"):
        if key in change:
            out[key] = change[key]
    if change.get("regions"):
        regions = list(state["regions"])
        for r in change["regions"]:
            regions[r["id"]] = r
        out["regions"] = regions
    return out


def lifted(snap: dict[str, Any], seat: int) -> dict[str, Any]:
    """The snapshot with `seat`'s Active troops readied: 1 token left in each of its Active regions,
    the others in hand (classic §5.4 "Ready troops"; the start of redeployment, §5.2)."""
    out = dict(snap)
    regions = []
    hand = snap["players"][seat]["hand"]
    for r in snap["regions"]:
        if r["owner"] == seat and not r["declined"] and r["tokens"] > 1:
            hand += r["tokens"] - 1
            r = {**r, "tokens": 1}
        regions.append(r)
    out["regions"] = regions
    players = [dict(p) for p in snap["players"]]
    players[seat]["hand"] = hand
    out["players"] = players
    return out


def differences(smawg: dict[str, Any], ours: dict[str, Any], path: str = "") -> list[str]:
    """Each place where the two snapshots differ, as `path: smawg X, ours Y`."""
    if smawg == ours:
        return []
    if isinstance(smawg, dict) and isinstance(ours, dict):
        out = []
        for k in sorted(set(smawg) | set(ours)):
            out += differences(smawg.get(k), ours.get(k), f"{path}.{k}" if path else k)
        return out
    if isinstance(smawg, list) and isinstance(ours, list) and len(smawg) == len(ours):
        if path.endswith("markers"):
            smawg, ours = sorted(smawg), sorted(ours)
        out = []
        for i, (a, b) in enumerate(zip(smawg, ours, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    return [] if smawg == ours else [f"{path}: smawg {smawg!r}, ours {ours!r}"]


def our_options(st: State) -> dict[str, Any]:
    """Our legal choices at a decision, in the terms of a trace's `options`: the picks, whether a
    decline is possible, and the regions that may be abandoned, conquered or attempted with the die.
    At the start of a turn the conquests are those after readying (`expand`), as smawg readies at
    once."""
    out: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in NO_CHOICE.items()}
    legal = st.legal_actions()
    if st.phase == Ph.PICK:
        out["pick"] = sorted(int(a.arg) for a in legal if a.kind == PICK)  # type: ignore[arg-type]
        return out
    if st.phase == Ph.START:
        out["decline"] = Action(DECLINE) in legal
        ready = st.clone()
        ready.apply(Action(EXPAND))
        st, legal = ready, ready.legal_actions()
    if st.phase == Ph.CONQUER:
        for key, kind in (("conquer", CONQUER), ("conquer_die", FINAL), ("abandon", ABANDON)):
            out[key] = sorted(a.region for a in legal if a.kind == kind and a.region is not None)
    return out


# --- the replay ---------------------------------------------------------------------------------
class Mismatch(Exception):
    """Our engine and smawg part ways at a step."""


@dataclass
class Report:
    game: str
    steps: int = 0
    decisions: int = 0  # smawg steps that are a decision of ours: state and choices compared there
    forced: int = 0  # smawg steps that our engine makes by itself (compared at the next decision)
    withdrawals: int = 0  # an end_turn and the withdrawals after it, played as one block (README #10)
    actions: int = 0  # our actions applied
    normalised: dict[str, int] = field(default_factory=dict)  # comparisons that needed a normalisation
    problems: list[str] = field(default_factory=list)

    def note(self, what: str) -> None:
        self.normalised[what] = self.normalised.get(what, 0) + 1


class Replay:
    """One trace played again in our engine."""

    def __init__(self, trace: dict[str, Any], name: str = "", options: dict[str, Any] | None = None) -> None:
        self.trace = trace
        self.steps: list[dict[str, Any]] = trace["steps"]
        self.st = scenario.build(position(trace, options))
        self.report = Report(name or str(trace["generator"]["seed"]), steps=len(self.steps))
        self.consumed: set[int] = set()  # smawg steps already played by a withdrawal block
        self.j = 0
        self.kept: int | None = None  # the last player who kept withdrawn tokens for its turn
        self.block_end = 0  # the end_turn of the last withdrawal block

    def at(self, seat: int, phase: Any) -> bool:
        return self.st.phase == phase and self.st.acting_seat == seat and not self.st.pending

    # --- translation: a smawg step as our actions, one at a time --------------------------------
    def actions(self, j: int, before: dict[str, Any]) -> Iterator[Action]:
        """Our actions for smawg's step `j`, each worked out on the state the previous one left.
        None at all: our engine has already made this step by itself (it is forced in ours)."""
        if j in self.consumed:
            return
        step = self.steps[j]
        verb, p = step["verb"], step["player"]
        if verb in ("conquer", "abandon", "redeploy", "end_turn") and self.at(p, Ph.START):
            yield Action(EXPAND)  # smawg readies at the start of the turn (README #9)
        if verb == "pick":
            yield Action(PICK, None, step["index"])
        elif verb == "decline":
            yield Action(DECLINE)
        elif verb == "conquer":
            yield Action(CONQUER if step["die"] is None else FINAL, step["region"])
        elif verb == "abandon":
            yield Action(ABANDON, step["region"])
        elif verb == "redeploy":
            if self.at(p, Ph.CONQUER):
                yield Action(END)
        elif verb == "deploy" and step["stage"] == "redeployment":
            for _ in range(step["tokens"]):
                yield Action(DEPLOY, step["region"])
        elif verb == "end_turn":
            # smawg may end its turn without redeploying (the tokens stay where they conquered);
            # ours redeploys after every conquest: the tokens go back where smawg left them.
            if self.at(p, Ph.CONQUER):
                yield Action(END)
            if self.at(p, Ph.REDEPLOY):
                self.report.note("end_turn without redeploy: tokens placed back")
            while self.at(p, Ph.REDEPLOY):
                want = [
                    (r["id"], r["tokens"]) for r in before["regions"] if r["owner"] == p and not r["declined"]
                ]
                short = [r for r, n in want if self.st.tokens[r] < n]
                if not short:
                    raise Mismatch(f"step {j}: nothing to place back, {self.st.seats[p].hand} in hand")
                yield Action(DEPLOY, short[0])
        else:
            raise Mismatch(f"step {j}: {verb} ({step['stage']}) of player {p} has no counterpart in our turn")

    def apply(self, action: Action, seat: int) -> None:
        try:
            self.st.apply(action, seat=seat)
        except SmallworldError as e:
            raise Mismatch(f"step {self.j}: our engine refuses {action} of seat {seat}: {e}") from None
        self.report.actions += 1

    # --- the withdrawals after a turn (README #10) ----------------------------------------------
    def settle(self) -> None:
        """Our engine asks the attacked players to place their withdrawn tokens right after the
        active player's redeployment, clockwise; smawg after the active player's `end_turn`, in
        player order, and the next player keeps them in hand for its turn. Each of our withdrawal
        decisions takes that player's deploys from smawg's block (they are independent), or for
        the next player places them in its first region (readied at once when its turn starts)."""
        asked = []
        while self.st.phase == Ph.WITHDRAWN and not self.st.pending:
            d, a = self.st.acting_seat, self.st.turn_seat
            k = next(
                (i for i in range(self.j, len(self.steps))
                 if self.steps[i]["verb"] == "end_turn" and self.steps[i]["player"] == a),
                None,
            )  # fmt: skip
            if k is None:
                raise Mismatch(f"step {self.j}: ours asks seat {d} to place withdrawn tokens, smawg never")
            self.consumed.add(k)
            self.block_end = k
            asked.append(d)
            kept = self.steps[k].get("kept_in_hand")
            if kept and kept["player"] == d:
                if kept["tokens"] != self.st.seats[d].hand:
                    hand = self.st.seats[d].hand
                    raise Mismatch(f"step {k}: seat {d} keeps {kept['tokens']} in hand, ours holds {hand}")
                self.kept = d
                region = min(bits(self.st.occupied_mask(self.st.seats[d].active)))
                self.report.note("withdrawn tokens of the next player placed before its turn")
                self.apply(Action(DEPLOY, region, "all"), d)
                continue
            i = k + 1
            moved = False
            while i < len(self.steps) and self.steps[i]["stage"] == "redeployment_turn":
                s = self.steps[i]
                if s["player"] == d:
                    self.consumed.add(i)
                    if s["verb"] == "deploy":
                        for _ in range(s["tokens"]):
                            self.apply(Action(DEPLOY, s["region"]), d)
                        moved = True
                i += 1
            if not moved:
                raise Mismatch(f"step {k}: ours asks seat {d} to place withdrawn tokens, smawg does not")
        if asked:
            end = self.block_end
            kept = self.steps[end].get("kept_in_hand")
            theirs = set(self.steps[end]["withdrawals"])
            ours = set(asked) - ({kept["player"]} if kept else set())
            if theirs != ours:
                raise Mismatch(
                    f"step {end}: withdrawals of {sorted(theirs)} in smawg, {sorted(ours)} in ours"
                )
            if len(asked) > 1 and asked != sorted(asked):
                self.report.note("withdrawals in another order")

    # --- comparison at a decision ---------------------------------------------------------------
    def compare(self, before: dict[str, Any], j: int) -> None:
        """Our state at the decision of step `j` against smawg's state before it, and our choices
        against smawg's `options`."""
        st = self.st
        ours = snapshot(st)
        theirs = before
        p = st.acting_seat
        if st.phase == Ph.START and before["stage"] == "can_decline":
            ours = lifted(ours, p)  # smawg readies inside the previous end_turn (README #9)
            self.report.note("turn start: ours compared readied")
        if st.phase == Ph.REDEPLOY and before["stage"] in ("active", "conquests", "used_dice"):
            # Our conquests closed by themselves (AMB-53) and the troops were readied for the
            # redeployment; smawg ends its turn from the conquests without redeploying.
            theirs = {**lifted(before, p), "stage": "redeployment"}
            self.report.note("conquests closed by themselves: compared once readied")
        if st.phase != Ph.OVER:
            self.kept = None
        elif self.kept is not None:
            # The game ended after a turn whose next player kept withdrawn tokens in smawg's hand
            # (README #10); ours placed them, and no turn comes to ready them.
            ours, theirs = lifted(ours, self.kept), lifted(theirs, self.kept)
            self.report.note("game over: the next player's withdrawn tokens compared readied")
        where = "the end"
        if j < len(self.steps):
            where = f"step {j} ({self.steps[j]['verb']} by player {self.steps[j]['player']})"
        diff = differences(theirs, ours)
        if diff:
            raise Mismatch(f"state before {where}: " + "; ".join(diff[:8]))
        if j < len(self.steps):
            mine = our_options(st)
            diff = differences(self.steps[j]["options"], mine, "options")
            if diff:
                raise Mismatch(f"choices at {where}: " + "; ".join(diff[:8]))

    def run(self) -> Report:
        rep = self.report
        state = self.trace["initial_state"]
        try:
            problems = setup_problems(self.trace, self.st)
            if problems:
                raise Mismatch("setup: " + "; ".join(problems))
            for j, step in enumerate(self.steps):
                self.j = j
                first = True
                for action in self.actions(j, state):
                    if first:
                        self.compare(state, j)
                        rep.decisions += 1
                        first = False
                    self.apply(action, step["player"])
                    self.check_die(step, action)
                    self.settle()
                if first and j in self.consumed:
                    rep.withdrawals += 1
                elif first:
                    rep.forced += 1
                    if step["options"] != NO_CHOICE:
                        raise Mismatch(f"step {j}: smawg allows {step['options']} where ours has no decision")
                state = overlay(state, step["state"])
            if self.st.rolls:
                raise Mismatch(f"dice left unused: {self.st.rolls}")
            self.j = len(self.steps)
            self.compare(self.trace["final_state"], len(self.steps))
        except Mismatch as e:
            rep.problems.append(str(e))
        return rep

    def check_die(self, step: dict[str, Any], action: Action) -> None:
        if action.kind != FINAL:
            return
        die = [e for e in self.st.events if e["type"] == "die"]
        if len(die) != 1 or die[0]["roll"] != step["die"] or die[0]["success"] != step["success"]:
            raise Mismatch(f"step {self.j}: the die: smawg {step['die']} ({step['success']}), ours {die}")


def replay(path: Path) -> Report:
    return Replay(load_trace(path), path.name.removesuffix(".json.gz")).run()


if __name__ == "__main__":  # python tests/differential/smawg_replay.py: a summary of every trace
    total = Report("all")
    for path in trace_paths():
        r = replay(path)
        total.steps += r.steps
        total.decisions += r.decisions
        total.forced += r.forced
        total.withdrawals += r.withdrawals
        total.actions += r.actions
        for k, v in r.normalised.items():
            total.normalised[k] = total.normalised.get(k, 0) + v
        print(r.game, "ok" if not r.problems else r.problems[0])
    print(json.dumps({k: v for k, v in vars(total).items() if k not in ("game", "problems")}, indent=1))
