"""What the server sends about a game: built from ``PlayerView`` only, never the deal.

The draw pile's order never leaves the server while a game runs; its sorted contents are
sent only in games with the "show draw pile" option (RK-20).
"""

from __future__ import annotations

from typing import Any

from roses.roseking import Board, Variant, card_name, parse_move, square_name, territories
from roses.roseking.geometry import TARGET, Bitboard, squares_of
from roses.roseking.record import record_of

from .games import ACTIVE, FINISHED, LoadedGame, dealt_board, seat_label
from .models import Game, Seat, as_utc


def territory_squares(stones: Bitboard) -> list[list[str]]:
    """The territories of ``stones`` (RK-14) as square names, largest first."""
    return [[square_name(sq) for sq in squares_of(group)] for group in territories(stones)]


def _seat_info(seat: Seat, seats: int, viewer_id: int | None) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "label": seat_label(seat.seat, seats),
        "team": ("red", "white")[seat.seat & 1],
        "player": seat.user.name if seat.user else None,
        "bot": seat.bot_name,
        "strength": seat.bot_strength,
        "invited": seat.invited_user.name if seat.invited_user and not seat.user else None,
        "is_you": viewer_id is not None and seat.user_id == viewer_id,
    }


def _state(board: Board, viewer: int | None, game: Game) -> dict[str, Any]:
    state = board.view(viewer).to_dict()
    if not game.show_draw_pile:
        del state["draw_pile_cards"]  # RK-20 off: the count only
    return state


def game_view(loaded: LoadedGame, viewer_id: int | None) -> dict[str, Any]:
    """The game as the player ``viewer_id`` (or a spectator) may see it."""
    game, board = loaded.game, loaded.board
    you = loaded.seat_of(viewer_id) if viewer_id is not None else None
    shown, pending = board, None
    if game.pending_move is not None and you == board.turn:
        # RK-19 Light: the player sees their play made; the others see it once the turn ends.
        shown = board.copy()
        shown.push(parse_move(game.pending_move))
        pending = game.pending_move
    seats = board.seats
    view: dict[str, Any] = {
        **summary_fields(game, viewer_id),
        "pending": pending,
        "can_act": game.status == ACTIVE and you is not None and you == board.turn,
        "state": _state(shown, you, game),
        "log": [
            {"ply": ply, "seat": seat_label(seat, seats), "move": str(move)}
            for ply, (seat, move) in enumerate(
                zip(loaded.move_seats, board.move_stack, strict=True)
            )
        ],
        "targets": _targets(shown),
        "territories": None,
    }
    if game.status == FINISHED:
        view["territories"] = {
            "red": territory_squares(board.red),
            "white": territory_squares(board.white),
        }
    return view


def _targets(board: Board) -> dict[str, str | None]:
    """Where each card of the seat to move would take the crown (None: off the board, RK-8)."""
    targets: dict[str, str | None] = {}
    if board.is_over():
        return targets
    for card in board.hands[board.turn]:
        square = TARGET[card][board.crown]
        targets[card_name(card)] = square_name(square) if square >= 0 else None
    return targets


def summary_fields(game: Game, viewer_id: int | None) -> dict[str, Any]:
    seats = Variant(game.variant).seats
    you = next(
        (s.seat for s in game.seats if viewer_id is not None and s.user_id == viewer_id), None
    )
    return {
        "id": game.id,
        "variant": game.variant,
        "players": seats,
        "light": game.light,
        "show_draw_pile": game.show_draw_pile,
        "status": game.status,
        "version": game.version,
        "seats": [_seat_info(seat, seats, viewer_id) for seat in game.seats],
        "you": you,  # my seat, None for a spectator
        "created_by_you": viewer_id is not None and game.created_by == viewer_id,
        "your_turn": game.status == ACTIVE and you is not None and game.turn_seat == you,
        "turn": None if game.turn_seat is None else seat_label(game.turn_seat, seats),
        "turn_since": as_utc(game.turn_since).isoformat(),
        "result": game.result,
    }


def replay_frames(loaded: LoadedGame, viewer_id: int | None) -> list[dict[str, Any]]:
    """The game's states move by move, each as ``viewer_id`` may see it."""
    game, board = loaded.game, loaded.board
    you = loaded.seat_of(viewer_id) if viewer_id is not None else None
    if game.status == FINISHED:
        you = None  # everything is public once the game is over
    start = dealt_board(game)
    frames = [_state(start, you, game)]
    for move in board.move_stack:
        start.push(move)
        frames.append(_state(start, you, game))
    return frames


def game_record(loaded: LoadedGame) -> dict[str, Any]:
    """The full record (god's view): only for finished games, the caller checks."""
    names = [
        seat.user.name if seat.user is not None else f"bot:{seat.bot_name}"
        for seat in loaded.game.seats
    ]
    return record_of(loaded.board, names)
