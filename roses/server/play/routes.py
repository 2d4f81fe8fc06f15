"""The games API, for every game in ``roses.games``: views, actions, drafts, replays and
records, resigning, and table talk. Each action goes through the game's writer
(``LiveGames``): one at a time, one transaction, then live updates."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from roses.games import JSON, Forfeit, Outcome
from roses.games.base import TableTalk, TimeoutRule

from ..accounts.signed_in import CurrentUser
from ..clocks.time_control import claimable, server_time
from ..db.models import GameStatus, User
from ..errors import Conflict, Forbidden, Unprocessable, as_sentence
from ..http.schemas import (
    ERROR_ANSWERS,
    ChatLine,
    ChatMessageOut,
    ChatOut,
    DraftRequest,
    GameId,
    MoveRequest,
    Mutes,
    NameInPath,
    Phrase,
    Versioned,
)
from ..i18n import _
from ..services import services
from . import chat, courtesy, notes, table
from .live_games import LiveGame, lost_on_time
from .service import in_transaction, read_db, view_response
from .views import game_view, summary

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)
# The route every POSTed move takes, on a router of its own that the app includes first:
# routes are tried one by one, and behind the accounts' and the lobby's some 34 paths were
# tested on each move (a fifth of its CPU). No other route takes its method and path.
moves = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


async def _act(
    request: Request, user: User, game_id: int, action: JSON, version: int
) -> JSONResponse:
    def my_seat(live: LiveGame) -> int:
        seat = live.seat_of(user.id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        return seat

    services(request).limiter.count_move(user.id)  # with the moves on its sockets
    live = await services(request).games.act(game_id, my_seat, action, version)
    return view_response(live, user.id)


@router.get("/games/{game_id}", tags=["play"])
async def get_game(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """The game as my seat sees it (a spectator's view if I have no seat)."""
    return view_response(await services(request).games.get(game_id), user.id)


@router.get("/games/{game_id}/materials", tags=["play"])
async def materials(game_id: GameId, user: CurrentUser, request: Request) -> dict[str, Any]:
    """The public components the page draws with (a map, card texts); they never change."""
    live = await services(request).games.get(game_id)
    return live.module.materials(live.players, live.options)


@moves.post("/games/{game_id}/moves", tags=["play"])
async def move(
    game_id: GameId, body: MoveRequest, user: CurrentUser, request: Request
) -> JSONResponse:
    """Make my seat's decision: The Rose King a card (`N2`), a hero with a card (`N2h`) or
    `draw` (RK-8..RK-10, RK-22); Wars of the Roses an object (a pick, French Aid, orders).

    409 with the reason for an illegal action or a stale `version`; nothing changes then.
    """
    return await _act(request, user, game_id, body.move, body.version)


@router.post("/games/{game_id}/undo", tags=["play"])
async def undo(
    game_id: GameId, body: Versioned, user: CurrentUser, request: Request
) -> JSONResponse:
    """Take back the play made this turn (The Rose King Light games, RK-19; never a draw)."""
    return await _act(request, user, game_id, "undo", body.version)


@router.post("/games/{game_id}/end-turn", tags=["play"])
async def end_turn(
    game_id: GameId, body: Versioned, user: CurrentUser, request: Request
) -> JSONResponse:
    """Make the play of this turn final (The Rose King Light games, RK-19)."""
    return await _act(request, user, game_id, "end-turn", body.version)


@router.put("/games/{game_id}/draft", tags=["play"])
async def save_draft(
    game_id: GameId, body: DraftRequest, user: CurrentUser, request: Request
) -> dict[str, JSON]:
    """Keep my seat's private draft (e.g. a plan not yet sealed). Nobody else ever sees it,
    nor when or how often it changes: it does not change the game's version. The answer is
    the game's preview of the draft for my seat (e.g. a plan's cost), or null."""
    size = len(json.dumps(body.draft))
    if size > services(request).settings.draft_bytes:
        raise Unprocessable(
            "draft",
            _(
                "the draft is {size} bytes; at most {most} are kept",
                size=size,
                most=services(request).settings.draft_bytes,
            ),
        )
    preview = await services(request).games.save_draft(game_id, user.id, body.draft)
    return {"preview": preview}


@router.get("/games/{game_id}/replay", tags=["play"])
async def replay(game_id: GameId, user: CurrentUser, request: Request) -> dict[str, Any]:
    """Every state of the game action by action, as my seat may see each (all, once over)."""
    live = await services(request).games.get(game_id)
    seat = None if live.status == GameStatus.FINISHED else live.seat_of(user.id)
    return {"game": summary(live, user.id), "frames": live.module.replay(live.played(), seat)}


@router.get("/games/{game_id}/record", tags=["play"])
async def record(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """The game record (the engine's format, with the deal): only once the game is over."""
    live = await services(request).games.get(game_id)
    if live.status != GameStatus.FINISHED:
        raise Conflict(_("the record holds the deal's secrets: it is ready when the game is over"))
    names = [seat.player or f"bot:{seat.bot}" for seat in live.seats]
    return JSONResponse(
        live.module.record(live.played(), names),
        headers={
            "Content-Disposition": f'attachment; filename="{live.module.name}-{game_id}.json"'
        },
    )


@router.post("/games/{game_id}/resign", tags=["play"])
async def resign(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Give up a game being played: it ends at once and my seat (in the Rose King team game,
    my team) ranks last; the game's own rule ranks the others."""

    def outcome(live: LiveGame) -> Outcome:
        seat = live.seat_of(user.id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        return live.module.forfeit(live.state, live.players, seat, Forfeit.RESIGNATION)

    live = await services(request).games.finish(game_id, outcome)
    return JSONResponse(game_view(live, user.id))


@router.get("/games/{game_id}/chat", tags=["chat"])
async def read_chat(game_id: GameId, user: CurrentUser, request: Request) -> ChatOut:
    """The game's latest messages I may read, oldest first (not those of players I muted),
    and what I may write now: the players' room, or the spectators' (which the players read
    only once the game is over)."""
    live = await services(request).games.get(game_id)
    place = table.place(live, user.id)
    messages = await read_db(request, lambda db: chat.messages(db, game_id, user, place.reads))
    return ChatOut(
        messages=messages,
        room=place.room,
        talk=place.talk,
        may_write=place.refusal is None,
        refusal=None if place.refusal is None else as_sentence(place.refusal),
        phrases=[Phrase(**phrase) for phrase in courtesy.offered()],
    )


def _said(body: ChatLine, place: table.Place) -> tuple[str, str | None]:
    """The text and the phrase of ``body`` if ``place`` may say it now, or the refusal."""
    if (body.text is None) == (body.phrase is None):
        raise Unprocessable("text", _("send either a text or a phrase"))
    if body.phrase is not None:
        phrase = courtesy.checked(body.phrase)
        if place.talk is TableTalk.CLOSED and place.refusal is not None:
            raise Conflict(place.refusal)
        return "", phrase
    text = (body.text or "").strip()
    if not text:
        raise Unprocessable("text", _("the message is empty"))
    if place.refusal is not None:
        raise Conflict(place.refusal)
    return text, None


@router.post("/games/{game_id}/chat", status_code=201, tags=["chat"])
async def write_chat(
    game_id: GameId, body: ChatLine, user: CurrentUser, request: Request
) -> ChatMessageOut:
    """Say something at the table: free ``text``, or a courtesy ``phrase`` (only a phrase
    while the game's rules forbid the players to discuss it). Those who may read my room
    receive ``{"type": "chat", "game_id": n, "message": {id, player, room, phrase, text,
    at}}`` on its socket (a phrase in each reader's language), except those who muted me."""
    live = await services(request).games.get(game_id)
    place = table.place(live, user.id)
    text, phrase = _said(body, place)
    services(request).limiter.hit(
        "chat_messages_per_account", str(user.id), "you are writing faster than the table reads"
    )
    message = await in_transaction(
        request, lambda db: chat.add(db, game_id, user, place.room, text=text, phrase=phrase)
    )
    note = {
        "type": "chat",
        "game_id": game_id,
        "message": message,
        notes.AUTHOR: user.id,
        notes.KEPT_FROM: table.kept_from(live, place.room),
    }
    await notes.tell(services(request), game_id, note)
    return ChatMessageOut(**message)


@router.get("/chat/mutes", tags=["chat"])
async def mutes(user: CurrentUser, request: Request) -> Mutes:
    """The players whose messages I do not see."""
    return Mutes(muted=await read_db(request, lambda db: chat.muted_names(db, user)))


@router.put("/chat/mutes/{name}", status_code=204, tags=["chat"])
async def mute(name: NameInPath, user: CurrentUser, request: Request) -> Response:
    """Stop seeing what ``name`` writes, at every table (only for me)."""
    await in_transaction(request, lambda db: chat.mute(db, user, name))
    return Response(status_code=204)


@router.delete("/chat/mutes/{name}", status_code=204, tags=["chat"])
async def unmute(name: NameInPath, user: CurrentUser, request: Request) -> Response:
    """See what ``name`` writes again."""
    await in_transaction(request, lambda db: chat.unmute(db, user, name))
    return Response(status_code=204)


@router.post("/games/{game_id}/claim-timeout", tags=["play"])
async def claim_timeout(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Claim the win because an opponent's correspondence deadline has passed: the game
    ends at once and that opponent loses on time (rated games are rated as for any loss).
    Only where the game's rule lets the opponents claim (two-player correspondence games;
    a live clock ends the game by itself, and in a team or 3-4 player game a stand-in
    moves for the absent player). 409, naming the deadline, before it has passed; the
    player may also just go on waiting for the move."""

    def outcome(live: LiveGame) -> Outcome:
        seat = live.seat_of(user.id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        if live.time_control is None:
            raise Conflict(_("this game has no time limit: there is nothing to claim"))
        if live.timeout_rule is not TimeoutRule.CLAIM:
            raise Conflict(
                _(
                    "in this game nobody claims a win on time: a live clock that runs out "
                    "ends the game by itself"
                )
                if live.time_control.live
                else _(
                    "in this game nobody claims a win on time: a stand-in moves for a player "
                    "whose deadline passed"
                )
            )
        now = server_time()
        late, claimers = claimable(
            live.timeout_rule, live.clocks, live.module.teams(live.players), now
        )
        if late is None:
            raise Conflict(_not_yet(live, seat))
        if seat not in claimers:
            raise Conflict(_("your own deadline has passed: only your opponent may claim the win"))
        return lost_on_time(live, late.seat)

    live = await services(request).games.finish(game_id, outcome)
    return JSONResponse(game_view(live, user.id))


def _not_yet(live: LiveGame, seat: int) -> str:
    """Why a claim comes too early: whose deadline is when."""
    waiting = [c for c in live.clocks or [] if c.deadline is not None and c.seat != seat]
    if not waiting:
        return _("no opponent's deadline is running: it is your move")
    first = min(waiting, key=lambda c: c.deadline or server_time())
    assert first.deadline is not None
    when = first.deadline.strftime("%Y-%m-%d %H:%M UTC")
    return _(
        "{seat}'s deadline has not passed yet: you may claim the win once it has, at {when}",
        seat=_(live.seats[first.seat].label),
        when=when,
    )
