"""Round-robin pools for tables of more than two (Wars of the Roses at 3 or 4, The Rose
King's team game at 4): rounds of tables drawn so that players meet as evenly as the
numbers allow and each plays each seat as evenly as possible; points per rank; an
optional final among the best.

Rally the Troops runs such pools from fixed block designs, every game of a pool played at
once. Here a round seats each player at one table at most, and players may join late or
withdraw, so the design is drawn for the rounds still to come from what the log says:
- the table sizes: as few tables as hold everyone, as even as they can be and none
  smaller than ``min_players_per_table`` (default: full tables); when the count cannot
  fill them, the fewest players sit out (a bye, an average result, see
  `TournamentState.bye_points`), those who sat out least first, then those who played
  most, ties by lot;
- the tables of every remaining round at once (`design`): a schedule that costs least,
  a pair costing the cube of its meetings (so a third meeting before anyone's first is
  never worth it) and each player's count in each seat its square; found by simulated
  annealing from starts drawn from the seed (swapping two players of a round between
  tables, or two seats at a table), the cheapest kept. In a team game (``teams`` in
  the config) partners are priced like meetings too, so that each partners each other
  as evenly as meetings allow (8 players over 7 rounds: each partners each other once,
  a whist tournament). It reaches the block designs
  where they exist (9 at tables of 3 in 4 rounds, 16 at tables of 4 in 5 rounds: every
  pair once; 8 at tables of 4 in 7 rounds: every pair 3 times) and elsewhere keeps every
  pair's meetings within 2 of each other and each player's seats within 1 (the tests);
- each round asks for the design again (memoised: the same log, the same design) and
  takes its own round from it; when the players changed since, or the log went another
  way, the rounds left are designed afresh from the games played.
Default rounds: the fewest in which everyone could meet everyone, ``ceil((n - 1) /
(k - 1))`` for n players at tables of k. ``final``: one more round, the best
``final_size`` (default a full table) of the pools at one table, seated in the order of
the pools' standings; they rank above everyone else, by the final's result.

Standings: points, then (after a final) the final's points, first places (``wins``), and
``opponents_points``, the sum over one's games of the others' points at that table.
"""

from __future__ import annotations

import functools
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

STEPS = 2500  # annealing steps per planned round and start
STARTS = 2  # seeded starts; the cheapest schedule is kept
SEAT_WEIGHT = 3.0  # on a seat's count squared, against a pair's meetings cubed


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


def _cost_of_meeting(times: int) -> int:
    return times**3


def anneal(
    met: list[list[int]],
    sat: list[list[int]],
    schedule: list[list[list[int]]],
    rng: random.Random,
    steps: int,
    partners: Partners | None = None,
) -> float:
    """Improves ``schedule`` (rounds of tables of player indices in seat order) in place
    by simulated annealing: moves swap two players of one round between tables (each
    takes the other's seat) or two seats at one table, a worse schedule accepted now and
    then while the temperature falls; returns the cost reached. ``met`` and ``sat`` (the
    meetings and seats so far) are updated with the schedule's own; so are ``partners``
    (a team game's), whose pairs are priced like meetings."""
    for tables in schedule:
        for table in tables:
            for seat, player in enumerate(table):
                sat[player][seat] += 1
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            if partners:
                partners.add(table, 1)

    def seat_delta(player: int, old: int, new: int) -> float:
        had_old, had_new = sat[player][old], sat[player][new]
        return SEAT_WEIGHT * ((had_old - 1) ** 2 - had_old**2 + (had_new + 1) ** 2 - had_new**2)

    def move_seat(player: int, old: int, new: int) -> None:
        sat[player][old] -= 1
        sat[player][new] += 1

    def meet(player: int, others: Iterable[int], step: int) -> None:
        for other in others:
            met[player][other] += step
            met[other][player] += step

    busy = [r for r, tables in enumerate(schedule) if tables]
    cost = 0.0
    hot, cold = 2.0, 0.02
    for step in range(steps if busy else 0):
        temperature = hot * (cold / hot) ** (step / steps)
        tables = schedule[rng.choice(busy)]
        if len(tables) >= 2 and rng.random() < 0.8:
            i, j = rng.sample(range(len(tables)), 2)
            first, second = tables[i], tables[j]
            x, y = rng.randrange(len(first)), rng.randrange(len(second))
            p, q = first[x], second[y]
            delta = seat_delta(p, x, y) + seat_delta(q, y, x)
            if partners:
                delta += partners.swap_delta(first, x, second, y)
            for other in first:
                if other != p:
                    delta += _meeting_change(met[p][other], -1) + _meeting_change(met[q][other], 1)
            for other in second:
                if other != q:
                    delta += _meeting_change(met[q][other], -1) + _meeting_change(met[p][other], 1)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                meet(p, (o for o in first if o != p), -1)
                meet(q, (o for o in second if o != q), -1)
                if partners:
                    partners.add(first, -1)
                    partners.add(second, -1)
                first[x], second[y] = q, p
                if partners:
                    partners.add(first, 1)
                    partners.add(second, 1)
                meet(q, (o for o in first if o != q), 1)
                meet(p, (o for o in second if o != p), 1)
                move_seat(p, x, y)
                move_seat(q, y, x)
                cost += delta
        else:
            table = tables[rng.randrange(len(tables))]
            x, y = rng.sample(range(len(table)), 2)
            p, q = table[x], table[y]
            delta = seat_delta(p, x, y) + seat_delta(q, y, x)
            if partners:
                delta += partners.swap_delta(table, x, table, y)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                if partners:
                    partners.add(table, -1)
                table[x], table[y] = q, p
                if partners:
                    partners.add(table, 1)
                move_seat(p, x, y)
                move_seat(q, y, x)
                cost += delta
    return cost


class Partners:
    """How often each two players were partners (a team game: seats of one team at a
    table), for a table of the full size; ``teams`` gives each seat's team."""

    def __init__(self, players: int, teams: Sequence[int]) -> None:
        self.times = [[0] * players for _ in range(players)]
        self.seat_pairs = [
            (i, j) for i, j in itertools.combinations(range(len(teams)), 2) if teams[i] == teams[j]
        ]
        self.size = len(teams)

    def __bool__(self) -> bool:
        return bool(self.seat_pairs)

    def pairs(self, table: Sequence[int]) -> list[tuple[int, int]]:
        if len(table) != self.size:
            return []
        return [(table[i], table[j]) for i, j in self.seat_pairs]

    def add(self, table: Sequence[int], step: int) -> None:
        for a, b in self.pairs(table):
            self.times[a][b] += step
            self.times[b][a] += step

    def swap_delta(self, first: list[int], x: int, second: list[int], y: int) -> float:
        """The cost change of swapping ``first[x]`` and ``second[y]`` (one table or two)."""
        tables = [first] if first is second else [first, second]
        change: dict[tuple[int, int], int] = defaultdict(int)
        for table in tables:
            for a, b in self.pairs(table):
                change[(min(a, b), max(a, b))] -= 1
        first[x], second[y] = second[y], first[x]
        for table in tables:
            for a, b in self.pairs(table):
                change[(min(a, b), max(a, b))] += 1
        first[x], second[y] = second[y], first[x]
        return sum(
            _meeting_change(self.times[a][b], step) for (a, b), step in change.items() if step
        )

    def cost(self) -> float:
        return sum(_cost_of_meeting(t) for row in self.times for t in row) / 2


def _meeting_change(times: int, step: int) -> int:
    return _cost_of_meeting(times + step) - _cost_of_meeting(times)


def _total_cost(met: list[list[int]], sat: list[list[int]]) -> float:
    meetings = sum(_cost_of_meeting(m) for row in met for m in row) / 2
    return meetings + SEAT_WEIGHT * sum(s * s for row in sat for s in row)


@functools.lru_cache(maxsize=32)
def design(
    players: tuple[int, ...],
    rounds: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    met_before: tuple[tuple[int, int, int], ...],
    sat_before: tuple[tuple[int, int, int], ...],
    seats: int,
    seed: str,
    teams: tuple[int, ...] = (),
    partners_before: tuple[tuple[int, int, int], ...] = (),
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The tables of ``rounds`` (each: its table sizes and who sits out) for ``players``,
    given who met whom (a, b, times) and who sat where (player, seat, times) before,
    and for a team game (``teams``: each seat's team) who partnered whom: the cheapest
    of ``STARTS`` annealed schedules. Same arguments, same design (memoised: every round
    of a pool asks again for the design it was drawn from)."""
    index = {player: i for i, player in enumerate(players)}
    best: list[list[list[int]]] = []
    best_cost = math.inf
    rng = random.Random(seed)
    for _ in range(STARTS):
        met = [[0] * len(players) for _ in players]
        for a, b, times in met_before:
            met[index[a]][index[b]] = met[index[b]][index[a]] = times
        sat = [[0] * seats for _ in players]
        for player, seat, times in sat_before:
            sat[index[player]][seat] = times
        partners = Partners(len(players), teams)
        for a, b, times in partners_before:
            partners.times[index[a]][index[b]] = partners.times[index[b]][index[a]] = times
        schedule: list[list[list[int]]] = []
        for sizes, byes in rounds:
            free = [index[p] for p in players if p not in byes]
            rng.shuffle(free)
            tables = []
            for size in sizes:
                tables.append(free[:size])
                free = free[size:]
            schedule.append(tables)
        anneal(met, sat, schedule, rng, STEPS * len(rounds), partners)
        cost = _total_cost(met, sat) + partners.cost()
        if cost < best_cost:
            best, best_cost = schedule, cost
    return tuple(
        tuple(sorted(tuple(players[i] for i in table) for table in tables)) for tables in best
    )


def next_round(state: TournamentState) -> RoundStarted:
    """The next pools round, or the final, or PairingError."""
    if not state.round_over:
        raise PairingError(f"round {state.rounds_started} is still being played")
    number = state.rounds_started + 1
    if number > rounds_total(state):
        raise PairingError(f"all {rounds_total(state)} rounds have been played")
    if number > pool_rounds(state):
        return final_round(state, number)
    players = frozenset(state.active)
    # The rounds since the players last changed were drawn as one design: draw it again
    # (the same log gives the same design) and take its next round; if the log went
    # another way, draw the remaining rounds afresh.
    start = number
    while start > 1 and _placed(state.rounds[start - 2]) == players:
        start -= 1
    planned = _designed(state, start, players)
    if planned[: number - start] != list(state.rounds[start - 1 : number - 1]):
        start = number
        planned = _designed(state, start, players)
    return planned[number - start]


def _placed(started: RoundStarted) -> frozenset[int]:
    return frozenset([*(p for table in started.tables for p in table.seats), *started.byes])


def _designed(state: TournamentState, start: int, players: frozenset[int]) -> list[RoundStarted]:
    """Rounds ``start`` to the last of the pools, drawn together from the games before."""
    config = state.config
    earlier = [game for game in state.games.values() if game.round < start]
    met: dict[tuple[int, int], int] = defaultdict(int)
    sat: dict[tuple[int, int], int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    for game in earlier:
        for seat, player in enumerate(game.seats):
            sat[(player, seat)] += 1
            played[player] += 1
        for a, b in itertools.combinations(sorted(game.seats), 2):
            met[(a, b)] += 1
    teams = config.teams
    partnered: dict[tuple[int, int], int] = defaultdict(int)
    for game in earlier:
        if len(game.seats) == len(teams):
            for i, j in itertools.combinations(range(len(teams)), 2):
                if teams[i] == teams[j]:
                    partnered[
                        (min(game.seats[i], game.seats[j]), max(game.seats[i], game.seats[j]))
                    ] += 1
    byes: dict[int, int] = defaultdict(int)
    for started in state.rounds[: start - 1]:
        for player in started.byes:
            byes[player] += 1
    sizes, sitting_out = table_sizes(len(players), config.players_per_table, config.smallest_table)
    if not sizes:
        raise PairingError(f"{len(players)} players cannot fill a table")
    rounds = []
    for number in range(start, pool_rounds(state) + 1):
        order = sorted(players, key=lambda p: (byes[p], -played[p], lot(config.seed, number, p)))
        out = tuple(sorted(order[:sitting_out]))
        for player in players:
            if player in out:
                byes[player] += 1
            else:
                played[player] += 1
        rounds.append((tuple(sizes), out))
    tables = design(
        tuple(sorted(players)),
        tuple(rounds),
        tuple(
            sorted((a, b, times) for (a, b), times in met.items() if a in players and b in players)
        ),
        tuple(sorted((p, seat, times) for (p, seat), times in sat.items() if p in players)),
        config.players_per_table,
        f"{config.seed}:pools:{start}",
        teams,
        tuple(sorted((a, b, n) for (a, b), n in partnered.items() if {a, b} <= players)),
    )
    return [
        RoundStarted(number, tuple(Table(seats) for seats in drawn), out)
        for number, drawn, (_, out) in zip(
            range(start, pool_rounds(state) + 1), tables, rounds, strict=True
        )
    ]


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
