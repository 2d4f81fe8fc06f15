"""The example client (examples/play_on_roses.py) on a live server: a bot account, signed in
by its API token, accepts a person's invitation from its event stream and plays a whole
rated Rose King game with a random agent from its game stream; the person's moves are made
by the test through the API. Everything the streams carried is checked for hidden
information: the draw pile's order never, the token itself never; and a Wars of the Roses
game's stream never carries the other planner's draft, sealed orders or money (WR-20)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from roses.server.db.engine import make_engine, session_factory
from roses.server.db.store import read_game
from roses.server.play.live_games import LiveGame

from .hidden import assert_envelopes_only, assert_states_hide_the_pile, history, walk
from .live_server import running_server

EXAMPLE = Path(__file__).parents[2] / "examples" / "play_on_roses.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("play_on_roses", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _register(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=10)
    answer = client.post("/api/accounts/register", json={"name": name, "password": "secret-rose"})
    assert answer.status_code == 201, answer.text
    return client


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    with running_server(tmp_path, deals=request.node.nodeid) as live:
        yield live


def _play_as_a_person(person: httpx.Client, game_id: int, seconds: float = 120) -> dict[str, Any]:
    """Random legal moves whenever it is the person's turn, until the game ends."""
    rng = random.Random(5)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = person.get(f"/api/games/{game_id}").json()
        if view["status"] == "finished":
            return dict(view)
        if view["can_act"]:
            move = rng.choice(view["state"]["legal_moves"])
            answer = person.post(f"/api/games/{game_id}/moves",
                                 json={"move": move, "version": view["version"]})  # fmt: skip
            assert answer.status_code in (200, 409), answer.text
        else:
            time.sleep(0.02)
    raise AssertionError(f"game {game_id} did not end within {seconds} s")


def test_the_example_client_plays_a_rated_game_against_a_person(server: Any) -> None:
    example = _example()
    person, owner = _register(server.url, "ann"), _register(server.url, "robo")
    assert owner.post("/api/accounts/bot").json()["bot"] is True
    made = owner.post("/api/accounts/tokens", json={"label": "agent", "scopes": ["play"]})
    token = made.json()["token"]
    lines: list[dict[str, Any]] = []

    class Recording(example.Client):  # type: ignore[misc,name-defined]
        """The example's client, keeping every line its streams carried."""

        def events(self) -> Iterator[dict[str, Any]]:
            for event in super().events():
                lines.append(event)
                yield event

        def views(self, game_id: int) -> Iterator[dict[str, Any]]:
            for view in super().views(game_id):
                lines.append(view)
                yield view

    client = Recording(server.url, token)
    finished: list[list[dict[str, Any]]] = []
    agent = example.RandomAgent(random.Random(7))
    runner = threading.Thread(target=lambda: finished.append(client.run(agent, games=1)))
    runner.start()
    deadline = time.monotonic() + 10  # its event stream is open: the invitation comes as one
    while not any(line.get("type") == "hello" for line in lines) and time.monotonic() < deadline:
        time.sleep(0.02)
    seats = [{"kind": "me"}, {"kind": "invite", "name": "robo"}]
    body = {"seats": seats, "rated": True, "bot_accounts": True}
    created = person.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    last = _play_as_a_person(person, game_id)
    runner.join(60)
    assert not runner.is_alive()
    (views,) = finished
    assert [view["id"] for view in views] == [game_id]
    assert views[0]["status"] == "finished" and views[0]["result"] == last["result"]
    assert [seat["bot_account"] for seat in last["seats"]] == [False, True]
    kinds = [line["type"] for line in lines if "type" in line and "game_id" in line]
    assert kinds[:2] == ["invitation", "game-start"] and kinds[-1] == "game-finish"
    # Hidden information: the streams carried the bot's seat's views and envelopes only.
    with session_factory(make_engine(server.database_url))() as db:
        board = LiveGame(read_game(db, game_id)).state.board
    positions = history(board)
    checked = 0
    for line in lines:
        walk(line)
        if "game_id" in line:
            assert_envelopes_only([line["game"]])
        elif "state" in line:
            assert line["you"] == 1
            checked += assert_states_hide_the_pile(line, positions)
    assert checked > 10
    assert all(token not in repr(line) for line in lines)
    # Rated on the bots' ladder, not the people's.
    ladder = person.get("/api/ratings/roseking/2p?ladder=bots").json()["players"]
    assert [(p["player"], p["bot_account"]) for p in ladder] == [("robo", True)]
    people = person.get("/api/ratings/roseking/2p?ladder=people").json()["players"]
    assert [p["player"] for p in people] == ["ann"]


def test_a_wotr_game_stream_keeps_the_other_planners_screen_wr20(server: Any) -> None:
    """WR-20 on the streams: while the other player plans and seals, a bot account's game
    stream (read by its token) carries neither their draft, nor their sealed orders, nor
    their money."""
    from roses.games.wotr import WOTR

    one, robo = _register(server.url, "ann"), _register(server.url, "robo")
    assert robo.post("/api/accounts/bot").status_code == 200
    token = robo.post("/api/accounts/tokens", json={"label": "r", "scopes": ["read"]}).json()
    seats = [{"kind": "me"}, {"kind": "invite", "name": "robo"}]
    game_id = one.post("/api/games", json={"game": "wotr", "players": 2, "seats": seats}).json()
    game_id = game_id["id"]
    assert robo.post(f"/api/games/{game_id}/join").status_code == 200
    sessions = session_factory(make_engine(server.database_url))
    rng = random.Random(game_id)
    while True:  # random legal actions (the engine's fallback) until Planning
        with sessions() as db:
            live = LiveGame(read_game(db, game_id))
        if live.state.phase.value == "planning":
            break
        seat = live.to_act[0]
        action = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(live.state, seat), rng))
        answer = (one, robo)[seat].post(f"/api/games/{game_id}/moves",
                                        json={"move": action, "version": live.version})  # fmt: skip
        assert answer.status_code == 200, answer.text
    lines: list[dict[str, Any]] = []
    headers = {"authorization": f"Bearer {token['token']}"}

    def read() -> None:
        url = f"{server.url}/api/games/{game_id}/stream"
        with httpx.stream("GET", url, headers=headers, timeout=30) as answer:
            for line in answer.iter_lines():
                if line:
                    lines.append(json.loads(line))

    reader = threading.Thread(target=read)
    reader.start()
    deadline = time.monotonic() + 10
    while not lines and time.monotonic() < deadline:  # the stream is open: its first view
        time.sleep(0.02)
    view = one.get(f"/api/games/{game_id}").json()
    marker = "zz-secret-noble"
    draft = {"turn": view["state"]["turn"], "orders": {"noble_moves": {marker: "NE"}}}
    assert one.put(f"/api/games/{game_id}/draft", json={"draft": draft}).status_code == 200
    bid = {"orders": {"calais": {"bid": 1, "zone": "SE"}}}
    sealed = one.post(f"/api/games/{game_id}/moves", json={"move": bid, "version": view["version"]})
    assert sealed.status_code == 200, sealed.text
    assert one.post(f"/api/games/{game_id}/resign").status_code == 200  # the stream ends
    reader.join(30)
    assert not reader.is_alive()
    views = [line["game"] for line in lines if line["type"] == "game"]
    assert views[-1]["status"] == "finished"
    during = [v for v in views if v["status"] == "active"]
    assert during and during[-1]["version"] == sealed.json()["version"]
    for seen in during:
        walk(seen)
        assert seen["you"] == 1 and marker not in str(seen)
        assert seen["state"]["money"][0] is None  # behind ann's screen
        assert "calais" not in str(seen["state"]["log"])
    # A finished game's stream: its last version, if news to the reader, and the end.
    url = f"/api/games/{game_id}/stream"
    last = httpx.get(server.url + url, headers=headers).text.splitlines()
    assert [json.loads(line)["version"] for line in last] == [views[-1]["version"]]
    version = views[-1]["version"]
    assert httpx.get(f"{server.url}{url}?version={version}", headers=headers).text == ""


def first_legal(observation: dict[str, Any], agent: str) -> int:
    """A PettingZoo-style policy: the first legal action id (what ``--agent`` names)."""
    assert agent in ("red", "white")
    return int(observation["action_mask"].nonzero()[0][0])


class _FirstLegalRlAgent:
    """An OpenSpiel ``rl_agent`` in shape: ``step(time_step)`` answers ``.action``."""

    def __init__(self, player_id: int, num_actions: int) -> None:
        self.player_id, self.num_actions = player_id, num_actions

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        from types import SimpleNamespace

        assert is_evaluation and not time_step.last()
        observations = time_step.observations
        assert observations["current_player"] == self.player_id
        assert len(observations["info_state"][self.player_id]) == 353
        return SimpleNamespace(action=observations["legal_actions"][self.player_id][0])


def make_rl_agent(player_id: int, num_actions: int) -> _FirstLegalRlAgent:
    return _FirstLegalRlAgent(player_id, num_actions)


def test_the_example_plays_pettingzoo_policies_and_openspiel_agents() -> None:
    from roses.interop.views import observe
    from roses.roseking import Board

    example = _example()
    observation = observe(Board(seed=7).view(0).to_dict(), 0)
    first = int(observation["action_mask"].nonzero()[0][0])
    module = __name__
    for spec in (f"pettingzoo:{module}:first_legal", f"openspiel:{module}:make_rl_agent"):
        assert example.agent_from(spec).act(observation, 0, 2) == first, spec
    random_agent = example.agent_from("random", seed=1)
    assert observation["action_mask"][random_agent.act(observation, 0, 2)] == 1
    with pytest.raises(SystemExit):
        example.agent_from("chess:engine")
