"""The games service: create and join games, and accept moves one transaction at a time.

Every accepted action bumps the game's version inside the transaction that applies it, and
an action names the version it was chosen on, so of two conflicting actions exactly one
applies (the other gets a ``Conflict``). Passes (RK-11, RK-17) are made by the server.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from roses.bots.roseking import available_bots
from roses.roseking import Board, IllegalMoveError, Move, Variant, parse_move
from roses.roseking.moves import DRAW, PASS

from .accounts import find_user
from .errors import Conflict, Forbidden, NotFound
from .models import Game, MoveRow, Seat, User, utcnow
from .schemas import NewGame, SeatChoice

WAITING, ACTIVE, FINISHED, CANCELLED = "waiting", "active", "finished", "cancelled"
TEAM_NAMES = ("Red", "White")


def seat_label(seat: int, seats: int) -> str:
    """``Red``/``White``, or ``Red 1``..``White 2`` in the team variant (RK-16)."""
    team = TEAM_NAMES[seat & 1]
    return team if seats == 2 else f"{team} {seat // 2 + 1}"


@dataclass
class LoadedGame:
    """A game row with its board rebuilt from the deal and the accepted moves."""

    game: Game
    board: Board
    move_seats: list[int]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.game.seats if s.user_id == user_id), None)


def dealt_board(game: Game) -> Board:
    """The game's start: its stored deal; later reshuffles (RK-9) follow from its seed."""
    return Board.from_position(game.start_position, seed=game.seed, variant=Variant(game.variant))


def rebuild(game: Game, moves: list[MoveRow]) -> LoadedGame:
    board = dealt_board(game)
    for row in moves:
        board.push(parse_move(row.move))
    return LoadedGame(game, board, [row.seat for row in moves])


def load(db: Session, game_id: int) -> LoadedGame:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    moves = list(
        db.scalars(select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.ply))
    )
    return rebuild(game, moves)


# -- creating and joining ----------------------------------------------------------------


def _check_bot(choice: SeatChoice, strengths: list[str]) -> None:
    if choice.bot not in available_bots():
        raise Conflict(f"unknown bot {choice.bot!r} (choose from: {', '.join(available_bots())})")
    if choice.strength is not None and choice.strength not in strengths:
        raise Conflict(
            f"unknown strength {choice.strength!r} (choose from: {', '.join(strengths)})"
        )


def create_game(db: Session, user: User, request: NewGame, strengths: list[str]) -> Game:
    if request.players == 4:
        variant = Variant.FOUR_PLAYER
    else:
        variant = Variant.RANDOM_START if request.random_start else Variant.CLASSIC
    seed = secrets.randbits(63)
    board = Board(variant, seed=seed)
    game = Game(
        variant=variant.value,
        light=request.light,
        show_draw_pile=request.show_draw_pile,
        seed=seed,
        start_position=board.position(),
        status=WAITING,
        version=0,
        turn_seat=board.turn,
        turn_since=utcnow(),
        created_by=user.id,
    )
    for index, choice in enumerate(request.seats):
        seat = Seat(seat=index)
        if choice.kind == "me":
            seat.user_id = user.id
        elif choice.kind == "invite":
            assert choice.name is not None
            invited = find_user(db, choice.name)
            if invited is None:
                raise Conflict(f"there is no player named {choice.name!r} to invite")
            if invited.id == user.id:
                raise Conflict("you cannot invite yourself to a second seat")
            seat.invited_user_id = invited.id
        elif choice.kind == "bot":
            _check_bot(choice, strengths)
            seat.bot_name = choice.bot
            seat.bot_strength = choice.strength or strengths[len(strengths) // 2]
        game.seats.append(seat)
    _start_if_full(game)
    db.add(game)
    db.flush()
    return game


def _is_filled(seat: Seat) -> bool:
    return seat.user_id is not None or seat.bot_name is not None


def _start_if_full(game: Game) -> None:
    if all(_is_filled(seat) for seat in game.seats):
        game.status = ACTIVE
        game.turn_since = utcnow()


def join_game(db: Session, user: User, game_id: int, wanted: int | None) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    if any(seat.user_id == user.id for seat in game.seats):
        raise Conflict("you already have a seat in this game")
    if game.status != WAITING:
        raise Conflict("this game has no free seat")

    def may_take(seat: Seat) -> bool:
        return not _is_filled(seat) and seat.invited_user_id in (None, user.id)

    candidates = [s for s in game.seats if may_take(s) and (wanted is None or s.seat == wanted)]
    if not candidates:
        if wanted is not None and wanted < len(game.seats):
            raise Conflict(f"seat {wanted} is not free for you")
        raise Conflict("no seat in this game is free for you")
    # Invitations first: a seat kept for this player is theirs before an open one.
    seat = min(candidates, key=lambda s: (s.invited_user_id is None, s.seat))
    result = db.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(version=game.version + 1)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict("someone else joined at the same moment; try again")
    game.version += 1
    seat.user_id = user.id
    _start_if_full(game)
    return game


def cancel_game(db: Session, user: User, game_id: int) -> Game:
    """The creator calls off a game nobody has started playing (e.g. an ignored invitation)."""
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    if game.created_by != user.id:
        raise Forbidden("only the player who created the game can cancel it")
    if game.status != WAITING:
        raise Conflict("only a game still waiting for players can be cancelled")
    result = db.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(version=game.version + 1, status=CANCELLED)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict("someone joined at the same moment; reload")
    game.version += 1
    game.status = CANCELLED
    return game


# -- playing -------------------------------------------------------------------------------


def _claim_version(db: Session, game: Game, version: int) -> None:
    """Take the game's version inside this transaction, or fail if it moved on."""
    if version != game.version:
        raise Conflict(f"the game has moved on (version {game.version}, not {version}); reload")
    result = db.execute(
        update(Game).where(Game.id == game.id, Game.version == version).values(version=version + 1)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict("another action was accepted at the same moment; reload")
    game.version = version + 1


def _take_turn(db: Session, loaded: LoadedGame, user: User, version: int) -> None:
    """Check that ``user`` may act now on ``version``, and claim that version.

    A stale version is reported before whose turn it is: a second tab that acted on the
    same version learns that the game moved on.
    """
    game = loaded.game
    seat = loaded.seat_of(user.id)
    if seat is None:
        raise Forbidden("you have no seat in this game")
    if game.status == WAITING:
        raise Conflict("the game has not started: a seat is still free")
    if game.status == FINISHED:
        raise Conflict("the game is over")
    if game.status == CANCELLED:
        raise Conflict("the game was cancelled")
    _claim_version(db, game, version)
    if loaded.board.turn != seat:
        seats = loaded.board.seats
        raise Forbidden(
            f"it is {seat_label(loaded.board.turn, seats)}'s turn; "
            f"you play {seat_label(seat, seats)}"
        )


def _check_legal(board: Board, move: Move) -> None:
    if move.kind == PASS:
        raise Conflict("passes are made by the server when no other action is possible (RK-11)")
    if not board.is_legal(move):
        trial = board.copy()
        try:
            trial.push(move)
        except IllegalMoveError as error:  # the engine's reason, e.g. "... (RK-8)"
            raise Conflict(str(error)) from None


def _commit(db: Session, loaded: LoadedGame, move: Move) -> None:
    """Make ``move`` and the passes that follow it (RK-11, RK-17); append them; update the game."""
    board, game = loaded.board, loaded.game
    _append(db, loaded, move)
    while board.legal_moves() == (Move(PASS),):
        _append(db, loaded, Move(PASS))
    game.pending_move = None
    game.turn_seat = board.turn
    game.turn_since = utcnow()
    outcome = board.outcome()
    if outcome is not None:
        game.status = FINISHED
        game.turn_seat = None
        game.result = {
            "winner": outcome.result(),
            "termination": outcome.termination.value,
            "red": str(outcome.red),
            "white": str(outcome.white),
        }


def _append(db: Session, loaded: LoadedGame, move: Move) -> None:
    seat = loaded.board.turn
    loaded.board.push(move)
    ply = len(loaded.move_seats)
    db.add(MoveRow(game_id=loaded.game.id, ply=ply, seat=seat, move=str(move)))
    loaded.move_seats.append(seat)


def play(db: Session, user: User, game_id: int, text: str, version: int) -> LoadedGame:
    """A player's move. In a Light game (RK-19) a play waits for End turn; a draw never does."""
    loaded = load(db, game_id)
    game = loaded.game
    _take_turn(db, loaded, user, version)
    if game.pending_move is not None:
        raise Conflict(f"{game.pending_move} is waiting: end the turn or undo it first (RK-19)")
    move = parse_move(text)
    _check_legal(loaded.board, move)
    if game.light and move.kind != DRAW:
        game.pending_move = str(move)
    else:
        _commit(db, loaded, move)
    return loaded


def undo(db: Session, user: User, game_id: int, version: int) -> LoadedGame:
    loaded = load(db, game_id)
    _take_turn(db, loaded, user, version)
    if loaded.game.pending_move is None:
        raise Conflict("there is no move to undo (a draw can never be undone, RK-19)")
    loaded.game.pending_move = None
    return loaded


def end_turn(db: Session, user: User, game_id: int, version: int) -> LoadedGame:
    loaded = load(db, game_id)
    _take_turn(db, loaded, user, version)
    pending = loaded.game.pending_move
    if pending is None:
        raise Conflict("there is no move waiting: choose a card first")
    _commit(db, loaded, parse_move(pending))
    return loaded


def play_for_bot(db: Session, game_id: int, seat: int, move: Move, version: int) -> LoadedGame:
    loaded = load(db, game_id)
    game = loaded.game
    if game.status != ACTIVE or loaded.board.turn != seat or game.seats[seat].bot_name is None:
        raise Conflict("the bot is no longer to move")
    _claim_version(db, game, version)
    _check_legal(loaded.board, move)
    _commit(db, loaded, move)
    return loaded


def games_of(db: Session, user: User) -> list[Game]:
    seated = select(Seat.game_id).where(
        or_(Seat.user_id == user.id, Seat.invited_user_id == user.id)
    )
    query = select(Game).where(Game.id.in_(seated), Game.status != CANCELLED)
    return list(db.scalars(query.order_by(Game.id.desc())))


def open_games(db: Session, user: User) -> list[Game]:
    """Waiting games with a seat open to anyone, that this user is not in."""
    free = select(Seat.game_id).where(
        Seat.user_id.is_(None), Seat.bot_name.is_(None), Seat.invited_user_id.is_(None)
    )
    query = select(Game).where(Game.status == WAITING, Game.id.in_(free))
    games = db.scalars(query.order_by(Game.id.desc()).limit(50))
    return [g for g in games if all(s.user_id != user.id for s in g.seats)]
