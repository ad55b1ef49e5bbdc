"""Refusals in words (issue 26): every reason an engine or server error can give has its sentence
in English, Portuguese and German, renders with sample parameters without Python's marks (reprs,
enums, quoted ids, missing fields), shows the section once as a reference, and the terminal game
tells a refused move in the player's language."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reasons import scan
from test_tui import Script, joined, play_args, run

from smallworld.engine import Action, Game, Settings
from smallworld.engine.model.edition import Edition, get_edition
from smallworld.engine.model.errors import IllegalActionError, SmallworldError
from smallworld.words import CORE, LANGS, placeholders
from smallworld.words.voice import Voice
from smallworld.words.why import owner_key

RULE = "§6.12"
REFERENCE = {"en": f"(Rules {RULE})", "pt": f"(Regras {RULE})", "de": f"(Regeln {RULE})"}
# What must never reach a person: a repr, an enum, a quoted id, a field left unfilled, a message
# id shown for a missing message, an id with underscores, Python's constants.
NEVER = re.compile(r"<|>|Kind\.|Phase\.|'[a-z_]+'|[{}]|\bwhy\.|\b[a-z]+_[a-z_]+\b|\b(None|True|False)\b")
# Words that mean a Portuguese or German sentence was left in English.
ENGLISH = re.compile(r"\b(the|your|you|is|are|and|not|only|must|cannot|first|region)\b")

GAMES = {ed: Game(Settings(players=3, seed=1, edition=ed)) for ed in ("warcraft", "classic")}
ALL_UNITS = {uid for ed in GAMES for uid in get_edition(ed).units}


def owned_by(ed: Edition, reason: str) -> tuple[str, str] | None:
    """(owner, message id) of a reason in an edition; None for another edition's unit's reason."""
    head, dot, _ = reason.partition(".")
    if dot and head in ALL_UNITS and head not in ed.units:
        return None
    return owner_key(ed.units, reason)


def editions_of(reason: str) -> list[str]:
    """The editions whose words hold a reason: a unit's or the edition's in its own, the core's in
    every one."""
    return [ed_id for ed_id in GAMES if owned_by(get_edition(ed_id), reason) is not None]


def samples(ed: Edition, game: Game, reason: str, names: set[str]) -> Iterator[dict[str, Any]]:
    """Two sets of parameters: every number 1, every flag true and every seat the reader's; then
    numbers 2, flags false and seats another's."""
    m = game.map
    races, powers = sorted(ed.races), sorted(ed.powers)
    relics = sorted(ed.relics) or races
    kinds = sorted(game.pieces)
    for one in (True, False):
        p: dict[str, Any] = {}
        for name in names:
            if name == "region" or name.endswith("_region"):
                p[name] = m.ref(1 if one else 2)
            elif name == "regions":
                p[name] = [m.ref(1), m.ref(2)] if not one else [m.ref(3)]
            elif name == "seat" or name.endswith("_seat"):
                p[name] = 0 if one else 1
            elif name in ("unit", "race"):
                p[name] = races[0]
            elif name == "power":
                p[name] = powers[0]
            elif name == "relic":
                p[name] = relics[0]
            elif name == "option":
                p[name] = powers[0]
            elif name == "piece":
                p[name] = kinds[0]
            elif name == "pieces":
                p[name] = {kinds[0]: 1 if one else 2}
            elif name == "phase":
                p[name] = "conquer" if one else "redeploy"
            elif name == "terrain":
                p[name] = "Lake" if one else "Sea"
            elif name == "faction":
                p[name] = "Alliance" if one else "Horde"
            elif name == "why":
                p[name] = "own"
            elif name == "kind":
                p[name] = "conquer"
            elif name in ("value", "name", "field"):
                p[name] = "x7" if one else "action.arg"
            elif name in ("final", "others"):
                p[name] = one
            else:
                p[name] = 1 if one else 2
        yield p


def template_names(ed: Edition, reason: str) -> set[str]:
    """The parameters the English sentence of a reason uses (flags of seats and lists left to the
    renderer), plus the region a nested reason needs."""
    game = GAMES[ed.id]
    owner, key = owner_key(ed.units, reason)
    template = Voice(game).words.template(owner, key) or ""
    names = {n.removesuffix("_you").removesuffix("_any") for n in placeholders(template)}
    return names | ({"region"} if "why" in names else set())


def cases() -> Iterator[tuple[str, str]]:
    """Each reason in each edition whose words hold it (the team variant's are Warcraft's, and of
    the two Humans only Warcraft's refuses anything)."""
    reasons, _ = scan()
    for reason in sorted(reasons):
        for ed_id in editions_of(reason):
            owner, key = owner_key(get_edition(ed_id).units, reason)
            if Voice(GAMES[ed_id]).has(owner, key):
                yield reason, ed_id


CASES = list(cases())


def test_every_reason_in_the_code_is_read_and_has_words_in_every_language() -> None:
    """The core's reasons in the core's words; a unit's (or an edition's) in the words of an edition
    that has it (a unit id two editions share, Humans, gives its refusals in one of them)."""
    reasons, odd = scan()
    assert not odd, f"reasons that are not literals: {odd}"
    assert len(reasons) > 150
    missing = []
    for reason in reasons:
        found = False
        for ed_id, game in GAMES.items():
            found_in = owned_by(get_edition(ed_id), reason)
            if found_in is None:
                continue
            owner, key = found_in
            cat = Voice(game).words.catalogues.get(owner, {})
            ok = all(key in cat.get(lang, {}) for lang in LANGS)
            if owner == CORE and not ok:
                missing.append(f"{reason} [{ed_id}]")
            found |= ok
        if not found:
            missing.append(reason)
    assert not missing, missing


@pytest.mark.parametrize(("reason", "ed_id"), CASES, ids=[f"{r}-{e}" for r, e in CASES])
def test_every_reason_renders_in_three_languages(reason: str, ed_id: str) -> None:
    ed = get_edition(ed_id)
    game = GAMES[ed_id]
    owner, key = owner_key(ed.units, reason)
    for params in samples(ed, game, reason, template_names(ed, reason)):
        texts = {}
        for lang in LANGS:
            v = Voice(game, lang, 0)
            error = {"code": "illegal_action", "reason": reason, "params": params, "rule": RULE}
            text = v.error(error)
            where = f"{reason} [{lang}] {params}: {text!r}"
            assert text.strip() and not NEVER.search(text), where
            assert text.count(RULE) == 1 and text.endswith(REFERENCE[lang]), where
            assert text[: -len(REFERENCE[lang])].strip(), where  # a sentence, not only the section
            texts[lang] = text
            if lang != "en":
                template = v.words.template(owner, key, lang) or ""
                assert not ENGLISH.search(re.sub(r"\{[^{}]*\}", "", template)), where
        assert texts["pt"] != texts["en"] and texts["de"] != texts["en"], texts


def test_an_error_carries_its_reason_and_plain_params_and_keeps_its_english_message() -> None:
    st = GAMES["warcraft"].new_initial_state()
    with pytest.raises(IllegalActionError) as e:
        st.apply(["deploy", 3])
    out = e.value.to_json()
    assert out["reason"] == "not_now" and out["params"] == {"kind": "deploy", "phase": "pick"}
    assert out["rule"] == e.value.rule
    assert out["message"].startswith(f"{e.value.rule}: 'deploy' is not possible")  # English, for programs
    json.dumps(out)  # plain JSON
    with pytest.raises(SmallworldError) as m:
        st.apply(["pick", None, "seven"])
    assert m.value.to_json()["reason"] == "bad_arg" and m.value.to_json()["params"]["value"] == "seven"
    for lang, words in (("en", "does not fit"), ("pt", "não serve"), ("de", "passt nicht")):
        text = Voice(st.game, lang, 0).error(m.value)
        assert words in text and ("“seven”" in text or "„seven“" in text), text


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_move_in_the_terminal_reads_in_the_players_language(lang: str, tmp_path: Path) -> None:
    """`deploy 3` while picking a race: the terminal tells the catalogue's sentence and the section
    as a reference, with no English message and no rule in front."""
    rc, out = run(play_args(tmp_path, lang=lang), Script(["deploy 3"]))
    text = joined(out)
    template = Voice(GAMES["warcraft"], lang).words.template(CORE, "why.not_now", lang) or ""
    fixed = template.split("{")[0].strip()
    assert rc == 0 and fixed and f"✗ {fixed}" in text, text[-600:]
    refusal = text[text.index(f"✗ {fixed}") :]
    assert re.search(r"\((Rules|Regras|Regeln) §\d", refusal), refusal[:300]
    assert "is not possible now" not in text and "'deploy'" not in text and "✗ §" not in text


NODE = shutil.which("node")
RUN_JS = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
if (!globalThis.navigator) globalThis.navigator = { language: "en" };
const [lib, data] = process.argv.slice(2);
const W = await import(lib);
const fs = await import("node:fs");
const { catalogues, regions, pieces, natives, cases } = JSON.parse(fs.readFileSync(data, "utf8"));
W.load(catalogues);
const out = cases.map((c) => {
  W.setLang(c.lang);
  return W.refusal(c.body, { region: (ref) => regions[ref], pieces, natives, viewer: c.viewer });
});
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="no node to run the browser's module")
@pytest.mark.parametrize("ed_id", sorted(GAMES))
def test_the_browser_tells_every_refusal_as_python_does(ed_id: str, tmp_path: Path) -> None:
    """`static/i18n.js` (`refusal`) gives the text of `Voice.error` for every reason, sample and
    language: the browser and the terminal say the same sentence for the same reason."""
    from smallworld.web import STATIC, payload

    game, ed = GAMES[ed_id], get_edition(ed_id)
    m = game.map
    cases = [
        {"lang": lang, "viewer": 0, "body": {"code": code, "reason": reason, "params": params, "rule": RULE}}
        for reason, e in CASES
        if e == ed_id
        for params in samples(ed, game, reason, template_names(ed, reason))
        for lang in LANGS
        for code in ("illegal_action", "malformed_action")
    ]
    assert len(cases) > 300
    data = {
        "catalogues": payload.words(game),
        "regions": {m.ref(r): {"n": r, "name": m.regions[r].name} for r in range(m.n)},
        "pieces": payload.board(game)["pieces"],
        "natives": ed.natives.id if ed.natives is not None else None,
        "cases": cases,
    }
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(RUN_JS, encoding="utf-8")
    lib = (STATIC / "i18n.js").resolve().as_uri()
    done = subprocess.run(
        [str(NODE), str(tmp_path / "run.mjs"), lib, str(tmp_path / "data.json")],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    browser = json.loads(done.stdout)
    python = [Voice(game, c["lang"], c["viewer"]).error(c["body"]) for c in cases]
    wrong = [(c, b, p) for c, b, p in zip(cases, browser, python, strict=True) if b != p]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("ed_id", sorted(GAMES))
def test_refusals_met_in_play_carry_plain_params_and_read_well(ed_id: str) -> None:
    """Random games, and at every step moves of every kind that are not legal (the units' kinds
    too): each refusal's JSON is plain, names a reason with words, and reads in every language
    without Python's marks, the section once."""
    rnd = random.Random(7)
    st = Game(Settings(players=3, seed=4, edition=ed_id)).new_initial_state()
    kinds = sorted(st.game.action_specs)
    voices = {lang: Voice(st.game, lang, 0) for lang in LANGS}
    told: set[str] = set()
    while not st.is_over():
        legal = st.legal_actions()
        for _ in range(3):
            spec = st.game.action_specs[rnd.choice(kinds)]
            arg = rnd.choice([None, 0, 1, "all", *spec.choices, *sorted(st.game.pieces)[:2], *kinds[:2]])
            cand = [str(spec.kind), rnd.choice([None, *range(st.game.map.n)]), arg]
            try:
                if Action(*cand) in legal:  # type: ignore[arg-type]
                    continue
                st.apply(cand)
            except SmallworldError as e:
                out = json.loads(json.dumps(e.to_json()))
                assert out["reason"] and isinstance(out["params"], dict), out
                for lang, v in voices.items():
                    text = v.error(e)
                    assert text.strip() and not NEVER.search(text), (lang, out, text)
                    rule = getattr(e, "rule", None)
                    assert not rule or text.count(rule) == 1, (lang, out, text)
                told.add(out["reason"])
                continue
            legal = st.legal_actions()  # a move that turned out legal was played
        if st.is_over():
            break
        st.apply(legal[rnd.randrange(len(legal))] if legal else st.legal_actions()[0])
    assert len(told) >= 8, told


@pytest.mark.parametrize(("lang", "words"), [("en", "is missing or wrong"), ("pt", "está ausente ou errado"),
                                             ("de", "fehlt oder ist falsch")])  # fmt: skip
def test_a_file_refused_before_any_game_is_told_in_the_readers_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    """A save that cannot be loaded: the catalogue's sentence naming the field, in the reader's
    language, then the engine's detail (the form the field must have)."""
    from smallworld.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "smallworld-save/2", "settings": {"players": 9}}')
    assert main(["play", "--load", str(bad), "--lang", lang]) != 0
    said = capsys.readouterr()
    told = said.out + said.err
    assert f"settings.players {words}" in told and "(must be one of [2, 3, 4, 5], got 9)" in told
