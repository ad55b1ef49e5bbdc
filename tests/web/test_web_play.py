"""The web client played through the page alone (issue 13's tests), against the stand-in server
(tests/web/web_fixture_server.py) that holds real engine games."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page
from web_driver import create_game, my_turn, phase, play_until, ply, step, wait_change
from web_fixture_server import Lobby

from smallworld.engine.game import Game
from smallworld.engine.state import Phase


def acting_page(*pages: Page) -> Page:
    """The page whose seat is to act, once its catch-up has shown it."""
    for _ in range(100):
        for pg in pages:
            if my_turn(pg):
                return pg
        pages[0].wait_for_timeout(100)
    raise AssertionError("no page is to act")


def test_two_humans_each_see_only_their_own_coins(
    page: Page, url: str, new_page: Callable[..., Page]
) -> None:
    gid = create_game(page, url, "Ada", ["me", "invite"])
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


def test_a_region_that_cannot_be_attacked_shows_the_reason_and_sends_nothing(page: Page, url: str) -> None:
    create_game(page, url, "Ada", ["me", "bot"])
    # In the conquest step with no prompt pending (the engine explains the regions then).
    play_until(
        page,
        lambda: (
            phase(page) == "conquer"
            and my_turn(page)
            and bool(page.evaluate("() => !!window.__sw.shown().st.explain"))
        ),
    )
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/act") else None)
    before = ply(page)
    # A region not offered and with a refusal in the engine's explain: a water region or one far away.
    refused = page.evaluate(
        "() => Object.entries(window.__sw.shown().st.explain).find(([r, e]) => e.reasons.length)[0]"
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
    page.wait_for_timeout(300)
    assert not sent and ply(page) == before


def test_a_cut_socket_catches_up_and_a_reload_keeps_the_seat(page: Page, url: str, lobby: Lobby) -> None:
    gid = create_game(page, url, "Ada", ["me", "invite"])
    m = lobby.matches[gid]
    with lobby.lock:  # Bob takes the invited seat (the game starts when every seat is taken)
        bob = lobby.new_player({"name": "Bob"})["player_token"]
        lobby.join(m, bob, {"invite": m.seats[1].invite})
    page.wait_for_function("() => window.__sw && window.__sw.info.status === 'playing'")
    for _ in range(80):  # seat 0 plays (a pick, or a whole first turn) until seat 1 is to act
        if m.st.acting_seat != 0:
            break
        page.wait_for_selector("#game[data-acting='yes']")
        step(page)
    assert m.st.acting_seat == 1
    page.evaluate("() => window.__sw.lives.forEach((l) => l.drop(2500))")
    page.wait_for_selector("#conn[data-status='lost']")
    before = ply(page)
    # Bob moves while this page is cut off; the page catches up when it is back.
    with lobby.lock:
        lobby.apply(m, 1, m.st.legal_actions()[0], "human")
    wait_change(page, before)
    assert ply(page) == m.st.ply
    page.reload()
    page.wait_for_selector("#game")
    assert page.locator("#game").get_attribute("data-viewer") == "0"
    assert ply(page) == m.st.ply


def test_team_variant_shows_factions_and_languages_switch(page: Page, url: str) -> None:
    create_game(page, url, "Ada", ["me", "bot", "bot", "bot"], variant="team")
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


def test_lobby_phone_layout_and_keyboard(new_page: Callable[..., Page], url: str, shots: Path) -> None:
    page = new_page(390, 844)
    page.goto(url)
    page.wait_for_selector("#lobby")
    page.screenshot(path=str(shots / "lobby-phone.png"))
    create_game(page, url, "Ada", ["me", "bot"])
    # Nothing wider than the phone's screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # Keyboard: a region takes the focus and Enter opens its facts.
    region = page.locator("#board [data-region]").first
    region.focus()
    page.keyboard.press("Enter")
    ref = region.get_attribute("data-region")
    assert page.locator(f"#region-info[data-region='{ref}']").count() == 1
    page.screenshot(path=str(shots / "board-phone.png"), full_page=True)


def test_redeployment_places_troop_pieces_too(page: Page, url: str, lobby: Lobby) -> None:
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
    with lobby.lock:
        gid, token = lobby.adopt(game, st, seat)
    page.goto(url)
    page.evaluate(f"() => localStorage.setItem('sw.seats.{gid}', JSON.stringify({{{seat}: '{token}'}}))")
    page.goto(f"{url}#/game/{gid}")
    page.wait_for_selector("#redeploy")
    for kind in held:
        assert page.locator(f"#redeploy .plan-{kind}").count() > 0
    before = st.ply
    step(page)  # places every token and troop with +, then sends the plan
    m = lobby.matches[gid]
    assert m.moves[0].ply == before and m.moves[0].action["kind"] == "plan"
    assert not any(m.st.seats[seat].held.values())


def test_hot_seat_one_screen_plays_both_seats(page: Page, url: str, lobby: Lobby) -> None:
    gid = create_game(page, url, "Ada", ["me", "hotseat"])
    m = lobby.matches[gid]
    seen = set()
    for _ in range(80):  # a turn is many decisions: play until the second seat has had one
        if seen == {0, 1}:
            break
        page.wait_for_selector("#game[data-acting='yes']")
        viewer = int(page.locator("#game").get_attribute("data-viewer") or -1)
        assert viewer == m.st.acting_seat  # the screen shows the seat to act
        seen.add(viewer)
        step(page)
    assert seen == {0, 1}
