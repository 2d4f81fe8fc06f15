"""Standing rows, the same for every format, and the counts they share.

A `Standing` is one player's line: rank (from 1, shared when the points and every
tie-break are equal), points, the tie-breaks by name in the order they decide, and the
games, wins, draws, losses and byes behind them. A win is a first place not shared by the
whole table (partners of a team game both win); a draw, the whole table tied; the rest,
losses (a forfeit counts as played for these counts, as the points it gave).

`rank` orders rows by a format's key and numbers them; ties left after every tie-break
share the rank and are listed by name, then by player id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from roses.server.tournaments.log import Game, TournamentState


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    name: str
    points: float
    tie_breaks: tuple[tuple[str, float], ...] = ()
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    bot: bool = False
    withdrawn: bool = False

    def tie_break(self, name: str) -> float:
        return dict(self.tie_breaks)[name]

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "points": self.points,
            "tie_breaks": [{"name": name, "value": value} for name, value in self.tie_breaks],
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "bot": self.bot,
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standing:
        return cls(
            rank=int(data["rank"]),
            player=int(data["player"]),
            name=str(data["name"]),
            points=float(data["points"]),
            tie_breaks=tuple((str(t["name"]), float(t["value"])) for t in data["tie_breaks"]),
            games=int(data["games"]),
            wins=int(data["wins"]),
            draws=int(data["draws"]),
            losses=int(data["losses"]),
            byes=int(data["byes"]),
            bot=bool(data["bot"]),
            withdrawn=bool(data["withdrawn"]),
        )


def outcome_of(game: Game, player: int) -> str:
    """ "win", "draw" or "loss" for a finished game."""
    ranks = game.ranks or ()
    if len(set(ranks)) == 1:
        return "draw"
    return "win" if game.rank_of(player) == 0 else "loss"


def rows(
    state: TournamentState,
    points: Mapping[int, float],
    tie_breaks: Mapping[int, tuple[tuple[str, float], ...]],
) -> list[Standing]:
    """An unranked row per entrant (rank 0) with its counts; `rank` then numbers them."""
    result = []
    for player, entrant in state.entrants.items():
        finished = [game for game in state.games_of(player) if game.finished]
        outcomes = [outcome_of(game, player) for game in finished]
        result.append(
            Standing(
                rank=0,
                player=player,
                name=entrant.name,
                points=points[player],
                tie_breaks=tie_breaks.get(player, ()),
                games=len(finished),
                wins=outcomes.count("win"),
                draws=outcomes.count("draw"),
                losses=outcomes.count("loss"),
                byes=len(state.byes_of(player)),
                bot=entrant.bot,
                withdrawn=entrant.withdrawn,
            )
        )
    return result


def rank(
    unranked: Iterable[Standing], key: Callable[[Standing], Sequence[float]] | None = None
) -> list[Standing]:
    """Rows best first by ``key`` (higher is better; default: points, then each tie-break
    in order), numbered from 1, equal keys sharing a rank."""
    order = key or default_key
    ranked = sorted(unranked, key=lambda row: (tuple(-v for v in order(row)), row.name, row.player))
    result: list[Standing] = []
    for index, row in enumerate(ranked):
        if result and tuple(order(row)) == tuple(order(ranked[index - 1])):
            number = result[-1].rank
        else:
            number = index + 1
        result.append(replace(row, rank=number))
    return result


def default_key(row: Standing) -> tuple[float, ...]:
    return (row.points, *(value for _, value in row.tie_breaks))
