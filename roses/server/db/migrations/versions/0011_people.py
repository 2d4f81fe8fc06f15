"""People: follows (two who follow each other are friends), blocks, private messages.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _user(name: str, *, key: bool = True) -> sa.Column[int]:
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=key,
        nullable=False,
    )


def _created() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table("follows", _user("user_id"), _user("followed_id"), _created())
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table("blocks", _user("user_id"), _user("blocked_id"), _created())
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "private_messages",
        sa.Column("id", sa.Integer, primary_key=True),
        _user("sender_id", key=False),
        _user("recipient_id", key=False),
        sa.Column("text", sa.String(500), nullable=False),
        _created(),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_private_messages_sender_id", "private_messages", ["sender_id"])
    op.create_index("ix_private_messages_recipient_id", "private_messages", ["recipient_id"])


def downgrade() -> None:
    for table in ("private_messages", "blocks", "follows"):
        op.drop_table(table)
