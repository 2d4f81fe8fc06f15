"""Around the board: resign, leave or decline a game, rematches, table talk, and the list
of games being played now (for spectators). Games are changed through their writer or,
before they start, in one transaction followed by the usual announcement."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roses.games import Forfeit, Outcome

from ..db.models import Game, User
from ..db.store import ACTIVE, CANCELLED, offered
from ..errors import Conflict, Forbidden, Unprocessable
from ..http.deps import CurrentUser
from ..http.quotas import limiter_of
from ..http.schemas import (
    ERROR_ANSWERS,
    ChatLine,
    ChatMessageOut,
    ChatOut,
    GameId,
    Mutes,
    NowPlaying,
    RematchOffer,
)
from ..i18n import _
from ..play import chat, notes
from ..play.live_games import GameHeader, LiveGame
from ..play.routes import _announce_and_view, _games, _in_transaction
from ..play.views import game_view, summary
from . import leaving, rematch
from .expiry import checks, expired_first


@asynccontextmanager
async def _running(app: FastAPI) -> AsyncIterator[None]:
    """While the server runs: notes from the other server processes reach this one's
    watchers, and open games expire."""
    if app.state.relay is not None:
        app.state.relay.on_note(functools.partial(notes.deliver, app))
    async with checks(app):
        yield


router = APIRouter(prefix="/api", responses=ERROR_ANSWERS, lifespan=_running)
PAGE_SIZE = 30
MutedName = Annotated[str, Path(min_length=2, max_length=24, description="a player's name")]


async def _read(request: Request, reading: Callable[[Session], Any]) -> Any:
    def run() -> Any:
        with request.app.state.sessions() as db:
            return reading(db)

    return await asyncio.to_thread(run)


# -- ending and leaving ---------------------------------------------------------------------


@router.post("/games/{game_id}/resign", tags=["play"])
async def resign(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Give up a game being played: it ends at once and my seat (in the Rose King team game,
    my team) ranks last; the game's own rule ranks the others."""

    def outcome(live: LiveGame) -> Outcome:
        seat = live.seat_of(user.id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        return live.module.forfeit(live.state, live.players, seat, Forfeit.RESIGNATION)

    live = await _games(request).finish(game_id, outcome)
    return JSONResponse(game_view(live, user.id))


@router.post("/games/{game_id}/leave", tags=["lobby"])
async def leave(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Abandon a game that has not started: give up the seat I took. In a public game the
    seat becomes open to anyone; in a private game (every player invited by name) the game
    is cancelled. Its creator cancels it instead (POST .../cancel)."""
    await _in_transaction(request, lambda db: leaving.leave_game(db, user, game_id))
    return await _announce_and_view(request, game_id, user)


@router.post("/games/{game_id}/decline", tags=["lobby"])
async def decline(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Decline my invitation to a game that has not started. In a public game (one with a
    seat open to anyone) the seat becomes open to anyone; in a private game (every player
    invited by name) the game is cancelled, since its creator chose the table, and may
    invite someone else in a new game."""
    await _in_transaction(request, lambda db: leaving.decline_invitation(db, user, game_id))
    return await _announce_and_view(request, game_id, user)


# -- rematches ------------------------------------------------------------------------------


@router.get("/games/{game_id}/rematch", tags=["play"])
async def rematch_offer(game_id: GameId, user: CurrentUser, request: Request) -> RematchOffer:
    """Who has offered or accepted a rematch of this game, whom it waits for, and the new
    game (``rematch``) once everyone accepted."""
    return RematchOffer(**await _read(request, lambda db: rematch.read(db, game_id)))


@router.post("/games/{game_id}/rematch", tags=["play"])
async def rematch_vote(game_id: GameId, user: CurrentUser, request: Request) -> RematchOffer:
    """Offer a rematch of a finished game, or accept the offer: once every player has
    (bots accept at once), a new game with the same options starts with the seats rotated
    by one (two players: swapped). Everyone watching the game is sent
    ``{"type": "rematch", "game_id": n, "rematch": <this answer>}``."""
    vote: rematch.Vote = await _in_transaction(request, lambda db: rematch.vote(db, user, game_id))
    if vote.counted:
        games = _games(request)
        await games.changed_elsewhere(game_id)  # the vote bumped its version
        if vote.started is not None:
            await games.changed_elsewhere(vote.started)  # its players' lobbies, its bots
        note = {"type": "rematch", "game_id": game_id, "rematch": vote.offer}
        await notes.tell(request.app, game_id, note)
    return RematchOffer(**vote.offer)


# -- table talk -----------------------------------------------------------------------------


@router.get("/games/{game_id}/chat", tags=["chat"])
async def read_chat(game_id: GameId, user: CurrentUser, request: Request) -> ChatOut:
    """The game's latest messages, oldest first (not those of players I muted), and whether
    I may write now."""
    live = await _games(request).get(game_id)
    messages = await _read(request, lambda db: chat.messages(db, game_id, user))
    return ChatOut(messages=messages, may_write=_refusal(live, user) is None)


def _refusal(live: LiveGame, user: User) -> str | None:
    """Why ``user`` may not write at this table now, or None."""
    if live.seat_of(user.id) is None:
        return _("only the players write here; spectators read")
    if live.status == CANCELLED:
        return _("the game was cancelled")
    if live.status == ACTIVE and not live.module.chat_allowed(live.state):
        return _("no table talk while plans are being made (WR-20): write once every plan is in")
    return None


@router.post("/games/{game_id}/chat", status_code=201, tags=["chat"])
async def write_chat(
    game_id: GameId, body: ChatLine, user: CurrentUser, request: Request
) -> ChatMessageOut:
    """Say something at the table (players only). Everyone watching the game receives
    ``{"type": "chat", "game_id": n, "message": {id, player, text, at}}`` on its socket,
    except those who muted me."""
    text = body.text.strip()
    if not text:
        raise Unprocessable("text", _("the message is empty"))
    live = await _games(request).get(game_id)
    refusal = _refusal(live, user)
    if refusal is not None:
        raise (Forbidden if live.seat_of(user.id) is None else Conflict)(refusal)
    limiter_of(request).hit(
        "chat_messages_per_account", str(user.id), "you are writing faster than the table reads"
    )
    message = await _in_transaction(request, lambda db: chat.add(db, game_id, user, text))
    note = {"type": "chat", "game_id": game_id, "message": message, notes.AUTHOR: user.id}
    await notes.tell(request.app, game_id, note)
    return ChatMessageOut(**message)


@router.get("/chat/mutes", tags=["chat"])
async def mutes(user: CurrentUser, request: Request) -> Mutes:
    """The players whose messages I do not see."""
    return Mutes(muted=await _read(request, lambda db: chat.muted_names(db, user)))


@router.put("/chat/mutes/{name}", status_code=204, tags=["chat"])
async def mute(name: MutedName, user: CurrentUser, request: Request) -> Response:
    """Stop seeing what ``name`` writes, at every table (only for me)."""
    await _in_transaction(request, lambda db: chat.mute(db, user, name))
    return Response(status_code=204)


@router.delete("/chat/mutes/{name}", status_code=204, tags=["chat"])
async def unmute(name: MutedName, user: CurrentUser, request: Request) -> Response:
    """See what ``name`` writes again."""
    await _in_transaction(request, lambda db: chat.unmute(db, user, name))
    return Response(status_code=204)


# -- spectators -----------------------------------------------------------------------------


@router.get("/now-playing", tags=["lobby"], dependencies=[Depends(expired_first)])
async def now_playing(
    user: CurrentUser,
    request: Request,
    page: int = Query(1, ge=1, le=10_000, description="1 for the latest games"),
) -> NowPlaying:
    """Games being played now, the latest turn first, a page at a time: their envelopes
    only (who plays, whose turn); open one to watch it as a spectator."""

    def read(db: Session) -> tuple[list[Game], int]:
        query = select(Game).where(Game.status == ACTIVE, offered())
        total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = db.scalars(
            query.order_by(Game.turn_since.desc(), Game.id.desc())
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE)
        )
        return list(rows), total

    games, total = await _read(request, read)
    return NowPlaying(
        games=[summary(GameHeader(game), user.id) for game in games],
        page=page,
        pages=max(1, -(-total // PAGE_SIZE)),
    )
