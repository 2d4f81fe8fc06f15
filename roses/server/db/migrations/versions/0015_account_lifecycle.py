"""The account's lifecycle: when each session began and in which browser (the session
list), when an e-mail address was confirmed (an address is used for nothing before: the
addresses typed so far are all unconfirmed), when an account was deleted, the addresses
each account signed in from (kept as keyed hashes: the sign-in throttle spares them), and
the server's shared secrets, now the accounts' (the table itself is unchanged).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("login_sessions") as table:
        table.add_column(sa.Column("created_at", sa.DateTime(timezone=True), nullable=True))
        table.add_column(sa.Column("user_agent", sa.String(200), nullable=True))
    # A session from before knows not when it began: its start is taken as now.
    op.execute(sa.text("UPDATE login_sessions SET created_at = CURRENT_TIMESTAMP"))
    with op.batch_alter_table("login_sessions") as table:
        table.alter_column("created_at", existing_type=sa.DateTime(timezone=True), nullable=False)
    with op.batch_alter_table("notification_settings") as table:
        table.add_column(sa.Column("email_confirmed_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("users") as table:
        table.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "sign_in_addresses",
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("address_key", sa.String(64), primary_key=True),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sign_in_addresses")
    with op.batch_alter_table("users") as table:
        table.drop_column("deleted_at")
    with op.batch_alter_table("notification_settings") as table:
        table.drop_column("email_confirmed_at")
    with op.batch_alter_table("login_sessions") as table:
        table.drop_column("user_agent")
        table.drop_column("created_at")
