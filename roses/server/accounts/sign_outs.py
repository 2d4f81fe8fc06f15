"""What happens to an account that every server process must honour at once.

A session signed out: each process forgets who its cookie was and closes its sockets, so
that no socket opened in another process moves on after signing out. An account changed
(a guest registered, a language chosen): each process forgets its copy of that session's
user, and reads again the games that show its name. This process does it at once; the
others hear of it through the relay (``RedisRelay.publish_account``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..services import Services

ENDED = "ended"  # a session signed out: its token hash
CHANGED = "changed"  # a session whose user changed: its token hash
GAMES = "games"  # the games that show the changed user's name


def session_ended(app: Services, token_hash: str) -> None:
    """Signing out: the session is forgotten and its sockets closed, in every process."""
    _forget(app, {ENDED: token_hash})
    _publish(app, {ENDED: token_hash})


def account_changed(app: Services, token_hash: str, game_ids: Iterable[int] = ()) -> None:
    """The user of ``token_hash`` changed: the other processes read it again, and the games
    in ``game_ids`` (this process updates its own copies itself)."""
    _publish(app, {CHANGED: token_hash, GAMES: list(game_ids)})


async def heard(app: Services, news: dict[str, Any]) -> None:
    """News of an account from another process."""
    _forget(app, news)


def _forget(app: Services, news: dict[str, Any]) -> None:
    if ENDED in news:
        app.signed_in.forget(str(news[ENDED]))
        app.hub.close_session(str(news[ENDED]))
    if CHANGED in news:
        app.signed_in.forget(str(news[CHANGED]))
        for game_id in news.get(GAMES, ()):
            app.games.evict(int(game_id))


def _publish(app: Services, news: dict[str, Any]) -> None:
    if app.relay is not None:
        app.relay.publish_account(news)
