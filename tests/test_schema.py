"""The JSON Schemas of the protocol (engine/api/schema.py) against what the engine really sends.

The schemas are generated from the declarations, the JSON comes from the engine's own code: random
complete games check, after every action, that every legal action, every event and every seat's
view (and a spectator's) validates, so neither side can drift without a failing test here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from support import play_random

from smallworld import scenario
from smallworld.cli import main
from smallworld.engine import (
    Game,
    IllegalActionError,
    PositionError,
    Settings,
    SmallworldError,
    State,
    view_for,
)
from smallworld.engine.api.schema import NAMES, markdown_tables, schemas, write_schemas
from smallworld.engine.flow.plans import current_plan, plan_action
from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.protocol import action_to_json, check_action
from smallworld.engine.model.state import Phase

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SCHEMAS = schemas("warcraft")
V = {name: Draft202012Validator(s) for name, s in SCHEMAS.items()}


def _check(name: str, doc: Any, where: str, validators: dict[str, Draft202012Validator] = V) -> None:
    """Validate, naming the document and the first failing path when it does not."""
    v = validators[name]
    if not v.is_valid(doc):
        err = best_match(v.iter_errors(doc))
        path = "/".join(str(p) for p in err.absolute_path)
        text = json.dumps(doc)[:600]
        pytest.fail(f"{where}: not a valid {name} at /{path}: {err.message}\n{text}")


# --- the documents themselves ---------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    s = SCHEMAS[name]
    Draft202012Validator.check_schema(s)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert s["$id"] == f"smallworld/warcraft/{name}.schema.json"
    assert s["title"] and s["description"] and "$defs" in s
    refs = {r for r in _refs(s) if r.startswith("#/$defs/")}
    assert {r.removeprefix("#/$defs/") for r in refs} <= set(s["$defs"]), "a reference has no definition"


def _refs(x: Any) -> list[str]:
    if isinstance(x, dict):
        mine = [x["$ref"]] if isinstance(x.get("$ref"), str) else []
        return mine + [r for v in x.values() for r in _refs(v)]
    if isinstance(x, list):
        return [r for v in x for r in _refs(v)]
    return []


def test_every_declaration_has_its_alternative() -> None:
    """One alternative per declared action kind, event type and prompt, with its unit."""
    ed = get_edition("warcraft")
    kinds = [s["$defs"][r.removeprefix("#/$defs/")] for s in [SCHEMAS["action"]] for r in _refs(s["oneOf"])]
    assert [k["properties"]["kind"]["const"] for k in kinds] == list(ed.action_specs)
    assert [k["x-unit"] for k in kinds] == [a.unit for a in ed.action_specs.values()]
    events = [SCHEMAS["event"]["$defs"][r.removeprefix("#/$defs/")] for r in _refs(SCHEMAS["event"]["oneOf"])]
    assert [e["properties"]["type"]["const"] for e in events] == list(ed.event_specs)
    prompts = SCHEMAS["prompt"]["oneOf"]
    assert len(prompts) == len(ed.prompt_specs)
    codes = SCHEMAS["error"]["properties"]["code"]["enum"]
    assert sorted(codes) == sorted(
        ["malformed_action", "not_your_turn", "illegal_action", "game_over", "invalid_input"]
    )


def test_views_share_the_event_and_prompt_definitions() -> None:
    """A view's events and pending prompts are validated by the very definitions of the event and
    prompt documents (each document is self-contained, so it carries copies)."""
    view, event, prompt = SCHEMAS["view"], SCHEMAS["event"], SCHEMAS["prompt"]
    assert view["properties"]["events"]["items"] == {"$ref": "#/$defs/event"}
    assert view["$defs"]["event"]["oneOf"] == event["oneOf"]
    assert view["$defs"]["prompt"]["oneOf"] == prompt["oneOf"]
    for name, d in [*event["$defs"].items(), *prompt["$defs"].items()]:
        assert view["$defs"][name] == d


# --- random games ---------------------------------------------------------------------------------
class _Checker:
    """After every action: legal actions, events and views validate; a whole plan does too."""

    def __init__(self, validators: dict[str, Draft202012Validator] = V) -> None:
        self.v = validators
        self.seen: set[str] = set()  # JSON already validated (legal lists repeat a lot)
        self.kinds: set[str] = set()
        self.events: set[str] = set()
        self.views = 0
        self.viewers: set[int | None] = set()  # every viewpoint validated at least once

    def once(self, name: str, doc: Any, where: str) -> None:
        key = name + json.dumps(doc, sort_keys=True)
        if key not in self.seen:
            self.seen.add(key)
            _check(name, doc, where, self.v)

    def __call__(self, st: State) -> None:
        game = st.game
        where = f"ply {st.ply}"
        for a in st.legal_actions():
            data = action_to_json(game, a)
            self.once("action", data, f"{where}: legal {a}")
            assert check_action(game, data) == a, "the JSON form of an action reads back as itself"
            self.kinds.add(a.kind)
        for e in st.events:
            self.once("event", e, f"{where}: event")
            self.events.add(e["type"])
        # The seat to act (its prompt and legal list) and one other viewpoint in turn: every seat's
        # view and a spectator's, without validating each of them at every ply (half this file's time).
        viewpoints: list[int | None] = [*range(game.players), None]
        acting = [st.acting_seat] if st.acting_seat in viewpoints else []  # -1 once the game is over
        for seat in dict.fromkeys([*acting, viewpoints[st.ply % len(viewpoints)]]):
            view = view_for(st, seat)
            # A view's events are the event schema's alternatives (the same definitions, checked by
            # `test_views_share_the_event_and_prompt_definitions`): each redaction is validated
            # once, the rest of the view every time.
            for e in view["events"]:
                self.once("event", e, f"{where}: event seen by seat {seat}")
            _check("view", {**view, "events": []}, f"{where}: view of seat {seat}", self.v)
            self.views += 1
            self.viewers.add(seat)
        if st.phase in (Phase.REDEPLOY, Phase.WITHDRAWN) and not st.pending:
            self._plan(st, where)

    def _plan(self, st: State, where: str) -> None:
        """A whole plan (every token and troop in hand onto the first region) is a valid action."""
        seat = st.acting_seat
        final = current_plan(st, seat)
        if not final:
            return
        first = min(final)
        tokens, troops = final[first]
        troops = dict(troops)
        for k, n in st.seats[seat].held.items():
            troops[k] = troops.get(k, 0) + n
        final[first] = (tokens + st.seats[seat].hand, troops)
        plan = plan_action(st, final)
        data = action_to_json(st.game, plan)
        self.once("action", data, f"{where}: plan")
        assert check_action(st.game, data) == plan
        self.kinds.add("plan")


GAMES = [  # about 1,300 views
    (2, "standard", 1),
    (3, "standard", 2),
    (5, "standard", 4),
    (2, "team", 5),
    (4, "team", 7),
]


@pytest.mark.parametrize(("players", "variant", "seed"), GAMES)
def test_random_games_validate(players: int, variant: str, seed: int) -> None:
    check = _Checker()
    st, _log = play_random(Settings(players=players, seed=seed, variant=variant), seed, each=check)
    assert st.is_over() and check.viewers == {*range(players), None}
    # Long enough to meet the core of the protocol (a plan at every redeployment).
    assert {"pick", "conquer", "deploy", "end", "plan"} <= check.kinds
    assert {"turn", "pick", "conquest", "score", "game_over"} <= check.events
    if variant == "team":
        assert "offer" in view_for(st, 0) and "factions" in view_for(st, None)


SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def test_position_files_validate() -> None:
    """The position files reach what random games rarely do (every unit's events and prompts):
    after each of their actions the events and the legal actions validate, and at the end the
    views of the seat to act and of a spectator."""
    here = SCENARIOS
    files = sorted(p for p in here.rglob("*.json") if "_boards" not in p.parts)
    # Each edition's files against its own schemas (their unit ids and kinds differ).
    checkers = {"warcraft": _Checker()}
    played = 0
    for path in files:
        data = scenario.load(path)
        edition = data["settings"].get("edition", "warcraft")
        if edition not in checkers:
            checkers[edition] = _Checker({n: Draft202012Validator(x) for n, x in schemas(edition).items()})
        check = checkers[edition]
        try:
            st = scenario.build(data)
        except SmallworldError:
            continue  # a file that checks a refused position
        for item in data.get("actions", []):
            try:
                st.apply(scenario.to_action(st, item))
            except SmallworldError:
                break  # a file that checks a refused action: what came before still counts
            played += 1
            where = f"{path.relative_to(here)} after {item}"
            for e in st.events:
                check.once("event", e, where)
                check.events.add(e["type"])
            for a in st.legal_actions():
                check.once("action", action_to_json(st.game, a), f"{where}: legal {a}")
        for seat in (max(st.acting_seat, 0), None):
            view = view_for(st, seat)
            for e in view["events"]:
                check.once("event", e, f"{path.relative_to(here)}: event seen by {seat}")
            _check("view", {**view, "events": []}, f"{path.relative_to(here)}: view of {seat}", check.v)
    assert played > 500
    events = checkers["warcraft"].events
    assert {"steal", "intimidate", "bomb_placed", "holy_light", "portal", "well_of_eternity"} <= events
    assert {"conversion", "berserk_roll", "peace", "skeletons_rise"} <= checkers["classic"].events


def test_the_initial_state_and_a_finished_game_validate() -> None:
    st = Game(Settings(players=3, seed=9)).new_initial_state()
    for seat in (0, 1, 2, None):
        _check("view", view_for(st, seat), f"initial view of {seat}")
    st, _ = play_random(Settings(players=2, seed=3), 3)
    assert st.result is not None
    for seat in (0, 1, None):
        _check("view", view_for(st, seat), f"final view of {seat}")


# --- what must be refused -------------------------------------------------------------------------
def _invalid(name: str, doc: Any) -> None:
    assert not V[name].is_valid(doc), f"{doc} should not be a valid {name}"


def test_bad_actions_are_refused() -> None:
    _check("action", {"kind": "conquer", "region": "L1a:3"}, "conquer")
    _check("action", {"kind": "conquer", "region": "L1a:3", "arg": "ethereals+frostmourne"}, "options")
    _check("action", {"kind": "end", "region": None, "arg": None}, "end with nulls")
    _check("action", {"kind": "plan", "arg": {"L1a:3": {"tokens": 2, "beast": 1}}}, "plan")
    _invalid("action", {"kind": "fly", "region": "L1a:3"})  # no such kind
    _invalid("action", {"kind": "conquer", "region": "L1a-3"})  # not SIDE:ID
    _invalid("action", {"kind": "conquer", "region": 3})  # a flat index is not the JSON form
    _invalid("action", {"kind": "conquer"})  # names a region
    _invalid("action", {"kind": "end", "region": "L1a:3"})  # names none
    _invalid("action", {"kind": "pick", "arg": 6})  # 0..5
    _invalid("action", {"kind": "pick"})  # needs its argument
    _invalid("action", {"kind": "pick", "arg": True})
    _invalid("action", {"kind": "deploy", "region": "L1a:3", "arg": "most"})
    _invalid("action", {"kind": "conquer", "region": "L1a:3", "arg": "frostmourne+"})
    _invalid("action", {"kind": "plan", "arg": {}})
    _invalid("action", {"kind": "plan", "arg": {"L1a:3": {"tokens": 2, "fort": 1}}})  # not a troop
    _invalid("action", {"kind": "end", "seat": 0})


def test_bad_events_prompts_and_views_are_refused() -> None:
    _check("event", {"type": "turn", "seat": 1, "round": 2}, "turn")
    _invalid("event", {"type": "turn", "seat": 1})  # `round` is required
    _invalid("event", {"type": "turn", "seat": 1, "round": 2, "extra": 0})
    _invalid("event", {"type": "turn", "seat": 7, "round": 2})
    _invalid("event", {"type": "abandon", "seat": 0, "region": 12})
    _invalid("event", {"type": "earthquake", "seat": 0})
    # A declared secret may be null (redacted), a public field may not.
    _check("event", {"type": "bomb_placed", "seat": 0, "region": "S1a:2", "bomb": None}, "redacted bomb")
    _invalid("event", {"type": "turn", "seat": None, "round": 2})
    _check("prompt", {"unit": "worgen", "prompt": "form", "seat": 0, "resume_seat": 0}, "form")
    _invalid("prompt", {"unit": "worgen", "prompt": "form", "seat": 0})
    _invalid("prompt", {"unit": "worgen", "prompt": "shape", "seat": 0, "resume_seat": 0})
    view = view_for(Game(Settings(players=2, seed=1)).new_initial_state(), 0)
    _check("view", view, "view")
    _invalid("view", {**view, "rng": "00"})  # the generator is never in a view
    _invalid("view", {**view, "race_stack": ["orcs"]})  # stacks are counts
    _invalid("view", {**view, "offer": {}})  # the team offer comes with the factions
    bad = json.loads(json.dumps(view))
    bad["seats"][0]["ext"] = {"goblins": {"stak": []}}  # not a declared seat field
    _invalid("view", bad)


def test_the_engine_errors_validate() -> None:
    st = Game(Settings(players=2, seed=1)).new_initial_state()
    refused: list[SmallworldError] = []
    for attempt in (
        lambda: st.apply({"kind": "fly"}),
        lambda: st.apply({"kind": "pick", "arg": 0}, seat=1),
        lambda: st.apply({"kind": "end"}),
        lambda: Settings.from_json({"players": 9}),
    ):
        with pytest.raises(SmallworldError) as e:
            attempt()
        refused.append(e.value)
    done, _ = play_random(Settings(players=2, seed=2), 2)
    with pytest.raises(IllegalActionError) as over:
        done.apply({"kind": "end"})
    refused.append(over.value)
    codes = set()
    for err in refused:
        _check("error", err.to_json(), type(err).__name__)
        codes.add(err.to_json()["code"])
    assert codes == {"malformed_action", "not_your_turn", "illegal_action", "invalid_input", "game_over"}
    assert isinstance(refused[3], PositionError)
    _invalid("error", {"code": "oops", "message": "x"})
    _invalid("error", {"code": "illegal_action"})
    _invalid("error", {"code": "illegal_action", "message": "no rule"})  # an illegal action cites one
    _invalid("error", {"code": "malformed_action", "message": "no field"})


# --- the command and the document ---------------------------------------------------------------------
def test_cli_writes_one_file_per_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", str(tmp_path / "out")]) == 0
    for name in NAMES:
        path = tmp_path / "out" / f"{name}.schema.json"
        assert json.loads(path.read_text(encoding="utf-8")) == SCHEMAS[name]
    assert "action.schema.json" in capsys.readouterr().out
    assert main(["schema", "--out", str(tmp_path / "none"), "--edition", "nope"]) == 2


def test_write_schemas_returns_the_paths(tmp_path: Path) -> None:
    paths = write_schemas("warcraft", tmp_path)
    assert [p.name for p in paths] == [f"{n}.schema.json" for n in NAMES]


def test_docs_tables_match_the_declarations() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert markdown_tables("warcraft") in text, "regenerate with: python -m smallworld.engine.api.schema"


# --- another edition ---------------------------------------------------------------------------------
def test_an_edition_of_its_own_gets_its_own_schemas() -> None:
    """The schemas come from the declarations of whatever edition is given (tests/mini_edition.py)."""
    mini = pytest.importorskip("mini_edition")
    own = schemas(mini.EDITION)
    for s in own.values():
        Draft202012Validator.check_schema(s)
    assert own["view"]["$id"] == f"smallworld/{mini.ID}/view.schema.json"
    validators = {name: Draft202012Validator(s) for name, s in own.items()}
    check: Callable[[State], None] = _Checker(validators)
    settings = Settings.from_json({"edition": mini.ID, "players": 2, "seed": 3})
    st, _ = play_random(settings, 3, each=check)
    assert st.is_over()
