"""Who may enter a tournament, entering and withdrawing: each refusal a sentence that says
why, and nothing changed. The callers hold the tournament first (``held``). An entry is a
row (``store.Entry``, its id the player's number in the log) and a ``Joined`` event; a
withdrawal a ``Withdrew`` event."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..accounts.blocks import parted
from ..db.models import Game, GameStatus, PlayerRating, Seat, User, as_utc
from ..errors import Conflict, Forbidden, NotFound
from ..i18n import _, ngettext
from ..lobby.vacation import spoken_date
from ..people.relations import are_friends
from ..ratings.updates import variant_of
from . import bans, journal
from .log import Joined, Withdrew
from .store import Entry, Tournament, TournamentStatus, entries_of, hold

START_RATING = 1500.0  # the rating of a player not yet rated in the game (both systems)


@dataclass(frozen=True)
class Conditions:
    """Who may enter: a rating band, a number of finished games of the tournament's game,
    friends of the organiser only, or those invited only (user ids)."""

    min_rating: int | None = None
    max_rating: int | None = None
    min_games: int = 0
    friends_only: bool = False
    invited: tuple[int, ...] | None = None  # None: no invitation needed

    def to_json(self) -> dict[str, Any]:
        return {
            "min_rating": self.min_rating,
            "max_rating": self.max_rating,
            "min_games": self.min_games,
            "friends_only": self.friends_only,
            "invited": None if self.invited is None else list(self.invited),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Conditions:
        invited = raw.get("invited")
        return cls(
            min_rating=raw.get("min_rating"),
            max_rating=raw.get("max_rating"),
            min_games=int(raw.get("min_games") or 0),
            friends_only=bool(raw.get("friends_only")),
            invited=None if invited is None else tuple(int(i) for i in invited),
        )


def rating_of(db: Session, tournament: Tournament, rated: str) -> float:
    """A person's (``user:7``) or a bot's (``bot:mcts:strong``) rating in the tournament's
    game and table size: what Swiss seeds by and the rating band checks."""
    row = db.get(PlayerRating, (tournament.game, variant_of(tournament.players_per_table), rated))
    return START_RATING if row is None else row.rating


def finished_games(db: Session, user_id: int, game: str) -> int:
    query = (
        select(func.count())
        .select_from(Game)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user_id, Game.game == game, Game.status == GameStatus.FINISHED)
    )
    return int(db.scalar(query) or 0)


def check_may_enter(db: Session, tournament: Tournament, user: User, now: datetime) -> None:
    """``Conflict``/``Forbidden`` with the reason if ``user`` may not enter now."""
    if tournament.status not in (TournamentStatus.OPEN, TournamentStatus.RUNNING):
        raise Conflict(_("this tournament takes no more entries"))
    if not journal.state(db, tournament).may_join:
        late_until = journal.config_of(tournament).late_join_until_round
        raise Conflict(
            _("late entries closed when round {n} started", n=late_until)
            if late_until > 1
            else _("this tournament has started and takes no late entries")
        )
    if tournament.rated and user.is_guest:
        raise Forbidden(_("guests are never rated: register to enter a rated tournament"))
    if parted(db, user.id, tournament.created_by):
        raise Forbidden(_("you cannot enter this organiser's tournaments"))
    conditions = Conditions.from_json(tournament.conditions)
    organiser = user.id == tournament.created_by
    if conditions.invited is not None and user.id not in conditions.invited and not organiser:
        raise Forbidden(_("this tournament is by invitation only"))
    if (
        conditions.friends_only
        and not organiser
        and not are_friends(db, user.id, tournament.created_by)
    ):
        raise Forbidden(_("only the organiser's friends may enter this tournament"))
    rating = round(rating_of(db, tournament, f"user:{user.id}"))
    if conditions.min_rating is not None and rating < conditions.min_rating:
        raise Forbidden(
            _(
                "your rating, {rating}, is below this tournament's lowest, {limit}",
                rating=rating,
                limit=conditions.min_rating,
            )
        )
    if conditions.max_rating is not None and rating > conditions.max_rating:
        raise Forbidden(
            _(
                "your rating, {rating}, is above this tournament's highest, {limit}",
                rating=rating,
                limit=conditions.max_rating,
            )
        )
    played = finished_games(db, user.id, tournament.game)
    if played < conditions.min_games:
        raise Forbidden(
            ngettext(
                "this tournament asks for {n} finished game of its game first; you have {played}",
                "this tournament asks for {n} finished games of its game first; you have {played}",
                conditions.min_games,
                played=played,
            )
        )
    barred = bans.barred_until(db, user.id, now)
    if barred is not None:
        raise Forbidden(
            _(
                "a tournament game of yours ran out of time: you may enter tournaments "
                "again from {date}",
                date=spoken_date(barred),
            )
        )


def enter(db: Session, tournament: Tournament, user: User, now: datetime) -> Entry:
    """Enter ``user`` (``Conflict`` if already in, or withdrawn: a withdrawal is final)."""
    entry = db.scalar(
        select(Entry).where(Entry.tournament_id == tournament.id, Entry.user_id == user.id)
    )
    if entry is not None:
        raise Conflict(
            _("you withdrew from this tournament and cannot enter it again")
            if entry.withdrawn
            else _("you have already entered this tournament")
        )
    check_may_enter(db, tournament, user, now)
    entry = Entry(tournament_id=tournament.id, user_id=user.id, name=user.name)
    db.add(entry)
    db.flush()
    rating = rating_of(db, tournament, f"user:{user.id}")
    journal.append(db, tournament, Joined(entry.id, user.name, rating, False))
    return entry


def enter_bot(db: Session, tournament: Tournament, bot: str, strength: str | None) -> Entry:
    """One of the game's bots at one strength, entered by the organiser at creation."""
    name = bot if strength is None else f"{bot} ({strength})"
    entry = Entry(tournament_id=tournament.id, bot_name=bot, bot_strength=strength, name=name)
    db.add(entry)
    db.flush()
    rating = rating_of(db, tournament, f"bot:{bot}:{strength or ''}")
    journal.append(db, tournament, Joined(entry.id, name, rating, True))
    return entry


def withdraw(db: Session, tournament: Tournament, user: User) -> Entry:
    """Leave the tournament: no further pairings (a game under way is played out)."""
    entry = db.scalar(
        select(Entry).where(Entry.tournament_id == tournament.id, Entry.user_id == user.id)
    )
    if entry is None:
        raise Conflict(_("you have not entered this tournament"))
    if entry.withdrawn:
        raise Conflict(_("you have already withdrawn from this tournament"))
    if tournament.status not in (TournamentStatus.OPEN, TournamentStatus.RUNNING):
        raise Conflict(_("this tournament is over"))
    entry.withdrawn = True
    journal.append(db, tournament, Withdrew(entry.id))
    return entry


def start_now(db: Session, tournament: Tournament, user: User, now: datetime) -> None:
    """The organiser starts an open tournament before its time (the job starts its first
    round at once, or cancels it if too few entered); an arena keeps its length."""
    if tournament.created_by != user.id:
        raise Forbidden(_("only the organiser can start this tournament"))
    if tournament.status != TournamentStatus.OPEN:
        raise Conflict(_("this tournament has started already"))
    ends_at = tournament.config.get("ends_at")
    if ends_at is not None:
        length = float(ends_at) - as_utc(tournament.starts_at).timestamp()
        tournament.config = {**tournament.config, "ends_at": now.timestamp() + length}
    tournament.starts_at = now


def find(db: Session, tournament_id: int) -> Tournament:
    tournament = db.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(_("there is no tournament {id}", id=tournament_id))
    return tournament


def held(db: Session, tournament_id: int) -> Tournament:
    """The tournament, held for this transaction before anything of it is read: entries
    arriving at once wait for each other instead of failing (``store.hold``)."""
    if not hold(db, tournament_id):
        raise NotFound(_("there is no tournament {id}", id=tournament_id))
    return find(db, tournament_id)


def active_entries(db: Session, tournament: Tournament) -> list[Entry]:
    return [entry for entry in entries_of(db, tournament.id) if not entry.withdrawn]
