"""Wars of the Roses: Lancaster vs York engine: rules WR-1..WR-20 (docs/rules/).

This package knows nothing of servers, web pages or bots.
"""

from .actions import Action, FrenchAid, Orders, Pick, Unseal, action_from_json
from .data import BoardData, default_board, load_board, parse_board
from .errors import BoardDataError, IllegalActionError, InvalidRecordError, Problem, WotrError
from .game import Game, Setup
from .maplayout import MapLayout
from .payment import Charge
from .phases.ending import Outcome
from .record import record_of, replay
from .state import Phase
from .view import PlayerView, Preview

__all__ = [
    "Action",
    "BoardData",
    "BoardDataError",
    "Charge",
    "FrenchAid",
    "Game",
    "IllegalActionError",
    "InvalidRecordError",
    "MapLayout",
    "Orders",
    "Outcome",
    "Phase",
    "Pick",
    "PlayerView",
    "Preview",
    "Problem",
    "Setup",
    "Unseal",
    "WotrError",
    "action_from_json",
    "default_board",
    "load_board",
    "parse_board",
    "record_of",
    "replay",
]
