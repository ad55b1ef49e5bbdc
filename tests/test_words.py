"""The words: every message the declarations need exists in English, Portuguese and German, with the
same parameters; no catalogue holds ids nobody declares; the terminal game speaks all three."""

from __future__ import annotations

import argparse
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import reasons
from test_tui import WHICH, first_region

from smallworld.engine import Game, Settings
from smallworld.engine.model.actions import Action
from smallworld.engine.model.edition import Edition, get_edition
from smallworld.engine.model.errors import SmallworldError
from smallworld.engine.model.protocol import (
    CORE_ACTIONS,
    CORE_EVENTS,
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
)
from smallworld.engine.model.state import Phase
from smallworld.tui import run_play
from smallworld.words import (
    ACTION_PARAMS,
    CASES,
    CORE,
    EDITION,
    LANGS,
    Words,
    fill,
    for_edition,
    placeholders,
    shown,
)
from smallworld.words.describe import TUI, describe, tui_catalogue
from smallworld.words.describe import holder as describe_holder
from smallworld.words.describe import whose as describe_whose
from smallworld.words.voice import Voice

ROOT = Path(__file__).resolve().parents[1]
UNFILLED = re.compile(r"\{[a-z_][a-z0-9_]*(\|[^{}]*)*\}")


@pytest.fixture(scope="module", params=["warcraft", "classic"])
def ed(request: pytest.FixtureRequest) -> Edition:
    return get_edition(request.param)


@pytest.fixture(scope="module")
def words(ed: Edition) -> Words:
    return for_edition(ed).with_catalogue(TUI, tui_catalogue())


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(Settings(players=3, seed=1))


def error_codes() -> set[str]:
    import smallworld.engine.model.errors as errors

    return {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, SmallworldError)
    }


# --- what the declarations ask for ----------------------------------------------------------------
def first_choice(fields: tuple[Field, ...]) -> Field | None:
    return next((f for f in fields if f.type in (FieldType.CHOICE, FieldType.BOOL)), None)


def event_needs(spec: EventSpec, has: Any) -> list[str]:
    """`event.<type>`, or one variant per value of its first CHOICE/BOOL field."""
    base = f"event.{spec.type}"
    f = first_choice(spec.fields)
    if has(base) or f is None:
        return [base]
    values = ("yes", "no") if f.type == FieldType.BOOL else f.choices
    return [f"{base}.{v}" for v in values]


def action_needs(spec: ActionSpec, has: Any) -> list[str]:
    """`action.<kind>`, or one variant per declared choice."""
    base = f"action.{spec.kind}"
    if has(base) or not spec.choices:
        return [base]
    return [f"{base}.{c}" for c in spec.choices]


def unit_needs(ed: Edition, uid: str, has: Any) -> set[str]:
    unit = ed.units[uid]
    need = {"name", "card"}
    need |= {k for a in ed.action_specs.values() if a.unit == uid for k in action_needs(a, has)}
    need |= {k for e in ed.event_specs.values() if e.unit == uid for k in event_needs(e, has)}
    need |= {f"prompt.{p.id}" for (owner, _), p in ed.prompt_specs.items() if owner == uid}
    need |= {f"piece.{p.id}" for p in unit.pieces}
    need |= {f"choice.{c}" for c in declared_choices(ed, uid)}
    if uid in ed.hooked["conquest_options"]:
        need.add("option")
    return need


def declared_choices(ed: Edition, uid: str) -> set[str]:
    out = {c for a in ed.action_specs.values() if a.unit == uid for c in a.choices}
    fields = [f for e in ed.event_specs.values() if e.unit == uid for f in e.fields]
    fields += [f for (owner, _), p in ed.prompt_specs.items() if owner == uid for f in p.fields]
    return out | {
        str(c) for f in fields if f.type in (FieldType.CHOICE, FieldType.CHOICES) for c in f.choices
    }


def core_needs(has: Any) -> set[str]:
    need = {f"phase.{p.value}" for p in Phase}
    need |= {k for a in CORE_ACTIONS for k in action_needs(a, has)}
    need |= {k for e in CORE_EVENTS for k in event_needs(e, has)}
    need |= {"score.active_regions", "score.declined_regions", "score.faction_bonus"}
    need |= {"score.unit", "score.unit_declined", "event.unknown"}
    need |= {f"error.{code}" for code in error_codes()}
    need |= {"seat.you", "seat.you.listed", "seat.other", "seat.nobody", "region", "none", "stash"}
    need |= {"list.sep", "list.and", "clause.using", "clause.from", "clause.pay", "text.token"}
    return need


def edition_needs(ed: Edition) -> set[str]:
    need = {"name", "natives", "piece.mountain"}
    need |= {f"terrain.{t}" for t in ed.terrains}
    need |= {f"feature.{f}" for f in ed.features}
    need |= {f"faction.{f}" for f in ed.factions}
    need |= {f"size.{ed.boards.side(s).size}" for s in ed.boards.ids()}
    return need


def tui_sources() -> str:
    """The code that speaks the `tui` catalogue: the terminal game and the words of moves."""
    paths = [*sorted((ROOT / "smallworld/tui").glob("*.py")), ROOT / "smallworld/words/describe.py"]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths)


def tui_keys_used(core: set[str]) -> set[str]:
    """The message ids the terminal game names: the first argument of `say`, `self.t`, `said` and
    `InputError`, and every dotted string (a key chosen by a condition) that is not the core's."""
    src = tui_sources()
    calls = re.compile(r"""(?:say\(\w+, |self\.t\(|said\(\w+, |InputError\()["']([a-z_.]+)["']""")
    dotted = re.compile(r"""["']([a-z_]+(?:\.[a-z_]+)+)["']""")
    found = {m.group(1) for m in calls.finditer(src)}
    found |= {m.group(1) for m in dotted.finditer(src) if not m.group(1).endswith(".json")} - core
    return found


def needs(ed: Edition, words: Words) -> dict[str, set[str]]:
    """Every message id the declarations (and the terminal game) ask for, by owner."""
    out: dict[str, set[str]] = {}
    for owner in [*ed.units, CORE, EDITION, TUI]:

        def has(key: str, owner: str = owner) -> bool:
            return words.has(owner, key, "en")

        if owner == CORE:
            out[owner] = core_needs(has)
        elif owner == EDITION:
            out[owner] = edition_needs(ed)
        elif owner == TUI:
            out[owner] = tui_keys_used(set(words.catalogues[CORE]["en"])) | {"col.player", "col.pos", "col.n"}
        else:
            out[owner] = unit_needs(ed, owner, has)
    return out


# --- the tests --------------------------------------------------------------------------------------
def test_every_unit_has_a_catalogue_and_every_catalogue_a_declarer(ed: Edition, words: Words) -> None:
    assert set(words.owners()) == {*ed.units, CORE, EDITION, TUI}
    files = {p.stem for p in Path(ed.words).glob("*.json")}
    assert files == {*ed.units, "_edition"}


def test_every_declared_message_exists_in_every_language(ed: Edition, words: Words) -> None:
    missing = [
        f"{owner}.{key} [{lang}]"
        for owner, keys in needs(ed, words).items()
        for key in sorted(keys)
        for lang in LANGS
        if not words.has(owner, key, lang)
    ]
    assert not missing, missing


def test_every_language_holds_the_same_ids_with_the_same_parameters(words: Words) -> None:
    """The same ids and parameters, but for what only some grammars need: the `_you` flags, and a
    unit's case forms (`name.dat`, `{race_gen}`; smallworld/words/__init__.py), which stand for the
    name itself."""

    def params(template: str) -> set[str]:
        out = {p for p in placeholders(template) if not p.endswith("_you")}
        return {next((p.removesuffix(f"_{c}") for c in CASES if p.endswith(f"_{c}")), p) for p in out}

    forms = {f"{base}.{c}" for base in ("name", "natives") for c in CASES}
    bad = []
    for owner in words.owners():
        cat = words.catalogues[owner]
        for lang in LANGS:
            if set(cat[lang]) - forms != set(cat["en"]):
                bad.append(f"{owner} [{lang}]: ids {sorted((set(cat[lang]) - forms) ^ set(cat['en']))}")
            stray = [k for k in forms & set(cat[lang]) if k.split(".")[0] not in cat[lang]]
            if stray:
                bad.append(f"{owner} [{lang}]: case forms {stray} of no name")
        for key, en in cat["en"].items():
            for lang in LANGS[1:]:
                other = cat[lang].get(key)
                if other is not None and params(other) != params(en):
                    bad.append(f"{owner}.{key} [{lang}]: {sorted(params(other) ^ params(en))}")
                if other is not None and other == "":
                    bad.append(f"{owner}.{key} [{lang}] is empty")
    assert not bad, bad


def variants_of_event(spec: EventSpec) -> set[str]:
    base = f"event.{spec.type}"
    f = first_choice(spec.fields)
    choices: list[str | None] = [None]
    if f is not None:
        choices += list(("yes", "no") if f.type == FieldType.BOOL else f.choices)
    opts: list[str | None] = [None]
    for g in spec.fields:
        if (g.optional or g.nullable) and g is not f:
            opts += [g.name, f"{g.name}_none"]
    return {".".join(x for x in (base, c, o) if x) for c in choices for o in opts}


def variants_of_action(spec: ActionSpec) -> set[str]:
    base = f"action.{spec.kind}"
    out = {base} | {f"{base}.{c}" for c in spec.choices} | {f"{base}.{a.value}" for a in spec.args}
    if spec.takes(Arg.COUNT):
        out |= {f"{base}.{n}" for n in range(spec.most + 1)}
    return out


def allowed(ed: Edition, owner: str) -> dict[str, set[str] | None]:
    """Every id `owner` may hold, with the parameters its English may use (None: not checked)."""

    def fields_params(fields: tuple[Field, ...]) -> set[str]:
        out = set()
        for f in fields:
            out.add(f.name)
            if f.type == FieldType.SEAT:
                out |= {f"{f.name}_you", f"{f.name}_self"}
            elif f.type in (
                FieldType.REGIONS,
                FieldType.SEATS,
                FieldType.INTS,
                FieldType.ITEMS,
                FieldType.PIECES,
                FieldType.INT,
            ):
                out.add(f"{f.name}_any")
        return out

    out: dict[str, set[str] | None] = {}
    for a in ed.action_specs.values():
        if a.unit == owner:
            out |= {key: set(ACTION_PARAMS) for key in variants_of_action(a)}
    for e in ed.event_specs.values():
        if e.unit == owner:
            out |= dict.fromkeys(variants_of_event(e), fields_params(e.fields))
    for (uid, pid), p in ed.prompt_specs.items():
        if uid == owner:
            out[f"prompt.{pid}"] = fields_params((Field("seat", FieldType.SEAT, ""), *p.fields))
    if owner == CORE:
        shared = {
            "seat.you": set(), "seat.you.listed": set(), "seat.other": {"n"}, "seat.nobody": set(),
            "region": {"n", "name"}, "none": set(), "stash": set(), "list.sep": set(),
            "list.and": {"first", "last"}, "clause.using": {"option"}, "clause.from": {"holder"},
            "clause.pay": {"coins"}, "text.token": set(), "score.unit": {"n", "name"},
            "score.unit_declined": {"n", "name"}, "event.unknown": {"seat", "type", "details"},
            "choice.all": set(),
        }  # fmt: skip
        out |= shared
        out |= {f"phase.{p.value}": set() for p in Phase}
        out |= {f"score.{k}": {"n"} for k in ("active_regions", "declined_regions", "faction_bonus")}
        out |= {f"error.{c}": {"message", "ref"} for c in error_codes()}
        out["rules.ref"] = {"rule"}
        out |= refusals(ed, CORE)
        return out
    if owner == EDITION:
        out |= refusals(ed, EDITION)
        out |= {k: set() for k in edition_needs(ed)}
        out |= {f"feature.{f}": {"size"} for f in ed.features}
        out["piece.mountain"] = {"n"}
        return out
    unit = ed.units[owner]
    out |= {"name": set(), "card": set(), "option": set()}
    out |= {f"piece.{p.id}": {"n"} for p in unit.pieces}
    out |= {f"choice.{c}": set() for c in declared_choices(ed, owner)}
    out |= refusals(ed, owner)
    return out


def refusals(ed: Edition, owner: str) -> dict[str, set[str] | None]:
    """The `why.<key>` ids of the reasons `owner` gives its refusals (tests/reasons.py), with the
    parameters the code gives them."""
    out: dict[str, set[str] | None] = {}
    for reason, given in reasons.scan()[0].items():
        head, dot, rest = reason.partition(".")
        mine = rest if dot and (head == EDITION or head in ed.units) and head == owner else None
        if owner == CORE and not (dot and (head == EDITION or head in ed.units)):
            mine = reason
        if mine is not None:
            out[f"why.{mine}"] = None if given is None else reasons.shown_params(given)
    return out


def test_no_catalogue_holds_ids_nobody_declares_or_parameters_nobody_gives(ed: Edition, words: Words) -> None:
    bad = []
    for owner in words.owners():
        if owner == TUI:
            continue
        ok = allowed(ed, owner)
        for key, en in words.catalogues[owner]["en"].items():
            if key not in ok:
                bad.append(f"{owner}.{key}: declared by nobody")
                continue
            if key == "option" and owner not in ed.hooked["conquest_options"]:
                bad.append(f"{owner}.option: the unit offers no conquest option")
            given = ok[key]
            if given is not None and not placeholders(en) <= given:
                bad.append(f"{owner}.{key}: parameters {sorted(placeholders(en) - given)} are never given")
    assert not bad, bad


def test_the_terminal_game_uses_every_message_of_its_own(words: Words) -> None:
    src = tui_sources()
    unused = [
        key
        for key in words.catalogues[TUI]["en"]
        if not re.search(rf"""["']{re.escape(key)}["']""", src) and not key.startswith("col.")
    ]
    assert not unused, unused


def test_names_in_every_language_and_the_data_names_in_english(ed: Edition, words: Words) -> None:
    for table in (ed.races, ed.powers, ed.relics):
        for uid, entry in table.items():
            assert words.text(uid, "name", "en") == entry.name, uid
            for lang in LANGS:
                assert words.has(uid, "name", lang), (uid, lang)
    assert ed.natives is not None
    assert words.text(EDITION, "natives", "en") == ed.natives.name
    assert words.text(EDITION, "name", "en") == ed.name


def test_templates() -> None:
    assert fill("{n} {n|coin|coins}", {"n": 1}) == "1 coin"
    assert fill("{n} {n|coin|coins}", {"n": 0}) == "0 coins"
    assert fill("{you|You roll|{seat} rolls}", {"you": False, "seat": "Seat 2"}) == "Seat 2 rolls"
    assert fill("{you|You roll|{seat} rolls}", {"you": True}) == "You roll"
    assert fill("{a} {b|x|y} {c", {}) == "{a} {b|x|y} {c"  # missing parameters stay visible
    assert placeholders("{a|{b} {c|x|y}|z}") == {"a", "b", "c"} and shown("{a|{b}|z}") == {"b"}


# --- every declaration rendered, in every language --------------------------------------------------
def samples(game: Game, f: Field) -> Iterator[Any]:
    """Values a field of this type may take (the viewer's seat among them)."""
    ed = game.edition
    t = f.type
    table: dict[FieldType, list[Any]] = {
        FieldType.SEAT: [0, 1],
        FieldType.REGION: [3],
        FieldType.REGIONS: [[3, 4]],
        FieldType.INT: [1, 2],
        FieldType.BOOL: [True, False],
        FieldType.TEXT: ["token", next(iter(ed.pieces))],
        FieldType.UNIT: [next(iter(ed.races)), next(iter(ed.relics))],
        FieldType.PIECE: list(ed.pieces)[:2],
        FieldType.CHOICE: list(f.choices),
        FieldType.SEATS: [[0, 2], []],
        FieldType.INTS: [[3, 4]],
        FieldType.CHOICES: [list(f.choices[:1])],
        FieldType.ITEMS: [{"active_regions": 2, next(iter(ed.powers)): 1}],
        FieldType.ROLLS: [[1, 2]],
        FieldType.PIECES: [{k: n + 1 for n, k in enumerate(list(ed.pieces)[:2])}],
    }
    yield from table.get(t, [{}])


def events(game: Game, spec: EventSpec) -> Iterator[dict[str, Any]]:
    """Events of this type: every value of each field, optional fields present, null or absent."""
    options = []
    for f in spec.fields:
        values = [("v", v) for v in samples(game, f)]
        if f.nullable:
            values.append(("v", None))
        if f.optional:
            values.append(("absent", None))
        options.append([(f.name, how, v) for how, v in values])
    for combo in itertools.islice(itertools.product(*options), 400):
        yield {"type": spec.type, **{name: v for name, how, v in combo if how == "v"}}


def check_text(text: str, owners: list[str], where: str) -> None:
    assert not UNFILLED.search(text), (where, text)
    fallback = re.compile(rf"\b({'|'.join(map(re.escape, owners))})\.[a-z]")
    assert not fallback.search(text), (where, text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_prompt_and_action_renders(lang: str, game: Game) -> None:
    v = Voice(game, lang, viewer=0, extra={TUI: tui_catalogue()})
    owners = v.words.owners()
    for spec in game.event_specs.values():
        for e in events(game, spec):
            # A field a template shows must be there: variants cover the optional ones.
            spec_key = v.event_key(spec, e)
            template = v.words.template(spec.unit, spec_key, lang) or ""
            if not all(p in e or p.rsplit("_", 1)[0] in e for p in placeholders(template)):
                continue
            check_text(v.event(e), owners, f"{spec.unit}.{spec_key} {e}")
    for (uid, pid), p in game.prompt_specs.items():
        prompt = {"unit": uid, "prompt": pid, "seat": 0}
        prompt |= {f.name: next(samples(game, f)) for f in p.fields}
        check_text(v.prompt(prompt), owners, f"{uid}.prompt.{pid}")
    tui_params = {
        "race": "R", "power": "P", "hand": 4, "where": "W", "arg_where": "A", "tokens": 3, "then": 2,
        "cost": 1, "short": 1, "free": False, "coins": 2, "collect": True, "from": "", "pay": "",
        "race_dat": "R", "race_gen": "R", "arg_seat": "S", "declined": "D",
    }  # fmt: skip
    for aspec in game.action_specs.values():
        args: list[Any] = [None] if aspec.takes(Arg.NONE) else []
        args += list(aspec.choices)
        if aspec.takes(Arg.COUNT):
            args += [0, 1, 2]
        if aspec.takes(Arg.REGION):
            args.append(5)
        if aspec.takes(Arg.PIECE):
            args.append(next(iter(game.pieces)))
        if aspec.takes(Arg.RELIC):
            args.append(next(iter(game.relics)))
        if aspec.takes(Arg.OPTION):
            args += list(game.edition.hooked["conquest_options"])
        region = 3 if aspec.region else None
        for arg in args:
            check_text(v.action(Action(aspec.kind, region, arg), **tui_params), owners, f"{aspec.kind} {arg}")
    for uid in game.units:
        check_text(v.card(uid), owners, f"{uid}.card")



def test_german_declines_a_race_where_its_sentence_needs_it(game: Game) -> None:
    """A race after "von" is in the dative plural, after "der" in the genitive (its `name.dat`,
    `name.gen`): "von Trollen", "der Verlassenen", where the name alone ("von Trolle", "der
    Verlassene") was wrong; the other languages, and German where the form is the name, say the
    name. A conquest (§6.5) and the expand decision (§6.16)."""
    conquest = {"type": "conquest", "seat": 1, "region": 3, "race": "forsaken", "defender": "trolls",
                "defender_seat": 0, "tokens": 3, "lost": 1}  # fmt: skip
    de = Voice(game, "de", viewer=0)
    assert "von Trollen mit 3 Plättchen der Verlassenen (1 verloren)" in de.event(conquest)
    en = Voice(game, "en", viewer=0)
    assert "from the Trolls with 3 tokens of the Forsaken (1 lost)" in en.event(conquest)
    plain = {**conquest, "race": "orcs", "defender": "humans"}
    assert "von Menschen mit 3 Plättchen der Orcs" in de.event(plain)
    st = game.new_initial_state()
    st.seats[st.acting_seat].active = "trolls"
    tui_de = Voice(game, "de", viewer=st.acting_seat, extra={TUI: tui_catalogue()})
    expand = describe(st, Action("expand"), tui_de)
    assert expand.startswith("mit Trollen ausbreiten"), expand
    classic = Game(Settings(edition="classic", players=3, seed=1))
    assert classic.edition.natives is not None
    natives = {**conquest, "race": "trolls", "defender": classic.edition.natives.id, "defender_seat": None}
    said = Voice(classic, "de", viewer=0).event(natives)
    assert "von Verlorenen Stämmen mit 3 Plättchen der Trolle" in said, said
    # "deine" before an adjectival name declines it as an article does (the terminal's regions).
    mine = game.new_initial_state()
    mine.seats[0].active = "forsaken"
    tui_de = Voice(game, "de", viewer=0, extra={TUI: tui_catalogue()})
    assert describe_whose(mine, tui_de, "forsaken") == "deine Verlassenen"
    # A move's "from" clause too (the terminal's and the page's decisions).
    st = classic.new_initial_state()
    held = next(r for r in range(len(st.race)) if st.race[r] == classic.edition.natives.id)
    assert describe_holder(st, Voice(classic, "de", viewer=0), held) == "Verlorenen Stämmen"


def test_you_and_one_read_as_a_sentence_in_the_middle_of_one(game: Game) -> None:
    """The reader named after a preposition is "you" / "você" / "dir", not the sentence-start "You" /
    "Du" (the Diplomat's peace, classic §8); one new Skeleton (classic §7) is singular; German's
    "die" before an adjectival race name declines it ("Die Verlassenen verlassen ...", §6.16)."""
    classic = Game(Settings(edition="classic", players=3, seed=1))
    voices = {lang: Voice(classic, lang, viewer=0) for lang in LANGS}
    peace = {"type": "peace", "seat": 1, "ally": 0}
    said = {lang: v.event(peace) for lang, v in voices.items()}
    assert said["en"].endswith("peace with you") and said["pt"].endswith("pazes com você"), said
    assert said["de"].endswith("Frieden mit dir"), said
    rise = {"type": "skeletons_rise", "seat": 0, "tokens": 1}
    said = {lang: v.event(rise) for lang, v in voices.items()}
    assert said == {"en": "You raise 1 new Skeleton", "pt": "Você levanta 1 novo Esqueleto",
                    "de": "Du erweckst 1 neues Skelett"}, said  # fmt: skip
    left = {"type": "left_play", "race": "forsaken", "seat": 1}
    assert Voice(game, "de", viewer=0).event(left).startswith("Die Verlassenen verlassen das Spielbrett")


def test_a_move_names_the_seat_the_race_and_the_option_it_is_about() -> None:
    """The Diplomat's choice names the seat (classic §8: "make peace with Seat 1", not "seat 1" by
    its number); the rising race's choice names the In-Decline race (classic Ghouls, §7), not the
    Active one; the Dragon as an option reads once ("using the Dragon", not "using with the
    Dragon")."""
    classic = Game(Settings(edition="classic", players=3, seed=1))
    st = classic.new_initial_state()
    me = st.acting_seat
    st.seats[me].active, st.seats[me].declined = "ratmen", "ghouls"
    en, de = (Voice(classic, lang, viewer=me, extra={TUI: tui_catalogue()}) for lang in ("en", "de"))
    assert describe(st, Action("rise"), en) == "let the In-Decline Ghouls play their turn first"
    assert describe(st, Action("skip"), de) == "die untergegangenen Ghule setzen diesen Zug aus"
    other = (me + 1) % 3
    assert en.action(Action("make_peace", None, other)) == f"make peace with Seat {other}"
    assert de.action(Action("make_peace", None, other)) == f"Frieden mit Spieler {other} schließen"
    mine = ("region", "arg", "arg_seat", "option", "using")  # what `action` gives itself
    rest = {k: "" for k in ACTION_PARAMS if k not in mine}
    using = en.action(Action("conquer", 5, "dragon_master"), **rest)
    assert "using the Dragon" in using, using

@pytest.mark.parametrize("lang", LANGS)
def test_a_game_in_each_language_through_the_terminal(lang: str, tmp_path: Path) -> None:
    """Whole games with scripted answers: no unfilled parameter and no message id on the screen."""
    owners = for_edition(get_edition("warcraft")).with_catalogue(TUI, tui_catalogue()).owners()
    for seed in (2, 6):
        lines = iter(["help", "cards", "board", "frobnicate", "99"])
        out: list[str] = []
        asked = [0]

        def read(
            prompt: str, lines: Iterator[str] = lines, out: list[str] = out, asked: list[int] = asked
        ) -> str:
            asked[0] += 1
            assert asked[0] < 5000, "the game asked for too many moves"
            if prompt.startswith(WHICH):
                return first_region(out)  # a folded move: its first region
            return next(lines, "1")

        args = argparse.Namespace(
            players=3, seed=seed, seat=0, load=None, save=tmp_path / "save.json", lang=lang
        )
        assert run_play(args, read, out.append) == 0
        text = "\n".join(out)
        check_text(text, owners, f"{lang} seed {seed}")
        assert "✗" in text  # the bad lines were refused, in words
        if lang != "en":
            assert "Final scores" not in text and "Your moves" not in text
