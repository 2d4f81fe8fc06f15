"""Accounts, sessions, games, seats and the append-only move list.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200)),
        sa.Column("is_guest", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "login_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_login_sessions_user_id", "login_sessions", ["user_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("light", sa.Boolean, nullable=False),
        sa.Column("show_draw_pile", sa.Boolean, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("start_position", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("turn_seat", sa.Integer),
        sa.Column("turn_since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pending_move", sa.String(8)),
        sa.Column("result", sa.JSON),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id")),
        sa.Column("invited_user_id", sa.Integer, sa.ForeignKey("users.id")),
        sa.Column("bot_name", sa.String(32)),
        sa.Column("bot_strength", sa.String(16)),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_index("ix_seats_invited_user_id", "seats", ["invited_user_id"])
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "ply", name="uq_moves_game_ply"),
    )
    op.create_index("ix_moves_game_id", "moves", ["game_id"])


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_table("games")
    op.drop_table("login_sessions")
    op.drop_table("users")
