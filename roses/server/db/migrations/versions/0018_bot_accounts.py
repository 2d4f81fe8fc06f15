"""Programs as players: an account marked as a bot account, the personal API tokens of an
account (only a sha256 of each is kept), and a rated game's consent to bot accounts. Every
account so far is a person's, every game so far refuses bot accounts.

Revision ID: 0018
Revises: 0015
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as table:
        table.add_column(sa.Column("is_bot", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("games") as table:
        table.add_column(
            sa.Column("bot_accounts", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("api_tokens")
    with op.batch_alter_table("games") as table:
        table.drop_column("bot_accounts")
    with op.batch_alter_table("users") as table:
        table.drop_column("is_bot")
