"""Tournaments (``roses/server/tournaments/``): the tournament and its settings, its log of
events (a round starts once, a game's result is recorded once: unique keys), its entrants,
the games its rounds started, and the tournament games people lost on time (a bar from
joining for a while). New tables only: nothing to convert.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def _tournament_id() -> sa.Column[int]:
    return sa.Column(
        "tournament_id",
        sa.Integer,
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("game", sa.String(24), nullable=False),
        sa.Column("players_per_table", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("time_control", sa.JSON, nullable=False),
        sa.Column("vacation", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("conditions", sa.JSON, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_events",
        sa.Column("id", sa.Integer, primary_key=True),
        _tournament_id(),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("round", sa.Integer),
        sa.Column("game_id", sa.Integer),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "seq", name="uq_tournament_events_seq"),
        sa.UniqueConstraint("tournament_id", "round", name="uq_tournament_events_round"),
        sa.UniqueConstraint("tournament_id", "game_id", name="uq_tournament_events_game"),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        _tournament_id(),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), index=True),
        sa.Column("bot_name", sa.String(32)),
        sa.Column("bot_strength", sa.String(16)),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_entries_user"),
    )
    op.create_table(
        "tournament_games",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _tournament_id(),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table", sa.Integer, nullable=False),
        sa.UniqueConstraint("tournament_id", "round", "table", name="uq_tournament_games_table"),
    )
    op.create_table(
        "tournament_timeouts",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
            index=True,
        ),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "tournament_timeouts",
        "tournament_games",
        "tournament_entries",
        "tournament_events",
        "tournaments",
    ):
        op.drop_table(table)
