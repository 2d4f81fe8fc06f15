"""Weng-Lin ratings (Weng and Lin, "A Bayesian Approximation Method for Online Ranking",
JMLR 2011) through ``openskill``, for games of more than two sides: a free-for-all of 3 or 4
players, or teams.

The model is Bradley-Terry with full pairing: the likelihood of a ranking is that of every
pair of teams in it (a win, or a draw for a shared place), and one update takes them all at
once, each team's skill moving by its own uncertainty (the sum of its members'). Plackett-Luce,
openskill's default, reads a ranking as a sequence of choices of the best remaining team,
but its tie rule (the paper's A_q) moves a player ranked third behind two who shared first
exactly as much as the two winners (ranks 0, 0, 1, 2): the ratings would not change in the
order of the ranks, and in Wars of the Roses equal scores share a place (WR-18). Thurstone-
Mosteller needs a draw margin chosen by hand, and partial pairing compares only neighbours
in the ranking. Openskill's default parameters are kept: mu 25, sigma 25/3, beta 25/6 and
tau 25/300, which keeps sigma from shrinking to nothing.

A rating is shown as one number, the conservative estimate mu - 3 sigma (openskill's
``ordinal``: the skill is at least this with 99.7% certainty), scaled by 42 and moved to
1500, and its deviation as 42 sigma: 42 = 350 / (25/3), so that a newcomer shows
1500 ± 350 like a Glicko-2 newcomer. The shown number climbs as the system grows sure of a
player, so one lucky first game never tops a board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
SHOWN_SCALE = 350 / MODEL.sigma  # 42: a newcomer's sigma shown as Glicko-2's 350
SHOWN_START = 1500.0


@dataclass(frozen=True)
class Skill:
    """A player's skill as the model holds it (a normal belief: mean and deviation)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> float:
        """The number people see: 1500 + 42 (mu - 3 sigma)."""
        return MODEL.rating(self.mu, self.sigma).ordinal(
            z=3.0, alpha=SHOWN_SCALE, target=SHOWN_START
        )

    @property
    def shown_deviation(self) -> float:
        return SHOWN_SCALE * self.sigma


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Every player's skill after one game: ``ranks[team]`` is 0 for the winners, equal
    ranks share a place; the answer has the shape of ``teams``."""
    rated = MODEL.rate(
        [[MODEL.rating(skill.mu, skill.sigma) for skill in team] for team in teams],
        ranks=[float(rank) for rank in ranks],
    )
    return [[Skill(player.mu, player.sigma) for player in team] for team in rated]
