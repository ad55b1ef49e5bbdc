"""Tokens expire and can be revoked: when each player and seat token was last used, and when a
player token was revoked (logged out).

Every token issued before this migration counts as used at the migration, so none of them expires
sooner than the idle time after the upgrade."""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite alters a table's columns only through batch mode (here a plain ADD COLUMN each).
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("used", sa.Float, nullable=True))
        batch.add_column(sa.Column("revoked", sa.Float, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("token_used", sa.Float, nullable=True))
    now = time.time()
    op.execute(sa.text("UPDATE players SET used = :now").bindparams(now=now))
    op.execute(sa.text("UPDATE seats SET token_used = :now WHERE token_hash IS NOT NULL").bindparams(now=now))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("token_used")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("revoked")
        batch.drop_column("used")
