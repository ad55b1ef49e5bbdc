"""Accounts, ratings and quick games (issue 29): a player may have a unique name key and a password;
logged-in browsers have sessions; seats remember clock misses and who abandoned them; ratings per
player and pool, their history, and the games rated; quick games' tickets; tournaments."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(sa.Column("account", sa.Float, nullable=True))
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("digest", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("lang", sa.String(8), nullable=True))
        batch.add_column(sa.Column("digest_sent", sa.Float, nullable=True))
    op.create_index("players_name_key", "players", ["name_key"], unique=True)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("misses", sa.Integer, nullable=True))
        batch.add_column(sa.Column("abandoned", sa.Float, nullable=True))
        batch.add_column(sa.Column("leaver", sa.String(32), nullable=True))
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=False),
        sa.Column("revoked", sa.Float, nullable=True),
    )
    op.create_index("sessions_player", "sessions", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("who", sa.String(48), primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_pool", "ratings", ["pool"])
    op.create_table(
        "rating_history",
        sa.Column("who", sa.String(48), primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("rated", sa.Float, nullable=False),
    )
    op.create_table(
        "tickets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("bots_after", sa.Float, nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("cancelled", sa.Float, nullable=True),
    )
    op.create_index("tickets_waiting", "tickets", ["game_id", "cancelled"])
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("pace", sa.String(8), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("creator", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "entrants",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("entrants")
    op.drop_table("tournaments")
    op.drop_index("tickets_waiting", table_name="tickets")
    op.drop_table("tickets")
    op.drop_table("rated_games")
    op.drop_table("rating_history")
    op.drop_index("ratings_pool", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("sessions_player", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("players_name_key", table_name="players")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("leaver")
        batch.drop_column("abandoned")
        batch.drop_column("misses")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("digest_sent")
        batch.drop_column("lang")
        batch.drop_column("digest")
        batch.drop_column("email")
        batch.drop_column("account")
        batch.drop_column("password_hash")
        batch.drop_column("name_key")
