"""Analysis for people: a position's moves, or a whole game's, judged by the search.

Pure functions over a view or a game record that return plain data (``to_dict`` gives
JSON), so the command line and, later, the web server show the same numbers. Every
position is searched from the view of the seat to move (RK-20): a move is judged by what
its player could know, never by the pile's order the finished record reveals.

Win probabilities are the search's values read as ``(1 + value) / 2``: a draw counts one
half. Where the search reached the end of every line they are exact expected results
under the draws (RK-9), and ``exact`` says so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from roses.roseking import Board, Move
from roses.roseking.record import replay, root
from roses.roseking.view import PlayerView

from .search import SearchResult, run
from .value_net import learned_weights

# Judgements by the win probability a move lost against the best move (lichess's bands).
JUDGEMENTS: Final = ((0.005, "best"), (0.05, "good"), (0.10, "inaccuracy"), (0.20, "mistake"))
BLUNDER: Final = "blunder"
FORCED: Final = "forced"  # the only legal move


def win_probability(value: float) -> float:
    return (1.0 + value) / 2.0


def judgement(lost: float) -> str:
    """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` by win probability lost."""
    for bound, name in JUDGEMENTS:
        if lost < bound:
            return name
    return BLUNDER


@dataclass(frozen=True)
class MoveValue:
    move: str
    win: float  # for the team to move


@dataclass(frozen=True)
class PositionAnalysis:
    turn: int  # the seat to move
    team: str  # "red" or "white": the win probabilities are this team's
    moves: list[MoveValue]  # best first
    depth: int  # plies searched
    exact: bool
    nodes: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PlyAnalysis:
    ply: int  # 0 for the game's first move
    seat: int
    team: str
    move: str
    judgement: str
    win_before: float  # the mover's win probability with the best move
    win_after: float  # with the move played
    best_move: str
    red_win_before: float  # for the graph: always Red's side
    red_win_after: float
    exact: bool
    depth: int
    moves: list[MoveValue]  # every legal move from this position, best first ("from here")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GameAnalysis:
    variant: str
    players: list[str]
    plies: list[PlyAnalysis]
    red_win_start: float  # Red's win probability before the first move

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _search(view: PlayerView, time_limit: float | None, nodes: int | None) -> SearchResult:
    # the table changes no value, only how soon the search reaches the end (tests)
    # the evaluation ``search`` plays: the network learned for the number of players
    weights = learned_weights(view.seats)
    return run(view, every=True, time_limit=time_limit, nodes=nodes, weights=weights, table=True)


def _move_values(result: SearchResult) -> list[MoveValue]:
    return [
        MoveValue(str(m), round(win_probability(v), 4))
        for m, v in zip(result.moves, result.values, strict=True)
    ]


def analyse_position(
    view: PlayerView, *, time_limit: float | None = None, nodes: int | None = None
) -> PositionAnalysis:
    """Every legal move of the seat to move in ``view`` with its win probability."""
    result = _search(view, time_limit, nodes)
    return PositionAnalysis(
        turn=view.turn,
        team=("red", "white")[view.turn & 1],
        moves=_move_values(result),
        depth=result.depth,
        exact=result.exact,
        nodes=result.nodes,
    )


def _red(win: float, seat: int) -> float:
    return round(win if seat & 1 == 0 else 1.0 - win, 4)


def analyse_move(
    view: PlayerView,
    move: Move,
    ply: int,
    *,
    time_limit: float | None = None,
    nodes: int | None = None,
) -> PlyAnalysis:
    """One move judged from ``view``, the view of the seat that made it before it did."""
    seat = view.turn
    result = _search(view, time_limit, nodes)
    values = dict(zip(result.moves, result.values, strict=True))
    if move not in values:
        raise ValueError(f"{move} is not a legal move in this position")
    before = win_probability(result.values[0])
    after = win_probability(values[move])
    forced = len(result.moves) == 1
    return PlyAnalysis(
        ply=ply, seat=seat, team=("red", "white")[seat & 1], move=str(move),
        judgement=FORCED if forced else judgement(before - after),
        win_before=round(before, 4), win_after=round(after, 4),
        best_move=str(result.best),
        red_win_before=_red(before, seat), red_win_after=_red(after, seat),
        exact=result.exact, depth=result.depth, moves=_move_values(result),
    )  # fmt: skip


def game_moves(record: dict[str, Any]) -> list[tuple[PlayerView, Move]]:
    """Each move of a game record with the view its seat had when making it (RK-20: never
    the pile's order). Raises ``InvalidRecordError`` for a record that does not replay."""
    final = replay(record)
    board: Board = root(final)
    moves: list[tuple[PlayerView, Move]] = []
    for move in final.move_stack:
        moves.append((board.view(board.turn), move))
        board.push(move)
    return moves


def analyse_game(
    record: dict[str, Any], *, time_limit: float | None = None, nodes: int | None = None
) -> GameAnalysis:
    """Each move of a game record: win probability before and after, the best move, a
    judgement. Raises ``InvalidRecordError`` for a record that does not replay."""
    plies = [
        analyse_move(view, move, ply, time_limit=time_limit, nodes=nodes)
        for ply, (view, move) in enumerate(game_moves(record))
    ]
    return GameAnalysis(
        variant=replay(record).variant.value,
        players=[str(name) for name in record.get("players", [])],
        plies=plies,
        red_win_start=plies[0].red_win_before if plies else 0.5,
    )


def format_position(analysis: PositionAnalysis) -> str:
    """``MOVE WIN`` lines, best first, then ``# depth D, N nodes, exact|estimate``."""
    lines = [f"{'move':<6} {'win':>6}"]
    lines += [f"{m.move:<6} {m.win:>6.3f}" for m in analysis.moves]
    lines.append(_footer(analysis.depth, analysis.nodes, analysis.exact))
    return "\n".join(lines)


def _footer(depth: int, nodes: int, exact: bool) -> str:
    return f"# depth {depth}, {nodes} nodes, {'exact' if exact else 'estimate'}"


def format_game(analysis: GameAnalysis) -> str:
    """One line per move: ply, team, move, judgement, win before and after, best move."""
    lines = [f"{'ply':>4} {'team':<5} {'move':<5} {'judgement':<10} {'before':>6} "
             f"{'after':>6} {'best':<5} exact"]  # fmt: skip
    for p in analysis.plies:
        lines.append(
            f"{p.ply + 1:>4} {p.team:<5} {p.move:<5} {p.judgement:<10} {p.win_before:>6.3f} "
            f"{p.win_after:>6.3f} {p.best_move:<5} {'yes' if p.exact else 'no'}"
        )
    return "\n".join(lines)
