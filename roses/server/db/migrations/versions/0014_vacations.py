"""Vacations: a person's allowance of vacation days (``vacation_allowances``) and, per seat,
the pause of its correspondence clock (``paused_from``, ``paused_until``). See
``roses/server/clocks/vacation.py`` and ``roses/server/clocks/time_control.py``.

Existing accounts have no row: their allowance is a new account's, accrued since they
joined. Existing seats are not paused.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "vacation_allowances",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("banked_ms", sa.BigInteger, nullable=False),
        sa.Column("banked_at", MOMENT, nullable=False),
        sa.Column("started_at", MOMENT, nullable=True),
        sa.Column("until", MOMENT, nullable=True),
    )
    op.create_index("ix_vacation_allowances_until", "vacation_allowances", ["until"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("paused_from", MOMENT, nullable=True))
        seats.add_column(sa.Column("paused_until", MOMENT, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("paused_until")
        seats.drop_column("paused_from")
    op.drop_index("ix_vacation_allowances_until", "vacation_allowances")
    op.drop_table("vacation_allowances")
