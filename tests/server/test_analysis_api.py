"""Game analysis through the API: a finished game analysed in the worker processes and kept
in the database; refused to everyone while a rated game runs (403: a spectator may be a
player's second account) and for a game with no analysis (404); nothing hidden leaks
(RK-5, RK-20)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from roses.games import GAMES, register
from roses.games.roseking import ROSE_KING, RoseKing
from roses.roseking import Board, Move
from roses.server import Settings, create_app
from roses.server.db.models import AnalysisRow
from roses.server.services import services_of
from tests.bots.test_analysis import FOUR_MOVES
from tests.bots.test_mcts import LAST_STONE_FOR_RED

from .conftest import Player, act, sign_up, true_board, two_player_game
from .duel import DUEL
from .hidden import assert_analysis_only, secret_order, walk

pytestmark = pytest.mark.timeout(240)  # the first analysis compiles the search in its worker
MOVES = 6  # actions made; a forced pass (RK-11) adds an entry to the log and a decision
FOUR_MOVES_WINS = {"E2": 0.1667, "S1": 0.1, "W3": 0.0, "SW2": 0.0}  # by brute force


def settings(database_url: str, **changes: Any) -> Settings:
    return Settings(
        database_url=database_url,
        analysis_seconds=0.05,
        position_analysis_seconds=2.0,  # enough to solve FOUR_MOVES at any load
        **changes,
    )


@pytest.fixture
def app_client(database_url: str) -> Iterator[TestClient]:
    # A generous margin: on a loaded machine a worker's first job may take seconds to start.
    limits = settings(database_url, analyses_per_account="2/hour", bot_margin_seconds=30.0)
    with TestClient(create_app(limits)) as client:
        yield client


def play(red: Player, white: Player, moves: int, **options: Any) -> dict[str, Any]:
    """A started game with ``moves`` moves made (each seat's first legal move)."""
    game = two_player_game(red, white, **options)
    for _ in range(moves):
        mover = red if red.game(game["id"])["can_act"] else white
        seen = mover.game(game["id"])
        act(mover, seen, seen["state"]["legal_moves"][0])
    return red.game(game["id"])


def finished(red: Player, white: Player) -> dict[str, Any]:
    game = play(red, white, MOVES)
    answer = white.post(f"/api/games/{game['id']}/resign")
    assert answer.status_code == 200, answer.text
    return red.game(game["id"])


def wait_for(player: Player, game_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline:
        answer = player.get(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        body = dict(answer.json())
        if not body["running"]:
            return body
        time.sleep(0.2)
    raise AssertionError("the analysis did not finish")


def test_a_finished_game_is_analysed_move_by_move_and_kept(
    app_client: TestClient, database_url: str
) -> None:
    red, white, watcher = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    game = finished(red, white)
    path = f"/api/games/{game['id']}/analysis"
    before = watcher.get(path)
    assert before.status_code == 200 and before.json()["running"] is False
    made = len(game["log"])
    assert made >= MOVES and before.json()["decisions"] == [None] * made

    started = watcher.post(path)
    assert started.status_code == 202, started.text
    assert started.json()["running"] is True
    body = wait_for(watcher, game["id"])
    assert body["problem"] is None and body["seconds"] == 0.05
    assert_analysis_only(body)
    moves = [entry["move"] for entry in game["log"]]
    decisions = body["decisions"]
    assert [d["move"] for d in decisions] == moves
    assert [d["ply"] for d in decisions] == list(range(made))
    assert [d["team"] for d in decisions] == [entry["seat"].lower() for entry in game["log"]]
    for d in decisions:
        assert 0 <= d["win_after"] <= d["win_before"] <= 1
        assert d["judgement"] in {"best", "good", "inaccuracy", "mistake", "blunder", "forced"}
        red_after = d["win_after"] if d["team"] == "red" else round(1 - d["win_after"], 4)
        assert d["red_win_after"] == red_after
        wins = {move["move"]: move["win"] for move in d["moves"]}  # every move from here
        assert wins[d["move"]] == d["win_after"] and max(wins.values()) == d["win_before"]

    # Kept: asked again, nothing runs and the rate limit is not touched.
    for _ in range(3):
        again = watcher.post(path)
        assert again.status_code == 200 and again.json()["decisions"] == decisions
    with services_of(app_client.app).sessions() as db:  # type: ignore[attr-defined]
        count = db.scalar(select(func.count()).select_from(AnalysisRow))
    assert count == made

    # Kept across a restart: read from the database.
    with TestClient(create_app(settings(database_url))) as fresh:
        answer = fresh.get(path, headers=watcher.headers)
        assert answer.status_code == 200 and answer.json()["decisions"] == decisions
        assert answer.json()["running"] is False


def test_analyses_are_rate_limited_per_account(app_client: TestClient) -> None:
    red, white = sign_up(app_client), sign_up(app_client)
    games = [finished(red, white)["id"] for _ in range(3)]
    for game_id in games[:2]:
        assert red.post(f"/api/games/{game_id}/analysis").status_code == 202
        wait_for(red, game_id)
    refused = red.post(f"/api/games/{games[2]}/analysis")
    assert refused.status_code == 429, refused.text
    assert "many analyses" in refused.json()["detail"] and refused.headers["Retry-After"]
    assert red.get(f"/api/games/{games[2]}/analysis").json()["running"] is False
    assert white.post(f"/api/games/{games[2]}/analysis").status_code == 202  # another account


def test_nobody_analyses_a_rated_game_while_it_runs(app_client: TestClient) -> None:
    red, white, watcher = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    created = red.post(
        "/api/games",
        {"seats": [{"kind": "me"}, {"kind": "invite", "name": white.name}], "rated": True},
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert white.post(f"/api/games/{game_id}/join").status_code == 200
    game = act(red, red.game(game_id), red.game(game_id)["state"]["legal_moves"][0])
    path = f"/api/games/{game_id}/analysis"
    for player in (red, white):
        for answer in (player.get(path), player.post(path)):
            assert answer.status_code == 403, answer.text
            assert "rated game" in answer.json()["detail"]
            assert "once the game is over" in answer.json()["detail"]
    # A spectator (perhaps a player's second account) is refused as well.
    for answer in (watcher.get(path), watcher.post(path)):
        assert answer.status_code == 403, answer.text
        assert "is rated and still being played" in answer.json()["detail"]
    # Over: everyone may, for every move, and never sees the pile's order (RK-20).
    assert white.post(f"/api/games/{game_id}/resign").status_code == 200
    seen = watcher.post(path)
    assert seen.status_code == 202 and len(seen.json()["decisions"]) == 1
    body = wait_for(watcher, game_id)
    assert body["decisions"][0]["move"] == game["log"][0]["move"]
    assert_analysis_only(body)
    order = secret_order(true_board(watcher.client, game_id))
    assert order is None or all(node != order for node in walk(body))
    assert red.get(path).status_code == 200


def test_a_spectator_of_a_casual_game_may_analyse_it_while_it_runs(
    app_client: TestClient,
) -> None:
    red, white, watcher = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    game = play(red, white, 1)
    path = f"/api/games/{game['id']}/analysis"
    assert watcher.post(path).status_code == 202
    body = wait_for(watcher, game["id"])
    assert [d["ply"] for d in body["decisions"]] == [0]
    assert_analysis_only(body)
    order = secret_order(true_board(watcher.client, game["id"]))
    assert order is None or all(node != order for node in walk(body))


def test_a_player_of_a_casual_game_may_analyse_it_while_it_runs(app_client: TestClient) -> None:
    red, white = sign_up(app_client), sign_up(app_client)
    game = play(red, white, 2)
    path = f"/api/games/{game['id']}/analysis"
    assert red.post(path).status_code == 202
    assert [d["ply"] for d in wait_for(red, game["id"])["decisions"]] == [0, 1]
    game = act(red, game, game["state"]["legal_moves"][0])  # a third move: one more to do
    assert red.get(path).json()["decisions"][2] is None
    assert red.post(path).status_code == 202
    assert [d["ply"] for d in wait_for(red, game["id"])["decisions"]] == [0, 1, 2]


def test_a_game_that_has_not_started_has_nothing_to_analyse(app_client: TestClient) -> None:
    red = sign_up(app_client)
    created = red.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]})
    answer = red.post(f"/api/games/{created.json()['id']}/analysis")
    assert answer.status_code == 409 and "nothing to analyse" in answer.json()["detail"]


@pytest.fixture
def duel_client(database_url: str) -> Iterator[TestClient]:
    register(DUEL)
    try:
        with TestClient(create_app(settings(database_url))) as client:
            yield client
    finally:
        del GAMES[DUEL.name]


def test_a_game_without_analysis_answers_404(duel_client: TestClient) -> None:
    north, south = sign_up(duel_client), sign_up(duel_client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": south.name}]
    game_id = north.post("/api/games", {"game": "duel", "seats": seats}).json()["id"]
    assert south.post(f"/api/games/{game_id}/join").status_code == 200
    for answer in (north.get(f"/api/games/{game_id}/analysis"),
                   north.post(f"/api/games/{game_id}/analysis")):  # fmt: skip
        assert answer.status_code == 404
        assert (
            answer.json()["detail"] == "There is no analysis for this game: Duel of bids has none."
        )


def test_the_analysis_input_is_the_same_whatever_the_order_of_the_pile() -> None:
    """RK-20: each decision is searched from its seat's view, where the pile is a set of
    cards: two deals that differ only in the pile's order give the same inputs, so the
    same analysis, however long it searches."""
    board = Board(seed=3)
    reordered = Board.from_position(board.position(), seed=3)
    reordered.reorder_draw_pile(tuple(reversed(board.draw_pile)))
    assert list(reordered.draw_pile) != list(board.draw_pile)
    states = []
    for start in (board, reordered):
        state = ROSE_KING.restore(
            {"position": start.position(), "seed": 3}, 2, ROSE_KING.parse_options(2, {})
        )
        states.append(state)
    for _ in range(4):  # plays, not draws: the drawn card would differ
        move = next(m for m in states[0].board.legal_moves() if str(m) != "draw")
        for state in states:
            ROSE_KING.apply(state, state.board.turn, move)
    first, second = (ROSE_KING.analysis_inputs(state) for state in states)
    assert len(first) == 4
    assert [(ply, view.to_dict(), move) for ply, view, move in first] == [
        (ply, view.to_dict(), move) for ply, view, move in second
    ]
    assert all(view.draw_pile_cards == tuple(sorted(view.draw_pile_cards)) for _, view, _ in first)


def test_an_analysis_that_overruns_its_hard_limit_is_stopped(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search's time plus the margin bounds each decision's job: past it the worker is
    killed and the analysis stops with a sentence; nothing half-done is kept."""

    def overrun(self: RoseKing, analysis_input: Any, seconds: float) -> Any:
        time.sleep(seconds + 5)  # the worker is forked from this process: it runs this

    monkeypatch.setattr(RoseKing, "analyse", overrun)
    with TestClient(create_app(settings(database_url, bot_margin_seconds=1.0))) as client:
        red, white = sign_up(client), sign_up(client)
        game = finished(red, white)
        path = f"/api/games/{game['id']}/analysis"
        assert red.post(path).status_code == 202
        body = wait_for(red, game["id"])
        assert body["problem"] == "The analysis took too long and was stopped: try again."
        assert body["decisions"] == [None] * len(game["log"])
        monkeypatch.undo()  # in the next worker: the workers that overran were killed
        again = red.post(path)  # may be asked again; the problem is forgotten
        assert again.status_code == 202 and again.json()["problem"] is None
        assert None not in wait_for(red, game["id"])["decisions"]


# -- a position set up by a player ------------------------------------------------------------

POSITION = "/api/analysis/roseking/position"


def game_over() -> str:
    """A position after the supply's last stone (RK-12)."""
    board = Board.from_position(LAST_STONE_FOR_RED)
    board.push(Move.from_str("E3"))
    assert board.is_over()
    return board.position()


def test_a_position_set_up_by_a_player_is_analysed_from_its_seat_to_move(
    app_client: TestClient,
) -> None:
    """FOUR_MOVES, as RK-23 text and as the view a seat is sent: the same exact values as the
    brute-force solution in tests/bots/test_analysis.py."""
    player = sign_up(app_client)
    board = Board.from_position(FOUR_MOVES)
    for position in (FOUR_MOVES, {"state": board.view(0).to_dict()}, board.view(None).to_dict()):
        answer = player.post(POSITION, {"position": position})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        walk(body)
        assert set(body) == {"game", "seconds", "analysis"} and body["seconds"] == 2.0
        analysis = body["analysis"]
        assert analysis["exact"] is True and analysis["team"] == "red"
        assert {m["move"]: m["win"] for m in analysis["moves"]} == FOUR_MOVES_WINS


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("not a position", "not a position"),
        ({"stones": {}}, "the view has no crown"),
        ({"state": {**Board(seed=1).view(0).to_dict(), "turn": "q"}}, "must name a seat"),
        (game_over(), "the game is over in this position"),
        (7, "a JSON view is an object"),
    ],
)
def test_a_position_that_is_not_one_is_refused_with_a_sentence(
    app_client: TestClient, position: Any, message: str
) -> None:
    answer = sign_up(app_client).post(POSITION, {"position": position})
    assert answer.status_code == 422, answer.text
    assert message.lower() in answer.json()["detail"].lower()
    assert answer.json()["errors"][0]["field"] == "position"


def test_positions_are_closed_to_a_player_of_a_rated_game_in_progress(
    app_client: TestClient,
) -> None:
    red, white, other = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": white.name}]
    game_id = red.post("/api/games", {"seats": seats, "rated": True}).json()["id"]
    assert white.post(f"/api/games/{game_id}/join").status_code == 200
    for player in (red, white):
        answer = player.post(POSITION, {"position": FOUR_MOVES})
        assert answer.status_code == 403 and "rated game" in answer.json()["detail"]
    assert other.post(POSITION, {"position": FOUR_MOVES}).status_code == 200
    assert white.post(f"/api/games/{game_id}/resign").status_code == 200
    assert red.post(POSITION, {"position": FOUR_MOVES}).status_code == 200


def test_position_analyses_are_rate_limited(database_url: str) -> None:
    limited = settings(database_url, position_analyses_per_account="2/hour")
    with TestClient(create_app(limited)) as client:
        player = sign_up(client)
        for _ in range(2):
            assert player.post(POSITION, {"position": FOUR_MOVES}).status_code == 200
        refused = player.post(POSITION, {"position": FOUR_MOVES})
        assert refused.status_code == 429 and "many position analyses" in refused.json()["detail"]


def test_a_game_or_position_without_analysis_answers_404(duel_client: TestClient) -> None:
    player = sign_up(duel_client)
    answer = player.post("/api/analysis/duel/position", {"position": {}})
    assert answer.status_code == 404, answer.text
    assert answer.json()["detail"] == "There is no position analysis for Duel of bids."
    assert player.post("/api/analysis/chess/position", {"position": {}}).status_code == 404
