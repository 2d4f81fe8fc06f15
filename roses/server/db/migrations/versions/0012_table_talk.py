"""Table talk by room and phrase: each chat message is the players' or the spectators', and
may be a courtesy phrase (a key, translated for each reader) rather than free text. The
messages written before were all the players'.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as messages:
        messages.add_column(sa.Column("phrase", sa.String(24), nullable=True))
        messages.add_column(
            sa.Column("room", sa.String(12), nullable=False, server_default="players")
        )


def downgrade() -> None:
    # A phrase keeps its key as its text (English-like: "good-luck") rather than nothing.
    op.get_bind().execute(
        sa.text("UPDATE chat_messages SET text = phrase WHERE phrase IS NOT NULL")
    )
    with op.batch_alter_table("chat_messages") as messages:
        messages.drop_column("room")
        messages.drop_column("phrase")
