"""The Rose King as an OpenSpiel game: ``pyspiel.load_game("python_rose_king(players=4)")``.

Importing this module registers ``python_rose_king`` (parameter ``players``: 2 or 4). Needs
the ``openspiel`` extra (``pip install roses[openspiel]``).

- Actions: 50 fixed ids, ``Move.action_id`` (plays 0..23, hero plays 24..47, draw 48,
  pass 49). Players 0..3 are the seats R1, W1, R2, W2 (two players: Red, White).
- Chance (see ``roses.interop.chance``): one node per dealt card, and one after each draw
  revealing the drawn card; outcomes are card ids 0..23 with exact, uniform probabilities.
- Returns: +1 for each player of the winning team, -1 for the losers, 0 on a draw.
- Everything but the draw pile's order is public, and the model leaves that order to chance,
  so one history fixes one state: the information-state string is the public history
  (perfect recall), the observation string the public position (RK-23, pile sorted), and
  both tensors are the Markov observation of ``roses.interop.encoding``.
- ``resample_from_infostate`` returns a copy (each information set holds one state), so
  OpenSpiel's Python ISMCTS bot can search it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from roses.roseking.moves import ACTION_COUNT

from .chance import ChanceGame, max_chance_events, max_decisions, variant_for_players
from .encoding import encode_into, observation_size, piece_views

GAME_NAME = "python_rose_king"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python The Rose King",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2},
)


class RoseKingGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type stubs
    """The game object: its sizes follow the ``players`` parameter."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.variant = variant_for_players(params.get("players", 2))
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=24,
            num_players=self.variant.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_decisions(self.variant),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self, position: str | None = None) -> RoseKingState:
        """The start (the deal's chance nodes first), or a dealt RK-23 ``position``.

        From a position the draw pile's order is forgotten (the next draws are chance), and
        information-state strings begin with the position. Raises ``InvalidPositionError``
        for a bad position and ``ValueError`` for one with the wrong number of players.
        """
        if position is None:
            return RoseKingState(self)
        table = ChanceGame.from_position(position)
        if table.variant is not self.variant:
            raise ValueError(
                f"the position has {table.seats} players, this game {self.variant.seats}"
            )
        return RoseKingState(self, table)

    def max_chance_nodes_in_history(self) -> int:
        return max_chance_events(self.variant)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> RoseKingObserver:
        if params:
            raise ValueError(f"python_rose_king observers take no parameters, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RoseKingObserver(self, perfect_recall=perfect_recall)


class RoseKingState(pyspiel.State):  # type: ignore[misc]
    """A position with its chance events explicit; all Python state is in ``_table``.

    OpenSpiel clones a state by deep-copying its attributes and serialises it by pickling
    them; ``ChanceGame`` makes both cheap and exact.
    """

    def __init__(self, game: RoseKingGame, table: ChanceGame | None = None) -> None:
        """A new game, or one going on from ``table`` (a game begun from a position)."""
        super().__init__(game)
        self._table = ChanceGame(game.variant) if table is None else table
        # The RK-23 position a game began from, if any: information states start there.
        self._start = None if table is None else table.public_text()

    @property
    def table(self) -> ChanceGame:
        """The cards and the board (``ChanceGame``; its ``board`` is the engine's ``Board``)."""
        return self._table

    @property
    def start(self) -> str | None:
        """The position this game began from (``new_initial_state(position)``), else ``None``."""
        return self._start

    def current_player(self) -> int:
        if self._table.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self._table.current_seat()
        return int(pyspiel.PlayerId.CHANCE) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._table.legal_actions() if player == self._table.current_seat() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._table.is_chance_node():
            self._table.apply_chance(int(action))
        else:
            self._table.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._table.action_to_string(action, chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self._table.is_terminal()

    def returns(self) -> list[float]:
        return self._table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RoseKingState:
        """A state consistent with ``player_id``'s information: this one (see module doc)."""
        del player_id, probability_sampler
        state: RoseKingState = self.clone()
        return state

    def __str__(self) -> str:
        return self._table.public_text()


class RoseKingObserver:
    """OpenSpiel's Python observer: a tensor (with named views) and strings."""

    def __init__(self, game: RoseKingGame, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(game.variant), np.float32)
        self.dict = piece_views(self.tensor, game.variant)

    def set_from(self, state: RoseKingState, player: int) -> None:
        encode_into(self.dict, state.table.view(player), player)

    def string_from(self, state: RoseKingState, player: int) -> str:
        """Perfect recall: every public event so far; else the public position."""
        table = state.table
        who = table.seat_name(player)
        if not self.perfect_recall:
            return f"{who} sees {table.public_text()}"
        events = []
        for step in state.full_history():
            chance = step.player == pyspiel.PlayerId.CHANCE
            text = table.action_to_string(step.action, chance=chance)
            events.append(f"+{text}" if chance else f"{table.seat_name(step.player)}:{text}")
        start = [] if state.start is None else [f"from {state.start} |"]
        return " ".join([f"{who} knows", *start, *events])


def load(players: int = 2) -> pyspiel.Game:
    """The registered game for 2 or 4 players (``ValueError`` otherwise)."""
    variant_for_players(players)
    return pyspiel.load_game(GAME_NAME, {"players": players})


pyspiel.register_game(_GAME_TYPE, RoseKingGame)
