"""What the server sends about a game: its own envelope around the game's view of a seat.

The envelope says who sits where, whose turn it is and the game's status; everything of the
game itself comes from ``GameModule.view`` for the viewer's seat (None for a spectator),
never from the deal or the log.
"""

from __future__ import annotations

from typing import Any

from roses.games import JSON

from ..clocks.time_control import claimable, clock_json, server_time
from ..db.models import GameStatus, as_utc
from .live_games import GameHeader, LiveGame, SeatInfo

ENVELOPE_KEYS = frozenset(
    {"id", "game", "title", "players", "options", "status", "version", "seats", "you",
     "created_by_you", "to_act", "can_act", "your_turn", "turn", "turn_since", "result",
     "draft", "rated", "bot_accounts", "clock"}
)  # fmt: skip


def _seat_json(seat: SeatInfo, viewer_id: int | None, bot_words: dict[str, str]) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "label": seat.label,
        "player": seat.player,
        "bot": seat.bot,
        "bot_label": bot_words.get(seat.bot, seat.bot) if seat.bot else None,  # "Search"
        "strength": seat.strength,
        "bot_account": seat.bot_account,  # a program's account (listed as a bot)
        "invited": seat.invited if seat.player is None else None,
        "is_you": viewer_id is not None and seat.user_id == viewer_id,
    }


def game_view(live: LiveGame, viewer_id: int | None) -> dict[str, JSON]:
    """The game as the player ``viewer_id`` (or a spectator) may see it, now."""
    you = live.seat_of(viewer_id)
    own = live.module_view(you)
    overlap = ENVELOPE_KEYS & own.keys()
    assert not overlap, f"{live.module.name}'s view uses the server's keys {sorted(overlap)}"
    return {**summary(live, viewer_id), **own}


def summary(live: GameHeader, viewer_id: int | None) -> dict[str, JSON]:
    """The envelope alone: enough for lists of games."""
    you = live.seat_of(viewer_id)
    acting = live.status == GameStatus.ACTIVE and you is not None and you in live.to_act
    bot_words = {words.bot: words.label for words in live.module.bot_words}
    return {
        "id": live.id,
        "game": live.module.name,
        "title": live.module.title,
        "players": live.players,
        "options": live.options,
        "status": live.status,
        "version": live.version,
        "seats": [_seat_json(seat, viewer_id, bot_words) for seat in live.seats],
        "you": you,  # my seat, None for a spectator
        "created_by_you": viewer_id is not None and live.created_by == viewer_id,
        "to_act": list(live.to_act),
        "can_act": acting,
        "your_turn": acting,
        "turn": live.seats[live.to_act[0]].label if live.to_act else None,
        "turn_since": as_utc(live.turn_since).isoformat(),
        "result": live.result,
        "draft": live.drafts.get(you) if you is not None else None,
        "rated": live.rated,
        "bot_accounts": live.bot_accounts,  # a rated game its creator opened to bot accounts
        "clock": _clock(live),
    }


def _clock(live: GameHeader) -> dict[str, JSON] | None:
    """The time limit and the clocks as of now (public: everyone sees every seat's time)."""
    now = server_time()
    teams = live.module.teams(live.players)
    _, claimers = claimable(live.timeout_rule, live.clocks, teams, now)
    return clock_json(live.time_control, live.clocks, now, live.timeout_rule, claimers)
