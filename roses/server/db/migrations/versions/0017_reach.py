"""Reach: what each account wants to hear of by web push and webhook (``reach_choices``),
its browsers' push subscriptions, the outbox of news to send, and the newest version of a
game each seat's occupant has seen (no push about a turn already seen). New tables and a
new column: no data to convert.

Revision ID: 0017
Revises: 0015
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as table:
        table.add_column(sa.Column("seen_version", sa.Integer, nullable=True))
    op.create_table(
        "reach_choices",
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("turn", sa.Boolean, nullable=False),
        sa.Column("deadline", sa.Boolean, nullable=False),
        sa.Column("tournament", sa.Boolean, nullable=False),
        sa.Column("challenge", sa.Boolean, nullable=False),
        sa.Column("webhook_url", sa.String(500), nullable=True),
        sa.Column("webhook_secret", sa.String(64), nullable=True),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh_key", sa.String(200), nullable=False),
        sa.Column("auth_key", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_user_id", "push_subscriptions", ["user_id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column(
            "subscription_id",
            sa.Integer,
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer, nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("version", sa.Integer, nullable=True),
        sa.Column("facts", sa.JSON, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_outbox_user_id", "outbox", ["user_id"])
    op.create_index("ix_outbox_subscription_id", "outbox", ["subscription_id"])
    op.create_index("ix_outbox_due_at", "outbox", ["due_at"])


def downgrade() -> None:
    op.drop_table("outbox")
    op.drop_table("push_subscriptions")
    op.drop_table("reach_choices")
    with op.batch_alter_table("seats") as table:
        table.drop_column("seen_version")
