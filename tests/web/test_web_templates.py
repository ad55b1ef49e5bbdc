"""The template language, browser side: every case of `tests/templates.json` through the page's
`static/i18n.js` (`fill`, `text`, `has`) in Chromium, with the outputs `tests/test_templates.py`
checks for the Python renderer. The module is served from a routed address: nothing else loads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Route

from smallworld.web import STATIC

TABLE = json.loads((Path(__file__).parents[1] / "templates.json").read_text(encoding="utf-8"))
ORIGIN = "http://templates.test"
PAGE = "<!doctype html><meta charset=utf-8><title>templates</title>"

RUN = """async ({ fill, lookup }) => {
  const W = await import("/i18n.js");
  const filled = fill.map((c) => W.fill(c.template, c.params));
  W.load(lookup.catalogues);
  const looked = lookup.cases.map((c) => {
    W.setLang(c.lang);
    return [W.text(c.owner, c.key, c.params), W.has(c.owner, c.key)];
  });
  return { filled, looked };
}"""


@pytest.fixture(scope="module")
def results(browser: Browser) -> dict[str, Any]:
    ctx = browser.new_context()
    page = ctx.new_page()

    def serve(route: Route) -> None:
        if route.request.url.endswith("/i18n.js"):
            body = (STATIC / "i18n.js").read_text(encoding="utf-8")
            route.fulfill(body=body, content_type="text/javascript; charset=utf-8")
        else:
            route.fulfill(body=PAGE, content_type="text/html")

    page.route(f"{ORIGIN}/**", serve)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{ORIGIN}/")
    out: dict[str, Any] = page.evaluate(RUN, {"fill": TABLE["fill"], "lookup": TABLE["lookup"]})
    ctx.close()
    assert not errors
    return out


@pytest.mark.parametrize("i", range(len(TABLE["fill"])), ids=[c["why"] for c in TABLE["fill"]])
def test_fill(results: dict[str, Any], i: int) -> None:
    assert results["filled"][i] == TABLE["fill"][i]["out"]


@pytest.mark.parametrize(
    "i", range(len(TABLE["lookup"]["cases"])), ids=[c["why"] for c in TABLE["lookup"]["cases"]]
)
def test_lookup(results: dict[str, Any], i: int) -> None:
    case = TABLE["lookup"]["cases"][i]
    assert results["looked"][i] == [case["out"], case["has"]]
