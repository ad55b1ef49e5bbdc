"""The HTTP API's shapes (Pydantic): what each request body must be, and what each answer holds.
They are the OpenAPI description (`/openapi.json`, shown at `/docs`).

A request model checks the body's shape and its values' own rules, in the server's words: each check
raises `inputs.Invalid` and the refusal is `invalid_input` naming the field (`refusals.py`), never
FastAPI's 422. What only the engine or the game can judge goes through as it came: the settings
(`Settings.from_json` names `settings.*`), the action (`protocol.check_action`), the seat a token
may act for. Keys a model does not know are ignored, except in a create (`unknown field`).

The answer models describe what the service returns (plain dicts, the same that the sockets send);
the routes validate them and send only the keys a dict holds (`response_model_exclude_unset`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, WithJsonSchema, model_validator

from smallworld.engine.model.edition import known_ids
from smallworld.server.bots import LEVELS
from smallworld.server.errors import STATUS
from smallworld.server.inputs import MAX_NAME, MAX_TITLE, Invalid, integer, name, text

SEAT_KINDS = ("creator", "invite", "open", "bot")
CLOCK_KINDS = ("live", "turn")


# --- the values' rules -------------------------------------------------------------------------
def _strict_int(rule: str) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(rule)
        return value

    return check


def _strict_bool(rule: str) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise Invalid(rule)
        return value

    return check


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices:
            raise Invalid(f"one of {list(choices)}")
        return str(value)

    return check


def _a_string(rule: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise Invalid(rule)
        return value

    return check


def _seconds(lo: float, hi: float) -> Callable[[Any], float]:
    """A number of seconds from `lo` to `hi` (JSON integers too; not booleans), as a float."""

    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise Invalid(f"a number from {lo} to {hi}")
        return float(value)

    return check


def _title(value: Any) -> str:
    return "" if value in (None, "") else text(value, MAX_TITLE, "a title")


_NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
Name = Annotated[str, BeforeValidator(name), WithJsonSchema(_NAME_SCHEMA)]
Title = Annotated[str, BeforeValidator(_title), WithJsonSchema({"type": "string", "maxLength": MAX_TITLE})]
Level = Annotated[
    str, BeforeValidator(_one_of(LEVELS)), WithJsonSchema({"type": "string", "enum": list(LEVELS)})
]
Flag = Annotated[bool, BeforeValidator(_strict_bool("true or false")), WithJsonSchema({"type": "boolean"})]
# An integer query or path parameter, read as Python's `int` reads a string.
IntParam = Annotated[int, BeforeValidator(integer), WithJsonSchema({"type": "integer"})]
# The JSON an action is (docs/protocol.md); the engine reads it (`malformed_action` when it is not one).
_ACTION_SCHEMA = {
    "type": "object",
    "properties": {"kind": {"type": "string"}, "region": {"type": ["string", "integer"]}, "arg": {}},
    "required": ["kind"],
    "additionalProperties": False,
}
ActionJson = Annotated[Any, WithJsonSchema(_ACTION_SCHEMA)]
Ply = Annotated[int, BeforeValidator(_strict_int("the ply of the view the action was chosen from"))]
BankSeconds = Annotated[
    float,
    BeforeValidator(_seconds(0.05, 86400)),
    WithJsonSchema({"type": "number", "minimum": 0.05, "maximum": 86400}),
]
IncrementSeconds = Annotated[
    float,
    BeforeValidator(_seconds(0, 3600)),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": 3600}),
]
DeadlineSeconds = Annotated[
    float,
    BeforeValidator(_seconds(0.05, 30 * 86400)),
    WithJsonSchema({"type": "number", "minimum": 0.05, "maximum": 30 * 86400}),
]


# --- request bodies ----------------------------------------------------------------------------
class Body(BaseModel):
    """A request body: a JSON object (`the request must be a JSON object`). `prepare` sees the object
    before its fields are read (a subclass's checks of the whole)."""

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise Invalid("the request must be a JSON object", field="body")
        return cls.prepare(data)

    @classmethod
    def prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        return data


class CreatePlayer(Body):
    name: Name | None = Field(None, description="the display name (default: Player)")


class SeatSpec(BaseModel):
    """One seat of a new game: `creator` (the creator's; several are hot-seat), `invite` (joined
    with the invitation code of the answer), `open` (listed in the lobby) or `bot`. Keys of another
    kind are ignored (an open seat's `name`, a creator seat's `level`)."""

    OWN: ClassVar[dict[str, tuple[str, ...]]] = {
        "creator": ("name",),
        "invite": ("name",),
        "open": (),
        "bot": ("level", "name"),
    }

    kind: Literal["creator", "invite", "open", "bot"]
    level: Level = Field("greedy", description="bot seats: the bot")
    name: Name | None = Field(None, description="the seat's display name (not for open seats)")

    @model_validator(mode="before")
    @classmethod
    def _own_keys(cls, data: Any) -> Any:
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind not in SEAT_KINDS:
            raise Invalid(f"one of {list(SEAT_KINDS)}", at="kind")
        return {"kind": kind, **{k: data[k] for k in cls.OWN[kind] if k in data}}


class Clock(BaseModel):
    """`live`: each seat has a bank of time and gains an increment per decision; `turn`: each
    decision has a deadline. Out of time, the seat is away and the greedy bot plays for it. Keys of
    the other kind are ignored."""

    OWN: ClassVar[dict[str, tuple[str, ...]]] = {"live": ("bank_s", "increment_s"), "turn": ("deadline_s",)}

    kind: Literal["live", "turn"]
    bank_s: BankSeconds = Field(600.0, description="live: each seat's bank")
    increment_s: IncrementSeconds = Field(15.0, description="live: added per decision")
    deadline_s: DeadlineSeconds = Field(86400.0, description="turn: the time for each decision")

    @model_validator(mode="before")
    @classmethod
    def _own_keys(cls, data: Any) -> Any:
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind not in CLOCK_KINDS:
            raise Invalid("'live' or 'turn'", at="kind")
        return {"kind": kind, **{k: data[k] for k in cls.OWN[kind] if k in data}}

    def meta(self) -> dict[str, Any]:
        """The clock as the game keeps it (and its summary shows it): milliseconds."""
        if self.kind == "live":
            return {
                "kind": "live",
                "bank_ms": int(self.bank_s * 1000),
                "increment_ms": int(self.increment_s * 1000),
            }
        return {"kind": "turn", "deadline_ms": int(self.deadline_s * 1000)}


class CreateGame(Body):
    """A new game. The settings (`players`, `edition`, `variant`, `options`) are the engine's to
    check (`settings.*` fields); `players` defaults to the number of seats."""

    model_config = ConfigDict(extra="forbid")

    players: Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 2, "maximum": 5})] = None
    edition: Annotated[Any, WithJsonSchema({"type": "string", "enum": known_ids()})] = None
    variant: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["standard", "team"]})] = None
    options: Annotated[Any, WithJsonSchema({"type": "object"})] = None
    # Checked in this order (the seats last, as each seat is made).
    clock: Clock | None = None
    title: Title = ""
    rated: Flag = Field(
        False, description="a rated game (docs/players.md): accounts' and bots' seats only; no undo"
    )
    undo: Flag = Field(
        True, description="a casual game's seats may take back their own decisions (docs/server.md, Undo)"
    )
    seats: list[SeatSpec] = Field(json_schema_extra={"minItems": 2, "maxItems": 5})
    name: Annotated[Any, WithJsonSchema(_NAME_SCHEMA)] = Field(
        None, description="the creator's name, when the server makes a new player (no player token)"
    )
    position: Annotated[Any, WithJsonSchema({"type": "object"})] = Field(
        None,
        description="a casual game from a position: a position document (docs/positions.md), checked by "
        "the engine's loader (docs/server.md, Games from a position)",
    )

    @classmethod
    def prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        known = set(cls.model_fields)
        unknown = sorted(set(data) - known)
        if unknown:
            raise Invalid(f"{unknown[0]}: unknown field; known: {sorted(known)}", field=unknown[0])
        seats = data.get("seats")
        players = data.get("players", len(seats) if isinstance(seats, list) else None)
        if not isinstance(seats, list) or len(seats) != players:
            raise Invalid("one entry per player", at="seats")
        return data

    def settings(self) -> dict[str, Any]:
        """The settings as the client gave them, for the engine to check (`players`: one per seat
        unless given)."""
        out = {k: getattr(self, k) for k in ("edition", "variant", "options") if k in self.model_fields_set}
        out["players"] = self.players if "players" in self.model_fields_set else len(self.seats)
        return out


class JoinGame(Body):
    """Join by an invitation's code, or take an open seat (the first one, or `seat`)."""

    invite: Annotated[str, BeforeValidator(_a_string("the invitation code"))] | None = None
    seat: Annotated[int, BeforeValidator(_strict_int("the number of an open seat"))] | None = None
    name: Name | None = Field(None, description="the seat's name (default: the player's)")


class ActMessage(Body):
    """A socket's `act` message: the action, chosen from the view at `ply` (the seat is the socket's)."""

    action: ActionJson
    ply: Ply

    @classmethod
    def prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        # A missing ply breaks the same rule as a wrong one (only the action is `required`).
        return {"ply": None, **data}


class Act(ActMessage):
    """An action for `seat`, chosen from the view at `ply` (a resend of an action already taken gets
    the same acknowledgement again)."""

    seat: Annotated[int, BeforeValidator(_strict_int("the seat number you act for"))]

    @classmethod
    def prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {"ply": None, "seat": None, **data}


class HandToBot(Body):
    level: Level = "greedy"


# --- answers -----------------------------------------------------------------------------------
class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Player(Answer):
    id: str
    name: str


class PlayerCreated(Answer):
    player: Player
    player_token: str = Field(description="shown once: it opens every seat the player holds")


class LoggedOut(Answer):
    player: Player
    logged_out: bool


class SeatInfo(Answer):
    seat: int
    kind: Literal["human", "bot"]
    name: str
    joined: bool
    open: bool
    bot: str | None = Field(description="the bot playing the seat now (also for a human away)")
    away: bool
    abandoned: bool = Field(False, description="missed two decisions in a row, or left during play")
    bank_ms: int | None = Field(description="live clock: the time left")
    deadline: float | None = Field(description="when the seat's current decision runs out (server time)")


class ClockInfo(Answer):
    kind: Literal["live", "turn"]
    bank_ms: int | None = None
    increment_ms: int | None = None
    deadline_ms: int | None = None


class Summary(Answer):
    game: str
    status: Literal["open", "playing", "over"]
    ply: int
    settings: dict[str, Any] = Field(description="the public settings: no seed, the boards pinned")
    seats: list[SeatInfo]
    clock: ClockInfo | None
    title: str
    rated: bool = Field(False, description="a rated game: no undo; ratings move at its end (docs/players.md)")
    undo: bool = Field(True, description="its seats may take back their own decisions (casual, if allowed)")
    acting_seat: int
    result: dict[str, Any] | None
    from_position: bool = Field(False, description="a casual game started from a position document")


class Listed(Summary):
    """A game in the lobby's lists (`listing.py`): its summary, when it was made and last changed,
    and its round."""

    created: float = Field(description="epoch seconds")
    updated: float = Field(description="epoch seconds")
    round: int = Field(description="the round being played (the last, once over)")
    rounds: int = Field(description="the rounds of the game")


class MyGame(Listed):
    my_seats: list[int]


class MyGames(Answer):
    player: Player
    games: list[MyGame]
    next: str | None = Field(None, description="the `before` of the next page (null: the last page)")


class OpenGames(Answer):
    games: list[Listed]
    next: str | None = Field(None, description="the `before` of the next page (null: the last page)")


class CreatedSeat(Answer):
    seat: int
    kind: Literal["creator", "invite", "open", "bot"]
    token: str | None = Field(None, description="creator seats: the seat token")
    invite: str | None = Field(None, description="invite seats: the invitation code")


class GameCreated(Answer):
    game: str
    player: Player
    seats: list[CreatedSeat]
    settings: dict[str, Any]
    player_token: str | None = Field(None, description="when the server made the player")


class Joined(Answer):
    game: str
    seat: int
    token: str = Field(description="the seat token")
    player: Player
    player_token: str | None = Field(None, description="when the server made the player")


class Move(Answer):
    ply: int
    seat: int
    by: Literal["human", "bot", "clock"]
    action: dict[str, Any]
    events: list[dict[str, Any]] = Field(description="as the reader's seat may see them")
    texts: dict[str, list[str]] | None = Field(None, description="client=web: the events in words")


class Moves(Answer):
    game: str
    seat: int | None
    ply: int
    moves: list[Move]


class View(Summary):
    seat: int | None = Field(description="the reader's seat (null: a spectator)")
    view: dict[str, Any] = Field(description="the engine's view_for(state, seat) (docs/protocol.md)")
    legal: list[dict[str, Any]] = Field(description="the seat's legal actions when it is to act")
    # client=web (docs/web.md)
    texts: dict[str, Any] | None = None
    explain: dict[str, Any] | None = None
    plan: dict[str, Any] | None = None
    rounds: int | None = None
    undo_points: list[dict[str, Any]] | None = Field(
        None, description="the seat's: the plies it may go back to, latest first (docs/server.md, Undo)"
    )


class Ack(Answer):
    game: str
    ply: int = Field(description="the game's ply after the move")
    move: Move


# --- chat (smallworld/server/chat.py; docs/server.md, "Chat") -------------------------------------
CHAT_CHANNELS = ("seats", "spectators")
MAX_CHAT = 300


def _chat_text(value: Any) -> str:
    return text(value, MAX_CHAT, "a message")


_CHAT_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_CHAT}
ChatText = Annotated[str, BeforeValidator(_chat_text), WithJsonSchema(_CHAT_SCHEMA)]
_CHANNEL_SCHEMA = {"type": "string", "enum": list(CHAT_CHANNELS)}
Channel = Annotated[str, BeforeValidator(_one_of(CHAT_CHANNELS)), WithJsonSchema(_CHANNEL_SCHEMA)]


class PostChat(Body):
    """A chat message: plain text, one line. `channel` defaults to the poster's own (a seat's
    `seats`, anyone else's `spectators`); `name`: a spectator's without a player token (required)."""

    text: ChatText
    channel: Channel | None = None
    name: Name | None = Field(None, description="a spectator's name (default: the player token's player)")


class ChatMessage(Answer):
    seq: int = Field(description="the message's number in its game, from 1")
    channel: Literal["seats", "spectators"]
    seat: int | None = Field(description="the poster's seat (null: a spectator)")
    name: str
    text: str = Field(description="plain text, never HTML")
    ply: int = Field(description="the game's ply when it was posted")
    created: float


class ChatPosted(Answer):
    game: str
    message: ChatMessage


class ChatList(Answer):
    game: str
    seat: int | None = Field(description="the reader's seat (null: a spectator)")
    channels: list[Literal["seats", "spectators"]] = Field(description="the channels the reader may read now")
    messages: list[ChatMessage]


class ReplayAction(Answer):
    ply: int
    seat: int
    by: Literal["human", "bot", "clock"]
    action: dict[str, Any]


class Replay(Answer):
    game: str
    settings: dict[str, Any] = Field(description="with the seed")
    seats: list[SeatInfo]
    actions: list[ReplayAction]
    states: list[dict[str, Any]] = Field(description="the state at every ply")
    texts: list[dict[str, list[str]]]
    result: dict[str, Any] | None
    chat: list[ChatMessage] = Field(default_factory=list, description="both channels, each at its ply")
    position: dict[str, Any] | None = Field(
        None, description="a game from a position: where it started (`states[0]`), with its scripted rolls"
    )
    decisions: list[dict[str, str]] = Field(
        description="each move's decision in words, by language (move i led to state i + 1)"
    )



class ScoreItem(Answer):
    item: Literal[
        "start",
        "active_regions",
        "declined_regions",
        "faction_bonus",
        "unit",
        "unit_declined",
        "gain",
        "combos",
        "payments",
        "other",
    ]
    unit: str | None = Field(None, description="unit, unit_declined, gain: the unit (a race, power or place)")
    coins: int


class Scores(Answer):
    """A finished game's coins by round and their breakdown by seat (`ending.py`)."""

    game: str
    scores: list[int] = Field(description="the final coins by seat")
    rounds: list[list[int]] = Field(description="by round (0: the start), the coins of each seat at its end")
    breakdown: list[list[ScoreItem]] = Field(description="by seat: where its coins came from")


class SeatHanded(Answer):
    game: str
    seat: int
    bot: str | None


class SeatLeft(SeatHanded):
    open: bool


# A player's profile (`profiles.py`; docs/players.md): the races and powers played, the games.
class UnitRecord(Answer):
    unit: str = Field(description="a race's or a power's id (its name: the edition's words)")
    games: int = Field(description="finished games a seat of the player held it in")
    wins: int
    win_rate: float = Field(description="wins / games, 0 to 1")


class EditionRecord(Answer):
    edition: str
    games: int
    wins: int
    races: list[UnitRecord]
    powers: list[UnitRecord]


class PlayerStats(Answer):
    who: str
    games: int = Field(description="the finished games counted (the latest, at most 500)")
    editions: list[EditionRecord]


class PlayerGames(Answer):
    who: str
    games: list[MyGame] = Field(description="with the games the player left; `my_seats`: theirs")
    next: str | None = Field(None, description="the `before` of the next page (null: the last page)")


class Health(BaseModel):
    model_config = ConfigDict(extra="allow")

    ok: bool
    status: Literal["ok", "degraded", "down"]
    node: str
    games_live: int
    store: Literal["up", "down"]
    redis: Literal["none", "up", "down"]
    bot_decisions_waiting: int


_CODES: list[JsonValue] = [*sorted(STATUS)]


class Error(Answer):
    """Every refusal (docs/server.md, Errors); the status is the code's."""

    code: str = Field(json_schema_extra={"enum": _CODES})
    message: str
    field: str | None = None
    rule: str | None = None
    # The key of the refusal's words and their values (smallworld/engine/model/errors.py).
    reason: str | None = None
    params: dict[str, JsonValue] | None = None
