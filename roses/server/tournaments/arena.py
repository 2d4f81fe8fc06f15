"""The arena, as lichess runs it: for a fixed time, whoever is free is paired at once with
a near-ranked opponent, never the one they have just played; a win scores 2, a draw 1
(``points_by_rank`` (2, 0): the room sets it), and after two wins in a row every game
counts double (a win 4, a draw 2) until the player fails to win.

Pairing (`pair_waiting`): the waiting players (joined, not withdrawn, not at a table) are
ordered by the standings now (before any game, by rating; ties by lot), and each, from
the top, sits with the next free player in that order who was not at their last table;
a player left over waits for the next call. The first seat (moves first) goes to whoever
of the table has had it least, ties to the better ranked. Nothing is paired once
``ends_at`` has passed. The room logs the tables one call makes as one `RoundStarted`.

Standings: points with the streak bonus, the results read in the order they arrived;
the tie-break is the performance (lichess's): the mean over one's games of the
opponent's rating, plus 400 for a win and minus 400 for a loss.
"""

from __future__ import annotations

from collections.abc import Sequence

from roses.server.tournaments.log import Game, PairingError, Table, TournamentState
from roses.server.tournaments.standings import Standing, rank, rows
from roses.server.tournaments.swiss import lot

STREAK = 2  # wins in a row after which games count double


def scores(state: TournamentState) -> tuple[dict[int, float], dict[int, int]]:
    """Every entrant's points with the streak bonus, and their wins in a row now."""
    points = dict.fromkeys(state.entrants, 0.0)
    streak = dict.fromkeys(state.entrants, 0)
    for game in state.finished_games():
        won = game.points(state.config.points_by_rank)
        for player, base in zip(game.seats, won, strict=True):
            points[player] += base * (2 if streak[player] >= STREAK else 1)
            first = game.rank_of(player) == 0 and len(set(game.ranks or ())) > 1
            streak[player] = streak[player] + 1 if first else 0
    return points, streak


def on_streak(state: TournamentState) -> set[int]:
    """Players whose next game counts double (lichess's flame)."""
    return {player for player, wins in scores(state)[1].items() if wins >= STREAK}


def _performance(state: TournamentState, player: int, games: Sequence[Game]) -> float:
    if not games:
        return 0.0
    total = 0.0
    for game in games:
        others = [p for p in game.seats if p != player]
        total += sum(state.entrants[p].rating for p in others) / len(others)
        if len(set(game.ranks or ())) > 1:
            total += 400.0 if game.rank_of(player) == 0 else -400.0
    return round(total / len(games), 1)


def standings(state: TournamentState) -> list[Standing]:
    points, _ = scores(state)
    tie_breaks = {
        player: (("performance", _performance(state, player, _finished(state, player))),)
        for player in state.entrants
    }
    return rank(rows(state, points, tie_breaks))


def _finished(state: TournamentState, player: int) -> list[Game]:
    return [game for game in state.finished_games() if player in game.seats]


def last_opponents(state: TournamentState) -> dict[int, set[int]]:
    """Every player's opponents at their last finished game (none before any)."""
    last: dict[int, set[int]] = {player: set() for player in state.entrants}
    for game in state.finished_games():
        for player in game.seats:
            last[player] = set(game.seats) - {player}
    return last


def pair_waiting(state: TournamentState, waiting: Sequence[int], now: float) -> tuple[Table, ...]:
    """The tables to start now among the waiting players (see the module's account)."""
    config = state.config
    if config.ends_at is not None and now >= config.ends_at:
        return ()
    busy = state.playing()
    active = set(state.active)
    free = sorted({p for p in waiting if p in active and p not in busy})
    if not state.finished_games():
        position = {p: i for i, p in enumerate(_by_rating(state))}
    else:
        position = {row.player: i for i, row in enumerate(standings(state))}
    order = sorted(free, key=lambda p: (position[p], lot(config.seed, "arena", p)))
    first_seats = dict.fromkeys(order, 0)
    for game in state.finished_games():
        if game.seats[0] in first_seats:
            first_seats[game.seats[0]] += 1
    last = last_opponents(state)
    tables: list[Table] = []
    unseated = list(order)
    while len(unseated) >= config.players_per_table:
        table = [unseated.pop(0)]
        for candidate in list(unseated):
            if len(table) == config.players_per_table:
                break
            if any(candidate in last[p] or p in last[candidate] for p in table):
                continue
            table.append(candidate)
            unseated.remove(candidate)
        if len(table) < config.players_per_table:
            # No one new for the first of them now: they wait, the others go back.
            unseated = sorted(table[1:] + unseated, key=order.index)
            continue
        seats = sorted(table, key=lambda p: (first_seats[p], position[p]))
        tables.append(Table(tuple(seats)))
    return tuple(tables)


def _by_rating(state: TournamentState) -> list[int]:
    seed = state.config.seed
    return sorted(state.entrants, key=lambda p: (-state.entrants[p].rating, lot(seed, "arena", p)))


def finished(state: TournamentState, now: float) -> bool:
    ends_at = state.config.ends_at
    return ends_at is not None and now >= ends_at and not state.playing()


def no_rounds() -> PairingError:
    return PairingError("an arena pairs players as they come free, not in rounds")
