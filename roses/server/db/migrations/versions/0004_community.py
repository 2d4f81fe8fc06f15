"""Around the board: chat messages and mutes, rematch votes and the rematches they started.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _game() -> sa.Column[int]:
    return sa.Column(
        "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )


def _user(name: str = "user_id") -> sa.Column[int]:
    return sa.Column(
        name, sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.create_table("chat_mutes", _user(), _user("muted_user_id"))
    op.create_table("rematch_votes", _game(), _user())
    op.create_table(
        "rematches",
        _game(),
        sa.Column(
            "new_game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
    )


def downgrade() -> None:
    for table in ("rematches", "rematch_votes", "chat_mutes", "chat_messages"):
        op.drop_table(table)
