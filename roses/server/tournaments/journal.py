"""A tournament's log in the database: its events read back into the pure formats' state
(``log.replay``), and new events appended, each numbered on from the last.

Whoever appends first claims the tournament (``store.claim``: its version bumped if nobody
changed it since it was read), so that two processes or requests never number two events
alike; a round's start and a game's result carry unique keys too (``store``)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .log import Event, TournamentConfig, TournamentState, event_from_json, replay
from .store import Tournament, TournamentEvent, claim, events_of


def config_of(tournament: Tournament) -> TournamentConfig:
    return TournamentConfig.from_json(tournament.config)


def events(db: Session, tournament: Tournament) -> list[Event]:
    return [event_from_json(row.data) for row in events_of(db, tournament.id)]


def state(db: Session, tournament: Tournament) -> TournamentState:
    return replay(config_of(tournament), events(db, tournament))


def lock(db: Session, tournament: Tournament) -> None:
    """Claim the tournament for this transaction (``Conflict`` if someone changed it)."""
    claim(db, tournament)


def append(
    db: Session,
    tournament: Tournament,
    event: Event,
    *,
    round: int | None = None,
    game_id: int | None = None,
) -> None:
    """Add ``event`` at the end of the log (the tournament claimed first by the caller)."""
    seq = db.scalar(
        select(func.count())
        .select_from(TournamentEvent)
        .where(TournamentEvent.tournament_id == tournament.id)
    )
    db.add(
        TournamentEvent(
            tournament_id=tournament.id,
            seq=int(seq or 0),
            kind=type(event).__name__,
            data=event.to_json(),
            round=round,
            game_id=game_id,
        )
    )
    db.flush()
