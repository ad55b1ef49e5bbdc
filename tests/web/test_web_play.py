"""The web client played through the page alone (issue 13's tests), against the real game server
(`smallworld serve` on SQLite in a temp folder: the `real_url` fixture); a prepared position is a
casual game from a position document (docs/server.md, Games from a position)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from web_driver import (
    action_of,
    create_game,
    my_turn,
    phase,
    play_until,
    ply,
    record_actions,
    step,
    wait_change,
)
from web_positions import L2A, api, create_from_position, open_in_page, open_position, summary

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.model.state import Phase
from smallworld.web import payload

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def acting_page(*pages: Page) -> Page:
    """The page whose seat is to act, once its catch-up has shown it."""
    for _ in range(100):
        for pg in pages:
            if my_turn(pg):
                return pg
        pages[0].wait_for_timeout(100)
    raise AssertionError("no page is to act")


def test_two_humans_each_see_only_their_own_coins(
    page: Page, real_url: str, new_page: Callable[..., Page]
) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "invite"])
    link = page.locator(".invite-link").input_value()
    assert f"#/join/{gid}/" in link
    other = new_page()
    other.goto(link)
    other.fill("#name", "Bob")
    other.click("#join-game")
    other.wait_for_selector("#game")
    assert other.locator("#game").get_attribute("data-viewer") == "1"
    # Whoever is first picks; the other page gets the update (its catch-up) and picks in turn.
    for _ in range(2):
        step(acting_page(page, other))
    for pg in (page, other):
        pg.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 2")
    for pg, me in ((page, 0), (other, 1)):
        mine = pg.locator(f"#players li[data-seat='{me}'] .coins").get_attribute("data-coins")
        theirs = pg.locator(f"#players li[data-seat='{1 - me}'] .coins").get_attribute("data-coins")
        assert mine is not None and mine.isdigit()
        assert theirs == "hidden"


def test_a_region_that_cannot_be_attacked_shows_the_reason_and_sends_nothing(
    page: Page, real_url: str
) -> None:
    create_game(page, real_url, "Ada", ["me", "bot"])
    # In the conquest step with no prompt pending (the engine explains the regions then).
    play_until(
        page,
        lambda: (
            phase(page) == "conquer"
            and my_turn(page)
            and bool(page.evaluate("() => !!window.__sw.shown().st.explain"))
        ),
    )
    # Every decision the page sends, over its socket (where moves go while it is open) or HTTP.
    sent = record_actions(page)
    before = ply(page)
    # A region not offered and with a refusal in the engine's explain: a water region or one far away.
    # (A region can have a refusal and still be offered something else: a power's or a relic's move.)
    refused = page.evaluate(
        """() => Object.entries(window.__sw.shown().st.explain).find(([r, e]) => e.reasons.length
            && !document.querySelector(`#board .region.offered[data-region='${r}']`))[0]"""
    )
    page.locator(f"#board [data-region='{refused}']").click()
    box = page.locator("#explain.refused")
    assert box.count() == 1
    assert "§" in box.inner_text()
    assert page.locator("#region-info button[data-action]").count() == 0
    english = box.inner_text()
    page.select_option("#lang", "de")  # the reason in the player's language
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    german = page.locator("#explain.refused").inner_text()
    assert german != english and "Kann nicht angegriffen werden" in german and "§" in german
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")  # drawn again, in English
    assert sent() == [] and ply(page) == before
    # The recorder sees what the page does send: the seat's first offered conquest, over the socket.
    page.locator("#board .region.offered").first.click()
    page.locator("#region-info button[data-action]").first.click()
    wait_change(page, before)
    assert [a["ply"] for a in sent()] == [before], sent()


def test_a_cut_socket_catches_up_and_a_reload_keeps_the_seat(page: Page, real_url: str) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "invite"])
    invite = page.locator(".invite-link").input_value().rsplit("/", 1)[-1]
    # Bob takes the invited seat through the API (the game starts when every seat is taken).
    bob = api(real_url, "POST", f"/api/games/{gid}/join", {"invite": invite, "name": "Bob"})
    assert bob["seat"] == 1
    page.wait_for_function("() => window.__sw && window.__sw.info.status === 'playing'")
    for _ in range(80):  # seat 0 plays (a pick, or a whole first turn) until seat 1 is to act
        if summary(real_url, gid)["acting_seat"] != 0:
            break
        page.wait_for_selector("#game[data-acting='yes']")
        step(page)
    assert summary(real_url, gid)["acting_seat"] == 1
    page.evaluate("() => window.__sw.lives.forEach((l) => l.drop(2500))")
    page.wait_for_selector("#conn[data-status='lost']")
    before = ply(page)
    # Bob moves while this page is cut off; the page catches up when it is back.
    v = api(real_url, "GET", f"/api/games/{gid}/view?seat=1", token=bob["token"])
    act = {"seat": 1, "ply": v["ply"], "action": v["legal"][0]}
    api(real_url, "POST", f"/api/games/{gid}/act", act, bob["token"])
    wait_change(page, before)
    assert ply(page) == summary(real_url, gid)["ply"] == before + 1
    page.reload()
    page.wait_for_selector("#game")
    assert page.locator("#game").get_attribute("data-viewer") == "0"
    assert ply(page) == summary(real_url, gid)["ply"]


def test_team_variant_shows_factions_and_languages_switch(page: Page, real_url: str) -> None:
    create_game(page, real_url, "Ada", ["me", "bot", "bot", "bot"], variant="team")
    assert page.locator("#offer .offer-col").count() >= 3
    factions = page.locator("#players .faction")
    assert factions.count() == 4
    assert {factions.nth(i).get_attribute("data-faction") for i in range(4)} == {"Alliance", "Horde"}
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert page.locator("#log h2").inner_text() == "Spielverlauf"
    assert "Allianz" in page.locator("#players").inner_text()
    page.select_option("#lang", "pt")
    page.wait_for_function("() => document.documentElement.lang === 'pt'")
    assert page.locator("#log h2").inner_text() == "Registro da partida"
    assert "Aliança" in page.locator("#players").inner_text()
    page.select_option("#lang", "en")


def test_lobby_phone_layout_and_keyboard(new_page: Callable[..., Page], real_url: str, shots: Path) -> None:
    page = new_page(390, 844)
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    page.screenshot(path=str(shots / "lobby-phone.png"))
    create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#board [data-region]")
    # The bot's first moves (if it starts) come over the socket: the page is at this seat's decision.
    page.wait_for_selector("#game[data-acting='yes']")
    # Nothing wider than the phone's screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # Keyboard: a region takes the focus and Enter opens its facts.
    region = page.locator("#board [data-region]").first
    region.focus()
    page.keyboard.press("Enter")
    ref = region.get_attribute("data-region")
    # The facts appear after the key event is handled: wait for them rather than read at once.
    expect(page.locator(f"#region-info[data-region='{ref}']")).to_have_count(1)
    page.screenshot(path=str(shots / "board-phone.png"), full_page=True)


def test_redeployment_places_troop_pieces_too(page: Page, real_url: str) -> None:
    # A position where the seat to act redeploys with a troop piece in hand (a Beast), found by
    # playing random legal moves from a fixed seed.
    game = Game.from_settings({"players": 2, "seed": 1})
    st = game.new_initial_state()
    rng = random.Random(1)
    while not (st.phase == Phase.REDEPLOY and not st.pending and any(st.seats[st.acting_seat].held.values())):
        assert st.result is None
        st.apply(rng.choice(st.legal_actions()), seat=st.acting_seat)
    seat = st.acting_seat
    held = {k: n for k, n in st.seats[seat].held.items() if n}
    # That position, as a casual game on the real server (its boards pinned, its dice the server's).
    settings = {**game.settings.to_json(), "boards": [s.id for s in game.map.sides]}
    doc = {"settings": settings, "position": state_to_json(st)}
    gid, human, created = create_from_position(real_url, doc)
    assert human == seat
    open_in_page(page, real_url, gid, created)
    page.wait_for_selector("#redeploy")
    for kind in held:
        assert page.locator(f"#redeploy .plan-{kind}").count() > 0
    step(page)  # places every token and troop with +, then sends the plan
    moves = api(real_url, "GET", f"/api/games/{gid}/moves?since=0")["moves"]
    assert moves[0]["ply"] == 0 and moves[0]["seat"] == seat and moves[0]["action"]["kind"] == "plan"
    token = created["seats"][seat]["token"]
    view = api(real_url, "GET", f"/api/games/{gid}/view?seat={seat}", token=token)["view"]
    assert not any(view["seats"][seat]["held"].values())


def test_hot_seat_one_screen_plays_both_seats(page: Page, real_url: str) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "hotseat"])
    seen = set()
    for _ in range(80):  # a turn is many decisions: play until the second seat has had one
        if seen == {0, 1}:
            break
        page.wait_for_selector("#game[data-acting='yes']")
        viewer = int(page.locator("#game").get_attribute("data-viewer") or -1)
        assert viewer == summary(real_url, gid)["acting_seat"]  # the screen shows the seat to act
        seen.add(viewer)
        step(page)
    assert seen == {0, 1}


def test_team_end_screen_shows_faction_scores_and_the_tie_break(
    page: Page, real_url: str, shots: Path
) -> None:
    """§11.4: the last decision of a 4-player team game, through the page. Alliance min(50, 60) = 50
    ties Horde min(50, 54 + 1) = 50; the best individual score breaks the tie: Alliance (60 > 55)."""
    gid = open_position(
        page,
        real_url,
        {"edition": "warcraft", "players": 4, "seed": 1, "variant": "team", "boards": ["L2a"]},
        {
            "round": 9,
            "first_seat": 0,
            "turn_seat": 3,
            "phase": "conquer",
            "seats": [
                {"coins": 50},
                {"coins": 50},
                {"coins": 60},
                {"coins": 54, "active": "orcs", "power": "mining"},
            ],
            "regions": {"L2a:12": {"race": "orcs", "tokens": 1}},
            "turn": {"conquests": 1},
        },
    )
    page.click('#decisions button[data-action=\'{"kind":"end"}\']')
    page.wait_for_selector("#end-screen")
    result = summary(real_url, gid)["result"]
    assert result is not None and result["winning_factions"] == ["Alliance"]
    for seat, score in enumerate(result["scores"]):
        assert page.locator(f"#end-screen tr[data-seat='{seat}'] td.score").inner_text() == str(score)
    # The faction scores, each the lower of its two players' (§11.4), as the engine counted them.
    for faction, score in {"Alliance": 50, "Horde": 50}.items():
        assert page.locator(f"#faction-scores [data-faction='{faction}']").get_attribute("data-score") == str(
            score
        )
    assert "Alliance 50 · Horde 50 — Winners: Alliance" in page.locator("#faction-scores").inner_text()
    box = page.locator("#tiebreak")
    assert box.get_attribute("data-by") == "best_score" and box.get_attribute("data-rule") == "§11.4"
    assert box.get_attribute("data-shared") == "no"
    tied = {
        box.locator("li").nth(i).get_attribute("data-faction"): box.locator("li")
        .nth(i)
        .get_attribute("data-value")
        for i in range(box.locator("li").count())
    }
    assert tied == {"Alliance": "60", "Horde": "55"}
    assert "the best individual score decides" in box.inner_text() and "Alliance: 60" in box.inner_text()
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "end-screen-team.png"))
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert "die beste Einzelwertung entscheidet" in box.inner_text() and "Allianz: 60" in box.inner_text()
    page.select_option("#lang", "pt")
    page.wait_for_function("() => document.documentElement.lang === 'pt'")
    assert "decide a melhor pontuação individual" in box.inner_text() and "Aliança: 60" in box.inner_text()
    page.select_option("#lang", "en")


def test_a_tie_on_coins_shows_the_race_tokens_that_broke_it(page: Page, real_url: str) -> None:
    """§7: the last turn (seat 1 declines, its 2 In-Decline regions bring it to 8) ties the coins
    8-8; the race tokens on the boards decide, 3 against 2: seat 0 wins."""
    gid = open_position(
        page,
        real_url,
        L2A,
        {
            "round": 10,
            "first_seat": 0,
            "turn_seat": 1,
            "phase": "start",
            "seats": [
                {"coins": 8, "active": "humans", "power": "archaeologist"},
                {"coins": 6, "active": "blood_elves", "power": "mining"},
            ],
            "regions": {
                "L2a:12": {"race": "humans", "tokens": 3},
                "L2a:6": {"race": "blood_elves", "tokens": 1},
                "L2a:7": {"race": "blood_elves", "tokens": 1},
            },
        },
    )
    page.click('#decisions button[data-action=\'{"kind":"decline"}\']')
    page.wait_for_selector("#end-screen")
    result = summary(real_url, gid)["result"]
    assert result is not None and result["scores"] == [8, 8] and result["winners"] == [0]
    box = page.locator("#tiebreak")
    assert box.get_attribute("data-by") == "race_tokens" and box.get_attribute("data-rule") == "§7"
    items = box.locator("li")
    assert [
        (items.nth(i).get_attribute("data-seat"), items.nth(i).get_attribute("data-value")) for i in range(2)
    ] == [
        ("0", "3"),
        ("1", "2"),
    ]
    assert "Tied on coins (§7): the race tokens on the boards decide" in box.inner_text()
    # Each tied seat by its player's name (the bot by its level), with its colour dot (issue 28).
    assert [items.nth(i).inner_text() for i in range(2)] == ["Greedy bot: 3", "Ada (you): 2"]
    assert box.locator(".who[data-seat='1'] .seat-dot").get_attribute("data-n") == "2"
    page.select_option("#lang", "pt")
    page.wait_for_function("() => document.documentElement.lang === 'pt'")
    assert [items.nth(i).inner_text() for i in range(2)] == ["Robô guloso: 3", "Ada (você): 2"]
    page.select_option("#lang", "en")
    assert page.locator("#end-screen tr.winner").get_attribute("data-seat") == "0"
    assert page.locator("#faction-scores").count() == 0  # no factions outside the team variant


# Notifications, stubbed so that the test sees the page's calls: the page's own code constructs
# `Notification` (permission granted) and reads `document.hidden` (here set by the test).
NOTIFY_STUB = """
window.__notes = [];
window.__hidden = false;
class RecordedNotification {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body || "" }); }
  close() {}
}
RecordedNotification.permission = "granted";
RecordedNotification.requestPermission = () => Promise.resolve("granted");
window.Notification = RecordedNotification;
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.__hidden; },
});
"""


def test_your_turn_is_in_the_title_and_notified_when_the_tab_is_hidden(page: Page, real_url: str) -> None:
    page.add_init_script(NOTIFY_STUB)
    create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#game[data-acting='yes']")
    assert page.title() == "● Your turn — Small World of Warcraft"
    page.check("#notify")

    def turn() -> tuple[tuple[int, int], bool]:
        """The turn shown (round, seat whose turn) and whether this seat acts in it, read at one
        instant: read one after the other, a defender's decision in the bot's turn could arrive
        between them and be taken for one more decision of the turn before (a turn of its own,
        with its own notification)."""
        r, s, acting = page.evaluate(
            """() => { const { st } = window.__sw.shown();
                       const drawn = document.querySelector("#game").dataset.acting === "yes";
                       return [st.view.round, st.view.turn_seat, drawn && st.legal.length > 0]; }"""
        )
        return (r, s), acting

    def play_the_turn() -> int:
        """Every decision of this turn through the page, until this seat's next turn shows."""
        start, made = turn()[0], 0
        while (now := turn())[0] == start or not now[1]:
            if now[1]:
                step(page)
                made += 1
            else:
                page.wait_for_timeout(100)
        return made

    # The tab is looked at: the title says it, no notification.
    play_the_turn()
    assert page.evaluate("() => window.__notes") == []
    # The tab is hidden: one notification a turn, not one a decision (turns of several decisions).
    page.evaluate("() => { window.__hidden = true; }")
    turns = decisions = 0
    while decisions <= turns:
        decisions += play_the_turn()
        turns += 1
    notes = page.evaluate("() => window.__notes")
    assert len(notes) == turns, (notes, turns, decisions)
    assert all(n["title"] == "Your turn — Small World of Warcraft" for n in notes)
    assert f"Round {turn()[0][0]} of 10" in notes[-1]["body"]
    assert page.title().startswith("● Your turn")
    # The choice is kept for the next visit.
    page.reload()
    page.wait_for_selector("#game")
    assert page.is_checked("#notify")


def _boards() -> list[tuple[str, dict[str, Any]]]:
    """Every shipped map: classic's one per player count, and Warcraft's twelve sides, four a table."""
    out = []
    for n in (2, 3, 4, 5):
        game = Game.from_settings({"edition": "classic", "players": n, "seed": 1})
        out.append((f"classic {n}", payload.board(game)))
    for size in ("L", "M", "S"):
        sides = [f"{size}{i}{f}" for i in (1, 2) for f in "ab"]
        out.append(
            (" ".join(sides), payload.board(Game.from_settings({"players": 4, "seed": 1, "boards": sides})))
        )
    return out


def test_every_region_name_stays_inside_its_region(page: Page, real_url: str) -> None:
    """The names are drawn inside their regions (two lines or smaller type where a region is narrow,
    like classic C2's 13 Umberfell), so no name runs into another: checked on every shipped map. A
    name too long for its region even at the smallest type (1.3 units) may reach past it, but still
    into no other name."""
    page.goto(real_url)
    page.wait_for_selector("#lobby")
    boards = _boards()
    for what, board in boards:
        bad = page.evaluate(
            """async (board) => {
              const { drawBoard } = await import("/static/board.js");
              const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
              svg.setAttribute("style", "width: 1000px; height: 1000px");
              document.body.append(svg);
              drawBoard(svg, board, null);
              const bad = [];
              const boxes = [];
              for (const g of svg.querySelectorAll("[data-region]")) {
                const ref = g.dataset.region;
                const shape = g.querySelector("polygon");
                const name = svg.querySelector(`[data-marks-of="${ref}"] .rname`);
                for (const line of name.querySelectorAll("tspan")) {
                  const b = line.getBBox();
                  // The letters' box without the line's empty ascent and descent, inset by the outline.
                  const top = b.y + b.height * 0.25;
                  const bottom = b.y + b.height * 0.8;
                  const corners = [[b.x + 0.2, top], [b.x + b.width - 0.2, top],
                    [b.x + 0.2, bottom], [b.x + b.width - 0.2, bottom]];
                  const smallest = parseFloat(getComputedStyle(line).fontSize) <= 1.3;
                  if (!smallest && !corners.every(([x, y]) => shape.isPointInFill(new DOMPoint(x, y))))
                    bad.push(`${ref} '${line.textContent}' sticks out`);
                  const side = ref.split(":")[0];
                  boxes.push({ ref, side, x0: b.x, x1: b.x + b.width, y0: top, y1: bottom });
                }
              }
              const meet = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
              for (const a of boxes) for (const b of boxes)
                if (a.ref < b.ref && a.side === b.side && meet(a, b))
                  bad.push(`${a.ref} and ${b.ref} overlap`);
              svg.remove();
              return bad;
            }""",
            board,
        )
        assert bad == [], (what, bad)
    # The narrow one of the issue: two lines, each of readable size, inside the strip.
    board = boards[0][1]  # classic, 2 players: C2
    umberfell = next(r["ref"] for s in board["sides"] for r in s["regions"] if r["name"] == "Umberfell")
    lines = page.evaluate(
        """async ([board, ref]) => {
          const { drawBoard } = await import("/static/board.js");
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          document.body.append(svg);
          drawBoard(svg, board, null);
          const spans = [...svg.querySelectorAll(`[data-marks-of="${ref}"] .rname tspan`)];
          const out = spans.map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize)]);
          svg.remove();
          return out;
        }""",
        [board, umberfell],
    )
    assert [t for t, _ in lines] == ["13", "Umberfell"] and min(px for _, px in lines) >= 1.7, lines


def test_a_click_pressed_while_the_page_redraws_is_not_lost(page: Page, real_url: str) -> None:
    """A redraw (an update, a playback step) that replaces the button between the press and the
    release must not swallow the click: the browser would send it to no button at all."""
    create_game(page, real_url, "Ada", ["me", "bot"])
    play_until(page, lambda: my_turn(page) and page.locator("#decisions button[data-action]").count() > 0)
    sent = record_actions(page)
    before = ply(page)
    button = page.locator("#decisions button[data-action]").first
    wanted = action_of(button)
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => window.__sw.render()")  # the button under the pointer is drawn anew
    page.mouse.up()
    wait_change(page, before)
    assert [s["action"] for s in sent()] == [wanted]
