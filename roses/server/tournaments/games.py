"""A tournament's games: each table of a round started as a game through the lobby's own
creating code (a fresh deal, the seats taken, the clocks started), linked to its round and
table; and each finished game's ranks read back as a ``GameFinished`` event."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roses.games import game_module

from ..db.models import Game, GameStatus, Seat
from ..lobby import creating, vacation
from . import bans, journal
from .log import GameFinished, RoundStarted
from .store import Entry, Tournament, TournamentEvent, TournamentGame


def start_round(db: Session, tournament: Tournament, round_started: RoundStarted) -> list[int]:
    """Append ``round_started`` (once: its round is a unique key) and start its games, in
    the caller's transaction; the new games' ids."""
    journal.append(db, tournament, round_started, round=round_started.round)
    module = game_module(tournament.game)
    entries = {
        entry.id: entry
        for entry in db.scalars(select(Entry).where(Entry.tournament_id == tournament.id))
    }
    started = []
    for index, table in enumerate(round_started.tables):
        game = creating.new_game(
            module, len(table.seats), dict(tournament.options), tournament.created_by
        )
        game.rated = tournament.rated
        # A tournament without vacations: its games' clocks never pause (lobby/vacation.py).
        no_pause = {} if tournament.vacation else {"vacation": False}
        game.time_control = {**tournament.time_control, **no_pause}
        for seat, player in enumerate(table.seats):
            entry = entries[player]
            game.seats.append(
                Seat(
                    seat=seat,
                    user_id=entry.user_id,
                    bot_name=entry.bot_name,
                    bot_strength=entry.bot_strength,
                )
            )
        creating.start_if_full(game, module)
        db.add(game)
        db.flush()
        vacation.pause_starting(db, game)  # an entrant away: their clock waits (if allowed)
        db.add(
            TournamentGame(
                game_id=game.id,
                tournament_id=tournament.id,
                round=round_started.round,
                table=index,
            )
        )
        started.append(game.id)
    db.flush()
    return started


def unrecorded_results(db: Session, tournament: Tournament) -> list[tuple[TournamentGame, Game]]:
    """The tournament's games that ended but are not yet in its log (a tournament's game
    starts with its seats taken: it is never called off)."""
    recorded = select(TournamentEvent.game_id).where(
        TournamentEvent.tournament_id == tournament.id, TournamentEvent.game_id.is_not(None)
    )
    query = (
        select(TournamentGame, Game)
        .join(Game, Game.id == TournamentGame.game_id)
        .where(
            TournamentGame.tournament_id == tournament.id,
            Game.status == GameStatus.FINISHED,
            TournamentGame.game_id.not_in(recorded),
        )
        .order_by(TournamentGame.round, TournamentGame.table)
    )
    return [(link, game) for link, game in db.execute(query)]


def record_result(
    db: Session, tournament: Tournament, link: TournamentGame, game: Game, now: datetime
) -> None:
    """Append the game's ranks (once: its id is a unique key) and note a timeout."""
    assert game.result is not None
    ranks = tuple(int(rank) for rank in game.result["ranks"])
    journal.append(db, tournament, GameFinished(link.round, link.table, ranks), game_id=game.id)
    bans.record(db, game, now)


def any_playing(db: Session, tournament: Tournament) -> bool:
    """Whether a game of the tournament is still being played (one query, no replay)."""
    query = (
        select(TournamentGame.game_id)
        .join(Game, Game.id == TournamentGame.game_id)
        .where(TournamentGame.tournament_id == tournament.id, Game.status == GameStatus.ACTIVE)
        .limit(1)
    )
    return db.scalar(query) is not None
