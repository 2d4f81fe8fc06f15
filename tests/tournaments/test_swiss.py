"""The Swiss: FIDE Dutch pairings through py4swiss, byes, colours, tie-breaks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.server.tournaments import swiss
from roses.server.tournaments.formats import FORMATS
from roses.server.tournaments.log import (
    Event,
    Forfeited,
    GameFinished,
    Joined,
    LogError,
    PairingError,
    RoundStarted,
    Table,
    TournamentConfig,
    Withdrew,
    replay,
)


def config(rounds: int = 5, seed: int = 3) -> TournamentConfig:
    return TournamentConfig("swiss", "roseking", rounds=rounds, seed=seed)


def entrants(count: int) -> list[Event]:
    """Players 1..count, player 1 rated highest."""
    return [Joined(p, f"player {p}", 2000.0 - 50 * p) for p in range(1, count + 1)]


def play_round(cfg: TournamentConfig, events: list[Event], rng: random.Random) -> RoundStarted:
    """Pairs the next round, logs it and a random result for every table."""
    started = FORMATS["swiss"].next_round(replay(cfg, events))
    events.append(started)
    for table in range(len(started.tables)):
        events.append(GameFinished(started.round, table, rng.choice([(0, 1), (1, 0), (0, 0)])))
    return started


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    # FIDE Dutch, round 1: pairing number k meets k + n/2 (the hand-worked case).
    started = FORMATS["swiss"].next_round(replay(config(), entrants(8)))
    pairs = {tuple(sorted(table.seats)) for table in started.tables}
    assert pairs == {(1, 5), (2, 6), (3, 7), (4, 8)}
    assert started.byes == ()
    # Colours alternate down the boards: number 1 takes the drawn colour, 2 the other...
    whites = {table.seats[0] for table in started.tables}
    assert whites in ({1, 6, 3, 8}, {5, 2, 7, 4})


def test_the_bye_goes_to_the_lowest_not_yet_byed() -> None:
    cfg, events, rng = config(rounds=5), entrants(7), random.Random(5)
    byed: list[int] = []
    for _ in range(5):
        state = replay(cfg, events)
        points = state.base_points()
        started = play_round(cfg, events, rng)
        (bye,) = started.byes
        assert bye not in byed
        # Lowest score among those without a bye; among equal scores the lowest rated
        # (the highest pairing number), unless that one cannot be paired otherwise.
        candidates = [p for p in state.active if p not in byed]
        assert points[bye] == min(points[p] for p in candidates)
        byed.append(bye)
    state = replay(cfg, events)
    assert state.base_points()[byed[0]] >= 1.0  # a bye scores a win


def test_no_repeat_pairings_and_balanced_colours() -> None:
    for seed in range(4):
        cfg, events, rng = config(rounds=5, seed=seed), entrants(10), random.Random(seed)
        for _ in range(5):
            play_round(cfg, events, rng)
        state = replay(cfg, events)
        pairs = [tuple(sorted(g.seats)) for g in state.games.values()]
        assert len(pairs) == len(set(pairs))
        for player in state.entrants:
            whites = sum(1 for g in state.games_of(player) if g.seats[0] == player)
            blacks = len(state.games_of(player)) - whites
            assert abs(whites - blacks) <= 2  # FIDE: the difference never exceeds 2
            colours = ["w" if g.seats[0] == player else "b" for g in state.games_of(player)]
            assert "www" not in "".join(colours) and "bbb" not in "".join(colours)


def test_the_higher_score_gets_its_colour_when_histories_are_alike() -> None:
    """A hand-worked round (FIDE C.04.3 E.4 with A.2's order): players 1 and 3 have had
    black, white, black and both want white; 3 has the higher score (1 to a half), so
    3 is white, although 1 has the lower pairing number."""
    events: list[Event] = [
        *entrants(6),  # pairing numbers 1..6 = the ids (ratings 1950 down to 1700)
        RoundStarted(1, (Table((4, 1)), Table((2, 5)), Table((6, 3)))),
        GameFinished(1, 0, (0, 1)),
        GameFinished(1, 1, (0, 1)),
        GameFinished(1, 2, (0, 1)),
        RoundStarted(2, (Table((1, 6)), Table((4, 2)), Table((3, 5)))),
        GameFinished(2, 0, (1, 0)),
        GameFinished(2, 1, (0, 0)),
        GameFinished(2, 2, (0, 1)),
        RoundStarted(3, (Table((5, 1)), Table((2, 3)), Table((6, 4)))),
        GameFinished(3, 0, (0, 0)),
        GameFinished(3, 1, (0, 1)),
        GameFinished(3, 2, (0, 0)),
    ]
    state = replay(config(rounds=5, seed=22), events)
    assert state.base_points() == {1: 0.5, 2: 2.5, 3: 1.0, 4: 2.0, 5: 0.5, 6: 2.5}
    started = FORMATS["swiss"].next_round(state)
    assert set(started.tables) == {Table((3, 1)), Table((5, 4)), Table((6, 2))}


def test_late_joins_and_withdrawals() -> None:
    cfg = TournamentConfig("swiss", "roseking", rounds=4, late_join_until_round=3, seed=1)
    events, rng = entrants(6), random.Random(2)
    play_round(cfg, events, rng)
    events += [Joined(7, "late", 1900.0), Withdrew(2)]
    started = play_round(cfg, events, rng)
    seated = {p for t in started.tables for p in t.seats} | set(started.byes)
    assert seated == {1, 3, 4, 5, 6, 7}
    play_round(cfg, events, rng)
    with pytest.raises(LogError, match="joining closed when round 3 started"):
        replay(cfg, [*events, Joined(8, "too late", 1500.0)])
    state = replay(cfg, events)
    rows = {row.player: row for row in FORMATS["swiss"].standings(state)}
    assert rows[2].withdrawn and rows[2].games == 1
    assert rows[7].games + rows[7].byes == 2


def test_a_forfeit_is_a_win_without_a_meeting() -> None:
    cfg, events = config(rounds=3), entrants(4)
    started = FORMATS["swiss"].next_round(replay(cfg, events))
    events.append(started)
    white, black = started.tables[0].seats
    events.append(Forfeited(1, 0, (black,)))
    events.append(GameFinished(1, 1, (0, 1)))
    state = replay(cfg, events)
    assert state.base_points()[white] == 1.0 and state.base_points()[black] == 0.0
    assert (min(white, black), max(white, black)) not in swiss.met(state)


def test_tie_breaks_by_hand() -> None:
    # Four players, two rounds: 1 beats 3 and 2; 2 beats 4; 4 draws with 3.
    cfg = config(rounds=2)
    events: list[Event] = [
        *entrants(4),
        RoundStarted(1, (Table((1, 3)), Table((2, 4)))),
        GameFinished(1, 0, (0, 1)),
        GameFinished(1, 1, (0, 1)),
        RoundStarted(2, (Table((2, 1)), Table((4, 3)))),
        GameFinished(2, 0, (1, 0)),
        GameFinished(2, 1, (0, 0)),
    ]
    rows = FORMATS["swiss"].standings(replay(cfg, events))
    by_player = {row.player: row for row in rows}
    # Points: 1: 2, 2: 1, 3: 0.5, 4: 0.5.
    assert by_player[1].tie_break("buchholz") == 1.5  # 3 (0.5) + 2 (1)
    assert by_player[2].tie_break("buchholz") == 2.5  # 4 (0.5) + 1 (2)
    assert by_player[3].tie_break("buchholz") == 2.5  # 1 (2) + 4 (0.5)
    assert by_player[4].tie_break("buchholz") == 1.5  # 2 (1) + 3 (0.5)
    assert by_player[1].tie_break("sonneborn_berger") == 1.5
    assert by_player[2].tie_break("sonneborn_berger") == 0.5
    assert by_player[3].tie_break("sonneborn_berger") == 0.25
    assert by_player[4].tie_break("sonneborn_berger") == 0.25
    assert [row.player for row in rows] == [1, 2, 3, 4]  # 3 over 4 on Buchholz
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_no_round_while_one_is_played_nor_after_the_last() -> None:
    cfg, events = config(rounds=1), entrants(4)
    started = FORMATS["swiss"].next_round(replay(cfg, events))
    events.append(started)
    with pytest.raises(PairingError, match="still being played"):
        FORMATS["swiss"].next_round(replay(cfg, events))
    events += [GameFinished(1, 0, (0, 1)), GameFinished(1, 1, (1, 0))]
    with pytest.raises(PairingError, match="rounds have been played"):
        FORMATS["swiss"].next_round(replay(cfg, events))
    assert FORMATS["swiss"].finished(replay(cfg, events), 0.0)


def test_no_pairing_without_a_repeat_is_refused() -> None:
    # Four players meet everyone in three rounds; a fourth would repeat a game.
    cfg, events, rng = config(rounds=4), entrants(4), random.Random(1)
    for _ in range(3):
        play_round(cfg, events, rng)
    with pytest.raises(PairingError, match="round 4 cannot be paired without a repeat"):
        FORMATS["swiss"].next_round(replay(cfg, events))


@settings(max_examples=12, deadline=None)
@given(st.integers(5, 16), st.integers(0, 10**6))
def test_fides_absolute_criteria_hold(players: int, seed: int) -> None:
    """FIDE C.04.3 C.1-C.3 on random tournaments: no two players meet twice, nobody has
    a second bye, and before the last round (where top scorers may be excepted) nobody's
    colours differ by more than 2 or repeat three times in a row."""
    rounds = min(players - 1, 6)
    cfg, events, rng = config(rounds=rounds, seed=seed), entrants(players), random.Random(seed)
    for _ in range(rounds):
        try:
            play_round(cfg, events, rng)
        except PairingError:
            break  # no legal pairing left: the tournament ends (the room's rule)
    state = replay(cfg, events)
    pairs = [tuple(sorted(game.seats)) for game in state.games.values()]
    assert len(pairs) == len(set(pairs))
    byes = [p for started in state.rounds for p in started.byes]
    assert len(byes) == len(set(byes))
    for player in state.entrants:
        colours = "".join(
            "w" if game.seats[0] == player else "b"
            for game in state.games_of(player)
            if game.round < rounds
        )
        assert abs(colours.count("w") - colours.count("b")) <= 2
        assert "www" not in colours and "bbb" not in colours
