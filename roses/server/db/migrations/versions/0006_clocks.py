"""Time limits: a live clock or a correspondence deadline per game, each seat's time left.

``games.time_control`` (JSON, None: no time limit) and ``games.clock_due`` (when the
server must next act on the game's clocks); per seat the clock itself (``time_left_ms``,
``clock_since``, ``deadline``) and the 80% warning (``warn_at``, ``warned_at``). See
``roses/server/clocks/time_control.py``.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    # Existing games had no time limit: every new column is empty for them.
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("time_control", sa.JSON, nullable=True))
        games.add_column(sa.Column("clock_due", MOMENT, nullable=True))
        games.create_index("ix_games_clock_due", ["clock_due"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("time_left_ms", sa.BigInteger, nullable=True))
        seats.add_column(sa.Column("clock_since", MOMENT, nullable=True))
        seats.add_column(sa.Column("deadline", MOMENT, nullable=True))
        seats.add_column(sa.Column("warn_at", MOMENT, nullable=True))
        seats.add_column(sa.Column("warned_at", MOMENT, nullable=True))
        seats.create_index("ix_seats_warn_at", ["warn_at"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_warn_at")
        for column in ("warned_at", "warn_at", "deadline", "clock_since", "time_left_ms"):
            seats.drop_column(column)
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_clock_due")
        games.drop_column("clock_due")
        games.drop_column("time_control")
