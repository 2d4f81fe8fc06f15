"""Ratings for more than two: a free-for-all (Wars of the Roses with 3 or 4) and a team game
(The Rose King with 4) are rated by Weng-Lin (openskill's Bradley-Terry, full pairing), whose
mu and sigma each rating keeps beside the number shown; a duel keeps Glicko-2. Every
rating is then rebuilt by replaying the rated games in the order they ended
(``roses.server.ratings.replay``), so the pairwise Glicko-2 ratings of the games of more
than two become Weng-Lin ratings, and a duel's replay gives back the ratings it had.

Downgrading keeps the numbers shown and gives the Weng-Lin ratings a newcomer's volatility.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from roses.server.ratings.replay import rebuild

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ratings") as ratings:
        ratings.add_column(sa.Column("mu", sa.Float))
        ratings.add_column(sa.Column("sigma", sa.Float))
        ratings.alter_column("volatility", existing_type=sa.Float, nullable=True)
    rebuild(op.get_bind())


def downgrade() -> None:
    op.execute("UPDATE ratings SET volatility = 0.06 WHERE volatility IS NULL")
    with op.batch_alter_table("ratings") as ratings:
        ratings.alter_column("volatility", existing_type=sa.Float, nullable=False)
        ratings.drop_column("sigma")
        ratings.drop_column("mu")
