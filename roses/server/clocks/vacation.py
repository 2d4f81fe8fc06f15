"""Vacation days: the allowance a person may spend pausing their correspondence clocks.

The accrual (like yucata.de's and lichess's vacations, but continuous): a new account starts
with ``START_DAYS`` days; every day adds ``DAYS_PER_YEAR / 365`` of a day (30 a year: about
two hours and a half a day), up to ``CAP_DAYS``. A vacation of ``n`` whole days (1 to
``MAX_DAYS``, and at most what is available) is paid in full when it starts; ended early,
what is left of it is paid back (up to the cap). The allowance is never negative.

Pure arithmetic: the moment is always given (``Services.now``), never read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

DAY_MS = 24 * 3600 * 1000
DAYS_PER_YEAR = 30
CAP_DAYS = 30
START_DAYS = 7
MAX_DAYS = 30  # one vacation at most (a month): then the player comes back or resigns
CAP_MS = CAP_DAYS * DAY_MS


def accrued_ms(elapsed: timedelta) -> int:
    """What ``elapsed`` time adds to the allowance (before the cap)."""
    elapsed_ms = max(0, int(elapsed / timedelta(milliseconds=1)))
    return elapsed_ms * DAYS_PER_YEAR // 365


class VacationRefused(ValueError):
    """A vacation that cannot be taken (the sentence is the server's, translated)."""


@dataclass(frozen=True)
class Allowance:
    """``banked_ms`` as of ``banked_at``; accrues from then on, up to the cap."""

    banked_ms: int
    banked_at: datetime

    @classmethod
    def new_account(cls, joined: datetime) -> Allowance:
        return cls(START_DAYS * DAY_MS, joined)

    def available_ms(self, now: datetime) -> int:
        return min(CAP_MS, self.banked_ms + accrued_ms(now - self.banked_at))

    def available_days(self, now: datetime) -> int:
        """Whole days a vacation may take now."""
        return self.available_ms(now) // DAY_MS

    def spent(self, days: int, now: datetime) -> Allowance:
        """The allowance once a vacation of ``days`` starts at ``now``; ``VacationRefused``
        if it asks for more than there is."""
        if days > self.available_days(now):
            raise VacationRefused(days)
        return Allowance(self.available_ms(now) - days * DAY_MS, now)

    def refunded(self, unused: timedelta, now: datetime) -> Allowance:
        """The allowance once ``unused`` time of a vacation ended early comes back."""
        back = max(0, int(unused / timedelta(milliseconds=1)))
        return Allowance(min(CAP_MS, self.available_ms(now) + back), now)
