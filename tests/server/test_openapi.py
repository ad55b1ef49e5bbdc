"""The API's description is FastAPI's own, made from the routes and their Pydantic models (issue 25),
and a model's refusal is the server's `invalid_input` naming the field, in the messages the server
has always given (never FastAPI's 422 body)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from smallworld.engine.model.edition import known_ids

REF = "#/components/schemas/"


def test_the_description_is_made_from_the_request_and_answer_models(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    assert not {"HTTPValidationError", "ValidationError"} & set(schemas)
    token = spec["components"]["securitySchemes"]["token"]
    assert (token["type"], token["scheme"]) == ("http", "bearer")
    bodies: dict[tuple[str, str], str] = {}
    answers: dict[tuple[str, str], str] = {}
    for path, item in spec["paths"].items():
        for method, op in item.items():
            responses = op["responses"]
            assert "422" not in responses, (method, path)
            assert responses["default"]["content"]["application/json"]["schema"] == {"$ref": REF + "Error"}
            if "requestBody" in op:
                bodies[method, path] = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            schema = responses["200"]["content"].get("application/json", {}).get("schema", {})
            if "$ref" in schema:
                answers[method, path] = schema["$ref"].removeprefix(REF)
            if op.get("security"):
                assert op["security"] == [{"token": []}, {}], (method, path)  # a token is optional
    assert bodies == {
        ("post", "/api/players"): REF + "CreatePlayer",
        ("post", "/api/games"): REF + "CreateGame",
        ("post", "/api/games/{gid}/join"): REF + "JoinGame",
        ("post", "/api/games/{gid}/act"): REF + "Act",
        ("post", "/api/games/{gid}/seats/{seat}/bot"): REF + "HandToBot",
        ("post", "/api/accounts"): REF + "SignUp",
        ("post", "/api/session"): REF + "LogIn",
        ("post", "/api/account/password"): REF + "NewPassword",
        ("post", "/api/quick"): REF + "QuickGame",
        ("post", "/api/account/email"): REF + "EmailSettings",
        ("post", "/api/tournaments"): REF + "NewTournament",
        ("post", "/api/games/{gid}/chat"): REF + "PostChat",
        ("post", "/api/games/{gid}/undo"): REF + "Undo",
    }
    assert answers == {
        ("get", "/healthz"): "Health",
        ("post", "/api/players"): "PlayerCreated",
        ("get", "/api/me/games"): "MyGames",
        ("post", "/api/players/logout"): "LoggedOut",
        ("get", "/api/games"): "OpenGames",
        ("post", "/api/games"): "GameCreated",
        ("get", "/api/games/{gid}"): "Summary",
        ("post", "/api/games/{gid}/join"): "Joined",
        ("get", "/api/games/{gid}/view"): "View",
        ("get", "/api/games/{gid}/moves"): "Moves",
        ("post", "/api/games/{gid}/act"): "Ack",
        ("get", "/api/games/{gid}/replay"): "Replay",
        ("get", "/api/games/{gid}/scores"): "Scores",
        ("post", "/api/games/{gid}/seats/{seat}/bot"): "SeatHanded",
        ("post", "/api/games/{gid}/seats/{seat}/take"): "SeatHanded",
        ("post", "/api/games/{gid}/seats/{seat}/leave"): "SeatLeft",
        ("post", "/api/accounts"): "AccountAnswer",
        ("post", "/api/session"): "AccountAnswer",
        ("post", "/api/session/logout"): "LoggedOutAnswer",
        ("get", "/api/account"): "AccountAnswer",
        ("post", "/api/account/password"): "PasswordChanged",
        ("get", "/api/ratings"): "Leaderboard",
        ("get", "/api/bots"): "BotLevels",
        ("get", "/api/players/{who}/ratings"): "PlayerRatings",
        ("get", "/api/players/{who}/stats"): "PlayerStats",
        ("get", "/api/players/{who}/games"): "PlayerGames",
        ("post", "/api/quick"): "QuickTicket",
        ("get", "/api/quick/{ticket}"): "QuickTicket",
        ("post", "/api/quick/{ticket}/cancel"): "QuickTicket",
        ("post", "/api/account/email"): "EmailSet",
        ("post", "/api/tournaments"): "Tournament",
        ("get", "/api/tournaments"): "TournamentList",
        ("get", "/api/tournaments/{tid}"): "Tournament",
        ("post", "/api/tournaments/{tid}/join"): "Tournament",
        ("post", "/api/tournaments/{tid}/start"): "Tournament",
        ("post", "/api/games/{gid}/chat"): "ChatPosted",
        ("get", "/api/games/{gid}/chat"): "ChatList",
        ("post", "/api/games/{gid}/undo"): "Undone",
    }
    seat = schemas["SeatSpec"]["properties"]
    assert seat["kind"]["enum"] == ["creator", "invite", "open", "bot"]
    assert "random" in seat["level"]["enum"] and seat["name"]["anyOf"][0]["maxLength"] == 40
    assert schemas["Act"]["required"] == ["action", "ply", "seat"]
    assert schemas["CreateGame"]["required"] == ["seats"]
    assert schemas["CreateGame"]["additionalProperties"] is False


# (method, path, request arguments, status, the answer's code, field and message)
SEATS = [{"kind": "creator"}, {"kind": "creator"}]
CASES: list[tuple[str, str, dict[str, Any], int, str, str | None, str]] = [
    (
        "POST",
        "/api/players",
        {"json": [1]},
        400,
        "invalid_input",
        "body",
        "the request must be a JSON object",
    ),
    ("POST", "/api/players", {}, 400, "invalid_input", "body", "the request must be a JSON object"),
    ("POST", "/api/players", {"content": b"{oops"}, 400, "malformed_json", "body", None),
    (
        "POST",
        "/api/players",
        {"json": {"name": 5}},
        400,
        "invalid_input",
        "name",
        "name: a name of 1 to 40 characters, without control or bidirectional characters",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": SEATS, "zeta": 1, "alpha": 2}},
        400,
        "invalid_input",
        "alpha",
        "alpha: unknown field; known: ['clock', 'edition', 'name', 'options', 'players', 'position', 'rated',"
        " 'seats', 'title', 'undo', 'variant']",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"players": 3, "seats": SEATS}},
        400,
        "invalid_input",
        "seats",
        "seats: one entry per player",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": [{"kind": "creator"}, 5]}},
        400,
        "invalid_input",
        "seats[1].kind",
        "seats[1].kind: one of ['creator', 'invite', 'open', 'bot']",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": [{"kind": "creator"}, {"kind": "bot", "level": 3}]}},
        400,
        "invalid_input",
        "seats[1].level",
        "seats[1].level: one of ['random', 'greedy', 'mcts', 'openspiel-mcts']",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": SEATS, "clock": {"kind": "live", "bank_s": True}}},
        400,
        "invalid_input",
        "clock.bank_s",
        "clock.bank_s: a number from 0.05 to 86400",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": SEATS, "clock": {}}},
        400,
        "invalid_input",
        "clock.kind",
        "clock.kind: 'live' or 'turn'",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": SEATS, "title": "a\u202eb"}},
        400,
        "invalid_input",
        "title",
        "title: a title of 1 to 80 characters, without control or bidirectional characters (U+202E)",
    ),
    (
        "POST",
        "/api/games",
        {"json": {"seats": SEATS, "edition": "nope"}},
        400,
        "invalid_input",
        "settings.edition",
        # The editions known when the test runs (other tests register the mini edition).
        "settings.edition: unknown edition 'nope'; known: {known_editions}",
    ),
    # Keys of another kind are not read: a turn clock's bank, an open seat's name.
    (
        "POST",
        "/api/games",
        {
            "json": {
                "seats": [{"kind": "creator"}, {"kind": "open", "name": 5}],
                "clock": {"kind": "turn", "bank_s": 0},
            }
        },
        200,
        "",
        None,
        "",
    ),
    # A body is read as JSON whatever its Content-Type (as the server always did).
    (
        "POST",
        "/api/games",
        {
            "content": b'{"seats": [{"kind": "creator"}, {"kind": "creator"}]}',
            "headers": {"content-type": "text/plain"},
        },
        200,
        "",
        None,
        "",
    ),
    (
        "POST",
        "/api/games/{gid}/join",
        {"json": {"seat": True}},
        400,
        "invalid_input",
        "seat",
        "seat: the number of an open seat",
    ),
    (
        "POST",
        "/api/games/{gid}/join",
        {"json": {"invite": 5}},
        400,
        "invalid_input",
        "invite",
        "invite: the invitation code",
    ),
    (
        "POST",
        "/api/games/{gid}/act",
        {"json": {"seat": 0, "ply": 0}},
        400,
        "invalid_input",
        "action",
        "action: required",
    ),
    (
        "POST",
        "/api/games/{gid}/act",
        {"json": {"seat": 0, "action": {"kind": "end"}}},
        400,
        "invalid_input",
        "ply",
        "ply: the ply of the view the action was chosen from",
    ),
    (
        "POST",
        "/api/games/{gid}/act",
        {"json": {"ply": 0, "action": {"kind": "end"}}},
        400,
        "invalid_input",
        "seat",
        "seat: the seat number you act for",
    ),
    ("POST", "/api/games/{gid}/seats/x/bot", {"json": {}}, 400, "invalid_input", "seat", "seat: an integer"),
    (
        "POST",
        "/api/games/{gid}/seats/0/bot",
        {"json": {"level": None}},
        400,
        "invalid_input",
        "level",
        "level: one of ['random', 'greedy', 'mcts', 'openspiel-mcts']",
    ),
    ("GET", "/api/games/{gid}/view?seat=1.0", {}, 400, "invalid_input", "seat", "seat: an integer"),
    ("GET", "/api/games/{gid}/moves?since=x", {}, 400, "invalid_input", "since", "since: an integer"),
    ("GET", "/api/games/abcdef0123456789/view?seat=x", {}, 404, "not_found", None, ""),
    ("PUT", "/api/players", {}, 405, "method_not_allowed", None, ""),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "code", "field", "message"), CASES)
def test_a_models_refusal_names_the_field_in_the_servers_words(
    client: TestClient,
    method: str,
    path: str,
    kwargs: dict[str, Any],
    status: int,
    code: str,
    field: str | None,
    message: str | None,
) -> None:
    if "{gid}" in path:
        gid = client.post("/api/games", json={"seats": SEATS}).json()["game"]
        path = path.replace("{gid}", gid)
    r = client.request(method, path, **kwargs)
    assert r.status_code == status, r.text
    if status == 200:
        return
    body = r.json()
    assert body["code"] == code and body.get("field") == field, body
    if message:
        assert body["message"] == message.replace("{known_editions}", str(known_ids()))
