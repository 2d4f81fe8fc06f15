"""Account names are unique regardless of case and Unicode form: a table of name keys.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    # A copy of accounts.name_key as it was when this migration was written: a migration
    # must compute the same keys whatever the code does later.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def upgrade() -> None:
    names = op.create_table(
        "account_names",
        sa.Column("key", sa.String(96), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
    )
    users = op.get_bind().execute(sa.text("SELECT id, name FROM users ORDER BY id")).all()
    taken: set[str] = set()
    rows = []
    for user_id, name in users:
        key = _key(name)
        # Names that only the old rules told apart ('admin' and 'Admin'): the oldest account
        # keeps the name; a later one gets a key no name can have, so nobody signs in to it
        # by that name, and its games stay as they were.
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        rows.append({"key": key, "user_id": user_id})
    op.bulk_insert(names, rows)


def downgrade() -> None:
    op.drop_table("account_names")
