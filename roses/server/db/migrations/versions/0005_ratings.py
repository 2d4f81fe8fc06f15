"""Ratings: a game is rated or casual; Glicko-2 ratings per game and variant, and each
rated game's new ratings (the history).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(24), primary_key=True),
        sa.Column("variant", sa.String(8), primary_key=True),
        sa.Column("rated", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE")),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    op.create_table(
        "rating_changes",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("rated", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_rated", "rating_changes", ["rated"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as games:
        games.drop_column("rated")
