"""The database side of games: creating, joining, reading whole, and appending an action.

Plain synchronous functions over one SQLAlchemy session; the live layer calls them off the
event loop. Every change bumps the game's version in the same transaction, guarded by the
version it was based on, so of two processes acting on one game exactly one succeeds.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    Text,
    bindparam,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from roses.games import GAMES, JSON, GameModule, InvalidInput, bots_offered, game_module

from ..accounts.users import find_user
from ..clocks.time_control import SeatClock, TimeControl, server_time, start_game_clocks
from ..errors import Conflict, Forbidden, NotFound, Unprocessable
from ..http.json_bounds import too_deep
from ..http.schemas import NewGame
from ..i18n import _, game_error
from .models import ActionRow, Draft, Game, Seat, User, utcnow

WAITING, ACTIVE, FINISHED, CANCELLED = "waiting", "active", "finished", "cancelled"
_GAMES = cast(Table, Game.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_SEATS = cast(Table, Seat.__table__)


@dataclass(frozen=True)
class StoredGame:
    """One consistent reading of a game: its row (with seats) and every action."""

    game: Game
    actions: list[ActionRow]
    drafts: dict[int, JSON]


def read_game(db: Session, game_id: int) -> StoredGame:
    """The game and its log as of one version (read again if it moved on in between)."""
    while True:
        game = db.get(Game, game_id, populate_existing=True)
        if game is None:
            raise NotFound(_("there is no game {id}", id=game_id))
        actions = list(
            db.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.number)
            )
        )
        drafts = _drafts(db, game_id)
        version = db.scalar(select(Game.version).where(Game.id == game_id))
        if version == game.version:
            return StoredGame(game, actions, drafts)
        db.rollback()  # another process acted between the two reads


def _drafts(db: Session, game_id: int) -> dict[int, JSON]:
    """The seats' drafts; one nested too deep (kept before drafts were bounded) is read as
    text and left out, so that it can break neither this read nor any view."""
    drafts: dict[int, JSON] = {}
    rows = db.execute(select(Draft.seat, Draft.data.cast(Text)).where(Draft.game_id == game_id))
    for seat, text in rows:
        try:
            data = None if text is None else json.loads(text)
        except RecursionError:
            continue
        if not too_deep(data):
            drafts[seat] = data
    return drafts


def claim(db: Session, game: Game, **changes: Any) -> None:
    """Bump ``game``'s version (with ``changes``) if nobody else did since it was read."""
    result = db.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(version=game.version + 1, **changes)
        .execution_options(synchronize_session=False)  # the object is updated just below
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(_("someone else changed this game at the same moment; try again"))
    game.version += 1
    for key, value in changes.items():
        setattr(game, key, value)


# -- creating, joining, cancelling ----------------------------------------------------------


def _check_bot(
    module: GameModule[Any, Any], index: int, bot: str, strength: str | None
) -> str | None:
    """Seat ``index``'s bot strength (its default if not given, None for a bot without
    strengths: its rating is the bot's own); ``Unprocessable`` naming the field and the
    choices. A bot that does not search has nothing a strength could change, so asking one
    of it is refused rather than quietly ignored (the form offers none)."""
    bots = bots_offered(module)
    if bot not in bots:
        raise Unprocessable(
            f"seats.{index}.bot",
            _(
                "unknown bot '{bot}' (choose from: {choices})",
                bot=bot,
                choices=", ".join(sorted(bots)),
            ),
        )
    strengths = bots[bot]
    if not strengths:
        if strength is not None:
            raise Unprocessable(
                f"seats.{index}.strength",
                _("the {bot} bot has no strengths to choose from", bot=bot),
            )
        return None
    if strength is None:
        return strengths[len(strengths) // 2]
    if strength not in strengths:
        raise Unprocessable(
            f"seats.{index}.strength",
            _(
                "unknown strength '{strength}' (choose from: {choices})",
                strength=strength,
                choices=", ".join(strengths),
            ),
        )
    return strength


def create_game(
    db: Session, user: User, request: NewGame, time_control: TimeControl | None = None
) -> Game:
    try:
        module = game_module(request.game)
    except InvalidInput as error:
        raise Unprocessable("game", game_error(error)) from None
    try:
        options = module.parse_options(request.players, request.options)
    except InvalidInput as error:
        raise Unprocessable("options", game_error(error)) from None
    game = new_game(module, request.players, options, user.id)
    game.rated = request.rated
    game.time_control = None if time_control is None else time_control.to_json()
    for index, choice in enumerate(request.seats):
        seat = Seat(seat=index)
        if choice.kind == "me":
            check_rated_seat(game, user)
            seat.user_id = user.id
        elif choice.kind == "invite":
            assert choice.name is not None
            invited = find_user(db, choice.name)
            if invited is None:
                raise Conflict(_("there is no player named '{name}' to invite", name=choice.name))
            if invited.id == user.id:
                raise Conflict(_("you cannot invite yourself to a second seat"))
            check_rated_seat(game, invited)
            seat.invited_user_id = invited.id
        elif choice.kind == "bot":
            assert choice.bot is not None
            seat.bot_strength = _check_bot(module, index, choice.bot, choice.strength)
            seat.bot_name = choice.bot
        game.seats.append(seat)
    start_if_full(game, module)
    db.add(game)
    db.flush()
    return game


def check_rated_seat(game: Game, user: User) -> None:
    """Guests are never rated: ``Conflict`` if ``user`` is a guest and ``game`` is rated."""
    if game.rated and user.is_guest:
        raise Conflict(
            _(
                "guests are never rated, and {name} plays as a guest: make the game casual, "
                "or register first",
                name=user.name,
            )
        )


def _is_filled(seat: Seat) -> bool:
    return seat.user_id is not None or seat.bot_name is not None


def deal_seed() -> int:
    """A new game's seed: unpredictable, so nobody can foresee its deal."""
    return secrets.randbits(63)


def new_game(
    module: GameModule[Any, Any], players: int, options: dict[str, JSON], created_by: int
) -> Game:
    """A game of ``module`` with a fresh deal, waiting for its seats (to be added)."""
    seed = deal_seed()
    return Game(
        game=module.name,
        players=players,
        options=options,
        seed=seed,
        deal=module.setup(seed, players, options),
        status=WAITING,
        version=0,
        to_act=[],
        turn_since=utcnow(),
        created_by=created_by,
    )


def start_if_full(game: Game, module: GameModule[Any, Any]) -> None:
    """Start the game once every seat has a player or a bot."""
    if all(_is_filled(seat) for seat in game.seats):
        _start(game, module)


def _start(game: Game, module: GameModule[Any, Any]) -> None:
    state = module.restore(game.deal, game.players, game.options)
    game.status = ACTIVE
    game.to_act = list(module.to_act(state))
    game.turn_since = utcnow()
    start_game_clocks(game, module, server_time())


def join_game(db: Session, user: User, game_id: int, wanted: int | None) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(_("there is no game {id}", id=game_id))
    if any(seat.user_id == user.id for seat in game.seats):
        raise Conflict(_("you already have a seat in this game"))
    if game.status != WAITING:
        raise Conflict(_("this game has no free seat"))
    check_rated_seat(game, user)

    def may_take(seat: Seat) -> bool:
        return not _is_filled(seat) and seat.invited_user_id in (None, user.id)

    candidates = [s for s in game.seats if may_take(s) and (wanted is None or s.seat == wanted)]
    if not candidates:
        if wanted is not None and wanted < len(game.seats):
            raise Conflict(_("seat {seat} is not free for you", seat=wanted))
        raise Conflict(_("no seat in this game is free for you"))
    # Invitations first: a seat kept for this player is theirs before an open one.
    seat = min(candidates, key=lambda s: (s.invited_user_id is None, s.seat))
    claim(db, game)
    seat.user_id = user.id
    start_if_full(game, game_module(game.game))
    return game


def cancel_game(db: Session, user: User, game_id: int) -> Game:
    """The creator calls off a game nobody has started playing (e.g. an ignored invitation)."""
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(_("there is no game {id}", id=game_id))
    if game.created_by != user.id:
        raise Forbidden(_("only the player who created the game can cancel it"))
    if game.status != WAITING:
        raise Conflict(_("only a game still waiting for players can be cancelled"))
    claim(db, game, status=CANCELLED)
    return game


# -- playing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What one accepted action does to the game's row: written in one transaction."""

    game_id: int
    based_on: int  # the version the action was applied to
    number: int
    seat: int
    action: JSON
    to_act: list[int]
    turn_since: datetime
    status: str
    result: dict[str, JSON] | None
    clocks: tuple[SeatClock, ...] = ()  # the seats' clocks that changed
    clock_due: datetime | None = None


def _advance(db: Session | Connection, game_id: int, based_on: int, **changes: Any) -> None:
    """Bump the version if it is still ``based_on`` (with ``changes``); ``Conflict`` if not."""
    result = db.execute(  # plain SQL, no ORM session work: this is every action's path
        update(_GAMES)
        .where(_GAMES.c.id == game_id, _GAMES.c.version == based_on)
        .values(version=based_on + 1, **changes)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(_("another action was accepted at the same moment; reload"))


# Every action's statements, built once: building and keying a statement afresh costs
# more CPU than running it.
_ADVANCE_ACTIVE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("g_id"), _GAMES.c.version == bindparam("based_on"))
    .values(
        version=bindparam("new_version", type_=_GAMES.c.version.type),
        to_act=bindparam("new_to_act", type_=_GAMES.c.to_act.type),
        turn_since=bindparam("new_turn_since", type_=_GAMES.c.turn_since.type),
        status=bindparam("new_status", type_=_GAMES.c.status.type),
        clock_due=bindparam("new_clock_due", type_=_GAMES.c.clock_due.type),
    )
)
_LOG_ACTION = insert(_ACTIONS)


def append_action(db: Session | Connection, change: Change) -> None:
    """Bump the version if it is still ``based_on`` and log the action; ``Conflict`` if not."""
    append_actions(db, [change])


def append_actions(db: Session | Connection, changes: list[Change]) -> None:
    """``append_action`` for each of ``changes`` in turn, the log written in one statement."""
    for change in changes:
        if change.result is None:  # the game goes on: its result stays NULL
            advanced = db.execute(
                _ADVANCE_ACTIVE,
                {
                    "g_id": change.game_id,
                    "based_on": change.based_on,
                    "new_version": change.based_on + 1,
                    "new_to_act": change.to_act,
                    "new_turn_since": change.turn_since,
                    "new_status": change.status,
                    "new_clock_due": change.clock_due,
                },
            )
            if advanced.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(_("another action was accepted at the same moment; reload"))
        else:
            _advance(
                db,
                change.game_id,
                change.based_on,
                to_act=change.to_act,
                turn_since=change.turn_since,
                status=change.status,
                result=change.result,
                clock_due=change.clock_due,
            )
        _write_clocks(db, change.game_id, change.clocks)
    now = utcnow()
    db.execute(
        _LOG_ACTION,
        [
            {
                "game_id": change.game_id,
                "number": change.number,
                "seat": change.seat,
                "action": change.action,
                "version": change.based_on + 1,
                "created_at": now,
            }
            for change in changes
        ],
    )


def finish_game(
    db: Session,
    game_id: int,
    based_on: int,
    result: dict[str, JSON],
    clocks: tuple[SeatClock, ...] = (),
) -> None:
    """End a game now with ``result`` (a resignation, a loss on time), if it is still at
    ``based_on``; ``clocks``: its seats' clocks, stopped."""
    _advance(db, game_id, based_on, to_act=[], status=FINISHED, result=result, clock_due=None)
    _write_clocks(db, game_id, clocks)


def _write_clocks(db: Session | Connection, game_id: int, clocks: tuple[SeatClock, ...]) -> None:
    for clock in clocks:
        db.execute(
            update(_SEATS)
            .where(_SEATS.c.game_id == game_id, _SEATS.c.seat == clock.seat)
            .values(**clock.columns())
        )


def save_draft(db: Session, game_id: int, seat: int, data: JSON) -> None:
    draft = db.get(Draft, (game_id, seat))
    if draft is None:
        db.add(Draft(game_id=game_id, seat=seat, data=data, updated_at=utcnow()))
    else:
        draft.data = data
        draft.updated_at = utcnow()


# -- lists ----------------------------------------------------------------------------------


def offered() -> ColumnElement[bool]:
    """The games of a kind this server offers: one whose module is gone (a plug-in taken
    out) stays in the database but is not listed or loaded."""
    return Game.game.in_(sorted(GAMES))


def games_of(db: Session, user: User) -> list[Game]:
    seated = select(Seat.game_id).where(
        or_(Seat.user_id == user.id, Seat.invited_user_id == user.id)
    )
    query = select(Game).where(Game.id.in_(seated), Game.status != CANCELLED, offered())
    return list(db.scalars(query.order_by(Game.id.desc())))


def open_games(db: Session, user: User) -> list[Game]:
    """Waiting games with a seat open to anyone, that this user is not in."""
    free = select(Seat.game_id).where(
        Seat.user_id.is_(None), Seat.bot_name.is_(None), Seat.invited_user_id.is_(None)
    )
    query = select(Game).where(Game.status == WAITING, Game.id.in_(free), offered())
    games = db.scalars(query.order_by(Game.id.desc()).limit(50))
    return [g for g in games if all(s.user_id != user.id for s in g.seats)]


def active_game_ids(db: Session) -> list[int]:
    return list(db.scalars(select(Game.id).where(Game.status == ACTIVE)))
