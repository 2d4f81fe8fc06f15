"""The Swiss for two-player games (The Rose King): FIDE Dutch pairings, Buchholz and
Sonneborn-Berger.

The pairings come from ``caissify-pairings`` (its ``dutch`` engine, FIDE C.04.3), chosen
over ``py4swiss``; both report no difference from bbpPairings, the FIDE-endorsed pairer:
- caissify-pairings is pure Python (its one dependency is networkx) with wheels for every
  Python from 3.10, where py4swiss ships compiled extensions built for CPython 3.11 on
  x86-64 only (any other Python or machine must compile its C++);
- it takes the tournament as plain data in memory and returns the pairings, where
  py4swiss reads a TRF file from disk;
- it ships a checker (``caissify_pairings.fpc.check_trf``, FIDE's "free pairings
  checker": a TRF re-paired round by round), which the tests run on our tournaments;
- Apache-2.0 (py4swiss: MIT), both fit this MIT project.
It is slower (pure Python matching: about a second a round at 40 players, several at 64),
which a server pairing a round now and then can afford.

What the engine is told, from the log (as the checker derives it from a TRF): each
player's score, the colours of the games actually played (seat 0 is white), the floats
(a bye or a forfeit win is a downfloat; a game against a higher score an upfloat), the
byes and forfeit wins, and the pairs that have met over the board (a forfeit is no
meeting). Pairing numbers: rating, highest first, ties by lot; the first round's colour
for number 1 is drawn by lot. Withdrawn players are no longer paired; late entrants come
in with what they scored (nothing). A bye scores ``bye_points`` (a win by default, as
FIDE's pairing-allocated bye) and goes at most once to a player while someone else can
take it.

Tie-breaks (FIDE C.07): Buchholz, the sum of the opponents' points, each round not played
over the board (a bye, a forfeit) counting as an opponent with the player's own points;
Sonneborn-Berger, the sum over games played of the opponent's points times the player's
result (a win the whole, a draw half).
"""

from __future__ import annotations

import math
import random
from typing import Any

from caissify_pairings import generate_pairings

from roses.server.tournaments.log import (
    Game,
    PairingError,
    RoundStarted,
    Table,
    TournamentState,
)
from roses.server.tournaments.standings import Standing, rank, rows

TIE_BREAKS = ("buchholz", "sonneborn_berger")


def lot(seed: int, *what: object) -> float:
    """A number in [0, 1) drawn for ``what`` from the tournament's seed: the same every
    replay, and independent of everything else drawn."""
    return random.Random(":".join(map(str, (seed, *what)))).random()


def rounds_total(state: TournamentState) -> int:
    """The config's rounds, or enough for one player to win them all."""
    if state.config.rounds is not None:
        return state.config.rounds
    return max(1, math.ceil(math.log2(max(2, len(state.entrants)))))


def pairing_numbers(state: TournamentState) -> dict[int, int]:
    """Every entrant's pairing number (from 1): rating, highest first, ties by lot."""
    seed = state.config.seed
    order = sorted(state.entrants.values(), key=lambda e: (-e.rating, lot(seed, "order", e.player)))
    return {entrant.player: number for number, entrant in enumerate(order, 1)}


def initial_colour(state: TournamentState) -> str:
    return "white" if lot(state.config.seed, "colour") < 0.5 else "black"


def engine_players(state: TournamentState) -> list[dict[str, Any]]:
    """The active players as the Dutch engine takes them (its README's contract)."""
    numbers = pairing_numbers(state)
    points = state.config.points_by_rank
    after: dict[int, dict[int, float]] = {}  # player -> round -> points after it
    running = dict.fromkeys(state.entrants, 0.0)
    for started in state.rounds:
        for number in range(len(started.tables)):
            table = state.games[(started.round, number)]
            if table.finished:
                for player, won in zip(table.seats, table.points(points), strict=True):
                    running[player] += won
        for player in started.byes:
            running[player] += state.bye_points(started.round)
        after[started.round] = dict(running)

    players = []
    for player in state.active:
        colours: list[str] = []
        floats: list[str] = []
        byes = forfeit_wins = 0
        for started in state.rounds:
            before = after.get(started.round - 1, dict.fromkeys(state.entrants, 0.0))
            if player in started.byes:
                byes += 1
                floats.append("down")
                continue
            game = _game_in(state, started, player)
            if game is None:
                continue  # not yet in the tournament
            if not game.played:
                forfeit_won = bool(game.absent) and player not in game.absent
                forfeit_wins += forfeit_won
                floats.append("down" if forfeit_won else "none")
                continue
            colours.append("white" if game.seats[0] == player else "black")
            opponent = _opponent(game, player)
            mine, theirs = before[player], before[opponent]
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        entrant = state.entrants[player]
        players.append(
            {
                "id": player,
                "name": entrant.name,
                "score": running[player],
                "rating": round(entrant.rating),
                "starting_number": numbers[player],
                "color_hist": colours,
                "float_history": floats,
                "bye_count": byes,
                "forfeit_win_count": forfeit_wins,
            }
        )
    return players


def met(state: TournamentState) -> set[tuple[int, int]]:
    """Pairs (lower id first) that have played each other over the board."""
    return {(min(game.seats), max(game.seats)) for game in state.games.values() if game.played}


def next_round(state: TournamentState) -> RoundStarted:
    """The next round's tables (white first) and its bye, or PairingError."""
    if not state.round_over:
        raise PairingError(f"round {state.rounds_started} is still being played")
    total = rounds_total(state)
    if state.rounds_started >= total:
        raise PairingError(f"all {total} rounds have been played")
    players = engine_players(state)
    if len(players) < 2:
        raise PairingError("fewer than two players are left")
    number = state.rounds_started + 1
    most_byes = max(p["bye_count"] for p in players)
    # FIDE gives a player one bye at most; only when everyone has had one may a second
    # follow (a small field playing many rounds).
    everyone_byed = all(p["bye_count"] + p["forfeit_win_count"] >= 1 for p in players)
    try:
        pairings = generate_pairings(
            system="dutch",
            players=players,
            previous_pairings=met(state),
            round_number=number,
            total_rounds=max(total, number),
            bye_value=state.config.bye_score,
            max_byes_per_player=most_byes + 1 if everyone_byed else 1,
            initial_color=initial_colour(state),
        )
    except Exception as error:  # the engine says why in its own words
        raise PairingError(f"round {number} cannot be paired: {error}") from error
    tables: list[Table] = []
    byes: list[int] = []
    for row in sorted(pairings, key=lambda row: int(row["table"])):
        if row.get("black_id") is None:
            byes.append(int(row["white_id"]))
        else:
            tables.append(Table((int(row["white_id"]), int(row["black_id"]))))
    paired = sorted([p for table in tables for p in table.seats] + byes)
    # With no pairing left that avoids a repeat the engine hands out byes to all it
    # cannot pair: a round is one bye at most (an odd count) or none.
    if paired != sorted(p["id"] for p in players) or len(byes) > len(players) % 2:
        raise PairingError(f"round {number} cannot be paired without a repeat")
    return RoundStarted(number, tuple(tables), tuple(byes))


def _game_in(state: TournamentState, started: RoundStarted, player: int) -> Game | None:
    for number in range(len(started.tables)):
        game = state.games[(started.round, number)]
        if player in game.seats:
            return game
    return None


def _opponent(game: Game, player: int) -> int:
    return game.seats[1] if game.seats[0] == player else game.seats[0]


def tie_breaks(state: TournamentState) -> dict[int, tuple[tuple[str, float], ...]]:
    """Buchholz and Sonneborn-Berger of every entrant, over the finished games."""
    points = state.base_points()
    values: dict[int, tuple[tuple[str, float], ...]] = {}
    win = state.config.points_by_rank[0]
    for player in state.entrants:
        buchholz = sonneborn = 0.0
        for started in state.rounds:
            game = _game_in(state, started, player)
            if game is None or not game.played:
                if player in started.byes or (game is not None and game.finished):
                    buchholz += points[player]  # a bye or a forfeit: a virtual opponent
                continue
            opponent = _opponent(game, player)
            buchholz += points[opponent]
            result = game.points(state.config.points_by_rank)[game.seats.index(player)]
            sonneborn += points[opponent] * (result / win if win else 0.0)
        values[player] = (("buchholz", buchholz), ("sonneborn_berger", sonneborn))
    return values


def standings(state: TournamentState) -> list[Standing]:
    """Points, then Buchholz, then Sonneborn-Berger."""
    return rank(rows(state, state.base_points(), tie_breaks(state)))
