"""Follows and blocks between accounts. Following is one-way; two who follow each other are
friends. A block parts two people both ways (``accounts/blocks.py``): it ends both follows,
and while it stands neither appears in the other's lists, so the one blocked learns nothing
from them; the one who blocked may follow again only after unblocking."""

from __future__ import annotations

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session, aliased

from ..accounts import users
from ..accounts.blocks import estranged, parted
from ..db.models import Block, Follow, User
from ..errors import Conflict
from ..i18n import _


def other_person(db: Session, user: User, name: str) -> User:
    """The account named ``name``; NotFound, or Conflict if it is ``user``'s own."""
    return users.other_person(db, user, name, _("that is your own name"))


def follow(db: Session, user: User, name: str) -> User:
    other = other_person(db, user, name)
    if db.get(Block, (user.id, other.id)) is not None:
        raise Conflict(_("you blocked {name}: unblock them first", name=other.name))
    if db.get(Follow, (user.id, other.id)) is None:
        db.add(Follow(user_id=user.id, followed_id=other.id))
    return other


def unfollow(db: Session, user: User, name: str) -> User:
    other = other_person(db, user, name)
    db.execute(delete(Follow).where(Follow.user_id == user.id, Follow.followed_id == other.id))
    return other


def block(db: Session, user: User, name: str) -> User:
    """Block ``name``: the follows between the two end, both ways."""
    other = other_person(db, user, name)
    if db.get(Block, (user.id, other.id)) is None:
        db.add(Block(user_id=user.id, blocked_id=other.id))
    db.execute(
        delete(Follow).where(
            or_(
                (Follow.user_id == user.id) & (Follow.followed_id == other.id),
                (Follow.user_id == other.id) & (Follow.followed_id == user.id),
            )
        )
    )
    return other


def unblock(db: Session, user: User, name: str) -> User:
    other = other_person(db, user, name)
    db.execute(delete(Block).where(Block.user_id == user.id, Block.blocked_id == other.id))
    return other


def following(db: Session, user: User) -> list[User]:
    """Whom ``user`` follows (none parted from them by a block), by name."""
    query = (
        select(User)
        .join(Follow, Follow.followed_id == User.id)
        .where(Follow.user_id == user.id, User.id.not_in(estranged(user.id)))
    )
    return list(db.scalars(query.order_by(User.name)))


def followers(db: Session, user: User) -> list[User]:
    """Who follows ``user`` (none parted from them by a block), by name."""
    query = (
        select(User)
        .join(Follow, Follow.user_id == User.id)
        .where(Follow.followed_id == user.id, User.id.not_in(estranged(user.id)))
    )
    return list(db.scalars(query.order_by(User.name)))


def friends(db: Session, user: User) -> list[User]:
    """Those who follow ``user`` and whom ``user`` follows, by name."""
    back = aliased(Follow)
    query = (
        select(User)
        .join(Follow, Follow.followed_id == User.id)
        .join(back, (back.user_id == User.id) & (back.followed_id == user.id))
        .where(Follow.user_id == user.id, User.id.not_in(estranged(user.id)))
    )
    return list(db.scalars(query.order_by(User.name)))


def friend_ids(db: Session, user_id: int) -> set[int]:
    """The ids of ``user_id``'s friends."""
    back = aliased(Follow)
    query = (
        select(Follow.followed_id)
        .join(back, (back.user_id == Follow.followed_id) & (back.followed_id == user_id))
        .where(Follow.user_id == user_id, Follow.followed_id.not_in(estranged(user_id)))
    )
    return set(db.scalars(query))


def are_friends(db: Session, one: int, other: int) -> bool:
    both = select(Follow).where(
        or_(
            (Follow.user_id == one) & (Follow.followed_id == other),
            (Follow.user_id == other) & (Follow.followed_id == one),
        )
    )
    return len(list(db.scalars(both))) == 2 and not parted(db, one, other)


def blocked(db: Session, user: User) -> list[str]:
    """The names ``user`` blocked."""
    query = select(User.name).join(Block, Block.blocked_id == User.id)
    return list(db.scalars(query.where(Block.user_id == user.id).order_by(User.name)))
