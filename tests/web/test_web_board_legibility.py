"""Board legibility (issue 28 item 11, smallworld/web/static/board.js), on the real server: no stack or
chip (pieces, markers: "? face down") covers a region's name, no region covers an island's title,
on every board (Warcraft for 2 to 5 players, the team map, classic for 2 to 5) at the start and at
the end of a game, on a laptop (1280×800) and on a phone (390×844); and a click leaves no tooltip
over the board."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)

# What covers what, in the page's own boxes (px): every stack's and chip's box against every
# name line's box (the line of type, ascent to descent, as the browser lays it out), and every
# island title's box against every region shape's box.
MEASURE = """() => {
  const box = (e) => {
    const b = e.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  };
  const hit = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5
    && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
  const names = [...document.querySelectorAll('#board .rname tspan')]
    .map((t) => ({ text: t.textContent, ref: t.closest('[data-marks-of]').dataset.marksOf, b: box(t) }));
  const chips = [...document.querySelectorAll('#board .stack rect, #board .piece rect, #board .marker rect')]
    .map((r) => ({ ref: r.closest('[data-marks-of]').dataset.marksOf,
                   what: r.parentNode.getAttribute('class'), b: box(r) }));
  const covered = [];
  for (const c of chips) for (const n of names)
    if (hit(c.b, n.b)) covered.push(`${c.what} of ${c.ref} over '${n.text}' of ${n.ref}`);
  // A chip's words fit inside it.
  for (const g of document.querySelectorAll('#board .piece, #board .marker')) {
    const r = box(g.querySelector('rect'));
    const t = box(g.querySelector('text'));
    if (t.x < r.x - 0.5 || t.x + t.w > r.x + r.w + 0.5)
      covered.push(`'${g.textContent}' of ${g.closest('[data-marks-of]').dataset.marksOf} too wide`);
  }
  // Nor does one stand off its map: past the bounds of its island (or of the classic map's square).
  for (const r of document.querySelectorAll('#board .stack rect, #board .piece rect, #board .marker rect')) {
    const c = box(r);
    const f = box(r.closest('.side').querySelector(':scope > polygon'));
    if (c.x < f.x - 0.5 || c.y < f.y - 0.5 || c.x + c.w > f.x + f.w + 0.5 || c.y + c.h > f.y + f.h + 0.5)
      covered.push(`${r.parentNode.getAttribute('class')} of ${r.closest('[data-marks-of]').dataset.marksOf}`
        + ' off its map');
  }
  const board = box(document.querySelector('#board'));
  const titles = [];
  for (const t of document.querySelectorAll('#board .side-title')) {
    const tb = box(t);
    for (const s of document.querySelectorAll('#board .region .shape'))
      if (hit(tb, box(s))) titles.push(`'${t.textContent}' under ${s.parentNode.dataset.region}`);
    const out = tb.y < board.y - 0.5 || tb.x < board.x - 0.5 || tb.x + tb.w > board.x + board.w + 0.5;
    if (out) titles.push(`'${t.textContent}' cut off`);
  }
  return { covered, titles, chips: chips.length, names: names.length,
           sides: document.querySelectorAll('#board .side-title').length };
}"""

BOARDS = [
    ("warcraft", "standard", 2),
    ("warcraft", "standard", 3),
    ("warcraft", "standard", 4),
    ("warcraft", "standard", 5),
    ("warcraft", "team", 4),
    ("classic", "standard", 2),
    ("classic", "standard", 3),
    ("classic", "standard", 4),
    ("classic", "standard", 5),
]


def _call(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(
        urllib.request.Request(url + path, method=method, data=data, headers=headers), timeout=20
    ) as r:
        return json.loads(r.read())


def _games(url: str) -> list[tuple[str, str]]:
    """Each board at its start (every seat this player's: nobody moves) and, for the standard
    Warcraft and classic maps, at the end of a game of bots (stacks, pieces and markers everywhere)."""
    token = _call(url, "POST", "api/players", {"name": "Lee"})["player_token"]
    out = []
    for edition, variant, n in BOARDS:
        spec = {"edition": edition, "variant": variant, "players": n, "seats": [{"kind": "creator"}] * n}
        out.append((f"{edition} {variant} {n} start", _call(url, "POST", "api/games", spec, token)["game"]))
    for edition, n in (("warcraft", 3), ("classic", 4)):
        bots = [{"kind": "bot", "level": "greedy"}] * n
        gid = _call(url, "POST", "api/games", {"edition": edition, "players": n, "seats": bots}, token)[
            "game"
        ]
        deadline = time.monotonic() + 180
        while _call(url, "GET", f"api/games/{gid}")["status"] != "over":
            assert time.monotonic() < deadline, f"the bots' {edition} game did not end"
            time.sleep(0.5)
        out.append((f"{edition} {n} end", gid))
    return out


def test_no_stack_or_chip_covers_a_name_and_no_region_a_title(
    new_page: Any, real_url: str, shots: Path
) -> None:
    games = _games(real_url)
    bad: list[str] = []
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width, height)
        for what, gid in games:
            page.goto("about:blank")
            page.goto(f"{real_url}#/game/{gid}")
            page.wait_for_selector("#board .region")
            page.wait_for_function("() => document.fonts.status === 'loaded'")
            found = page.evaluate(MEASURE)
            assert found["names"] > 0 and found["sides"] > 0, (what, found)
            bad += [f"{what} at {width}px: {c}" for c in found["covered"] + found["titles"]]
            if what == "classic 4 end" and width == 1280:
                page.mouse.move(0, 0)
                page.screenshot(path=str(shots / "board-legible.png"))
            if what == "warcraft 3 end" and width == 390:
                page.screenshot(path=str(shots / "board-legible-phone.png"), full_page=True)
    assert bad == [], "\n".join(bad)


def test_a_crowded_narrow_region_covers_no_neighbours_name(new_page: Any, real_url: str) -> None:
    """A view from a classic 4-player game of bots (round 3): two narrow Hill regions side by side,
    C4:19 and C4:20, each with a stack and a wide "Hole-in-the-Ground" chip, beside the Sorcerers'
    C4:21. No spot nearby is clear of every name and stack; the block of C4:20 then keeps clear of
    the names at least (it covered Stonewood's, C4:21's, before). Drawn by the client's own
    drawBoard on the 4-player classic map, at both widths."""
    view = json.loads((Path(__file__).parent / "views" / "classic4-crowded.json").read_text())
    token = _call(real_url, "POST", "api/players", {"name": "Cy"})["player_token"]
    spec = {"edition": "classic", "players": 4, "seats": [{"kind": "creator"}] * 4}
    gid = _call(real_url, "POST", "api/games", spec, token)["game"]
    bad: list[str] = []
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(width, height)
        page.goto(f"{real_url}#/game/{gid}")
        page.wait_for_selector("#board .region")
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        # The page's own board replaced by the view's, drawn by the module the page uses.
        page.evaluate(
            """async ([gid, view]) => {
              const { drawBoard } = await import('/static/board.js');
              const board = await (await fetch(`/api/games/${gid}/board`)).json();
              const old = document.querySelector('#board');
              const svg = old.cloneNode(false);
              old.replaceWith(svg);
              drawBoard(svg, board, view);
            }""",
            [gid, view],
        )
        assert page.locator('#board [data-marks-of="C4:20"] .piece').count() == 1
        found = page.evaluate(MEASURE)
        assert found["chips"] >= 20, found
        bad += [f"{width}px: {c}" for c in found["covered"] + found["titles"]]
    assert bad == [], "\n".join(bad)


def test_a_click_leaves_no_tooltip_over_the_board(page: Page, real_url: str) -> None:
    token = _call(real_url, "POST", "api/players", {"name": "Tia"})["player_token"]
    gid = _call(real_url, "POST", "api/games", {"players": 2, "seats": [{"kind": "creator"}] * 2}, token)[
        "game"
    ]
    page.goto(f"{real_url}#/game/{gid}")
    region = page.locator("#board .region").nth(3)
    region.hover()
    page.wait_for_selector("#tooltip:not([hidden])")  # hovering shows the region's facts
    region.click()
    page.wait_for_selector("#region-info")
    page.wait_for_timeout(400)  # the redraw puts a new region under the still pointer
    assert page.locator("#tooltip").is_hidden()
    page.mouse.move(5, 5)
    page.locator("#board .region").nth(5).hover()
    page.wait_for_selector("#tooltip:not([hidden])")  # a real move shows it again


def test_a_size_icon_is_named_with_its_letter(page: Page, real_url: str) -> None:
    """A region printed with its board's size icon (the spot of the board's face-down marker at
    setup, rules §2.3) says which: the glyph shows the letter, and its title and the region's facts
    name it with that letter ("size icon S"), not "size icon" alone."""
    token = _call(real_url, "POST", "api/players", {"name": "Ida"})["player_token"]
    gid = _call(real_url, "POST", "api/games", {"players": 2, "seats": [{"kind": "creator"}] * 2}, token)[
        "game"
    ]
    page.goto(f"{real_url}#/game/{gid}")
    page.wait_for_selector("#board .region")
    glyphs = page.locator("#board .feature-Size")
    assert glyphs.count() > 0
    letter = glyphs.first.locator("text").text_content()
    assert letter in ("S", "M", "L")
    assert glyphs.first.locator("title").text_content() == f"size icon {letter}"
    ref = glyphs.first.evaluate("g => g.closest('[data-marks-of]').dataset.marksOf")
    page.locator(f'#board .region[data-region="{ref}"]').hover()
    page.wait_for_selector("#tooltip:not([hidden])")
    assert f"size icon {letter}" in (page.locator("#tooltip").text_content() or "")
