"""The formats by key: what the room asks of a tournament whatever its format.

`FORMATS[config.format]` answers, from a replayed `TournamentState`:
- ``next_round(state) -> RoundStarted``: the next round to log (Swiss, pools), or
  `PairingError` saying why there is none now;
- ``standings(state) -> list[Standing]``: best first, tie-breaks by name;
- ``rounds_total(state) -> int | None``: the rounds it will play (None: the arena, which
  runs until its end time);
- ``pair_waiting(state, waiting, now) -> tuple[Table, ...]``: for a format that pairs
  as players come free (``continuous``: the arena), the tables to start now among the
  ``waiting`` players; the room logs them as one `RoundStarted` (round =
  ``state.rounds_started + 1``, no byes).
- ``finished(state, now) -> bool``: nothing more will be paired (every round played
  and over; the arena: ``ends_at`` has passed and its games are over).
Every answer depends on the state alone (and ``now`` for the arena): the same log gives
the same pairings and standings. The tie-breaks' names are keys for the pages to
translate: ``buchholz``, ``sonneborn_berger`` (Swiss); ``final``, ``wins``,
``opponents_points`` (pools); ``performance`` (arena). `arena.on_streak` names the
players whose next arena game counts double (lichess's flame).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from roses.server.tournaments import arena, pools, swiss
from roses.server.tournaments.log import PairingError, RoundStarted, Table, TournamentState
from roses.server.tournaments.standings import Standing


class Format(Protocol):
    name: str
    continuous: bool  # True: pairs free players as they come (pair_waiting), no rounds

    def next_round(self, state: TournamentState) -> RoundStarted: ...

    def standings(self, state: TournamentState) -> list[Standing]: ...

    def rounds_total(self, state: TournamentState) -> int | None: ...

    def pair_waiting(
        self, state: TournamentState, waiting: Sequence[int], now: float
    ) -> tuple[Table, ...]: ...

    def finished(self, state: TournamentState, now: float) -> bool: ...


class Swiss:
    name = "swiss"
    continuous = False

    def next_round(self, state: TournamentState) -> RoundStarted:
        return swiss.next_round(state)

    def standings(self, state: TournamentState) -> list[Standing]:
        return swiss.standings(state)

    def rounds_total(self, state: TournamentState) -> int | None:
        return swiss.rounds_total(state)

    def pair_waiting(
        self, state: TournamentState, waiting: Sequence[int], now: float
    ) -> tuple[Table, ...]:
        raise PairingError("a Swiss pairs whole rounds, not players as they come free")

    def finished(self, state: TournamentState, now: float) -> bool:
        return state.round_over and state.rounds_started >= swiss.rounds_total(state)


class Pools:
    name = "pools"
    continuous = False

    def next_round(self, state: TournamentState) -> RoundStarted:
        return pools.next_round(state)

    def standings(self, state: TournamentState) -> list[Standing]:
        return pools.standings(state)

    def rounds_total(self, state: TournamentState) -> int | None:
        return pools.rounds_total(state)

    def pair_waiting(
        self, state: TournamentState, waiting: Sequence[int], now: float
    ) -> tuple[Table, ...]:
        raise PairingError("pools seat whole rounds, not players as they come free")

    def finished(self, state: TournamentState, now: float) -> bool:
        return state.round_over and state.rounds_started >= pools.rounds_total(state)


class Arena:
    name = "arena"
    continuous = True

    def next_round(self, state: TournamentState) -> RoundStarted:
        raise arena.no_rounds()

    def standings(self, state: TournamentState) -> list[Standing]:
        return arena.standings(state)

    def rounds_total(self, state: TournamentState) -> int | None:
        return None

    def pair_waiting(
        self, state: TournamentState, waiting: Sequence[int], now: float
    ) -> tuple[Table, ...]:
        return arena.pair_waiting(state, waiting, now)

    def finished(self, state: TournamentState, now: float) -> bool:
        return arena.finished(state, now)


FORMATS: dict[str, Format] = {"swiss": Swiss(), "pools": Pools(), "arena": Arena()}
