"""`smallworld content`: the units of an edition with their values and sources, in a language."""

from __future__ import annotations

import json

import pytest

from smallworld.cli import main


def _content(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["content", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_german_names_as_the_german_rulebook_prints_them(capsys: pytest.CaptureFixture[str]) -> None:
    data = _content(capsys, "--edition", "warcraft", "--lang", "de")
    races = {r["id"]: r for r in data["races"]}
    assert races["blood_elves"]["name"] == "Blutelfen" and races["dwarves"]["name"] == "Zwerge"
    assert races["ethereals"]["name"] == "Astrale" and races["ethereals"]["name_en"] == "Ethereals"
    assert len(races) == 16 and all(r["name"] for r in races.values())
    assert data["lang"] == "de" and data["edition"] == "warcraft"


def test_english_is_the_default_and_every_language_names_every_unit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    english = _content(capsys)
    assert english["races"][0]["name"] == "Blood Elves" and "name_en" not in english["races"][0]
    for lang in ("pt", "de"):
        data = _content(capsys, "--lang", lang)
        for key in ("races", "powers", "artifacts", "places"):
            assert [e["id"] for e in data[key]] == [e["id"] for e in english[key]]
            assert all(e["name"] and e["name_en"] for e in data[key])


def test_an_unknown_edition_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "--edition", "nope"]) == 2
    assert "settings.edition" in capsys.readouterr().err


@pytest.mark.parametrize("edition", ["warcraft", "classic", "classic_core"])
@pytest.mark.parametrize("lang", ["en", "pt", "de"])
def test_the_text_tables_of_every_edition_in_every_language(
    capsys: pytest.CaptureFixture[str], edition: str, lang: str
) -> None:
    """Text mode: no traceback for an edition without factions (classic), and the headings, columns
    and sources in the chosen language."""
    assert main(["content", "--edition", edition, "--lang", lang]) == 0
    text = capsys.readouterr().out
    data = _content(capsys, "--edition", edition, "--lang", lang)
    for e in data["races"] + data["powers"]:
        assert e["name"] in text
    english = ("RACES", "Races", "source", "seed", "name ")
    if lang == "en":
        assert "Races" in text and "Special powers" in text and "rulebook" in text
    else:
        assert not [w for w in english if w in text], text
    assert ("Horde" in text or "Horda" in text) == (edition == "warcraft")
