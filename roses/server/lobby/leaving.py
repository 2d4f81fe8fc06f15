"""Leaving a game before it starts: a player gives up the seat they took (abandon), or an
invited player declines the invitation. The creator calls a waiting game off with cancel.

A seat given up becomes open to anyone in a public game (one that had a seat open to
anyone). In a private game, where the creator chose every player by name, it is not handed
to strangers: the game is cancelled, and its creator may invite someone else afresh.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..db import store
from ..db.models import Game, GameStatus, Seat, User
from ..errors import Conflict, NotFound
from ..i18n import _


def _waiting_game(db: Session, game_id: int) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(_("there is no game {id}", id=game_id))
    if game.status != GameStatus.WAITING:
        raise Conflict(_("the game has started: resign instead"))
    return game


def _is_public(game: Game) -> bool:
    """A seat was open to anyone: neither the creator's, a bot's, nor kept for a name."""
    return any(
        seat.user_id != game.created_by and seat.bot_name is None and seat.invited_user_id is None
        for seat in game.seats
    )


def _give_up(db: Session, game: Game, seat: Seat) -> Game:
    store.drop_draft(db, game.id, seat.seat)  # the seat's next player starts afresh
    if _is_public(game):
        store.claim(db, game)
        seat.user_id = seat.invited_user_id = None
    else:
        store.claim(db, game, status=GameStatus.CANCELLED)
    return game


def leave_game(db: Session, user: User, game_id: int) -> Game:
    game = _waiting_game(db, game_id)
    seat = next((s for s in game.seats if s.user_id == user.id), None)
    if seat is None:
        raise Conflict(_("you have no seat in this game to leave"))
    if game.created_by == user.id:
        raise Conflict(_("you created this game: cancel it instead"))
    return _give_up(db, game, seat)


def decline_invitation(db: Session, user: User, game_id: int) -> Game:
    game = _waiting_game(db, game_id)
    seat = next((s for s in game.seats if s.invited_user_id == user.id and s.user_id is None), None)
    if seat is None:
        raise Conflict(_("you have no invitation to this game waiting for an answer"))
    return _give_up(db, game, seat)
