"""Looking back through a Rose King game still under way (GET /api/games/{id}/replay) and
the readable log of every view: each seat gets the past as that seat saw it, a spectator
the public view; never the draw pile's order (RK-5, RK-20), never a Light play not yet
ended (RK-19), never a move not yet made; each log entry is public facts only."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.roseking import card_name

from .conftest import Player, sign_up, true_board, two_player_game
from .hidden import (
    assert_log_tells_only_the_past,
    assert_states_hide_the_pile,
    history,
    secret_order,
    walk,
)

pytestmark = pytest.mark.timeout(120)


def _move(player: Player, game_id: int, rng: random.Random) -> dict[str, Any]:
    view = player.game(game_id)
    move = rng.choice(view["state"]["legal_moves"])
    answer = player.post(f"/api/games/{game_id}/moves", {"move": move, "version": view["version"]})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _lookback(player: Player, game_id: int) -> list[dict[str, Any]]:
    answer = player.get(f"/api/games/{game_id}/replay")
    assert answer.status_code == 200, answer.text
    return list(answer.json()["frames"])


@pytest.mark.parametrize("show_draw_pile", [False, True])
def test_each_seat_looks_back_on_its_own_view_of_the_past(
    client: TestClient, show_draw_pile: bool
) -> None:
    red, white, watcher = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white, show_draw_pile=show_draw_pile)
    players = {"Red": red, "White": white}
    rng = random.Random(5)
    orders = 0
    view = game
    for turn in range(30):
        view = _move(players[view["turn"]], game["id"], rng)
        truth = true_board(client, game["id"])
        positions = history(truth)
        orders += secret_order(truth) is not None
        assert assert_log_tells_only_the_past(view, positions) == len(view["log"]) + 1
        if turn % 5:
            continue
        for person, seat in ((red, "r"), (white, "w"), (watcher, None)):
            frames = _lookback(person, game["id"])
            assert len(frames) == len(positions)  # up to now, nothing after
            assert assert_states_hide_the_pile(frames, positions) == len(frames)
            assert assert_log_tells_only_the_past(frames, positions) == len(frames) - 1
            for frame, then in zip(frames, positions, strict=True):
                assert frame["viewer"] == seat
                if show_draw_pile:  # RK-20: which cards, sorted
                    assert frame["draw_pile_cards"] == [
                        card_name(c) for c in sorted(then.draw_pile)
                    ]
                else:
                    assert "draw_pile_cards" not in frame
            assert [frame["last_move"] for frame in frames[1:]] == person.game(game["id"])["log"]
    assert orders > 10


def test_a_light_play_not_yet_ended_is_in_no_look_back(client: TestClient) -> None:
    """RK-19: the play is shown to its player (and marked as the last move) but is not part
    of the game: no look-back holds it, not even the player's own."""
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white, light=True)
    play = next(m for m in game["state"]["legal_moves"] if m != "draw")
    pending = red.post(f"/api/games/{game['id']}/moves", {"move": play, "version": game["version"]})
    assert pending.json()["pending"] == play
    assert pending.json()["last_move"]["move"] == play
    assert white.game(game["id"])["last_move"] is None
    for person in (red, white):
        frames = _lookback(person, game["id"])
        assert len(frames) == 1 and frames[0]["moves"] == [] and frames[0]["stones"] == {}
        walk(frames)


def test_a_finished_game_looks_back_on_everything_and_ends_on_the_territories(
    client: TestClient,
) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    players = {"Red": red, "White": white}
    rng = random.Random(8)
    view = game
    while view["status"] == "active":
        view = _move(players[view["turn"]], game["id"], rng)
    frames = _lookback(red, game["id"])
    assert frames[-1]["end"]["territories"] == view["end"]["territories"]
    assert frames[-1]["end"]["reason"] == view["end"]["reason"]
    assert frames[-1]["end"]["result"] is None  # the whole game, told to nobody's seat
    assert view["end"]["result"] in {"won", "lost", "draw"}
    assert view["end"]["rule"] in {"RK-12", "RK-13"}
