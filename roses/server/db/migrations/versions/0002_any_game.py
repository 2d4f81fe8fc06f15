"""Any game: a game names its kind, keeps its options and deal as JSON, and logs its seats'
actions; private per-seat drafts. Rose King games started before this go on after it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_old_games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("variant", sa.String),
    sa.column("light", sa.Boolean),
    sa.column("show_draw_pile", sa.Boolean),
    sa.column("seed", sa.BigInteger),
    sa.column("start_position", sa.Text),
    sa.column("status", sa.String),
    sa.column("version", sa.Integer),
    sa.column("turn_seat", sa.Integer),
    sa.column("pending_move", sa.String),
    sa.column("game", sa.String),
    sa.column("players", sa.Integer),
    sa.column("options", sa.JSON),
    sa.column("deal", sa.JSON),
    sa.column("to_act", sa.JSON),
)
_moves = sa.table(
    "moves",
    sa.column("game_id", sa.Integer),
    sa.column("ply", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("move", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
_actions = sa.table(
    "actions",
    sa.column("game_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("action", sa.JSON),
    sa.column("version", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("game", sa.String(24), nullable=False, server_default="roseking")
        )
        batch.add_column(sa.Column("players", sa.Integer, nullable=False, server_default="2"))
        batch.add_column(sa.Column("options", sa.JSON))
        batch.add_column(sa.Column("deal", sa.JSON))
        batch.add_column(sa.Column("to_act", sa.JSON))
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_actions_game_number"),
    )
    op.create_index("ix_actions_game_id", "actions", ["game_id"])
    op.create_table(
        "drafts",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("data", sa.JSON),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    _convert_rose_king_games()
    op.drop_table("moves")
    with op.batch_alter_table("games") as batch:
        for column in ("variant", "light", "show_draw_pile", "start_position", "turn_seat",
                       "pending_move"):  # fmt: skip
            batch.drop_column(column)
        batch.alter_column("options", existing_type=sa.JSON, nullable=False)
        batch.alter_column("deal", existing_type=sa.JSON, nullable=False)
        batch.alter_column("to_act", existing_type=sa.JSON, nullable=False)
        batch.alter_column("game", existing_type=sa.String(24), server_default=None)
        batch.alter_column("players", existing_type=sa.Integer, server_default=None)


def _convert_rose_king_games() -> None:
    """Each game's deal and options from its old columns, its moves into actions.

    Passes are left out: the game makes them itself after the action that forces them
    (RK-11, RK-17). In Light games (RK-19) each stored play is followed by its "end-turn",
    and a play still waiting for "End turn" becomes the seat's last action. Every converted
    action counts as made at the game's current version, so a tab opened before the upgrade
    must reload before it can act.
    """
    connection = op.get_bind()
    for game in connection.execute(sa.select(_old_games)).mappings().all():
        players = 4 if game["variant"] == "four-player" else 2
        options = {
            "random_start": game["variant"] == "random-start",
            "light": bool(game["light"]),
            "show_draw_pile": bool(game["show_draw_pile"]),
        }
        waiting_for = game["turn_seat"] if game["status"] == "active" else None
        connection.execute(
            sa.update(_old_games)
            .where(_old_games.c.id == game["id"])
            .values(
                players=players,
                options=options,
                deal={"position": game["start_position"], "seed": game["seed"]},
                to_act=[] if waiting_for is None else [waiting_for],
            )
        )
        moves = connection.execute(
            sa.select(_moves).where(_moves.c.game_id == game["id"]).order_by(_moves.c.ply)
        ).mappings()
        actions = []
        for move in moves:
            if move["move"] == "pass":
                continue
            action = {"seat": move["seat"], "created_at": move["created_at"]}
            actions.append({**action, "action": move["move"]})
            if options["light"] and move["move"] != "draw":  # a stored Light play was ended
                actions.append({**action, "action": "end-turn"})
        if game["pending_move"] is not None and waiting_for is not None:
            actions.append({"seat": waiting_for, "action": game["pending_move"],
                            "created_at": sa.func.now()})  # fmt: skip
        for number, action in enumerate(actions):
            connection.execute(
                sa.insert(_actions).values(
                    game_id=game["id"], number=number, version=game["version"], **action
                )
            )


def downgrade() -> None:
    connection = op.get_bind()
    if connection.execute(sa.select(sa.func.count()).select_from(_old_games)).scalar():
        raise RuntimeError(
            "games were played since this version: downgrading would lose them; "
            "restore a backup taken before the upgrade instead"
        )
    op.drop_table("drafts")
    op.drop_index("ix_actions_game_id", "actions")
    op.drop_table("actions")
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
    with op.batch_alter_table("games") as batch:
        for column in ("game", "players", "options", "deal", "to_act"):
            batch.drop_column(column)
        batch.add_column(sa.Column("variant", sa.String(16), nullable=False))
        batch.add_column(sa.Column("light", sa.Boolean, nullable=False))
        batch.add_column(sa.Column("show_draw_pile", sa.Boolean, nullable=False))
        batch.add_column(sa.Column("start_position", sa.Text, nullable=False))
        batch.add_column(sa.Column("turn_seat", sa.Integer))
        batch.add_column(sa.Column("pending_move", sa.String(8)))
