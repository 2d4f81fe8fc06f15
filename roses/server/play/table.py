"""Who may say what at a game's table, and who reads which room, now. The game says what its
players may say while it is played (``GameModule.table_talk``: free, courtesy phrases only,
or nothing), by phase; the server names no game. Spectators always talk freely among
themselves; the players read the spectators' room only once the game is over (nobody
watching may coach a player), and then everyone talks freely."""

from __future__ import annotations

from dataclasses import dataclass

from roses.games import TableTalk

from ..db.models import GameStatus
from ..i18n import _
from .chat import Room
from .live_games import LiveGame

BOTH = (Room.PLAYERS, Room.SPECTATORS)


@dataclass(frozen=True)
class Place:
    """One user at one table: the room they write in, what they may write there now (and
    why they may not write freely, if so), and the rooms they read."""

    room: Room
    talk: TableTalk
    refusal: str | None  # why free text is refused now; None when it is not
    reads: tuple[Room, ...]


def over(live: LiveGame) -> bool:
    return live.status in (GameStatus.FINISHED, GameStatus.CANCELLED)


def place(live: LiveGame, user_id: int) -> Place:
    """``user_id``'s place at the table of ``live`` now."""
    if live.status == GameStatus.CANCELLED:
        return Place(Room.PLAYERS, TableTalk.CLOSED, _("the game was cancelled"), BOTH)
    if live.seat_of(user_id) is None:
        return Place(Room.SPECTATORS, TableTalk.FREE, None, BOTH)
    if live.status != GameStatus.ACTIVE:  # waiting for players, or finished
        return Place(Room.PLAYERS, TableTalk.FREE, None, BOTH if over(live) else (Room.PLAYERS,))
    talk = live.module.table_talk(live.state)
    refusal = {
        TableTalk.FREE: None,
        TableTalk.COURTESY: _(
            "during this game its rules forbid the players to discuss it: choose a courtesy "
            "phrase (free talk opens when the game is over)"
        ),
        TableTalk.CLOSED: _("the rules of this game allow no table talk now: write later"),
    }[talk]
    return Place(Room.PLAYERS, talk, refusal, (Room.PLAYERS,))


def kept_from(live: LiveGame, room: Room) -> list[int]:
    """The users who may not read a message written in ``room`` now: the players, of the
    spectators' room, until the game is over."""
    if room is Room.PLAYERS or over(live):
        return []
    return [info.user_id for info in live.seats if info.user_id is not None]
