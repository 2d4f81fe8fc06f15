"""The Swiss for two-player games (The Rose King): FIDE Dutch pairings, Buchholz and
Sonneborn-Berger.

The pairings come from ``py4swiss`` (its Dutch engine, FIDE C.04.3 as in force until
2026). Both candidates the issue names report no difference from bbpPairings, the
FIDE-endorsed pairer; ``caissify-pairings`` came first (pure Python, data in memory, a
checker), but re-pairing our own tournaments with both disagreed on 24 of 149 rounds
(21 in colours only, 3 in who meets whom), and where the rules decide plainly caissify
is the one that strays: two players with the
same colour history and preference, caissify gives the colour to the lower pairing
number, where FIDE (E.4, with A.2's order) gives it to the higher score first; py4swiss
follows the rule. py4swiss is MIT, keeps bbpPairings' matching in a compiled extension
(fast: a round of 64 in well under a second), and ships wheels for CPython 3.11 to 3.13
on Linux x86-64, Windows and macOS on ARM, but no source to build elsewhere (Linux on
ARM). It has no pairings checker: the tests check hand-worked cases and FIDE's
properties instead.

What the engine is told is a TRF, FIDE's tournament report, built in memory from the log
(no file): every entrant by pairing number (rating, highest first, ties by lot), each
round's result (seat 0 is white; a game not played over the board a forfeit, a bye the
pairing-allocated bye, a round before joining or after withdrawing a zero-point bye),
the withdrawn marked as not to be paired, the number of rounds and the first round's
colour for number 1, drawn by lot. The engine derives colours, floats and who may still
have a bye as bbpPairings does; it pairs with FIDE's points (1, a half, 0) and scores the
bye ``bye_points`` (a win by default); a player gets one bye at most, as FIDE says.

Tie-breaks (FIDE C.07): Buchholz, the sum of the opponents' points, each round not played
over the board (a bye, a forfeit) counting as an opponent with the player's own points;
Sonneborn-Berger, the sum over games played of the opponent's points times the player's
result (a win the whole, a draw half).
"""

from __future__ import annotations

import math
import random

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError as EnginePairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import (
    ColorToken,
    ResultToken,
    RoundResult,
    ScoringPointSystem,
    ScoringPointSystemCode,
)
from py4swiss.trf.sections import PlayerSection, TournamentSection, XSection
from py4swiss.trf.sections.x_section import XSectionConfiguration

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


def report(state: TournamentState) -> ParsedTrf:
    """The tournament so far as py4swiss reads it (a TRF), players by pairing number."""
    numbers = pairing_numbers(state)
    scoring = ScoringPointSystem()
    bye = round(state.config.bye_score * 10)
    scoring.apply_code(ScoringPointSystemCode.PAIRING_ALLOCATED_BYE, bye)
    sections = []
    for player, number in sorted(numbers.items(), key=lambda item: item[1]):
        results = [_result(state, started, player, numbers) for started in state.rounds]
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=number,
                name=state.entrants[player].name,
                points_times_ten=sum(scoring.get_points_times_ten(r) for r in results),
                rank=number,
                results=results,
            )
        )
    withdrawn = {numbers[p] for p, entrant in state.entrants.items() if entrant.withdrawn}
    colour = XSectionConfiguration(first_round_color=initial_colour(state) == "white")
    rounds = max(rounds_total(state), state.rounds_started + 1)
    extra = XSection(
        number_of_rounds=rounds,
        zeroed_ids=withdrawn,
        scoring_point_system=scoring,
        configuration=colour,
    )
    trf = ParsedTrf(
        player_sections=sections, tournament_section=TournamentSection(), x_section=extra
    )
    trf.validate_contents()
    return trf


def _result(
    state: TournamentState, started: RoundStarted, player: int, numbers: dict[int, int]
) -> RoundResult:
    if player in started.byes:
        return RoundResult(
            id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE
        )
    game = _game_in(state, started, player)
    if game is None:  # not in the tournament at that round
        return RoundResult(
            id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.ZERO_POINT_BYE
        )
    colour = ColorToken.WHITE if game.seats[0] == player else ColorToken.BLACK
    opponent = numbers[_opponent(game, player)]
    if game.absent:
        absent = player in game.absent
        return RoundResult(
            id=opponent,
            color=colour,
            result=ResultToken.FORFEIT_LOSS if absent else ResultToken.FORFEIT_WIN,
        )
    mine = game.rank_of(player)
    theirs = game.rank_of(_opponent(game, player))
    outcome = (
        ResultToken.DRAW
        if mine == theirs
        else ResultToken.WIN
        if mine < theirs
        else ResultToken.LOSS
    )
    return RoundResult(id=opponent, color=colour, result=outcome)


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
    players = state.active
    if len(players) < 2:
        raise PairingError("fewer than two players are left")
    number = state.rounds_started + 1
    by_number = {n: p for p, n in pairing_numbers(state).items()}
    try:
        pairings = DutchEngine.generate_pairings(report(state))
    except EnginePairingError as error:
        raise PairingError(f"round {number} cannot be paired without a repeat") from error
    tables: list[Table] = []
    byes: list[int] = []
    for pairing in pairings:
        if pairing.black == 0:
            byes.append(by_number[pairing.white])
        else:
            tables.append(Table((by_number[pairing.white], by_number[pairing.black])))
    paired = sorted([p for table in tables for p in table.seats] + byes)
    if paired != sorted(players) or len(byes) > len(players) % 2:
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
