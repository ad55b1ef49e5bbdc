"""Failed log-ins counted in the store (issue 29, item 1), shared by every server process on it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("login_failures_key", "login_failures", ["key", "at"])
    op.create_index("login_failures_at", "login_failures", ["at"])


def downgrade() -> None:
    op.drop_index("login_failures_at", table_name="login_failures")
    op.drop_index("login_failures_key", table_name="login_failures")
    op.drop_table("login_failures")
