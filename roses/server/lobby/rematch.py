"""Rematches: any player of a finished game offers one, each other person accepts (bots
accept at once), and once all have, a new game with the same game and options starts with
the seats rotated by one (two players: swapped; in the Rose King team game each team keeps
its partners and changes colour).

Each vote bumps the finished game's version, guarded like every change: of two votes at
the same moment one is refused ("try again"), so the last vote starts the game exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from roses.games import game_module

from ..accounts import quotas
from ..db import store
from ..db.models import Game, GameStatus, Rematch, RematchVote, Seat, User
from ..errors import Conflict, Forbidden, NotFound
from ..i18n import _
from ..settings import Settings
from . import creating


def _finished_game(db: Session, game_id: int) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(_("there is no game {id}", id=game_id))
    return game


def state(db: Session, game: Game) -> dict[str, Any]:
    """Who wants the rematch, whom it waits for, and the new game once it started."""
    votes = set(db.scalars(select(RematchVote.user_id).where(RematchVote.game_id == game.id)))
    people = [seat.user for seat in game.seats if seat.user is not None]
    started = db.get(Rematch, game.id)
    return {
        "game_id": game.id,
        "accepted": [person.name for person in people if person.id in votes],
        "waiting_for": [person.name for person in people if person.id not in votes],
        "rematch": started.new_game_id if started else None,
    }


def read(db: Session, game_id: int) -> dict[str, Any]:
    return state(db, _finished_game(db, game_id))


@dataclass(frozen=True)
class Vote:
    offer: dict[str, Any]  # as it now stands
    counted: bool  # False: said before (or the rematch has started): nothing changed
    started: int | None  # the new game, if this vote started it


def vote(db: Session, limiter: quotas.Limiter, user: User, game_id: int) -> Vote:
    """``user`` wants a rematch. The new game counts against each player's quotas as a game
    they created or joined would: every vote is checked against the voter's, the vote that
    starts it against everyone's, and it counts as a game the last voter created."""
    game = _finished_game(db, game_id)
    if all(seat.user_id != user.id for seat in game.seats):
        raise Forbidden(_("only the game's players can offer or accept a rematch"))
    if game.status != GameStatus.FINISHED:
        raise Conflict(_("a rematch can be offered once the game is over"))
    said = db.get(RematchVote, (game.id, user.id)) is not None
    if said or db.get(Rematch, game.id) is not None:
        return Vote(state(db, game), counted=False, started=None)
    with_bots = any(seat.bot_name is not None for seat in game.seats)
    quotas.check_unfinished(db, limiter.settings, user, with_bots=with_bots)
    store.claim(db, game)
    db.add(RematchVote(game_id=game.id, user_id=user.id))
    db.flush()
    offer = state(db, game)
    if offer["waiting_for"]:
        return Vote(offer, counted=True, started=None)
    _check_the_others(db, limiter.settings, game, user, with_bots)
    quotas.count_new_game(limiter, user)
    new = _rotated(game, user)
    db.add(new)
    db.flush()
    db.add(Rematch(game_id=game.id, new_game_id=new.id))
    return Vote({**offer, "rematch": new.id}, counted=True, started=new.id)


def _check_the_others(
    db: Session, settings: Settings, game: Game, voter: User, with_bots: bool
) -> None:
    """TooMany naming the first other player who has no room for another unfinished game
    (each voted while they had, and may have taken other seats since)."""
    for seat in game.seats:
        person = seat.user
        if person is None or person.id == voter.id:
            continue
        if not quotas.has_room(db, settings, person, with_bots=with_bots):
            raise quotas.TooMany(
                _(
                    "{name} has no room for another unfinished game now: the rematch can "
                    "start once they finish or cancel one",
                    name=person.name,
                )
            )


def _rotated(game: Game, user: User) -> Game:
    """The same game, options and time limit (rated or casual), each player (or bot) one
    seat on."""
    module = game_module(game.game)
    new = creating.new_game(module, game.players, dict(game.options), user.id)
    new.rated = game.rated
    new.bot_accounts = game.bot_accounts
    new.time_control = game.time_control
    for index in range(game.players):
        old = game.seats[(index + 1) % game.players]
        new.seats.append(
            Seat(
                seat=index,
                user_id=old.user_id,
                bot_name=old.bot_name,
                bot_strength=old.bot_strength,
            )
        )
    creating.start_if_full(new, module)
    return new
