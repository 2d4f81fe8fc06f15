"""What the pages and the API say of a tournament: its settings, entrants, pairings, results
and standings. Who plays whom and how each game ended (its ranks), never anything of a
game's state: the games themselves are read through their own views."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..db.models import User, as_utc
from . import bans, journal
from .entries import Conditions
from .formats import FORMATS
from .store import Entry, Tournament, TournamentEvent, TournamentStatus, entries_of, games_of


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat()


def _ends_at(tournament: Tournament) -> str | None:
    ends_at = tournament.config.get("ends_at")
    return None if ends_at is None else datetime.fromtimestamp(float(ends_at), UTC).isoformat()


def summary(tournament: Tournament, entrants: int, round_: int) -> dict[str, Any]:
    """A tournament's line in the lists."""
    return {
        "id": tournament.id,
        "name": tournament.name,
        "format": tournament.format,
        "game": tournament.game,
        "players_per_table": tournament.players_per_table,
        "rated": tournament.rated,
        "time_control": tournament.time_control,
        "starts_at": _iso(tournament.starts_at),
        "ends_at": _ends_at(tournament),
        "status": tournament.status,
        "version": tournament.version,
        "entered": entrants,
        "round": round_,
        "rounds": tournament.config.get("rounds"),
    }


def listing(db: Session) -> dict[str, list[dict[str, Any]]]:
    """The open and running tournaments (soonest first), and the latest finished ones."""
    counted = (
        select(Entry.tournament_id, func.count())
        .where(Entry.withdrawn.is_(False))
        .group_by(Entry.tournament_id)
    )
    counts = {tournament_id: count for tournament_id, count in db.execute(counted)}
    last_rounds = select(TournamentEvent.tournament_id, func.max(TournamentEvent.round)).group_by(
        TournamentEvent.tournament_id
    )
    rounds = {tournament_id: last for tournament_id, last in db.execute(last_rounds)}

    def lines(statuses: tuple[TournamentStatus, ...], newest: bool) -> list[dict[str, Any]]:
        query = select(Tournament).where(Tournament.status.in_(statuses))
        order = Tournament.starts_at.desc() if newest else Tournament.starts_at
        return [
            summary(t, counts.get(t.id, 0), rounds.get(t.id) or 0)
            for t in db.scalars(query.order_by(order, Tournament.id).limit(50))
        ]

    return {
        "open": lines((TournamentStatus.OPEN,), newest=False),
        "running": lines((TournamentStatus.RUNNING,), newest=False),
        "finished": lines((TournamentStatus.FINISHED, TournamentStatus.CANCELLED), newest=True),
    }


def tournament_view(
    db: Session, tournament: Tournament, user: User, now: datetime
) -> dict[str, Any]:
    """One tournament as its page shows it to ``user``."""
    state = journal.state(db, tournament)
    format_ = FORMATS[tournament.format]
    entries = entries_of(db, tournament.id)
    mine = next((entry for entry in entries if entry.user_id == user.id), None)
    game_ids = {(link.round, link.table): link.game_id for link in games_of(db, tournament.id)}
    conditions = Conditions.from_json(tournament.conditions)
    organiser = db.get(User, tournament.created_by)
    barred = bans.barred_until(db, user.id, now)
    return {
        **summary(
            tournament,
            sum(not entry.withdrawn for entry in entries),
            state.rounds_started,
        ),
        "options": tournament.options,
        "vacation": tournament.vacation,
        "rounds": format_.rounds_total(state),
        "late_join_until_round": state.config.late_join_until_round,
        "organiser": organiser.name if organiser else None,
        "conditions": {
            "min_rating": conditions.min_rating,
            "max_rating": conditions.max_rating,
            "min_games": conditions.min_games,
            "friends_only": conditions.friends_only,
            "invitation": conditions.invited is not None,
        },
        "entrants": [
            {
                "player": entry.id,
                "name": entry.name,
                "bot": entry.bot_name is not None,
                "bot_name": entry.bot_name,  # a bot of the game (the page names it in words)
                "strength": entry.bot_strength,
                "withdrawn": entry.withdrawn,
                "rating": round(state.entrants[entry.id].rating)
                if entry.id in state.entrants
                else None,
            }
            for entry in entries
        ],
        "standings": [row.to_json() for row in format_.standings(state)],
        "pairings": [
            {
                "round": started.round,
                "tables": [
                    {
                        "table": index,
                        "game_id": game_ids.get((started.round, index)),
                        "seats": list(table.seats),
                        "ranks": (
                            None
                            if (game := state.games[(started.round, index)]).ranks is None
                            else list(game.ranks)
                        ),
                    }
                    for index, table in enumerate(started.tables)
                ],
                "byes": list(started.byes),
            }
            for started in state.rounds
        ],
        "you": {
            "player": None if mine is None else mine.id,
            "entered": mine is not None and not mine.withdrawn,
            "withdrawn": mine is not None and mine.withdrawn,
            "organiser": tournament.created_by == user.id,
            "may_enter": mine is None
            and tournament.status in (TournamentStatus.OPEN, TournamentStatus.RUNNING)
            and state.may_join,
            "barred_until": None if barred is None else barred.isoformat(),
        },
    }
