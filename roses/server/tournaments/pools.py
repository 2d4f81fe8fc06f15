"""Round-robin pools for tables of more than two (Wars of the Roses at 3 or 4, The Rose
King's team game at 4): rounds of tables drawn so that players meet as evenly as the
numbers allow and each plays each seat as evenly as possible; points per rank; an
optional final among the best.

Rally the Troops runs such pools from fixed block designs, every game of a pool played at
once. Here a round seats every player at one table, so the design is drawn round by
round from what the log says so far, which also takes in late entrants and withdrawals:
- the table sizes: as few tables as hold everyone, as even as they can be and none
  smaller than ``min_players_per_table`` (default: full tables); when the count cannot
  fill them, the fewest players sit out (a bye, an average result, see
  `TournamentState.bye_points`), those who sat out least first, ties by lot;
- the tables: the partition of the players that costs least, a pair costing more the
  more often it has met (a steep, convex price: a third meeting before anyone's first is
  never a bargain), plus each player's seat at the table costing more the more often
  they have had it; found by swapping players between tables from several starts drawn
  from the seed, keeping the cheapest (the tests check the balance it reaches);
- the seats: at each table the order that costs least for those seat counts.
Default rounds: the fewest in which everyone could meet everyone, ``ceil((n - 1) /
(k - 1))`` for n players at tables of k. ``final``: one more round, the best
``final_size`` (default a full table) of the pools at one table, seated in the order of
the pools' standings; they rank above everyone else, by the final's result.

Standings: points, then (after a final) the final's points, first places (``wins``), and
``opponents_points``, the sum over one's games of the others' points at that table.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence

from roses.server.tournaments.log import (
    PairingError,
    RoundStarted,
    Table,
    TournamentState,
    replay,
)
from roses.server.tournaments.standings import Standing, rank, rows
from roses.server.tournaments.swiss import lot

STARTS = 6  # seeded starting partitions the swaps improve; the cheapest is kept
SEAT_WEIGHT = 2.0  # a seat had once more weighs as a meeting had twice more
UNEVEN_SEAT = 50.0  # on top, a seat that would put a player's seats 2 apart


def pool_rounds(state: TournamentState) -> int:
    config = state.config
    if config.rounds is not None:
        return config.rounds
    players = max(2, len(state.entrants))
    return max(1, math.ceil((players - 1) / (config.players_per_table - 1)))


def rounds_total(state: TournamentState) -> int:
    return pool_rounds(state) + (1 if state.config.final else 0)


def table_sizes(count: int, largest: int, smallest: int) -> tuple[list[int], int]:
    """The sizes of the tables for ``count`` players, and how many sit out."""
    tables = math.ceil(count / largest)
    if tables and tables * smallest <= count:
        base, extra = divmod(count, tables)
        return [base + 1] * extra + [base] * (tables - extra), 0
    tables = count // largest
    return [largest] * tables, count - tables * largest


class History:
    """Who met whom and who sat where, in the games so far."""

    def __init__(self, state: TournamentState) -> None:
        self.meetings: dict[tuple[int, int], int] = defaultdict(int)
        self.seats: dict[tuple[int, int], int] = defaultdict(int)
        for game in state.games.values():
            for seat, player in enumerate(game.seats):
                self.seats[(player, seat)] += 1
            for a, b in itertools.combinations(sorted(game.seats), 2):
                self.meetings[(a, b)] += 1

    def meeting_cost(self, players: Sequence[int]) -> float:
        total = 0.0
        for a, b in itertools.combinations(sorted(players), 2):
            met = self.meetings[(a, b)]
            total += (met + 1) ** 3 - met**3
        return total

    def seat_cost(self, order: Sequence[int]) -> float:
        total = 0.0
        for seat, player in enumerate(order):
            had = self.seats[(player, seat)]
            total += (had + 1) ** 2 - had**2
            if had > min(self.seats[(player, other)] for other in range(len(order))):
                total += UNEVEN_SEAT  # a seat had more often than another: avoid it
        return SEAT_WEIGHT * total

    def seating(self, players: Sequence[int]) -> tuple[tuple[int, ...], float]:
        """The cheapest seat order for these players (the first found among equals)."""
        best: tuple[int, ...] = tuple(players)
        best_cost = math.inf
        for order in itertools.permutations(players):
            cost = self.seat_cost(order)
            if cost < best_cost:
                best, best_cost = order, cost
        return best, best_cost


def draw_tables(
    history: History, players: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[tuple[int, ...]]:
    """The cheapest tables found from ``STARTS`` seeded starts, each seated."""
    cache: dict[tuple[int, ...], tuple[tuple[int, ...], float]] = {}

    def cost_of(table: Sequence[int]) -> tuple[tuple[int, ...], float]:
        key = tuple(sorted(table))
        if key not in cache:
            order, seats = history.seating(key)
            cache[key] = (order, history.meeting_cost(key) + seats)
        return cache[key]

    best: list[list[int]] = []
    best_cost = math.inf
    for _ in range(STARTS):
        shuffled = list(players)
        rng.shuffle(shuffled)
        tables: list[list[int]] = []
        for size in sizes:
            tables.append(shuffled[:size])
            shuffled = shuffled[size:]
        improved = True
        while improved:
            improved = False
            for i, j in itertools.combinations(range(len(tables)), 2):
                for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                    before = cost_of(tables[i])[1] + cost_of(tables[j])[1]
                    first, second = list(tables[i]), list(tables[j])
                    first[a], second[b] = second[b], first[a]
                    if cost_of(first)[1] + cost_of(second)[1] < before - 1e-9:
                        tables[i], tables[j] = first, second
                        improved = True
        total = sum(cost_of(table)[1] for table in tables)
        if total < best_cost:
            best, best_cost = tables, total
    return sorted(cost_of(table)[0] for table in best)


def next_round(state: TournamentState) -> RoundStarted:
    """The next pools round, or the final, or PairingError."""
    if not state.round_over:
        raise PairingError(f"round {state.rounds_started} is still being played")
    number = state.rounds_started + 1
    config = state.config
    if number > rounds_total(state):
        raise PairingError(f"all {rounds_total(state)} rounds have been played")
    if number > pool_rounds(state):
        return final_round(state, number)
    players = list(state.active)
    sizes, sitting_out = table_sizes(len(players), config.players_per_table, config.smallest_table)
    if not sizes:
        raise PairingError(f"{len(players)} players cannot fill a table")
    byes: list[int] = []
    if sitting_out:
        played = {p: len(state.games_of(p)) for p in players}
        sat = {p: len(state.byes_of(p)) for p in players}
        order = sorted(players, key=lambda p: (sat[p], -played[p], lot(config.seed, number, p)))
        byes = sorted(order[:sitting_out])
        players = [p for p in players if p not in byes]
    rng = random.Random(f"{config.seed}:pools:{number}")
    tables = draw_tables(History(state), sorted(players), sizes, rng)
    return RoundStarted(number, tuple(Table(seats) for seats in tables), tuple(byes))


def final_round(state: TournamentState, number: int) -> RoundStarted:
    config = state.config
    size = min(config.final_size or config.players_per_table, config.players_per_table)
    best = [row.player for row in standings(state) if not row.withdrawn][:size]
    if len(best) < 2:
        raise PairingError("fewer than two players are left for the final")
    return RoundStarted(number, (Table(tuple(best)),), ())


def _tie_breaks(state: TournamentState) -> dict[int, tuple[tuple[str, float], ...]]:
    points = state.base_points()
    values: dict[int, tuple[tuple[str, float], ...]] = {}
    for player in state.entrants:
        games = [game for game in state.games_of(player) if game.finished]
        wins = sum(1 for game in games if game.rank_of(player) == 0)
        others = sum(points[p] for game in games for p in game.seats if p != player)
        values[player] = (("wins", float(wins)), ("opponents_points", others))
    return values


def _before_final(state: TournamentState) -> TournamentState:
    """The state as the pools ended, without the final."""
    cut = next(
        i
        for i, event in enumerate(state.events)
        if isinstance(event, RoundStarted) and event.round == pool_rounds(state) + 1
    )
    return replay(state.config, state.events[:cut])


def standings(state: TournamentState) -> list[Standing]:
    if not (state.config.final and state.rounds_started > pool_rounds(state)):
        return rank(rows(state, state.base_points(), _tie_breaks(state)))
    pools = _before_final(state)
    final = state.games[(pool_rounds(state) + 1, 0)]
    final_points: dict[int, float] = {}
    if final.finished:
        final_points = dict(
            zip(final.seats, final.points(state.config.points_by_rank), strict=True)
        )
    tie_breaks = {
        player: (("final", final_points.get(player, 0.0)), *values)
        for player, values in _tie_breaks(pools).items()
    }
    unranked = rows(state, pools.base_points(), tie_breaks)
    finalists = set(final.seats)

    def key(row: Standing) -> Iterable[float]:
        return (float(row.player in finalists), row.tie_break("final"), row.points,
                row.tie_break("wins"), row.tie_break("opponents_points"))  # fmt: skip

    return rank(unranked, lambda row: tuple(key(row)))
