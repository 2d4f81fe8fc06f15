"""Who blocked whom. A block parts two people both ways: neither sees the other's open
games, invites the other, joins the other's games, reads the other at a table or writes to
the other; the one blocked is never told (refusals name no side). The lobby and the table
ask here; ``roses/server/people/`` keeps the list."""

from __future__ import annotations

from sqlalchemy import Select, or_, select, union
from sqlalchemy.orm import Session

from ..db.models import Block


def estranged(user_id: int) -> Select[tuple[int]]:
    """The ids of those ``user_id`` blocked or was blocked by (a subquery)."""
    blocked = select(Block.blocked_id).where(Block.user_id == user_id)
    blockers = select(Block.user_id).where(Block.blocked_id == user_id)
    return select(union(blocked, blockers).subquery().c[0])


def estranged_ids(db: Session, user_id: int) -> set[int]:
    return set(db.scalars(estranged(user_id)))


def parted(db: Session, one: int, other: int) -> bool:
    """Whether either of the two blocked the other."""
    query = select(Block.user_id).where(
        or_(
            (Block.user_id == one) & (Block.blocked_id == other),
            (Block.user_id == other) & (Block.blocked_id == one),
        )
    )
    return db.scalar(query.limit(1)) is not None
