"""The Rose King's random and greedy bots answer at once, whatever time they are given: they
lost their strengths. Their seats forget the strength they were created with, and their
ratings per strength (each the same bot's) become one rating per bot, rated as the bot alone
(``bot:random:``): the rating of the strength that played the most rated games, with every
game counted; the history points of a game keep one point per bot.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

GAME = "roseking"
BOTS = ("random", "greedy")  # roses.bots.roseking.INSTANT when this was written


def upgrade() -> None:
    db = op.get_bind()
    db.execute(
        sa.text(
            "UPDATE seats SET bot_strength = NULL WHERE bot_name IN :bots "
            "AND game_id IN (SELECT id FROM games WHERE game = :game)"
        ).bindparams(sa.bindparam("bots", expanding=True)),
        {"bots": list(BOTS), "game": GAME},
    )
    for bot in BOTS:
        one = f"bot:{bot}:"
        pattern = f"bot:{bot}:_%"  # at some strength
        variants = db.execute(
            sa.text("SELECT DISTINCT variant FROM ratings WHERE game = :game AND rated LIKE :p"),
            {"game": GAME, "p": pattern},
        ).scalars()
        for variant in list(variants):
            rows = db.execute(  # the bot's own rating too, if a game already made one
                sa.text(
                    "SELECT rated, games FROM ratings WHERE game = :game AND variant = :variant "
                    "AND (rated LIKE :p OR rated = :one) ORDER BY games DESC, deviation, rated"
                ),
                {"game": GAME, "variant": variant, "p": pattern, "one": one},
            ).all()
            games = sum(row.games for row in rows)
            keep, *others = (row.rated for row in rows)
            where = "WHERE game = :game AND variant = :variant AND rated = :rated"
            for other in others:
                db.execute(sa.text(f"DELETE FROM ratings {where}"),
                           {"game": GAME, "variant": variant, "rated": other})  # fmt: skip
            db.execute(
                sa.text(f"UPDATE ratings SET rated = :one, games = :games {where}"),
                {"one": one, "games": games, "game": GAME, "variant": variant, "rated": keep},
            )
        changes = db.execute(
            sa.text("SELECT game_id, rated FROM rating_changes WHERE rated LIKE :p "
                    "ORDER BY game_id, rated"),
            {"p": pattern},
        ).all()  # fmt: skip
        taken = set(
            db.execute(
                sa.text("SELECT game_id FROM rating_changes WHERE rated = :one"), {"one": one}
            ).scalars()
        )
        for change in changes:
            key = {"game_id": change.game_id, "rated": change.rated, "one": one}
            if change.game_id in taken:  # two strengths of the bot in one game
                db.execute(
                    sa.text("DELETE FROM rating_changes WHERE game_id = :game_id "
                            "AND rated = :rated"), key,
                )  # fmt: skip
            else:
                db.execute(
                    sa.text("UPDATE rating_changes SET rated = :one WHERE game_id = :game_id "
                            "AND rated = :rated"), key,
                )  # fmt: skip
                taken.add(change.game_id)


def downgrade() -> None:
    pass  # the strengths were never the bots': nothing to give back
