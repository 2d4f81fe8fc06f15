"""Wars of the Roses: Lancaster vs York engine: rules WR-1..WR-20 of shared/rules/.

This package knows nothing of servers, web pages or bots.
"""

from .actions import Action, FrenchAid, Orders, Pick
from .data import BoardData, default_board, load_board, parse_board
from .errors import BoardDataError, IllegalActionError, InvalidRecordError, Problem, WotrError
from .game import Game, Setup
from .phases.ending import Outcome
from .record import record_of, replay
from .state import Phase
from .view import PlayerView

__all__ = [
    "Action",
    "BoardData",
    "BoardDataError",
    "FrenchAid",
    "Game",
    "IllegalActionError",
    "InvalidRecordError",
    "Orders",
    "Outcome",
    "Phase",
    "Pick",
    "PlayerView",
    "Problem",
    "Setup",
    "WotrError",
    "default_board",
    "load_board",
    "parse_board",
    "record_of",
    "replay",
]
