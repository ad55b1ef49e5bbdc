"""Position files (tests/scenarios/**/*.json): a position, actions, and what must follow.

Each file is checked against docs/position.schema.json, built and played, and its `expect` block is
compared with the result. The format and every `expect` key are documented in docs/positions.md.
Files listed in tests/scenarios/KNOWN_FAILING.txt show an engine bug: they are expected to fail
(strict xfail), so a fixed bug makes the test suite say so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from smallworld import scenario
from smallworld.engine.api.notation import parse, to_text
from smallworld.engine.api.views import view_for
from smallworld.engine.model.errors import PositionError, SmallworldError
from smallworld.engine.model.state import State

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
SCHEMA_PATH = HERE.parent / "docs" / "position.schema.json"
KNOWN_FAILING_PATH = SCENARIOS / "KNOWN_FAILING.txt"

# Sections of the rules in scope that position files must cite (field "rules").
SCOPE = (
    "§1.2",
    "§1.3",
    "§1.4",
    "§2.1",
    "§2.3",
    "§3.1",
    "§3.2",
    "§4",
    "§5",
    "§6.1",
    "§6.2",
    "§6.3",
    "§6.4",
    "§6.5",
    "§6.6",
    "§6.7",
    "§6.8",
    "§6.9",
    "§6.10",
    "§6.11",
    "§6.12",
    "§6.13",
    "§6.14",
    "§6.15",
    "§6.16",
    "§6.17",
    "§7",
    *(f"§8.{i}" for i in range(1, 17)),  # the 16 races
    *(f"§9.{i}" for i in range(1, 21)),  # the 20 powers
    "§10.1",
    "§10.2",
    "§10.3",  # Artifacts and Legendary Places
    "§14",
)
# The team variant (§11) is tested in tests/test_team_variant.py.

FILES = sorted(p for p in SCENARIOS.rglob("*.json") if "_boards" not in p.parts)
CLASSIC = SCENARIOS / "classic"  # the classic Small World edition: files cite classic-rules.md


def _rel(path: Path) -> str:
    return path.relative_to(SCENARIOS).as_posix()


def _known_failing() -> dict[str, str]:
    """File (path under tests/scenarios, or bare name) -> reason, one per line; '#' starts a comment."""
    out: dict[str, str] = {}
    if not KNOWN_FAILING_PATH.exists():
        return out
    for line in KNOWN_FAILING_PATH.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        out[name] = reason.strip() or "known engine bug"
    return out


KNOWN = _known_failing()


def _known_reason(path: Path) -> str | None:
    return KNOWN.get(_rel(path)) or KNOWN.get(path.name)


def _params() -> list[Any]:
    out = []
    for path in FILES:
        reason = _known_reason(path)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(path, id=_rel(path), marks=marks))
    return out


def _validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


# --- comparing ----------------------------------------------------------------------------------
def _partial(label: str, want: dict[str, Any], got: dict[str, Any]) -> None:
    for key, value in want.items():
        assert key in got, f"{label}: no field {key!r} (fields: {sorted(got)})"
        if key in ("ext", "data") and isinstance(value, dict) and isinstance(got[key], dict):
            # Units' own data: each unit's namespace is compared field by field.
            for uid, mine in value.items():
                assert uid in got[key], f"{label}.{key}: no data of {uid!r} (has {sorted(got[key])})"
                _partial(f"{label}.{key}.{uid}", mine, got[key][uid])
            continue
        assert got[key] == value, f"{label}.{key}: expected {value!r}, got {got[key]!r}"


def _action_set(st: State) -> set[Any]:
    return set(st.legal_actions())


def _texts(st: State) -> list[str]:
    return sorted(to_text(st.game, a) for a in st.legal_actions())


def _check_legal(st: State, expect: dict[str, Any]) -> None:
    legal = _action_set(st)
    for text in expect.get("legal", []):
        assert parse(st, text) in legal, f"{text!r} should be legal; legal now: {_texts(st)}"
    for text in expect.get("not_legal", []):
        action = parse(st, text)
        assert action not in legal, f"{text!r} should not be legal; legal now: {_texts(st)}"
    if "legal_exactly" in expect:
        want = {parse(st, t) for t in expect["legal_exactly"]}
        assert legal == want, f"legal actions: expected {sorted(expect['legal_exactly'])}, got {_texts(st)}"


def _check_state(st: State, expect: dict[str, Any]) -> None:
    game = st.game
    js = st.to_json()
    for key in ("phase", "acting_seat", "turn_seat", "round", "first_seat"):
        if key in expect:
            assert js[key] == expect[key], f"{key}: expected {expect[key]!r}, got {js[key]!r}"
    if "coins" in expect:
        assert [s.coins for s in st.seats] == expect["coins"], "coins per seat"
    if "seats" in expect:
        assert len(expect["seats"]) == len(st.seats), "expect.seats lists every seat"
        for i, want in enumerate(expect["seats"]):
            if want is not None:
                _partial(f"seats[{i}]", want, js["seats"][i])
    for ref, want in expect.get("regions", {}).items():
        r = game.map.index(ref)
        if want is None:
            assert st.race[r] is None, f"region {ref}: expected empty, got {st.race[r]} x{st.tokens[r]}"
        else:
            got = {"race": st.race[r], "tokens": st.tokens[r], "pieces": st.pieces[r] or {}}
            tags = want.get("tags", {})
            _partial(f"regions[{ref}]", {k: v for k, v in want.items() if k != "tags"}, got)
            for kind, wanted in tags.items():
                have = st.piece_tags(r, kind)
                assert len(have) == len(wanted), (
                    f"regions[{ref}].tags.{kind}: expected {wanted!r}, got {have!r}"
                )
                for i, (w, h) in enumerate(zip(wanted, have, strict=True)):
                    _partial(f"regions[{ref}].tags.{kind}[{i}]", w, h)
    if "tray" in expect:
        _partial("tray", expect["tray"], js["tray"])
    if "row" in expect:
        assert len(js["row"]) == len(expect["row"]), f"row: expected {expect['row']}, got {js['row']}"
        for i, want in enumerate(expect["row"]):
            _partial(f"row[{i}]", want, js["row"][i])
    if "row_count" in expect:
        assert len(st.row) == expect["row_count"], f"row: {js['row']}"
    for key in ("race_stack", "power_stack", "power_discard"):
        if key in expect:
            assert js[key] == expect[key], f"{key}: expected {expect[key]!r}, got {js[key]!r}"
    if "turn" in expect:
        _partial("turn", expect["turn"], js["turn"])
    if "winners" in expect:
        got = st.result["winners"] if st.result else None
        assert got == expect["winners"], f"winners: expected {expect['winners']!r}, got {got!r}"
    if "scores" in expect:
        got = st.result["scores"] if st.result else None
        assert got == expect["scores"], f"final scores: expected {expect['scores']!r}, got {got!r}"
    if "board_sizes" in expect:
        assert sorted(s.size for s in game.map.sides) == sorted(expect["board_sizes"]), "board sizes"
    if "rounds" in expect:
        assert game.rounds == expect["rounds"], "number of rounds"
    for ref, want in expect.get("markers", {}).items():
        got = js["markers"].get(game.map.ref(game.map.index(ref)), [])
        assert got == want, f"markers in {ref}: expected {want!r}, got {got!r}"
    if "spare_markers" in expect:
        assert js["spare_markers"] == expect["spare_markers"], f"spare markers: {js['spare_markers']!r}"
    _check_team(st, expect)
    _check_legal(st, expect)


def _check_team(st: State, expect: dict[str, Any]) -> None:
    """The team variant's keys (§11): the offer's columns, the seats' factions, the faction scores;
    and the tie-break's figures (§7, §11.4), of any variant."""
    if "offer" in expect:
        assert st.offer is not None, "offer: not a team game"
        for key, want in expect["offer"].items():
            got = st.offer.get(key)
            assert got == want, f"offer.{key}: expected {want!r}, got {got!r}"
    if "seat_factions" in expect:
        got = view_for(st, None).get("factions")
        want = expect["seat_factions"]
        assert got == want, f"seat factions: expected {want!r}, got {got!r}"
    for key in ("factions", "winning_factions", "tie_break"):
        if key in expect:
            got = (st.result or {}).get(key)
            assert got == expect[key], f"result.{key}: expected {expect[key]!r}, got {got!r}"


def _play(data: dict[str, Any]) -> tuple[State, dict[str, Any] | None]:
    """Apply the actions one by one; a rejected action must leave the state unchanged."""
    st = scenario.build(data)
    for i, item in enumerate(data.get("actions", [])):
        before = st.to_json()
        try:
            st.apply(scenario.to_action(st, item))
        except SmallworldError as e:
            assert st.to_json() == before, f"the rejected action {i} ({item!r}) changed the state"
            return st, {"index": i, "action": item, "rule": getattr(e, "rule", None), "message": str(e)}
    return st, None


def check_file(path: Path) -> None:
    data = scenario.load(path)
    _validator().validate(data)
    expect = data.get("expect", {})
    if "position_error" in expect:
        with pytest.raises(PositionError) as info:
            scenario.build(data)
        assert expect["position_error"] in info.value.field, f"refused for {info.value}"
        return
    start = scenario.build(data)
    for ref, want in expect.get("costs", {}).items():
        got = scenario.cost_of(start, ref)
        assert got == want, f"cost of {ref} for seat {start.acting_seat}: expected {want}, got {got}"
    st, error = _play(data)
    # The library's own runner (used by `smallworld scenario run`) must agree.
    outcome = scenario.run(data)
    assert outcome.state.to_json() == st.to_json()
    assert (outcome.error or {}).get("index") == (error or {}).get("index")
    want_error = expect.get("error")
    if want_error is None:
        assert error is None, f"an action was rejected: {error}"
    else:
        assert error is not None, f"expected a rejection citing {want_error}, but every action was applied"
        rules = [want_error] if isinstance(want_error, str) else want_error
        assert error["rule"] in rules, f"rejected with {error['rule']} ({error['message']}), expected {rules}"
        if "error_index" in expect:
            assert error["index"] == expect["error_index"], f"rejected action: {error}"
    _check_state(st, expect)


# --- tests --------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", _params())
def test_scenario(path: Path) -> None:
    check_file(path)


def test_schema_is_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def test_enough_files() -> None:
    assert len(FILES) >= 40


def test_known_failing_files_exist() -> None:
    names = {_rel(p) for p in FILES} | {p.name for p in FILES}
    missing = sorted(k for k in KNOWN if k not in names)
    assert not missing, f"KNOWN_FAILING.txt names files that do not exist: {missing}"


def test_rules_in_scope_are_cited() -> None:
    cited: set[str] = set()
    for path in FILES:
        if path.is_relative_to(CLASSIC):
            continue  # those cite classic-rules.md (test_every_classic_unit_has_its_scenarios)
        cited.update(json.loads(path.read_text(encoding="utf-8")).get("rules", []))
    uncited = [s for s in SCOPE if s not in cited]
    assert not uncited, f"sections in scope that no position file cites: {uncited}"


def test_every_unit_has_its_scenarios() -> None:
    """Every race, power and marker has its own folder of position files: at least 5 per race and
    4 per power on average, and at least 3 for each unit."""
    from smallworld.engine.model.edition import get_edition

    ed = get_edition("warcraft")

    counts = {}
    for group, entries in (("races", ed.races), ("powers", ed.powers), ("relics", ed.relics)):
        for uid in entries:
            counts[(group, uid)] = len(list((SCENARIOS / group / uid).glob("*.json")))
    thin = [f"{g}/{u}: {n}" for (g, u), n in counts.items() if n < 3]
    assert not thin, f"units with fewer than 3 position files: {thin}"
    for group, least in (("races", 5), ("powers", 4)):
        mine = [n for (g, _), n in counts.items() if g == group]
        assert sum(mine) / len(mine) >= least, f"{group}: {sum(mine) / len(mine):.1f} files per unit"


def test_every_classic_unit_has_its_scenarios() -> None:
    """Every race and power of the classic edition has position files of its own, each naming the
    classic edition and citing classic-rules.md (its §7 races, §8 powers or a CL-AMB)."""
    from smallworld.engine.model.edition import get_edition

    ed = get_edition("classic")
    thin = []
    for group, entries in (("races", ed.races), ("powers", ed.powers)):
        for uid in entries:
            files = list((CLASSIC / group / uid).glob("*.json"))
            if len(files) < 2:
                thin.append(f"{group}/{uid}: {len(files)}")
            for f in files:
                data = json.loads(f.read_text(encoding="utf-8"))
                assert data["settings"].get("edition") == "classic", f
    assert not thin, f"classic units with fewer than 2 position files: {thin}"
    for path in FILES:
        if path.is_relative_to(CLASSIC):
            settings = json.loads(path.read_text(encoding="utf-8"))["settings"]
            assert settings.get("edition") == "classic", path


def test_titles_and_rules_are_well_formed() -> None:
    bad = []
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        rules = data.get("rules") or [""]
        valid = all(re.fullmatch(r"§\d+(\.\d+)*|(CL-)?AMB-\d\d", r) for r in rules)
        if len(data.get("title", "")) < 20 or not valid:
            bad.append(_rel(path))
    assert not bad, f"files without a plain-words title or a valid 'rules' list: {bad}"


def test_cli_runs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    from smallworld.cli import main

    path = SCENARIOS / "core" / "final" / "vector8_roll_3_succeeds.json"
    assert main(["scenario", "run", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["error"] is None and out["applied"] == ["final T:3"]
    assert out["position"]["regions"]["T:3"] == {"race": "blood_elves", "tokens": 1}


def test_cli_reports_a_rejected_action(capsys: pytest.CaptureFixture[str]) -> None:
    from smallworld.cli import main

    path = SCENARIOS / "core" / "final" / "shortfall_4_rejected.json"
    assert main(["scenario", "run", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["rule"] == "§6.10" and out["error"]["index"] == 0
