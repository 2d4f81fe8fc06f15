"""Alembic migrations ship in the package, run without alembic.ini, and match the models."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from roses.roseking import Board
from roses.server import Settings, create_app
from roses.server.db.engine import make_engine
from roses.server.db.migrate import downgrade, upgrade
from roses.server.db.models import Base

from .conftest import act, sign_in


def test_upgrade_matches_the_models_and_downgrade_removes_all(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        upgrade(engine)
        upgrade(engine)  # a second start finds nothing to do
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        if database_url.startswith("sqlite"):  # the shared PostgreSQL database stays in use
            downgrade(engine, "base")
            assert set(inspect(create_engine(database_url)).get_table_names()) <= {
                "alembic_version"
            }
            upgrade(engine)
            assert {"users", "games", "actions", "drafts", "seats"} <= set(
                inspect(engine).get_table_names()
            )
    finally:
        engine.dispose()


def _old_game_moves(seed: int) -> tuple[Board, list[tuple[int, str]]]:
    """Random moves from the deal of ``seed`` until just after the first pass (RK-11), as the
    server before 0002 stored them: every move with its seat, passes included."""
    for attempt in range(200):
        board, rng, rows = Board(seed=seed), random.Random(attempt), []
        while not board.is_over():
            seat, move = board.turn, rng.choice(board.legal_moves())
            board.push(move)
            rows.append((seat, str(move)))
            if str(move) == "pass" and not board.is_over():
                return board, rows
    raise AssertionError("no game with a pass")


def test_a_rose_king_game_started_before_0002_is_finished_after_it(sqlite_url: str) -> None:
    """0002 turns the old Rose King tables into games, seats and actions: a game half played
    (with a pass, RK-11, and a Light play waiting for End turn, RK-19) goes on afterwards."""
    engine = make_engine(sqlite_url)
    upgrade(engine, "0001")
    board, rows = _old_game_moves(seed=11)
    pending = next(str(m) for m in board.legal_moves() if str(m) != "draw")
    names = ["old-red", "old-white"]
    now = datetime.now(UTC)
    with engine.begin() as db:
        for user_id, name in enumerate(names, start=1):
            db.execute(
                text("INSERT INTO users (id, name, password_hash, is_guest, created_at) "
                     "VALUES (:id, :name, :hash, 0, :now)"),
                {"id": user_id, "name": name, "hash": PasswordHasher().hash("secret-rose"),
                 "now": now},
            )  # fmt: skip
        db.execute(
            text("INSERT INTO games (id, variant, light, show_draw_pile, seed, start_position, "
                 "status, version, turn_seat, turn_since, pending_move, created_by, created_at) "
                 "VALUES (1, 'classic', 1, 0, 11, :start, 'active', :version, :turn, :now, "
                 ":pending, 1, :now)"),
            {"start": Board(seed=11).position(), "version": len(rows) + 2, "turn": board.turn,
             "now": now, "pending": pending},
        )  # fmt: skip
        for seat in (0, 1):
            db.execute(
                text("INSERT INTO seats (game_id, seat, user_id) VALUES (1, :seat, :user)"),
                {"seat": seat, "user": seat + 1},
            )
        for ply, (seat, move) in enumerate(rows):
            db.execute(
                text("INSERT INTO moves (game_id, ply, seat, move, created_at) "
                     "VALUES (1, :ply, :seat, :move, :now)"),
                {"ply": ply, "seat": seat, "move": move, "now": now},
            )  # fmt: skip
    upgrade(engine)
    engine.dispose()
    with TestClient(create_app(Settings(database_url=sqlite_url))) as client:
        players = [sign_in(client, name) for name in names]
        mover = players[board.turn]
        view = mover.game(1)
        assert [entry["move"] for entry in view["log"]] == [move for _, move in rows]
        assert view["pending"] == pending and view["options"]["light"]
        response = mover.post("/api/games/1/end-turn", {"version": view["version"]})
        assert response.status_code == 200, response.text
        rng = random.Random(3)
        while (view := players[0].game(1))["status"] == "active":
            mover = players[view["to_act"][0]]
            view = mover.game(1)
            move = rng.choice(view["state"]["legal_moves"])
            view = act(mover, view, move)
            if view["pending"]:
                mover.post("/api/games/1/end-turn", {"version": view["version"]})
        assert view["result"]["winner"] in {"red", "white", "draw"}


def test_games_from_before_0005_are_casual(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine, "0004")
        now = datetime.now(UTC)
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO users (id, name, is_guest, created_at) VALUES (1, 'ann', 0, :t)"),
                {"t": now},
            )
            connection.execute(
                text(
                    "INSERT INTO games (id, game, players, options, seed, deal, status, version,"
                    " to_act, turn_since, created_by, created_at) VALUES (1, 'roseking', 2, '{}',"
                    " 7, '{}', 'finished', 3, '[]', :t, 1, :t)"
                ),
                {"t": now},
            )
        upgrade(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT rated FROM games")).scalar_one() == 0
            assert connection.execute(text("SELECT count(*) FROM ratings")).scalar_one() == 0
    finally:
        engine.dispose()


def test_accounts_from_before_0008_follow_their_browsers_language(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine, "0007")
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO users (id, name, is_guest, created_at) VALUES (1, 'ann', 0, :t)"),
                {"t": datetime.now(UTC)},
            )
        upgrade(engine)
        with engine.connect() as connection:  # no language chosen: the browser's is used
            assert connection.execute(text("SELECT language FROM users")).scalar_one() is None
        downgrade(engine, "0007")
        assert "language" not in {column["name"] for column in inspect(engine).get_columns("users")}
    finally:
        engine.dispose()


def test_random_and_greedy_lose_their_strengths_in_0010(sqlite_url: str) -> None:
    """Their seats forget the strength; their ratings per strength become one per bot (the
    most played strength's rating, every game counted; one history point per game)."""
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine, "0009")
        now = {"t": datetime.now(UTC)}
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO users (id, name, is_guest, created_at) VALUES (1, 'ann', 0, :t)"),
                now,
            )
            for game_id, game in [(1, "roseking"), (2, "roseking"), (3, "wotr")]:
                connection.execute(
                    text("INSERT INTO games (id, game, players, options, seed, deal, status, "
                         "version, to_act, turn_since, rated, created_by, created_at) VALUES "
                         "(:id, :game, 2, '{}', 7, '{}', 'finished', 3, '[]', :t, 1, 1, :t)"),
                    {"id": game_id, "game": game, **now},
                )  # fmt: skip
            seats = [(1, 0, "random", "quick"), (1, 1, "mcts", "strong"),
                     (2, 0, "random", "quick"), (2, 1, "random", "strong"),
                     (3, 0, "random", None)]  # fmt: skip
            for game_id, seat, bot, strength in seats:
                connection.execute(
                    text("INSERT INTO seats (game_id, seat, bot_name, bot_strength) "
                         "VALUES (:g, :s, :b, :strength)"),
                    {"g": game_id, "s": seat, "b": bot, "strength": strength},
                )  # fmt: skip
            ratings = [("bot:random:quick", 1400.0, 2), ("bot:random:strong", 1600.0, 1),
                       ("bot:mcts:strong", 1700.0, 1)]  # fmt: skip
            for rated, rating, games in ratings:
                connection.execute(
                    text("INSERT INTO ratings (game, variant, rated, rating, deviation, "
                         "volatility, games) VALUES ('roseking', '2p', :r, :x, 300, 0.06, :n)"),
                    {"r": rated, "x": rating, "n": games},
                )  # fmt: skip
            changes = [(1, "bot:random:quick"), (1, "bot:mcts:strong"),
                       (2, "bot:random:quick"), (2, "bot:random:strong")]  # fmt: skip
            for game_id, rated in changes:
                connection.execute(
                    text("INSERT INTO rating_changes (game_id, rated, rating, deviation, at) "
                         "VALUES (:g, :r, 1500, 300, :t)"),
                    {"g": game_id, "r": rated, **now},
                )  # fmt: skip
        upgrade(engine, "0010")  # 0013 replays the games (these have no result)
        with engine.connect() as connection:
            seats_now = connection.execute(
                text("SELECT game_id, seat, bot_name, bot_strength FROM seats ORDER BY 1, 2")
            ).all()
            assert [tuple(row) for row in seats_now] == [
                (1, 0, "random", None), (1, 1, "mcts", "strong"),
                (2, 0, "random", None), (2, 1, "random", None), (3, 0, "random", None),
            ]  # fmt: skip
            ratings_now = connection.execute(
                text("SELECT rated, rating, games FROM ratings ORDER BY rated")
            ).all()
            assert [tuple(row) for row in ratings_now] == [
                ("bot:mcts:strong", 1700.0, 1), ("bot:random:", 1400.0, 3),
            ]  # fmt: skip
            changes_now = connection.execute(
                text("SELECT game_id, rated FROM rating_changes ORDER BY 1, 2")
            ).all()
            assert [tuple(row) for row in changes_now] == [
                (1, "bot:mcts:strong"), (1, "bot:random:"), (2, "bot:random:"),
            ]  # fmt: skip
    finally:
        engine.dispose()


def test_messages_from_before_0012_are_the_players_free_text(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine, "0010")
        now = {"t": datetime.now(UTC)}
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO users (id, name, is_guest, created_at) VALUES (1, 'ann', 0, :t)"),
                now,
            )
            connection.execute(
                text("INSERT INTO games (id, game, players, options, seed, deal, status, "
                     "version, to_act, turn_since, rated, created_by, created_at) VALUES "
                     "(1, 'wotr', 2, '{}', 7, '{}', 'finished', 3, '[]', :t, 0, 1, :t)"),
                now,
            )  # fmt: skip
            connection.execute(
                text("INSERT INTO chat_messages (game_id, user_id, text, created_at) "
                     "VALUES (1, 1, 'gg', :t)"),
                now,
            )  # fmt: skip
        upgrade(engine)
        with engine.begin() as connection:
            row = connection.execute(text("SELECT room, phrase, text FROM chat_messages")).one()
            assert tuple(row) == ("players", None, "gg")
            connection.execute(
                text("INSERT INTO chat_messages (game_id, user_id, text, phrase, room, "
                     "created_at) VALUES (1, 1, '', 'good-luck', 'players', :t)"),
                now,
            )  # fmt: skip
        downgrade(engine, "0010")
        with engine.connect() as connection:  # a phrase keeps its key as its text
            texts = connection.execute(text("SELECT text FROM chat_messages ORDER BY id"))
            assert list(texts.scalars()) == ["gg", "good-luck"]
    finally:
        engine.dispose()


def test_0013_replays_the_rated_games_into_weng_lin_and_glicko2_ratings(sqlite_url: str) -> None:
    """A Wars of the Roses game of four, rated pairwise by Glicko-2 before 0013, is rated by
    Weng-Lin after it; a duel keeps the Glicko-2 rating it had; a casual game stays unrated."""
    from roses.server.ratings.glicko2 import Rating, Result, rate
    from roses.server.ratings.systems import System
    from roses.server.ratings.systems import rate as rate_game

    engine = make_engine(sqlite_url)
    try:
        upgrade(engine, "0010")
        now = datetime.now(UTC)
        with engine.begin() as connection:
            for user in range(1, 5):
                connection.execute(
                    text("INSERT INTO users (id, name, is_guest, created_at) "
                         "VALUES (:id, :name, 0, :t)"),
                    {"id": user, "name": f"u{user}", "t": now},
                )  # fmt: skip
            games = [(1, "wotr", 4, [1, 0, 3, 2], True), (2, "roseking", 2, [0, 1], True),
                     (3, "wotr", 3, [0, 1, 2], False), (4, "gone", 2, [0, 1], True)]  # fmt: skip
            for game_id, game, players, ranks, rated in games:
                connection.execute(
                    text("INSERT INTO games (id, game, players, options, seed, deal, status, "
                         "version, to_act, turn_since, result, rated, created_by, created_at) "
                         "VALUES (:id, :game, :n, '{}', 7, '{}', 'finished', 3, '[]', :t, "
                         ":result, :rated, 1, :t)"),
                    {"id": game_id, "game": game, "n": players, "t": now, "rated": rated,
                     "result": f'{{"ranks": {ranks}, "summary": {{}}}}'},
                )  # fmt: skip
                for seat in range(players):
                    connection.execute(
                        text("INSERT INTO seats (game_id, seat, user_id) VALUES (:g, :s, :u)"),
                        {"g": game_id, "s": seat, "u": seat + 1},
                    )
            connection.execute(  # a plug-in game no longer offered: its rating is kept
                text("INSERT INTO ratings (game, variant, rated, user_id, rating, deviation, "
                     "volatility, games) VALUES ('gone', '2p', 'user:1', 1, 1234, 99, 0.06, 1)")
            )  # fmt: skip
            for user in range(1, 5):  # the pairwise Glicko-2 ratings 0005 gave game 1
                connection.execute(
                    text("INSERT INTO ratings (game, variant, rated, user_id, rating, deviation, "
                         "volatility, games) VALUES ('wotr', '4p', :r, :u, 1600, 200, 0.06, 1)"),
                    {"r": f"user:{user}", "u": user},
                )  # fmt: skip
        upgrade(engine)
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT game, variant, rated, rating, deviation, volatility, mu, sigma, "
                     "games FROM ratings ORDER BY game, variant, rated")
            ).all()  # fmt: skip
            changes = connection.execute(text("SELECT count(*) FROM rating_changes")).scalar()
        keys = [f"user:{user}" for user in range(1, 5)]
        weng_lin = rate_game(System.WENG_LIN, {}, keys, [1, 0, 3, 2], (0, 1, 2, 3))
        red, white = rate(Rating(), [Result(Rating(), 1)]), rate(Rating(), [Result(Rating(), 0)])
        assert [tuple(row) for row in rows] == [
            ("gone", "2p", "user:1", 1234, 99, 0.06, None, None, 1),
            ("roseking", "2p", "user:1", red.rating, red.deviation, red.volatility, None, None, 1),
            ("roseking", "2p", "user:2", white.rating, white.deviation, white.volatility, None,
             None, 1),
            *[("wotr", "4p", key, weng_lin[key].rating, weng_lin[key].deviation, None,
               weng_lin[key].mu, weng_lin[key].sigma, 1) for key in keys],
        ]  # fmt: skip
        assert weng_lin["user:2"].rating > 1500 > weng_lin["user:3"].rating  # first, last
        assert changes == 6
        downgrade(engine, "0010")  # the numbers shown stay, with a newcomer's volatility
        with engine.connect() as connection:
            kept = connection.execute(
                text("SELECT rating, volatility FROM ratings WHERE rated = 'user:2' "
                     "AND game = 'wotr'")
            ).one()  # fmt: skip
        assert tuple(kept) == (weng_lin["user:2"].rating, 0.06)
    finally:
        engine.dispose()


def test_accounts_and_games_from_before_0018_are_peoples_and_refuse_bot_accounts(
    sqlite_url: str,
) -> None:
    engine = make_engine(sqlite_url)
    try:
        upgrade(engine, "0015")
        now = datetime.now(UTC)
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO users (id, name, is_guest, created_at) VALUES (1, 'ann', 0, :t)"),
                {"t": now},
            )
            connection.execute(
                text(
                    "INSERT INTO games (id, game, players, options, seed, deal, status, version,"
                    " to_act, turn_since, created_by, created_at, rated) VALUES (1, 'roseking',"
                    " 2, '{}', 7, '{}', 'waiting', 0, '[]', :t, 1, :t, 1)"
                ),
                {"t": now},
            )
        upgrade(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT is_bot FROM users")).scalar_one() == 0
            assert connection.execute(text("SELECT bot_accounts FROM games")).scalar_one() == 0
            assert connection.execute(text("SELECT count(*) FROM api_tokens")).scalar_one() == 0
    finally:
        engine.dispose()
