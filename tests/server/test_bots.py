"""Bots from the registry play on the server, within a time bound, seeing only their view."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.bots.roseking import available_bots
from roses.bots.roseking.base import BOT_FACTORIES, BotSpec, RandomBot
from roses.roseking import Move
from roses.roseking.view import PlayerView
from roses.server import Settings, create_app
from roses.server.db.models import User
from roses.server.http.schemas import NewGame, SeatChoice
from roses.server.lobby import creating
from roses.server.services import services_of

from .conftest import Player, act, sign_up
from .live_server import running_server


def wait_for_my_turn(player: Player, game_id: int, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = player.game(game_id)
        if view["your_turn"] or view["status"] == "finished":
            return view
        time.sleep(0.02)
    raise AssertionError(f"the bots did not move within {timeout}s")


def play_against_bots(player: Player, game: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    view = wait_for_my_turn(player, game["id"])
    while view["status"] != "finished":
        act(player, view, rng.choice(view["state"]["legal_moves"]))
        view = wait_for_my_turn(player, game["id"])
    return view


def test_the_bot_list_comes_from_the_registry(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def rose_king_bots() -> dict[str, list[str]]:
        games = player.get("/api/catalog").json()["games"]
        return dict(next(g for g in games if g["name"] == "roseking")["bots"])

    player = sign_up(client)
    assert sorted(rose_king_bots()) == available_bots()
    assert rose_king_bots()["mcts"] == ["quick", "normal", "strong"]
    # Bots that answer at once have no strengths: the form shows no strength menu for them.
    assert rose_king_bots()["random"] == rose_king_bots()["greedy"] == []
    monkeypatch.setitem(BOT_FACTORIES, "another", RandomBot)
    assert "another" in rose_king_bots()


def test_a_game_against_a_bot_is_played_to_the_end(client: TestClient) -> None:
    player = sign_up(client)
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "me"}]
    created = player.post("/api/games", {"seats": seats})
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["status"] == "active"  # no person to wait for
    assert game["seats"][0]["bot"] == "random"
    final = play_against_bots(player, game, seed=1)
    assert final["result"]["winner"] in {"red", "white", "draw"}
    movers = {entry["seat"] for entry in final["log"]}
    assert movers == {"Red", "White"}


def test_four_player_teams_with_bots(client: TestClient) -> None:
    """RK-16: seats R1, W1, R2, W2 in turn order; 3 cards and 2 heroes each."""
    player = sign_up(client)
    bot = {"kind": "bot", "bot": "random"}
    created = player.post("/api/games", {"players": 4, "seats": [{"kind": "me"}, bot, bot, bot]})
    assert created.status_code == 201, created.text
    game = created.json()
    assert [s["label"] for s in game["seats"]] == ["Red 1", "White 1", "Red 2", "White 2"]
    assert [len(hand) for hand in game["state"]["hands"]] == [3, 3, 3, 3]
    assert game["state"]["heroes"] == [2, 2, 2, 2]
    final = play_against_bots(player, game, seed=2)
    first_four = [entry["seat"] for entry in final["log"][:4]]
    assert first_four == ["Red 1", "White 1", "Red 2", "White 2"]


def test_a_bot_in_a_light_game_ends_its_own_turn(client: TestClient) -> None:
    """RK-19 Light: a play waits for End turn; a bot ends its turn itself (it never undoes)."""
    player = sign_up(client)
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "me"}]
    created = player.post("/api/games", {"seats": seats, "options": {"light": True}})
    assert created.status_code == 201, created.text
    view = wait_for_my_turn(player, created.json()["id"])
    assert view["your_turn"] and only_the_bot_moved(view["log"])
    assert view["pending"] is None


def only_the_bot_moved(log: list[dict[str, Any]]) -> bool:
    """Red, the bot, moved first and White, the human seat, has not moved: on a rare deal
    it was forced to pass (RK-11)."""
    return (
        bool(log)
        and log[0]["seat"] == "Red"
        and all(entry["seat"] == "Red" or entry["kind"] == "pass" for entry in log)
    )


class SlowBot:
    """Thinks far longer than allowed."""

    name = "slow"

    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec

    def choose(self, view: PlayerView) -> Move:
        time.sleep(10.0)
        return view.legal_moves[0]


def test_a_bot_that_overruns_its_bound_is_replaced_by_a_random_move(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOT_FACTORIES, "slow", SlowBot)
    settings = Settings(
        database_url=database_url, bot_seconds={"quick": 0.05}, bot_margin_seconds=0.1
    )
    with TestClient(create_app(settings)) as client:
        player = sign_up(client)
        seats = [{"kind": "bot", "bot": "slow"}, {"kind": "me"}]
        game = player.post("/api/games", {"seats": seats}).json()
        started = time.monotonic()
        view = wait_for_my_turn(player, game["id"], timeout=5)
        # Far less than the slow bot's 10 s: its worker was stopped at the 0.15 s bound (the
        # rest is a loaded machine's scheduling, which once took a second).
        assert time.monotonic() - started < 5.0
        assert only_the_bot_moved(view["log"])


def test_unknown_bots_and_strengths_are_refused(client: TestClient) -> None:
    """A seat's bot and strength are choices of the catalogue: anything else is a 422 naming
    the field, and nothing is created."""
    player = sign_up(client)
    unknown = player.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "zz"}]})
    assert unknown.status_code == 422
    assert "Unknown bot 'zz'" in unknown.json()["detail"]
    assert unknown.json()["errors"][0]["field"] == "seats.1.bot"
    seat = {"kind": "bot", "bot": "mcts", "strength": "godlike"}
    weak = player.post("/api/games", {"seats": [{"kind": "me"}, seat]})
    assert weak.status_code == 422
    assert "(choose from: quick, normal, strong)" in weak.json()["detail"]
    assert weak.json()["errors"][0]["field"] == "seats.1.strength"
    mine = player.get("/api/games/mine").json()
    assert mine["my_turn"] == mine["others"] == []  # nothing was created
    missing = player.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "bot"}]})
    assert missing.status_code == 422
    assert missing.json()["errors"][0]["field"].startswith("seats.1")


def test_bots_waiting_to_move_are_resumed_when_the_server_starts(database_url: str) -> None:
    """A game whose bot was to move when the server stopped goes on after the restart."""
    settings = Settings(database_url=database_url)
    with TestClient(create_app(settings)) as client:
        player = sign_up(client)
    app = create_app(settings)
    with services_of(
        app
    ).sessions.begin() as db:  # written while no server runs: nobody pokes the bot
        user = db.scalars(select(User).where(User.name == player.name)).one()
        seats = [SeatChoice(kind="bot", bot="random"), SeatChoice(kind="me")]
        game_id = creating.create_game(db, user, NewGame(seats=seats)).id
    with TestClient(app) as client:
        player.client = client
        view = wait_for_my_turn(player, game_id, timeout=10)
    assert [entry["seat"] for entry in view["log"]] == ["Red"]


def test_a_bot_gone_from_the_registry_is_stood_in_for(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOT_FACTORIES, "retired", RandomBot)
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        player = sign_up(client)
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "retired"}]
        game = player.post("/api/games", {"seats": seats}).json()
        monkeypatch.delitem(BOT_FACTORIES, "retired")
        act(player, game, game["state"]["legal_moves"][0])
        view = wait_for_my_turn(player, game["id"], timeout=10)
        assert [entry["seat"] for entry in view["log"]][:2] == ["Red", "White"]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid:
                    found.append(int(entry.name))
    return found


def test_bot_workers_die_with_a_killed_server_and_free_its_port(tmp_path: Path) -> None:
    """kill -9 of the web process: its bot workers go too, and it can start again at once."""
    with running_server(tmp_path) as server:
        with httpx.Client(base_url=server.url) as client:
            assert client.post("/api/accounts/guest").status_code == 201
            seats = [{"kind": "bot", "bot": "random"}, {"kind": "me"}]
            game = client.post("/api/games", json={"seats": seats}).json()
            deadline = time.monotonic() + 20
            while not client.get(f"/api/games/{game['id']}").json()["your_turn"]:
                assert time.monotonic() < deadline, "the bot did not move"
                time.sleep(0.05)
        assert server.process is not None
        workers = _children(server.process.pid)
        assert workers, "the bot moved in a worker process"
        server.kill()
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in workers):
            assert time.monotonic() < deadline, "a bot worker outlived the server"
            time.sleep(0.05)
        server.start()  # the same port: nothing holds it
        assert httpx.get(f"{server.url}/api/catalog").status_code == 200


@pytest.mark.parametrize(("game", "bot"), [("roseking", "random"), ("roseking", "greedy"),
                                          ("wotr", "heuristic")])  # fmt: skip
def test_a_bot_without_strengths_takes_none_and_refuses_one(
    client: TestClient, game: str, bot: str
) -> None:
    """Random and greedy answer at once, the WotR heuristic does not search: a strength would
    change nothing, so none is given (nor rated: the bot is rated by its name alone), and a request
    asking one is told so in its language, rather than getting what it did not ask for."""
    player = sign_up(client)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": bot}]
    created = player.post("/api/games", {"game": game, "seats": seats})
    assert created.status_code == 201, created.text
    assert created.json()["seats"][1]["strength"] is None
    seats[1]["strength"] = "quick"
    german = {**player.headers, "accept-language": "de"}
    refused = client.post("/api/games", json={"game": game, "seats": seats}, headers=german)
    assert refused.status_code == 422
    assert refused.json()["detail"] == f"Beim Bot {bot} gibt es keine Spielstärken zur Wahl."
    assert refused.json()["errors"][0]["field"] == "seats.1.strength"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_wotr_search_is_offered_at_its_strengths(client: TestClient, players: int) -> None:
    """The lobby seats the Wars of the Roses search at each strength, for 2, 3 and 4 players;
    the strength chosen is kept (it sets the bot's seconds per decision)."""
    player = sign_up(client)
    games = player.get("/api/catalog").json()["games"]
    wotr = next(g for g in games if g["name"] == "wotr")
    assert wotr["bots"]["search"] == ["quick", "normal", "strong"]
    assert players in wotr["player_counts"]
    for strength in ("quick", "normal", "strong"):
        bots = [{"kind": "bot", "bot": "search", "strength": strength}] * (players - 1)
        seats = [{"kind": "me"}, *bots]
        created = player.post("/api/games", {"game": "wotr", "players": players, "seats": seats})
        assert created.status_code == 201, created.text
        assert [s["strength"] for s in created.json()["seats"][1:]] == [strength] * (players - 1)


class PonderingBot:
    """Thinks for a minute whatever it is told."""

    name = "pondering"

    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec

    def choose(self, view: PlayerView) -> Move:
        time.sleep(60.0)
        return view.legal_moves[0]


def test_a_resigned_games_bot_stops_thinking_at_once(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one bot worker, a bot still thinking in a game its opponent resigned would hold
    up every other game's bots: its search is cancelled with the game, so another player's
    bot answers at once."""
    monkeypatch.setitem(BOT_FACTORIES, "pondering", PonderingBot)
    settings = Settings(database_url=database_url, bot_workers=1, bot_margin_seconds=120.0)
    with TestClient(create_app(settings)) as client:
        quitter, other = sign_up(client), sign_up(client)
        seats = [{"kind": "bot", "bot": "pondering"}, {"kind": "me"}]
        resigned = quitter.post("/api/games", {"seats": seats}).json()
        time.sleep(0.3)  # the search has reached the worker
        assert quitter.post(f"/api/games/{resigned['id']}/resign").status_code == 200
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "me"}]
        game = other.post("/api/games", {"seats": seats}).json()
        assert only_the_bot_moved(wait_for_my_turn(other, game["id"], timeout=20)["log"])
