"""The store's tables (SQLAlchemy Core). Alembic migrations (`migrations/`) create and change them;
this module is what the code reads and writes through."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
    # The token's last use, recorded at most once an hour (it expires once unused for long), and
    # when it was revoked (logged out): both kept so that a refusal can say which.
    Column("used", Float, nullable=True),
    Column("revoked", Float, nullable=True),
    # An account (issue 29): a player who signed up, or claimed the anonymous player it was, has a
    # name that no other account's can be mistaken for (`namekey.name_key`, unique) and a password
    # (its argon2 hash). Anonymous players have neither.
    Column("name_key", String(64), nullable=True),
    Column("password_hash", String(255), nullable=True),
    Column("account", Float, nullable=True),  # when the account was made
    # The e-mail digest (`digest.py`): an address, the opt-in, the language, the last one sent.
    Column("email", String(254), nullable=True),
    Column("digest", Boolean, nullable=True),
    Column("lang", String(8), nullable=True),
    Column("digest_sent", Float, nullable=True),
)
Index("players_name_key", players.c.name_key, unique=True)

# A logged-in browser: its session secret (the cookie `sw_session`) acts as the player's token; it
# expires as a player token does, and is revoked at log-out (or by a password change).
sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("used", Float, nullable=False),
    Column("revoked", Float, nullable=True),
)
Index("sessions_player", sessions.c.player_id)

# A game is its settings, the seed the server drew (sent to nobody until the end) and its action log.
games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("settings", Text, nullable=False),  # Settings.to_json() without the seed
    Column("seed", String(40), nullable=False),  # hexadecimal: up to 128 bits
    Column("status", String(16), nullable=False),  # open | playing | over
    Column("ply", Integer, nullable=False),
    Column("meta", Text, nullable=False),  # clocks, creator, title: JSON
    Column("result", Text, nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("games_status", games.c.status)  # the lobby and the restart list games by status

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # human | bot
    Column("name", String(64), nullable=False),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),  # join by link; null once taken
    Column("open", Boolean, nullable=False),  # listed in the lobby, anyone may join
    Column("bot", String(16), nullable=True),  # the bot playing the seat now (also for a human away)
    Column("away", Boolean, nullable=False),
    Column("bank_ms", BigInteger, nullable=True),  # live clock: time left
    Column("deadline", Float, nullable=True),  # when the seat's current decision runs out
    Column("token_used", Float, nullable=True),  # the seat token's last use, as players.used
    # Leaving a game (docs/players.md): clock misses in a row, when the seat was abandoned, by whom.
    Column("misses", Integer, nullable=True),
    Column("abandoned", Float, nullable=True),
    Column("leaver", String(32), nullable=True),
)
Index("seats_player", seats.c.player_id)  # "my games"

# (game_id, ply) is the primary key: two processes can never both accept an action for one move.
actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),  # the state's ply the action was chosen at
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # protocol JSON
    Column("by", String(16), nullable=False),  # human | bot | clock
    Column("created", Float, nullable=False),
)

# Ratings (issue 29; `ratings.py`): per player (an account's id, or `bot:LEVEL`) and pool
# (`edition/variant/pace`), OpenSkill's mu and sigma; a point per rated game for the charts; and the
# games rated already, so that none is rated twice.
ratings = Table(
    "ratings",
    metadata,
    Column("who", String(48), primary_key=True),
    Column("pool", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("ratings_pool", ratings.c.pool)

rating_history = Table(
    "rating_history",
    metadata,
    Column("who", String(48), primary_key=True),
    Column("pool", String(64), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("pool", String(64), nullable=False),
    Column("rated", Float, nullable=False),
)

# Quick games (`pairing.py`): a logged-in player's request for a table, until it is seated
# (`game_id`, `seat`) or cancelled.
tickets = Table(
    "tickets",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("pool", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rating", Float, nullable=False),
    Column("since", Float, nullable=False),
    Column("bots_after", Float, nullable=True),
    Column("game_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("cancelled", Float, nullable=True),
)
Index("tickets_waiting", tickets.c.game_id, tickets.c.cancelled)

# Tournaments (`tournaments.py`): the tournament, its players, and each round's games by table.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("edition", String(16), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("pace", String(8), nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("table_size", Integer, nullable=False),
    Column("bots", Boolean, nullable=False),
    Column("status", String(16), nullable=False),  # open | playing | over
    Column("round", Integer, nullable=False),  # the round under way (0: not started)
    Column("creator", String(32), ForeignKey("players.id"), nullable=False),
    Column("created", Float, nullable=False),
)

entrants = Table(
    "entrants",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("joined", Float, nullable=False),
)

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("table", Integer, primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
)
# A game's chat (docs/server.md, "Chat"): the seats' channel and the spectators', numbered per game
# (`seq` from 1) and stored with the game's ply when posted, so that the replay shows each message
# among the moves. Plain text, checked as display texts are (`inputs.text`); never HTML.
chat = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("channel", String(16), nullable=False),  # seats | spectators
    Column("seat", Integer, nullable=True),  # the poster's seat (null: a spectator)
    Column("name", String(64), nullable=False),  # the poster's name when posted
    Column("text", Text, nullable=False),
    Column("ply", Integer, nullable=False),  # the game's ply when posted
    Column("created", Float, nullable=False),
)

# Failed log-ins (`accounts.Failures`): one row per failure and key (a name's, an address's), the
# key hashed; counted by every server process on the store, so that more processes give an attacker
# no more guesses. Rows older than the limit's window are pruned.
login_failures = Table(
    "login_failures",
    metadata,
    Column("key", String(64), nullable=False),  # sha256 of "name:KEY", "addr:ADDRESS", "signup:ADDRESS"
    Column("at", Float, nullable=False),
)
Index("login_failures_key", login_failures.c.key, login_failures.c.at)
Index("login_failures_at", login_failures.c.at)
