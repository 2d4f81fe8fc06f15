"""The Rose King told for people (roses.roseking.readable through the module's view and
replay): each move's squares (RK-8..RK-11), the end's reason (RK-12, RK-13, RK-17), the
territories' points (RK-14), the tie-break that decided (RK-15, RK-21), the viewer's result;
and a game still under way looked back on: each seat's own view, never the pile's order
nor anything after the present."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.games import Playthrough
from roses.games.roseking import END_TURN, ROSE_KING, RoseKingState
from roses.roseking import TeamScore, card_name, parse_square, territory_sizes
from roses.roseking.geometry import TARGET
from roses.roseking.moves import DRAW, HERO, PLAY
from roses.roseking.readable import decided_by
from tests.server.hidden import assert_states_hide_the_pile, history, secret_order, walk

from .test_roseking_module import new_game, play

LOG_KEYS = {"ply", "seat", "seat_index", "team", "move", "kind", "card", "from", "to", "flipped",
            "drew"}  # fmt: skip
END_KEYS = {"reason", "rule", "winner", "decided_by", "result", "scores", "territories"}


def replay(state: RoseKingState, seat: int | None) -> list[dict[str, Any]]:
    """The plug's replay; it reads the state alone (its board keeps every move made)."""
    return ROSE_KING.replay(Playthrough(state.board.seats, state.options, None, (), state), seat)


def finished(players: int, seed: int, **options: bool) -> RoseKingState:
    _, _, state = new_game(players, seed, **options)
    play(state, random.Random(seed))
    return state


def test_every_entry_names_the_card_its_squares_and_what_a_hero_flipped() -> None:
    """RK-8: the crown moves by the card to the target; RK-10: a hero flips the target's
    stone to the mover's colour; RK-9: a draw adds the pile's top card to the hand (public,
    RK-5); RK-11: a pass changes nothing."""
    kinds = set()
    for players, seed in ((2, 0), (2, 5), (4, 1)):
        state = finished(players, seed)
        log = ROSE_KING.view(state, None)["log"]
        positions = history(state.board)
        assert len(log) == len(state.board.move_stack) == len(positions) - 1
        for entry, before, after, move in zip(
            log, positions, positions[1:], state.board.move_stack, strict=False
        ):
            assert set(entry) == LOG_KEYS
            kinds.add(entry["kind"])
            assert entry["move"] == str(move) and entry["seat_index"] == before.turn
            assert entry["team"] == ("red", "white")[before.turn & 1]
            assert parse_square(entry["from"]) == before.crown
            if move.kind in (PLAY, HERO):
                assert move.card is not None and entry["card"] == card_name(move.card)
                assert parse_square(entry["to"]) == TARGET[move.card][before.crown] == after.crown
                own = after.white if before.turn & 1 else after.red
                assert own >> after.crown & 1  # the mover's stone is on the target now
                assert entry["flipped"] == (entry["to"] if move.kind == HERO else None)
                assert entry["drew"] is None
            else:
                assert entry["to"] is None and entry["flipped"] is None and entry["card"] is None
                drawn = after.hands[before.turn][len(before.hands[before.turn]) :]
                expected = [card_name(c) for c in drawn] if move.kind == DRAW else []
                assert ([entry["drew"]] if entry["drew"] else []) == expected
    assert kinds == {"play", "hero", "draw", "pass"}


def test_the_team_game_log_names_each_seat() -> None:
    """RK-16: the turn order is Red 1, White 1, Red 2, White 2."""
    log = ROSE_KING.view(finished(4, 0), 2)["log"]
    assert [entry["seat"] for entry in log[:5]] == ["Red 1", "White 1", "Red 2", "White 2", "Red 1"]


def test_the_last_move_is_marked_and_a_light_play_only_for_its_player() -> None:
    """RK-19: a Light play is shown to its player (and marked) before the turn ends; the
    other seat still sees the move before it as the last."""
    _, _, state = new_game(2, 3, light=True)
    assert ROSE_KING.view(state, 0)["last_move"] is None
    first = next(m for m in ROSE_KING.view(state, 0)["state"]["legal_moves"] if m != "draw")
    ROSE_KING.apply(state, 0, ROSE_KING.parse_action(first))
    ROSE_KING.apply(state, 0, END_TURN)
    reply = next(m for m in ROSE_KING.view(state, 1)["state"]["legal_moves"] if m != "draw")
    ROSE_KING.apply(
        state, 1, ROSE_KING.parse_action(reply)
    )  # pending: White has not ended the turn
    mine, theirs = ROSE_KING.view(state, 1), ROSE_KING.view(state, 0)
    assert mine["last_move"]["move"] == reply and mine["last_move"]["ply"] == 1
    assert mine["last_move"]["to"] == mine["state"]["crown"]
    assert theirs["last_move"] == theirs["log"][-1] and theirs["last_move"]["move"] == first
    assert len(mine["log"]) == 1  # the log holds only what is final


@pytest.mark.parametrize(
    ("players", "seed", "reason", "rule"),
    [
        (2, 0, "last-stone", "RK-12"),
        (2, 9, "no-moves", "RK-13"),
        (4, 0, "last-stone", "RK-12"),
        (4, 2, "no-moves", "RK-17"),
    ],
)
def test_the_end_says_why_scores_each_territory_and_who_won(
    players: int, seed: int, reason: str, rule: str
) -> None:
    """RK-12: the 52nd stone ends the game; RK-13 (RK-17 with four): nobody can move.
    RK-14: a territory of n stones scores n x n; RK-21: score (largest, stones)."""
    state = finished(players, seed)
    outcome = ROSE_KING.outcome(state)
    assert outcome is not None
    stones = state.board.red | state.board.white
    assert (stones.bit_count() == 52) == (reason == "last-stone")
    for seat in [None, *range(players)]:
        end = ROSE_KING.view(state, seat)["end"]
        assert set(end) == END_KEYS
        assert (end["reason"], end["rule"]) == (reason, rule)
        for team, bits in (("red", state.board.red), ("white", state.board.white)):
            groups = end["territories"][team]
            assert [g["size"] for g in groups] == territory_sizes(bits)
            assert all(g["points"] == g["size"] ** 2 == len(g["squares"]) ** 2 for g in groups)
            score = end["scores"][team]
            assert score["score"] == sum(g["points"] for g in groups)
            assert score["largest"] == groups[0]["size"]
            assert score["stones"] == bits.bit_count()
        if seat is None:
            assert end["result"] is None  # a spectator neither wins nor loses
        else:
            assert end["result"] == ("won" if outcome.ranks[seat] == 0 else "lost")


def test_partners_win_and_lose_together() -> None:
    """RK-16: the team game is scored per team: partners share the result."""
    state = finished(4, 0)
    results = [ROSE_KING.view(state, seat)["end"]["result"] for seat in range(4)]
    assert results[0] == results[2] != results[1] == results[3]


def test_the_tie_break_that_decided_is_named() -> None:
    """RK-15: higher score, then the larger territory, then more stones, else a draw."""
    assert decided_by(TeamScore(69, 8, 11), TeamScore(34, 5, 10)) == "score"
    assert decided_by(TeamScore(50, 5, 10), TeamScore(50, 7, 10)) == "largest"
    assert decided_by(TeamScore(50, 7, 12), TeamScore(50, 7, 10)) == "stones"
    assert decided_by(TeamScore(50, 7, 10), TeamScore(50, 7, 10)) == "draw"


def test_an_unfinished_game_has_no_end() -> None:
    _, _, state = new_game(2, 1)
    assert ROSE_KING.view(state, 0)["end"] is None


def test_the_replay_marks_each_move_and_ends_on_the_territories() -> None:
    state = finished(2, 4)
    frames = replay(state, None)
    log = ROSE_KING.view(state, None)["log"]
    assert "last_move" not in frames[0]
    assert [frame["last_move"] for frame in frames[1:]] == log
    assert frames[-1]["end"] == ROSE_KING.view(state, None)["end"]
    assert all("end" not in frame for frame in frames[:-1])


def _lookback(state: RoseKingState, seat: int | None) -> list[dict[str, Any]]:
    frames = replay(state, seat)
    positions = history(state.board)
    assert len(frames) == len(positions)  # the present is the last frame: nothing after it
    assert assert_states_hide_the_pile(frames, positions) == len(frames)
    return frames


@pytest.mark.parametrize("show_draw_pile", [False, True])
def test_looking_back_on_a_game_under_way_shows_only_the_past_and_never_the_order(
    show_draw_pile: bool,
) -> None:
    """Mid-game, each seat's look-back holds the states so far as that seat saw them: the
    draw pile as a count (or sorted, RK-20), never its order, and no move not yet made."""
    _, _, state = new_game(2, 7, show_draw_pile=show_draw_pile, light=True)
    rng = random.Random(7)
    orders_seen = pending_seen = 0
    for _ in range(40):
        (seat,) = ROSE_KING.to_act(state)
        if state.pending is not None:  # left waiting at the last look-back
            ROSE_KING.apply(state, seat, END_TURN)
            (seat,) = ROSE_KING.to_act(state)
        move = rng.choice(ROSE_KING.view(state, seat)["state"]["legal_moves"])
        ROSE_KING.apply(state, seat, ROSE_KING.parse_action(move))
        if state.pending is not None and rng.random() < 0.5:
            ROSE_KING.apply(state, seat, END_TURN)
        pending_seen += state.pending is not None
        orders_seen += secret_order(state.board) is not None
        for viewer in (None, 0, 1):
            frames = _lookback(state, viewer)
            walk(frames)
            for frame, then in zip(frames, history(state.board), strict=True):
                assert ("draw_pile_cards" in frame) == show_draw_pile
                if show_draw_pile:
                    truth = [card_name(card) for card in sorted(then.draw_pile)]
                    assert frame["draw_pile_cards"] == truth
            # RK-19: a Light play not yet ended is in no frame, not even its player's.
            assert frames[-1]["moves"] == [str(m) for m in state.board.move_stack]
    assert orders_seen > 10 and pending_seen > 5
