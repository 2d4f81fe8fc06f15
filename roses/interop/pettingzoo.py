"""The Rose King as a PettingZoo AEC environment: ``env(players=2)`` or ``env(players=4)``.

Needs the ``pettingzoo`` extra (``pip install roses[pettingzoo]``).

- Agents: ``red``, ``white`` (two players) or ``red_1``, ``white_1``, ``red_2``, ``white_2``
  (RK-16, in turn order).
- Actions: ``Discrete(50)``, ``Move.action_id`` (plays 0..23, hero plays 24..47, draw 48,
  pass 49). An agent that cannot move must take pass (49), the only legal action then.
- Observations: ``{"observation": float32 vector, "action_mask": int8 vector of 50}``; the
  vector is ``roses.interop.encoding``'s (the draw pile as a set of cards, never an order),
  the mask is all zeros except for the agent to move.
- Chance (the deal, the card a draw reveals) is sampled inside the environment from
  ``reset(seed=...)``'s generator, with the probabilities of ``roses.interop.chance``.
- Rewards come at the end only: +1 for each agent of the winning team, -1 for the losers,
  0 on a draw (RK-15); a game always ends, so nothing is truncated.
- An illegal action raises ``IllegalMoveError`` and changes nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from roses.roseking import IllegalMoveError
from roses.roseking.moves import ACTION_COUNT
from roses.roseking.render import draw_board

from .chance import ChanceGame, variant_for_players
from .encoding import encode, observation_size

Observation = dict[str, npt.NDArray[Any]]

_AGENTS = {2: ("red", "white"), 4: ("red_1", "white_1", "red_2", "white_2")}


def env(players: int = 2, render_mode: str | None = None) -> RoseKingEnv:
    """A new environment for 2 or 4 players (``ValueError`` otherwise)."""
    return RoseKingEnv(players=players, render_mode=render_mode)


class RoseKingEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "rose_king_v0",
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 2, render_mode: str | None = None) -> None:
        super().__init__()
        variant = variant_for_players(players)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS[players])
        size = observation_size(variant)
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents
        }
        self._variant = variant
        self._rng = np.random.default_rng()
        self.table = ChanceGame(variant)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, dealt by a generator seeded with ``seed`` (else the generator goes on)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.table = ChanceGame(self._variant)
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select_seat_to_move()

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(ACTION_COUNT, np.int8)
        if self.table.current_seat() == seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": encode(self.table.view(seat), seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not np.issubdtype(type(action), np.integer):
            raise IllegalMoveError(f"{agent}: action {action!r} is not an action id 0..49")
        self.table.apply_action(int(action))
        self._resolve_chance()
        self._cumulative_rewards[agent] = 0.0
        if self.table.is_terminal():
            for seat, result in enumerate(self.table.returns()):
                self.rewards[self.possible_agents[seat]] = result
            self.terminations = dict.fromkeys(self.agents, True)
        self._select_seat_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The board as text (``ansi`` returns it, ``human`` prints it after each step)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi')")
            return None
        if self.table.board is None:
            return self.table.public_text()
        return draw_board(self.table.board.view())

    def close(self) -> None:
        """Nothing to release: the environment holds no windows or files."""

    def _resolve_chance(self) -> None:
        """Sample the deal and drawn cards with their exact probabilities."""
        while self.table.is_chance_node():
            cards, probabilities = zip(*self.table.chance_outcomes(), strict=True)
            self.table.apply_chance(int(self._rng.choice(cards, p=probabilities)))

    def _select_seat_to_move(self) -> None:
        # After the last move too: the dead steps then run from the seat that would move.
        assert self.table.board is not None
        self.agent_selection = self.possible_agents[self.table.board.turn]
