"""WebSockets: each watcher of a game gets its own seat's view of every version, in order.

Messages are ``{"type": "game", "version": v, "game": view}``; a client that reconnects
says the version it has (``?version=v``) and gets the current view only if it is newer.
A player's page sends its moves on the same socket (``socket_moves``), and, while it is in
sight, ``{"type": "seen", "version": v}`` for the newest version it shows: a player who has
seen a turn is not told of it away from the site (``notify/reach.py``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from sqlalchemy import or_, update
from sqlalchemy.orm import Session, sessionmaker

from ..accounts import tokens, users
from ..accounts.signed_in import api_token_user
from ..db.models import GameStatus, Seat, User
from ..errors import ServiceError, Unavailable, as_sentence
from ..http.schemas import GameId
from ..i18n import use
from ..services import Services, services
from . import socket_moves
from .hub import Hub, Watcher, encode
from .live_games import LiveGame, LiveGames
from .views import game_view

router = APIRouter()
log = logging.getLogger(__name__)
UNAUTHORIZED = 4401  # WebSocket close codes 4000-4999 are the application's
FORBIDDEN = 4403
NOT_FOUND = 4404
TOO_MANY = 4429
TRY_AGAIN = 1013  # the game is moving between server processes: the page reconnects


def announce(app: Services, live: LiveGame, *, relayed: bool = False) -> None:
    """After a change (under the game's lock): views to this process's watchers, a note to
    the players' lobbies, the bots, and the other server processes; ``relayed``: another
    process made the change, started its bots and told the others already."""
    hub: Hub = app.hub
    # One encoding per seat (or spectator) of this version, shared by all their sockets: the
    # envelope differs between viewers only by the seat and by "created_by_you".
    encoded: dict[tuple[int | None, bool], str] = {}
    for watcher in hub.game_watchers(live.id):
        if watcher.version < live.version:
            viewer = (live.seat_of(watcher.user_id), live.created_by == watcher.user_id)
            text = encoded.get(viewer)
            if text is None:
                try:
                    text = encoded[viewer] = encode(game_message(live, watcher.user_id))
                except Exception:  # one viewer's broken view must not stop the others
                    log.exception("game %d: the view for user %d failed", live.id, watcher.user_id)
                    watcher.close()
                    continue
            watcher.send_version(live.version, text)
    hub.notify_lobbies(live.people(), {"type": "lobby", "game_id": live.id})
    if live.status in (GameStatus.WAITING, GameStatus.CANCELLED) or (
        live.status == GameStatus.ACTIVE and live.actions == 0
    ):
        # Created, joined, left, started or called off: everyone's list of open games and
        # of games being played may have changed.
        hub.notify_all_lobbies({"type": "open-games"})
    app.timeouts.arm(live)  # its clocks' next moment (or none)
    owners = app.games.owners
    if live.status == GameStatus.FINISHED:
        app.bots.game_over(live.id)  # its bots, wherever the game was ended
        owners.finished(live.id)
    if not relayed or owners.exclusive:  # with owners, the owner's bots (``BotRunner.poke``)
        app.bots.poke(live)
    if relayed:
        return
    if app.relay is not None:
        change = live.last_change
        if change is not None and change.based_on + 1 != live.version:
            change = None  # not the change that made this version
        people = live.people()
        # With owners, an action goes only where the game's sockets or its players' lobbies
        # are (no other process holds the game); the rest, rarer, to every process.
        to = app.hub.processes_for(live.id, people) if owners.exclusive and change else None
        app.relay.publish(live.id, live.version, change, people, to=to)


class Announcer:
    """What the live games tell reaches the sockets, the bots, the clocks and the relay."""

    def __init__(self, app: Services) -> None:
        self.app = app

    def changed(self, live: LiveGame, *, relayed: bool) -> None:
        announce(self.app, live, relayed=relayed)

    def loaded(self, live: LiveGame) -> None:
        self.app.bots.poke(live)
        self.app.timeouts.arm(live)

    def watched(self, game_id: int) -> bool:
        return bool(self.app.hub.game_watchers(game_id))

    def passed(self, game_id: int, people: Sequence[int]) -> None:
        self.app.hub.notify_lobbies(set(people), {"type": "lobby", "game_id": game_id})


def game_message(live: LiveGame, user_id: int) -> dict[str, Any]:
    return {"type": "game", "version": live.version, "game": game_view(live, user_id)}


def _user(sessions: sessionmaker[Session], token: str | None) -> User | None:
    with sessions() as db:
        return users.user_for_token(db, token)


def _same_origin(socket: WebSocket) -> bool:
    """Browsers send cookies on WebSocket handshakes from other origins: refuse those."""
    origin = socket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == socket.headers.get("host")


@dataclass(frozen=True)
class SocketUser:
    user: User
    session: str  # the session's or the API token's hash: signing out or revoking closes it
    may_play: bool  # a session, or a token with the play scope


async def _signed_in(socket: WebSocket) -> SocketUser | None:
    """The socket's user, from the session cookie or (a program's) ``Authorization: Bearer``
    API token; None once the socket is closed with the reason."""
    if not _same_origin(socket):
        await socket.close(code=FORBIDDEN, reason="another site's page may not watch games")
        return None
    token = socket.cookies.get(users.SESSION_COOKIE)
    api_token = None if token else tokens.bearer(socket.headers.get("authorization"))
    if api_token is not None:
        try:
            signed = await api_token_user(socket.app, api_token)
        except ServiceError as error:
            await socket.close(code=UNAUTHORIZED, reason=as_sentence(error.message))
            return None
        found = SocketUser(signed.user, signed.token_hash, tokens.Scope.PLAY in signed.scopes)
    else:
        user = await asyncio.to_thread(_user, services(socket).sessions, token)
        if user is None or token is None:
            await socket.close(code=UNAUTHORIZED, reason="sign in first")
            return None
        found = SocketUser(user, users.token_hash(token), may_play=True)
    if found.user.language:  # the replies to moves in the account's language, as the API's
        use(found.user.language)
    return found


MoveHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
SeenHandler = Callable[[int], Awaitable[None]]


def seen_version(text: str) -> int | None:
    """The version a ``seen`` frame reports; None for any other frame."""
    if '"seen"' not in text:  # most frames are not: no JSON parsing for them
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("type") != "seen":
        return None
    version = message.get("version")
    return version if type(version) is int else None


def _mark_seen(sessions: sessionmaker[Session], game_id: int, user_id: int, version: int) -> None:
    """The person's seat in the game has been seen at ``version`` (never moved back)."""
    with sessions.begin() as db:
        db.execute(
            update(Seat)
            .where(Seat.game_id == game_id, Seat.user_id == user_id)
            .where(or_(Seat.seen_version.is_(None), Seat.seen_version < version))
            .values(seen_version=version)
        )


async def _serve(
    socket: WebSocket,
    watcher: Watcher,
    on_move: MoveHandler | None = None,
    on_seen: SeenHandler | None = None,
) -> None:
    """Send the watcher's queue until the client leaves. A move message (on a game's socket)
    is handed to ``on_move`` and its reply queued after the views it caused, a seen one to
    ``on_seen``; whatever else the client sends (text or binary) is ignored: it only tells
    that it is still there."""

    async def listen() -> None:
        while (message := await socket.receive())["type"] != "websocket.disconnect":
            text = message.get("text")
            if text is None:
                continue
            if on_seen is not None and (seen := seen_version(text)) is not None:
                await on_seen(seen)
                continue
            if on_move is None:
                continue
            try:
                move = socket_moves.parse(text)
            except socket_moves.FrameTooDeep:
                watcher.send(socket_moves.too_deep_answer())
                continue
            if move is not None:
                watcher.send(await on_move(move))
        watcher.close()

    listener = asyncio.get_running_loop().create_task(listen())
    try:
        await watcher.pump()
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)
    if socket.client_state.name == "CONNECTED":
        await socket.close()


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(socket: WebSocket, game_id: GameId, version: int | None = None) -> None:
    """Sends the game as my seat sees it now (unless I have ``version`` already), then
    every newer version."""
    await socket.accept()
    signed_in = await _signed_in(socket)
    if signed_in is None:
        return
    user, session = signed_in.user, signed_in.session
    games: LiveGames = services(socket).games
    hub: Hub = services(socket).hub
    try:
        # A game's sockets sit where its moves are made: on its owner.
        live = await games.locked_as_owner(game_id, take_over=True)
    except Unavailable as error:
        await socket.close(code=TRY_AGAIN, reason=error.message)
        return
    except ServiceError as error:
        await socket.close(code=NOT_FOUND, reason=error.message)
        return
    watcher = Watcher(socket, user.id, session)
    try:  # registered under the lock, once its first view is queued: no version can slip in
        refusal = hub.refusal(watcher)
        if refusal is None:
            watcher.version = -1 if version is None else version
            if watcher.version < live.version:
                watcher.send_version(live.version, encode(game_message(live, user.id)))
            hub.watch_game(game_id, watcher)
    finally:
        live.lock.release()
    if refusal is not None:
        await socket.close(code=TOO_MANY, reason=refusal)
        return
    limiter = services(socket).limiter

    def on_move(message: dict[str, Any]) -> Awaitable[dict[str, Any]]:
        if not signed_in.may_play:
            return socket_moves.refused(message, tokens.read_only())
        return socket_moves.handle(games, limiter, game_id, user.id, message)

    reported = -1

    async def on_seen(version: int) -> None:
        nonlocal reported
        shown = min(version, watcher.version)  # no more than this socket was sent
        if shown <= reported:  # a spectator's frames change nothing either (no seat)
            return
        reported = shown
        await asyncio.to_thread(_mark_seen, services(socket).sessions, game_id, user.id, shown)

    try:
        await _serve(socket, watcher, on_move, on_seen)
    finally:
        hub.unwatch_game(game_id, watcher)


@router.websocket("/api/lobby/ws")
async def lobby_socket(socket: WebSocket) -> None:
    """Sends ``{"type": "lobby", "game_id": n}`` whenever one of my games changes."""
    await socket.accept()
    signed_in = await _signed_in(socket)
    if signed_in is None:
        return
    user, session = signed_in.user, signed_in.session
    hub: Hub = services(socket).hub
    watcher = Watcher(socket, user.id, session)
    refusal = hub.refusal(watcher)
    if refusal is not None:
        await socket.close(code=TOO_MANY, reason=refusal)
        return
    hub.watch_lobby(watcher)
    watcher.send({"type": "hello", "user": user.name})
    try:
        await _serve(socket, watcher)
    finally:
        hub.unwatch_lobby(watcher)
