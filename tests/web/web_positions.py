"""The browser tests' way to the real server's API (`smallworld serve`, the `real_url` fixture) from
Python: a game from a position (docs/server.md, Games from a position) opened in the page, and the
summaries, views and moves a test checks the page against."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from playwright.sync_api import Page


def api(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One call to the server's HTTP API; a refusal raises with the server's error body."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method=method)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{method} {path}: {e.code} {e.read().decode()}") from None


# One Warcraft island for two: the settings of the small hand-made positions below.
L2A = {"edition": "warcraft", "players": 2, "seed": 7, "boards": ["L2a"]}


def orcs_against(race: str, tokens: int, **more: Any) -> dict[str, Any]:
    """Round 2 on L2a, seat 0 to conquer: its Mining Orcs (1 token in L2a:12, 7 in hand) against seat
    1's Archaeologist `race` (`tokens` in L2a:3); `more` adds to the position (`markers`) or, as
    `ext`, to seat 1's."""
    ext = more.pop("ext", None)
    other = {"coins": 5, "active": race, "power": "archaeologist", **({"ext": ext} if ext else {})}
    return {
        "round": 2,
        "first_seat": 0,
        "turn_seat": 0,
        "phase": "conquer",
        "seats": [{"coins": 5, "active": "orcs", "power": "mining", "hand": 7}, other],
        "regions": {"L2a:12": {"race": "orcs", "tokens": 1}, "L2a:3": {"race": race, "tokens": tokens}},
        **more,
    }


def summary(url: str, gid: str) -> dict[str, Any]:
    out: dict[str, Any] = api(url, "GET", f"/api/games/{gid}")
    return out


def create_from_position(
    url: str, doc: dict[str, Any], human: int | None = None, name: str = "Ada"
) -> tuple[str, int, dict[str, Any]]:
    """A casual game from the position document `doc` on the real server: `human` (default: the seat
    to act at the position) is the creator's seat, the others greedy bots. Answers the game id, the
    human seat and the create answer (its tokens)."""
    if human is None:
        pos = doc.get("position", {})
        human = int(pos.get("acting_seat", pos.get("turn_seat", 0)))
    players = int(doc["settings"]["players"])
    bot = {"kind": "bot", "level": "greedy"}
    seats = [{"kind": "creator"} if i == human else bot for i in range(players)]
    created: dict[str, Any] = api(url, "POST", "/api/games", {"name": name, "seats": seats, "position": doc})
    return created["game"], human, created


def open_in_page(page: Page, url: str, gid: str, created: dict[str, Any]) -> None:
    """The page holds the creator's seat and player (as if it had made the game) and opens it."""
    seats = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
    page.goto(url)
    page.wait_for_selector("#lobby")
    page.evaluate(
        """([gid, seats, player, name]) => {
          localStorage.setItem(`sw.seats.${gid}`, JSON.stringify(seats));
          localStorage.setItem("sw.player", player);
          localStorage.setItem("sw.name", name);
        }""",
        [gid, seats, created["player_token"], created["player"]["name"]],
    )
    page.goto(f"{url}#/game/{gid}")
    page.wait_for_selector("#game")


def open_position(
    page: Page, url: str, settings: dict[str, Any], position: dict[str, Any], rolls: list[int] | None = None
) -> str:
    """A game from a position (docs/positions.md) on the real server, with this page in the seat to
    act and greedy bots in the others; the page opens it, at its decision."""
    doc: dict[str, Any] = {"format": "smallworld-position/1", "settings": settings, "position": position}
    if rolls is not None:
        doc["rolls"] = rolls
    gid, _, created = create_from_position(url, doc)
    open_in_page(page, url, gid, created)
    page.wait_for_selector("#game[data-acting='yes']")
    return gid
