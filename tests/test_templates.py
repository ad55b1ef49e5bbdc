"""The template language of the catalogues, Python side: every case of `tests/templates.json` through
`smallworld.words.fill` and `Words.text`; `tests/web/test_web_templates.py` runs the same cases in
the browser against `static/i18n.js`. And every catalogue's templates are well formed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import smallworld
from smallworld.words import LANGS, Words, fill, malformed

TABLE = json.loads((Path(__file__).with_name("templates.json")).read_text(encoding="utf-8"))
PACKAGE = Path(smallworld.__file__).parent


def _id(case: dict[str, Any]) -> str:
    return str(case["why"])


@pytest.mark.parametrize("case", TABLE["fill"], ids=_id)
def test_fill(case: dict[str, Any]) -> None:
    assert fill(case["template"], case["params"]) == case["out"]


@pytest.mark.parametrize("case", TABLE["lookup"]["cases"], ids=_id)
def test_lookup(case: dict[str, Any]) -> None:
    words = Words(TABLE["lookup"]["catalogues"])
    assert words.text(case["owner"], case["key"], case["lang"], **case["params"]) == case["out"]
    assert (words.template(case["owner"], case["key"], case["lang"]) is not None) == case["has"]


def test_the_table_names_every_case_once() -> None:
    whys = [c["why"] for c in TABLE["fill"] + TABLE["lookup"]["cases"]]
    assert len(whys) == len(set(whys))


def catalogue_files() -> list[Path]:
    """Every catalogue of the package: the core's and the clients' (`words/*.json`, `web/words.json`)
    and each edition's (`editions/*/words/*.json`)."""
    return sorted(p for p in PACKAGE.rglob("*.json") if p.parent.name == "words" or p.name == "words.json")


def test_catalogue_templates_are_well_formed() -> None:
    files = catalogue_files()
    assert len(files) > 50 and PACKAGE / "web" / "words.json" in files
    bad = []
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        for lang in LANGS:
            for key, template in data.get(lang, {}).items():
                if malformed(template):
                    bad.append(f"{path.relative_to(PACKAGE)} {lang} {key}: {template}")
    assert not bad, "a { or } that is no field (escape it as \\{ \\}):\n" + "\n".join(bad)


@pytest.mark.parametrize(
    ("template", "bad"),
    [
        ("{n} {n|coin|coins}", False),
        ("\\{n\\} and \\}", False),
        ("{a|{b|x|y}|\\}}", False),
        ("{Name}", True),
        ("{n|one}", True),
        ("a {n", True),
        ("a } b", True),
        ("{n|a|b}}", True),
        ("{a|{B}|c}", True),
    ],
)
def test_malformed(template: str, bad: bool) -> None:
    assert malformed(template) is bad


def test_a_parameter_given_as_a_function_is_worked_out_only_where_a_template_uses_it() -> None:
    """A function parameter (a case form, a seat named by a move's number) is called when the
    template shows it or chooses by it, and never where the template does not use it."""
    calls: list[str] = []

    def word() -> str:
        calls.append("word")
        return "Trollen"

    assert fill("von {x}", {"x": word}) == "von Trollen" and calls == ["word"]
    assert fill("nobody asks", {"x": word}) == "nobody asks" and calls == ["word"]
    assert fill("{n|one|many}", {"n": lambda: 1}) == "one"
    assert fill("{x} stays", {"x": lambda: None}) == "{x} stays"  # null, worked out: still visible
