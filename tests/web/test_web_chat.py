"""The chat of a game in the web client (chat.js; docs/web.md, "Chat") against the real server: two
people, one invited by the other, talk in the players' channel; a spectator talks in the spectators'
channel, which the players do not see during the game (and the spectator does not see theirs); what
is typed is shown as text, never HTML; a player can be muted (kept over a reload); a collapsed panel
counts what is unread; on a phone the panel sits below the board; the replay shows each message at
the ply it was posted."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from web_driver import create_game

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


def _call(url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers=headers, method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def _lines(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#chat-list .chat-text").all_inner_texts()]


def _say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-list .chat-text')].some(e => e.textContent === t)",
        arg=text,
    )
    # Sent: the field is empty again (once the answer came: the socket may bring the line sooner).
    page.wait_for_function("() => document.querySelector('#chat-input').value === ''")


def _sees(page: Page, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-list .chat-text')].some(e => e.textContent === t)",
        arg=text,
    )


def test_two_players_talk_a_spectator_talks_apart_html_is_text_and_a_player_can_be_muted(
    page: Page, real_url: str, new_page: Callable[..., Page], shots: Path
) -> None:
    gid = create_game(page, real_url, "Ada", ["me", "invite"])
    link = page.locator(".invite-link").input_value()
    bob = new_page(390, 844)  # Bob plays on a phone
    bob.goto(link)
    bob.fill("#name", "Bob")
    bob.click("#join-game")
    bob.wait_for_selector("#game #chat")
    page.wait_for_selector("#chat[data-open='yes']")  # open at first on a laptop...
    assert bob.locator("#chat").get_attribute("data-open") == "no"  # ...collapsed on a phone
    assert "players' chat" in page.locator("#chat-note").inner_text()
    # Ada writes; what looks like HTML is shown as the characters typed.
    html = "Hi Bob <b>not bold</b> <img src=x onerror=alert(1)>"
    _say(page, html)
    bob.click("#chat-toggle")
    _sees(bob, html)
    assert bob.locator("#chat-list b, #chat-list img").count() == 0
    line = bob.locator("#chat-list .chat-line").first
    assert line.get_attribute("data-seat") == "0" and "Ada" in line.locator(".chat-name").inner_text()
    _say(bob, "Hello Ada, good luck")
    _sees(page, "Hello Ada, good luck")
    # On the phone the panel is below the board: it covers none of it.
    board = bob.locator("#board").bounding_box()
    panel = bob.locator("#chat").bounding_box()
    assert board and panel and panel["y"] >= board["y"] + board["height"]
    bob.locator("#chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(shots / "chat-phone.png"))
    # A spectator: the spectators' channel only, with a name of their own.
    rail = new_page()
    rail.goto(f"{real_url}#/game/{gid}")
    rail.wait_for_selector("#chat-form")
    assert "spectators' chat" in rail.locator("#chat-note").inner_text()
    assert rail.locator("#chat-name").is_visible() and page.locator("#chat-name").is_hidden()
    rail.fill("#chat-name", "Kib")
    _say(rail, "Ada, attack the mountains!")
    assert _lines(rail) == ["Ada, attack the mountains!"]  # none of the players' lines
    assert rail.locator("#chat-list .chat-line").first.get_attribute("data-channel") == "spectators"
    # Bob writes after the spectator: once the players have his line, the spectator's never came.
    _say(bob, "after the spectator")
    _sees(page, "after the spectator")
    assert _lines(page) == _lines(bob) == [html, "Hello Ada, good luck", "after the spectator"]
    assert "after the spectator" not in _lines(rail)
    # Unread: with the panel collapsed Ada's header counts Bob's new lines; opening it clears the count.
    page.click("#chat-toggle")
    assert page.locator("#chat").get_attribute("data-open") == "no"
    _say(bob, "are you there?")
    _say(bob, "your turn, I think")
    page.wait_for_selector("#chat[data-unread='2']")
    assert page.locator("#chat-unread").inner_text() == "2"
    assert "2 unread messages" in (page.locator("#chat-toggle").get_attribute("aria-label") or "")
    page.click("#chat-toggle")
    assert page.locator("#chat").get_attribute("data-unread") == "0"
    assert page.locator("#chat-unread").count() == 0
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / "chat.png"))
    # Mute Bob: his lines are hidden, also after a reload; unmuted, they are back.
    page.click("#chat-mute summary")
    page.check("#chat-mute input[data-mute='seat:1']")
    assert _lines(page) == [html]
    page.reload()
    page.wait_for_selector("#chat-list .chat-line")
    assert _lines(page) == [html]
    assert page.locator("#chat-mute summary").inner_text().endswith("(1)")
    _say(bob, "muted, so unseen")
    page.wait_for_timeout(500)
    assert "muted, so unseen" not in _lines(page)
    page.click("#chat-mute summary")
    page.uncheck("#chat-mute input[data-mute='seat:1']")
    assert _lines(page)[-1] == "muted, so unseen" and len(_lines(page)) == 6
    # What the server refuses is said in the reader's words, and the typed text stays to be fixed.
    # (5 in 10 seconds: the sixth in a row is refused, give or take what the bucket regained meanwhile)
    sent = 0
    while sent < 10:
        page.fill("#chat-input", f"line {sent}")
        page.press("#chat-input", "Enter")
        page.wait_for_function(
            "() => document.querySelector('#chat-input').value === ''"
            " || !document.querySelector('#chat-error').hidden"
        )
        if page.locator("#chat-error").is_visible():
            break
        sent += 1
    assert 5 <= sent <= 7
    assert "Too many requests" in page.locator("#chat-error").inner_text()
    assert page.locator("#chat-input").input_value() == f"line {sent}"  # kept, to send again
    # The panel's words follow the language.
    page.select_option("#lang", "de")
    assert page.locator("#chat-input").get_attribute("placeholder") == "Nachricht (Eingabe sendet)"
    assert page.locator("#chat-note").inner_text().startswith("Der Chat der Spieler.")
    assert "Zu viele Anfragen" in page.locator("#chat-error").inner_text()


def _play_to_the_end(base: str, gid: str, tokens: dict[int, str]) -> None:
    rng = random.Random(3)
    for _ in range(5000):
        s = _call(f"{base}api/games/{gid}")
        if s["status"] == "over":
            return
        seat = s["acting_seat"]
        v = _call(f"{base}api/games/{gid}/view", token=tokens[seat])
        try:
            _call(
                f"{base}api/games/{gid}/act",
                {"seat": seat, "ply": v["ply"], "action": rng.choice(v["legal"])},
                tokens[seat],
            )
        except urllib.error.HTTPError as e:  # the view went stale meanwhile: look again
            assert e.code == 409, e.read()
    raise AssertionError("the game did not end")



def test_the_chat_starts_folded_where_no_other_person_sits(page: Page, real_url: str) -> None:
    """Against a bot alone nobody would answer: on a laptop the panel starts folded (it starts
    open where another person sits, above), and opens when asked."""
    create_game(page, real_url, "Ada", ["me", "bot"])
    page.wait_for_selector("#game #chat")
    assert page.locator("#chat").get_attribute("data-open") == "no"
    page.click("#chat-toggle")
    page.wait_for_selector("#chat[data-open='yes'] #chat-input")

def test_the_replay_shows_each_message_at_its_ply_and_after_the_end_everyone_reads_both(
    page: Page, real_url: str, shots: Path
) -> None:
    seats = [{"kind": "creator", "name": "Ada"}, {"kind": "creator", "name": "Bob"}]
    g = _call(f"{real_url}api/games", {"name": "Ada", "players": 2, "seats": seats})
    gid = g["game"]
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    chat = f"{real_url}api/games/{gid}/chat"
    _call(chat, {"text": "before the first move"}, tokens[0])
    _call(chat, {"text": "watching from the start", "name": "Kib"})
    # Two moves later (the first legal decision, twice), Bob says something.
    for _ in range(2):
        seat = _call(f"{real_url}api/games/{gid}")["acting_seat"]
        v = _call(f"{real_url}api/games/{gid}/view", token=tokens[seat])
        act = {"seat": seat, "ply": v["ply"], "action": v["legal"][0]}
        _call(f"{real_url}api/games/{gid}/act", act, tokens[seat])
    _call(chat, {"text": "two moves in"}, tokens[1])
    _play_to_the_end(real_url, gid, tokens)
    end = _call(f"{real_url}api/games/{gid}")["ply"]
    _call(chat, {"text": "good game"}, tokens[0])
    # The finished game's page, as a spectator: both channels now.
    page.goto(f"{real_url}#/game/{gid}")
    page.wait_for_selector("#end-screen")
    page.wait_for_function("() => document.querySelectorAll('#chat-list .chat-line').length === 4")
    assert _lines(page) == ["before the first move", "watching from the start", "two moves in", "good game"]
    assert "over" in page.locator("#chat-note").inner_text()
    # The replay: each message at the ply it was posted, the spectators' marked as theirs.
    page.goto(f"{real_url}#/replay/{gid}")
    page.wait_for_selector("#replay")

    def at(ply: int) -> list[str]:
        page.evaluate(
            "p => { const s = document.querySelector('#replay-slider'); s.value = p;"
            " s.dispatchEvent(new Event('input')); }",
            ply,
        )
        page.wait_for_selector(f"#replay[data-ply='{ply}']")
        return [t.strip() for t in page.locator("#replay-chat .chat-text").all_inner_texts()]

    assert at(0) == ["before the first move", "watching from the start"]
    assert page.locator("#replay-chat .chat-line[data-channel='spectators'] .chat-tag").count() == 1
    page.screenshot(path=str(shots / "chat-replay.png"))
    assert at(1) == []
    assert at(2) == ["two moves in"]
    assert at(end) == ["good game"]
