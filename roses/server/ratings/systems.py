"""The rating system of each game and variant, and one game's result rated by it.

Which system rates a variant is read from the game seam alone (``GameModule.teams``): a duel
(two seats, each its own team) is rated by Glicko-2 (``glicko2.py``), everything else (a
free-for-all of three or more, or teams) by Weng-Lin (``weng_lin.py``), which rates a whole
ranking of teams at once. The server names no game.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import fmean

from roses.games import game_module

from . import glicko2, weng_lin


class System(StrEnum):
    GLICKO2 = "glicko2"
    WENG_LIN = "openskill"


@dataclass(frozen=True)
class Standing:
    """A rating between games: the number shown with its deviation, and what the system
    needs to go on (Glicko-2's volatility, or Weng-Lin's mu and sigma)."""

    rating: float
    deviation: float
    volatility: float | None = None
    mu: float | None = None
    sigma: float | None = None


def system_of(game: str, players: int) -> System:
    teams = game_module(game).teams(players)
    return System.GLICKO2 if len(teams) == 2 and teams[0] != teams[1] else System.WENG_LIN


def start(system: System) -> Standing:
    """A newcomer's rating: 1500 ± 350 in both systems."""
    if system is System.GLICKO2:
        first = glicko2.Rating()
        return Standing(first.rating, first.deviation, volatility=first.volatility)
    return _from_skill(weng_lin.Skill())


def _from_skill(skill: weng_lin.Skill) -> Standing:
    return Standing(skill.shown, skill.shown_deviation, mu=skill.mu, sigma=skill.sigma)


def _glicko(standing: Standing) -> glicko2.Rating:
    assert standing.volatility is not None, "a Glicko-2 rating has a volatility"
    return glicko2.Rating(standing.rating, standing.deviation, standing.volatility)


def _skill(standing: Standing) -> weng_lin.Skill:
    assert standing.mu is not None and standing.sigma is not None, "a Weng-Lin rating"
    return weng_lin.Skill(standing.mu, standing.sigma)


def scores(ranks: Sequence[int], teams: Sequence[int]) -> list[list[tuple[int, float]]]:
    """Per seat, (opponent seat, score) for each seat of another team: 1 won, 0.5 drawn."""
    return [
        [
            (
                other,
                1.0 if ranks[seat] < ranks[other] else 0.5 if ranks[seat] == ranks[other] else 0.0,
            )
            for other in range(len(ranks))
            if teams[other] != teams[seat]
        ]
        for seat in range(len(ranks))
    ]


def rate(
    system: System,
    before: Mapping[str, Standing],
    keys: Sequence[str | None],
    ranks: Sequence[int],
    teams: Sequence[int],
) -> dict[str, Standing]:
    """The new rating of every seat's key (``keys[seat]``, None: a seat nobody is rated for)
    after one game, from the ratings ``before`` it (a key missing there is a newcomer).

    A key is rated if it met an opponent rated under another key: a bot playing only itself
    learns nothing. A key in several seats (one bot at one strength) is rated once."""
    rated = {
        key
        for seat, key in enumerate(keys)
        if key is not None
        and any(teams[o] != teams[seat] and keys[o] not in (None, key) for o in range(len(keys)))
    }
    if not rated:
        return {}
    was = {key: before.get(key, start(system)) for key in keys if key is not None}
    if system is System.GLICKO2:
        return _rate_glicko2(was, keys, ranks, teams, rated)
    return _rate_weng_lin(was, keys, ranks, teams, rated)


def _rate_glicko2(
    was: Mapping[str, Standing],
    keys: Sequence[str | None],
    ranks: Sequence[int],
    teams: Sequence[int],
    rated: set[str],
) -> dict[str, Standing]:
    """One Glicko-2 rating period per key, with a win, draw or loss against every seat of
    another team, everyone as rated before the game."""
    results: dict[str, list[glicko2.Result]] = defaultdict(list)
    for seat, played in enumerate(scores(ranks, teams)):
        mine = keys[seat]
        if mine is None or mine not in rated:
            continue
        for other, score in played:
            theirs = keys[other]
            if theirs is not None and theirs != mine:
                results[mine].append(glicko2.Result(_glicko(was[theirs]), score))
    after = {key: glicko2.rate(_glicko(was[key]), played) for key, played in results.items()}
    return {
        key: Standing(new.rating, new.deviation, volatility=new.volatility)
        for key, new in after.items()
    }


def _rate_weng_lin(
    was: Mapping[str, Standing],
    keys: Sequence[str | None],
    ranks: Sequence[int],
    teams: Sequence[int],
    rated: set[str],
) -> dict[str, Standing]:
    """One Weng-Lin update of the whole ranking of teams; a seat without a key plays as
    a newcomer; a key in several seats takes the mean of its seats' new skills."""
    team_ids = sorted(set(teams))
    members = [[seat for seat in range(len(keys)) if teams[seat] == team] for team in team_ids]
    skills = [
        [_skill(was[k]) if (k := keys[seat]) is not None else weng_lin.Skill() for seat in team]
        for team in members
    ]
    team_ranks = [min(ranks[seat] for seat in team) for team in members]
    new: dict[str, list[weng_lin.Skill]] = defaultdict(list)
    for team, after in zip(members, weng_lin.rate(skills, team_ranks), strict=True):
        for seat, skill in zip(team, after, strict=True):
            key = keys[seat]
            if key is not None and key in rated:
                new[key].append(skill)
    return {
        key: _from_skill(weng_lin.Skill(fmean(s.mu for s in found), fmean(s.sigma for s in found)))
        for key, found in new.items()
    }
