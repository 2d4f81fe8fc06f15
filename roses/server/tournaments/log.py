"""A tournament's log: its config, its events in order, and the state they replay to.

The room stores the config once and appends events; everything else (who plays whom,
the scores, the standings) is computed again from them by `replay` and a format, so a
crash loses nothing that the log holds and a replay always gives the same answer.

The events: `Joined`, `Withdrew`, `RoundStarted` (its tables, seat 0 moving first, and its
byes), `GameFinished` (ranks per seat as `roses.games.base.Outcome.ranks`: 0 is first,
equal ranks tie) and `Forfeited` (a game not played: the absent seats lose, the others
win, and for the Swiss the pair has not met). Every event and the config go to JSON and
back with ``to_json()`` / ``from_json()``; `event_from_json` reads any event.

A bad log (a result for a table that does not exist, a player seated twice, a late join
after the round the config allows) raises `LogError`, whose message says what and where.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

FormatName = Literal["swiss", "pools", "arena"]
FORMAT_NAMES: tuple[FormatName, ...] = ("swiss", "pools", "arena")


class LogError(ValueError):
    """A tournament log that cannot be replayed; the message says which event and why."""


class PairingError(LogError):
    """No next round now: the last one is still being played, the rounds are all
    played, too few players are left, or no pairing avoids a repeat."""


@dataclass(frozen=True)
class TournamentConfig:
    """What the organiser chose. ``rounds`` None: as many as the format needs (Swiss:
    enough for one player to win them all; pools: the fewest in which everyone could meet
    everyone; the arena has no rounds and runs until ``ends_at``). Players may join until round
    ``late_join_until_round`` starts (1: before the first round only). ``points_by_rank``
    are the points of the first, second, ... at a table; tied players share the points of
    the places they hold (a two-player draw with (1, 0) gives 0.5 each). A bye scores
    ``bye_points``; by default a win in a Swiss (FIDE's pairing-allocated bye) and an
    average result in pools (`TournamentState.bye_points`). ``final``: after
    the pools, the best ``final_size`` (default one table) play a final. ``seed`` draws
    every lot (the room derives it from the tournament's id). ``min_players_per_table``:
    the pools may seat that many at some tables when the count does not divide (Wars of
    the Roses: 3 with tables of 4). ``ends_at``: the arena's end, seconds since the epoch.
    ``teams``: a team game's team of each seat (the game's ``teams(players_per_table)``,
    The Rose King's (0, 1, 0, 1)), so that the pools also spread who partners whom; empty:
    every seat its own.
    """

    format: FormatName
    game: str
    players_per_table: int = 2
    rounds: int | None = None
    late_join_until_round: int = 1
    points_by_rank: tuple[float, ...] = (1.0, 0.0)
    final: bool = False
    seed: int = 0
    bye_points: float | None = None
    min_players_per_table: int | None = None
    final_size: int | None = None
    ends_at: float | None = None
    teams: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.format not in FORMAT_NAMES:
            raise LogError(f"unknown tournament format {self.format!r}")
        if self.players_per_table < 2:
            raise LogError("a table seats at least two players")
        if len(self.points_by_rank) != self.players_per_table:
            raise LogError(
                f"points_by_rank has {len(self.points_by_rank)} entries for tables of "
                f"{self.players_per_table}"
            )
        if self.rounds is not None and self.rounds < 1:
            raise LogError("a tournament plays at least one round")
        if self.late_join_until_round < 1:
            raise LogError("late_join_until_round counts rounds from 1")
        if self.teams and len(self.teams) != self.players_per_table:
            raise LogError(
                f"teams names {len(self.teams)} seats for tables of {self.players_per_table}"
            )
        smallest = self.min_players_per_table
        if smallest is not None and not 2 <= smallest <= self.players_per_table:
            raise LogError("min_players_per_table lies between 2 and players_per_table")

    @property
    def smallest_table(self) -> int:
        return self.min_players_per_table or self.players_per_table

    @property
    def bye_score(self) -> float:
        return self.points_by_rank[0] if self.bye_points is None else self.bye_points

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "game": self.game,
            "players_per_table": self.players_per_table,
            "rounds": self.rounds,
            "late_join_until_round": self.late_join_until_round,
            "points_by_rank": list(self.points_by_rank),
            "final": self.final,
            "seed": self.seed,
            "bye_points": self.bye_points,
            "min_players_per_table": self.min_players_per_table,
            "final_size": self.final_size,
            "ends_at": self.ends_at,
            "teams": list(self.teams),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentConfig:
        try:
            return cls._read(data)
        except LogError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise LogError(f"a tournament config with a missing or wrong field: {error}") from error

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> TournamentConfig:
        return cls(
            format=data["format"],
            game=str(data["game"]),
            players_per_table=int(data.get("players_per_table", 2)),
            rounds=None if data.get("rounds") is None else int(data["rounds"]),
            late_join_until_round=int(data.get("late_join_until_round", 1)),
            points_by_rank=tuple(float(p) for p in data.get("points_by_rank", (1.0, 0.0))),
            final=bool(data.get("final", False)),
            seed=int(data.get("seed", 0)),
            bye_points=_optional_float(data.get("bye_points")),
            min_players_per_table=_optional_int(data.get("min_players_per_table")),
            final_size=_optional_int(data.get("final_size")),
            ends_at=_optional_float(data.get("ends_at")),
            teams=tuple(int(team) for team in data.get("teams", ())),
        )


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True)
class Table:
    """Player ids in seat order; seat 0 moves first ("white" for the Swiss colours)."""

    seats: tuple[int, ...]

    def to_json(self) -> list[int]:
        return list(self.seats)

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Table:
        return cls(tuple(int(player) for player in data))


@dataclass(frozen=True)
class Joined:
    kind: ClassVar[str] = "joined"
    player: int
    name: str
    rating: float
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "player": self.player,
            "name": self.name,
            "rating": self.rating,
            "bot": self.bot,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Joined:
        return cls(int(data["player"]), str(data["name"]), float(data["rating"]), bool(data["bot"]))


@dataclass(frozen=True)
class Withdrew:
    kind: ClassVar[str] = "withdrew"
    player: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "player": self.player}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Withdrew:
        return cls(int(data["player"]))


@dataclass(frozen=True)
class RoundStarted:
    """Round ``round`` (from 1) seats these tables; ``byes`` sit out it (Swiss: the
    pairing-allocated bye; pools: a player left out when the count does not fill the
    tables; see `TournamentState.bye_points`)."""

    kind: ClassVar[str] = "round_started"
    round: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "round": self.round,
            "tables": [table.to_json() for table in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundStarted:
        return cls(
            int(data["round"]),
            tuple(Table.from_json(table) for table in data["tables"]),
            tuple(int(player) for player in data.get("byes", ())),
        )


@dataclass(frozen=True)
class GameFinished:
    """The game at ``table`` (index into the round's tables, from 0) ended with these
    ranks per seat (0 first; equal ranks tie)."""

    kind: ClassVar[str] = "game_finished"
    round: int
    table: int
    ranks: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "round": self.round,
            "table": self.table,
            "ranks": list(self.ranks),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameFinished:
        return cls(int(data["round"]), int(data["table"]), tuple(int(r) for r in data["ranks"]))


@dataclass(frozen=True)
class Forfeited:
    """The game at ``table`` was not played: ``absent`` (player ids) did not come and
    score nothing, the others score a win. The pair has not met (the Swiss may pair it
    again) and no colour is counted."""

    kind: ClassVar[str] = "forfeited"
    round: int
    table: int
    absent: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "round": self.round,
            "table": self.table,
            "absent": list(self.absent),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Forfeited:
        return cls(int(data["round"]), int(data["table"]), tuple(int(p) for p in data["absent"]))


Event = Joined | Withdrew | RoundStarted | GameFinished | Forfeited
_EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (Joined, Withdrew, RoundStarted, GameFinished, Forfeited)
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    kind = data.get("type")
    if kind not in _EVENT_TYPES:
        raise LogError(f"unknown tournament event type {kind!r}")
    try:
        return _EVENT_TYPES[str(kind)].from_json(data)
    except (KeyError, TypeError, ValueError) as error:
        raise LogError(f"a {kind} event with a missing or wrong field: {error}") from error


@dataclass(frozen=True)
class TournamentLog:
    config: TournamentConfig
    events: tuple[Event, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config.to_json(), "events": [e.to_json() for e in self.events]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentLog:
        config = TournamentConfig.from_json(data["config"])
        return cls(config, tuple(event_from_json(event) for event in data["events"]))

    def replay(self) -> TournamentState:
        return replay(self.config, self.events)


@dataclass(frozen=True)
class Entrant:
    """A player as the tournament knows them. ``joined_after``: how many rounds had
    started when they joined; ``withdrawn_after``: the same when they withdrew."""

    player: int
    name: str
    rating: float
    bot: bool
    joined_after: int
    withdrawn_after: int | None = None

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None


@dataclass(frozen=True)
class Game:
    """One table of one round. ``ranks`` None: not finished. ``absent``: a forfeit."""

    round: int
    table: int
    seats: tuple[int, ...]
    ranks: tuple[int, ...] | None = None
    absent: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.ranks is not None

    @property
    def played(self) -> bool:
        """Finished over the board (not a forfeit)."""
        return self.ranks is not None and not self.absent

    def points(self, points_by_rank: Sequence[float]) -> tuple[float, ...]:
        """Points per seat: tied players share the points of the places they hold; a
        forfeit gives the present a win each and the absent nothing."""
        if self.ranks is None:
            raise LogError(f"round {self.round}, table {self.table}: not finished")
        if self.absent:
            return tuple(0.0 if p in self.absent else points_by_rank[0] for p in self.seats)
        return tuple(
            shared_points(self.ranks, seat, points_by_rank) for seat in range(len(self.seats))
        )

    def rank_of(self, player: int) -> int:
        if self.ranks is None:
            raise LogError(f"round {self.round}, table {self.table}: not finished")
        return self.ranks[self.seats.index(player)]


def shared_points(ranks: Sequence[int], seat: int, points_by_rank: Sequence[float]) -> float:
    """The seat's points: places taken by those ranked better, then the mean of the
    points of the places it shares with those tied with it. At a table smaller than
    ``points_by_rank`` (3 at tables of 4) the last place still scores the last points."""
    by_place = [*points_by_rank[: len(ranks) - 1], points_by_rank[-1]]
    better = sum(1 for rank in ranks if rank < ranks[seat])
    tied = sum(1 for rank in ranks if rank == ranks[seat])
    places = by_place[better : better + tied]
    return sum(places) / len(places)


@dataclass(frozen=True)
class TournamentState:
    """What the log says so far. ``entrants`` in the order they joined; ``rounds`` every
    RoundStarted; ``games`` by (round, table); ``order`` every finished game's key in the
    order the results came (the arena's streaks read it)."""

    config: TournamentConfig
    entrants: Mapping[int, Entrant]
    rounds: tuple[RoundStarted, ...]
    games: Mapping[tuple[int, int], Game]
    order: tuple[tuple[int, int], ...] = ()
    events: tuple[Event, ...] = field(default=(), repr=False)

    @property
    def active(self) -> tuple[int, ...]:
        """Players still in, in the order they joined."""
        return tuple(p for p, entrant in self.entrants.items() if not entrant.withdrawn)

    @property
    def rounds_started(self) -> int:
        return len(self.rounds)

    @property
    def round_over(self) -> bool:
        """Every game of the last round has finished (True before the first round)."""
        if not self.rounds:
            return True
        last = self.rounds[-1]
        return all(self.games[(last.round, t)].finished for t in range(len(last.tables)))

    @property
    def may_join(self) -> bool:
        return self.rounds_started < self.config.late_join_until_round

    def games_of(self, player: int) -> list[Game]:
        """The player's games, by round."""
        return [game for game in self.games.values() if player in game.seats]

    def finished_games(self) -> list[Game]:
        return [self.games[key] for key in self.order]

    def byes_of(self, player: int) -> list[int]:
        """The rounds in which the player had a bye."""
        return [r.round for r in self.rounds if player in r.byes]

    def playing(self) -> set[int]:
        """Players seated at a game not finished yet."""
        return {p for game in self.games.values() if not game.finished for p in game.seats}

    def base_points(self) -> dict[int, float]:
        """Every entrant's points from ``points_by_rank`` and byes (the arena adds its
        streak bonus on top in its own standings)."""
        points = dict.fromkeys(self.entrants, 0.0)
        for game in self.finished_games():
            for player, won in zip(
                game.seats, game.points(self.config.points_by_rank), strict=True
            ):
                points[player] += won
        for started in self.rounds:
            for player in started.byes:
                points[player] += self.bye_points(started.round)
        return points

    def bye_points(self, round_number: int) -> float:
        """A Swiss bye scores ``bye_score`` (a win unless set); a pools bye (a player the
        round leaves out) scores ``bye_points`` if set, else an average result, the mean
        of ``points_by_rank``, so that sitting out neither helps nor hurts."""
        config = self.config
        if config.format == "pools" and config.bye_points is None:
            return sum(config.points_by_rank) / len(config.points_by_rank)
        return config.bye_score


def replay(config: TournamentConfig, events: Iterable[Event]) -> TournamentState:
    """The state after these events, checking each against what came before."""
    entrants: dict[int, Entrant] = {}
    rounds: list[RoundStarted] = []
    games: dict[tuple[int, int], Game] = {}
    order: list[tuple[int, int]] = []
    seen: list[Event] = []
    for index, event in enumerate(events):
        where = f"event {index} ({event.kind})"
        match event:
            case Joined():
                if event.player in entrants:
                    raise LogError(f"{where}: player {event.player} has already joined")
                if len(rounds) >= config.late_join_until_round:
                    raise LogError(
                        f"{where}: joining closed when round {config.late_join_until_round} started"
                    )
                entrants[event.player] = Entrant(
                    event.player, event.name, event.rating, event.bot, len(rounds)
                )
            case Withdrew():
                entrant = entrants.get(event.player)
                if entrant is None or entrant.withdrawn:
                    raise LogError(f"{where}: player {event.player} is not in the tournament")
                entrants[event.player] = Entrant(
                    entrant.player, entrant.name, entrant.rating, entrant.bot,
                    entrant.joined_after, len(rounds),
                )  # fmt: skip
            case RoundStarted():
                _check_round(where, event, rounds, entrants, games, config)
                rounds.append(event)
                for number, table in enumerate(event.tables):
                    games[(event.round, number)] = Game(event.round, number, table.seats)
            case GameFinished():
                game = _unfinished(where, games, event.round, event.table)
                if len(event.ranks) != len(game.seats) or min(event.ranks, default=0) < 0:
                    raise LogError(f"{where}: {len(event.ranks)} ranks for {len(game.seats)} seats")
                games[(event.round, event.table)] = Game(
                    game.round, game.table, game.seats, event.ranks
                )
                order.append((event.round, event.table))
            case Forfeited():
                game = _unfinished(where, games, event.round, event.table)
                if not event.absent or not set(event.absent) <= set(game.seats):
                    raise LogError(f"{where}: the absent players are not all at that table")
                ranks = tuple(len(game.seats) - 1 if p in event.absent else 0 for p in game.seats)
                games[(event.round, event.table)] = Game(
                    game.round, game.table, game.seats, ranks, tuple(event.absent)
                )
                order.append((event.round, event.table))
        seen.append(event)
    return TournamentState(config, entrants, tuple(rounds), games, tuple(order), tuple(seen))


def _check_round(
    where: str,
    event: RoundStarted,
    rounds: Sequence[RoundStarted],
    entrants: Mapping[int, Entrant],
    games: Mapping[tuple[int, int], Game],
    config: TournamentConfig,
) -> None:
    expected = len(rounds) + 1
    if event.round != expected:
        raise LogError(f"{where}: round {event.round} where round {expected} comes next")
    if config.format != "arena" and any(not game.finished for game in games.values()):
        raise LogError(f"{where}: round {event.round} starts before round {expected - 1} ended")
    busy = {p for game in games.values() if not game.finished for p in game.seats}
    placed: list[int] = [p for table in event.tables for p in table.seats] + list(event.byes)
    for player in placed:
        entrant = entrants.get(player)
        if entrant is None or entrant.withdrawn:
            raise LogError(f"{where}: player {player} is not in the tournament")
        if player in busy:
            raise LogError(f"{where}: player {player} is still playing")
    if len(set(placed)) != len(placed):
        raise LogError(f"{where}: a player is placed twice")
    for table in event.tables:
        if not 2 <= len(table.seats) <= config.players_per_table:
            raise LogError(f"{where}: a table of {len(table.seats)} players")


def _unfinished(where: str, games: Mapping[tuple[int, int], Game], round_: int, table: int) -> Game:
    game = games.get((round_, table))
    if game is None:
        raise LogError(f"{where}: round {round_} has no table {table}")
    if game.finished:
        raise LogError(f"{where}: round {round_}, table {table} has already finished")
    return game
