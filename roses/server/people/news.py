"""What the people pages hear live: a private message, a change of someone's follows, on
the lobby socket every page of a signed-in person keeps open; to the other server
processes' sockets through the relay."""

from __future__ import annotations

from typing import Any

from ..services import Services

PEOPLE = "people"  # the relay's news: ``{"to": [user ids], "message": {...}}``


def tell(app: Services, user_ids: set[int], message: dict[str, Any]) -> None:
    """``message`` to every open page of these accounts, in every process."""
    app.hub.notify_lobbies(user_ids, message)
    if app.relay is not None:
        app.relay.publish_account({PEOPLE: {"to": sorted(user_ids), "message": message}})


async def heard(app: Services, news: dict[str, Any]) -> None:
    """News from another process (``relay.on_account``)."""
    if PEOPLE in news:
        app.hub.notify_lobbies({int(i) for i in news[PEOPLE]["to"]}, news[PEOPLE]["message"])
