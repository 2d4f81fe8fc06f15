"""Who may say what at a table, and who reads which room (``play/table.py``), for every
status, game talk rule and user: properties that must hold whatever the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st

from roses.games import TableTalk
from roses.server.db.models import GameStatus
from roses.server.play.chat import Room
from roses.server.play.live_games import LiveGame
from roses.server.play.table import kept_from, place


@dataclass
class Module:
    talk: TableTalk

    def table_talk(self, state: Any) -> TableTalk:
        return self.talk


@dataclass
class Seat:
    user_id: int | None


@dataclass
class Table:
    """What ``place`` reads of a live game."""

    status: GameStatus
    module: Module
    seats: list[Seat] = field(default_factory=list)
    state: Any = None

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)


tables = st.builds(
    Table,
    status=st.sampled_from(GameStatus),
    module=st.builds(Module, st.sampled_from(TableTalk)),
    seats=st.lists(st.builds(Seat, st.sampled_from([1, 2, 3, None])), min_size=2, max_size=4),
)


@given(tables, st.integers(1, 4))
def test_a_place_at_the_table(table: Table, user_id: int) -> None:
    game = cast(LiveGame, table)
    here = place(game, user_id)
    seated = table.seat_of(user_id) is not None
    over = table.status in (GameStatus.FINISHED, GameStatus.CANCELLED)
    assert (here.refusal is None) == (here.talk is TableTalk.FREE)  # free text iff free talk
    assert here.room in here.reads  # everyone reads their own room
    if table.status is GameStatus.CANCELLED:
        assert here.talk is TableTalk.CLOSED
    elif not seated:  # spectators always talk freely, in their room, and read both
        assert here.room is Room.SPECTATORS and here.talk is TableTalk.FREE
    elif table.status is GameStatus.ACTIVE:  # the game's rule, the players' room only
        assert here.talk is table.module.talk and here.reads == (Room.PLAYERS,)
    else:
        assert here.talk is TableTalk.FREE
    if seated and not over:  # a player never reads the spectators before the game is over
        assert Room.SPECTATORS not in here.reads
        assert user_id in kept_from(game, Room.SPECTATORS)
    assert (user_id in kept_from(game, Room.SPECTATORS)) == (seated and not over)
    assert kept_from(game, Room.PLAYERS) == []
