"""Notifications: each account's e-mail address, its opt-ins (daily digest, deadline
warnings, browser notifications, sound) and the day its last digest went out; the server's
own secrets (the key that signs unsubscribe links), shared by every server process.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notification_settings",
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("digest", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("deadline_warning", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("browser", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("sound", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("digest_sent_on", sa.Date, nullable=True),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_table("notification_settings")
