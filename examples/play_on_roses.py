"""Play The Rose King on a roses server with an OpenSpiel or PettingZoo agent.

A bot account (or a person's script) signs in with a personal API token made on the
site's /settings page (scope ``play``), listens to its event stream, accepts the
invitations it receives (and, with ``--challenge NAME``, invites a player itself), and
plays each game that starts through the game's stream and ``POST .../moves``:

    python examples/play_on_roses.py --server https://roses.example --token roses_... \
        --agent random --games 1

Each time its seat is to move, the agent gets what the PettingZoo environment
(``roses.interop.pettingzoo``) would give it: the observation tensor of
``roses.interop.encoding`` and the mask of legal action ids, both made from the seat's view
as the server sent it (``roses.interop.views``); the action id it chooses is sent as the
move it stands for (RK-22). The agent is one of:

- ``random``: a legal action at random;
- ``pettingzoo:MODULE:NAME``: a callable ``policy(observation, agent) -> action id``, as
  PettingZoo's examples write ``env.action_space(agent).sample(observation["action_mask"])``;
- ``openspiel:MODULE:NAME``: a callable ``make(player_id, num_actions)`` returning an
  ``rl_agent`` (``agent.step(time_step).action``), e.g. a trained DQN restored from disk.

Network: httpx only (the streams are NDJSON over HTTP: docs/api.md, "Programs as players");
``pip install httpx 'roses[pettingzoo]'`` (or ``roses[openspiel]``) brings what it needs.
Light games (RK-19) are not played: the client never ends a turn it did not take back.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

import httpx
import numpy as np

from roses.interop.views import Observation, move_text, observe

AGENT_NAMES = {2: ("red", "white"), 4: ("red_1", "white_1", "red_2", "white_2")}


class Agent(Protocol):
    def act(self, observation: Observation, seat: int, players: int) -> int: ...


@dataclass
class RandomAgent:
    """A legal action id at random (PettingZoo's ``action_space.sample(mask)``)."""

    rng: random.Random = field(default_factory=random.Random)

    def act(self, observation: Observation, seat: int, players: int) -> int:
        return self.rng.choice([int(i) for i in np.flatnonzero(observation["action_mask"])])


@dataclass
class PettingZooPolicy:
    """A PettingZoo-style policy: ``policy(observation, agent_name) -> action id``."""

    policy: Callable[[Observation, str], int]

    def act(self, observation: Observation, seat: int, players: int) -> int:
        return int(self.policy(observation, AGENT_NAMES[players][seat]))


class TimeStep(NamedTuple):
    """What ``open_spiel.python.rl_environment.TimeStep`` holds, for an ``rl_agent``."""

    observations: dict[str, Any]
    rewards: list[float] | None
    discounts: list[float] | None
    step_type: Any

    def first(self) -> bool:
        return False

    def last(self) -> bool:
        return False


@dataclass
class OpenSpielAgent:
    """An OpenSpiel ``rl_agent`` per seat, made by ``make(player_id, num_actions)``: it is
    given the ``info_state`` tensor (the same encoding as ``python_rose_king``'s) and the
    legal actions, and evaluates (``is_evaluation=True``: no learning on the site)."""

    make: Callable[[int, int], Any]
    agents: dict[int, Any] = field(default_factory=dict)

    def act(self, observation: Observation, seat: int, players: int) -> int:
        mask = observation["action_mask"]
        if seat not in self.agents:
            self.agents[seat] = self.make(seat, len(mask))
        legal = [int(i) for i in np.flatnonzero(mask)]
        info = [list(map(float, observation["observation"]))] * players
        step = TimeStep(
            observations={
                "info_state": info,
                "legal_actions": [legal if s == seat else [] for s in range(players)],
                "current_player": seat,
            },
            rewards=None,
            discounts=None,
            step_type=None,
        )
        return int(self.agents[seat].step(step, is_evaluation=True).action)


def agent_from(spec: str, seed: int | None = None) -> Agent:
    """``random``, ``pettingzoo:MODULE:NAME`` or ``openspiel:MODULE:NAME``."""
    if spec == "random":
        return RandomAgent(random.Random(seed))
    kind, _, where = spec.partition(":")
    module, _, name = where.partition(":")
    if kind not in ("pettingzoo", "openspiel") or not module or not name:
        raise SystemExit(f"--agent: {spec!r} is not random, pettingzoo:M:N or openspiel:M:N")
    found = getattr(importlib.import_module(module), name)
    return PettingZooPolicy(found) if kind == "pettingzoo" else OpenSpielAgent(found)


class RosesError(Exception):
    """The server refused something: its status and sentence."""

    def __init__(self, answer: httpx.Response) -> None:
        try:
            detail = answer.json().get("detail", answer.text)
        except ValueError:
            detail = answer.text
        super().__init__(f"{answer.status_code}: {detail}")
        self.status = answer.status_code


def _lines(answer: httpx.Response) -> Iterator[dict[str, Any]]:
    """The JSON objects of an NDJSON stream (its keep-alive empty lines skipped)."""
    if answer.status_code != 200:
        answer.read()
        raise RosesError(answer)
    for line in answer.iter_lines():
        if line.strip():
            yield json.loads(line)


class Client:
    """One account on one server, signed in by its API token."""

    def __init__(self, server: str, token: str, *, http: httpx.Client | None = None) -> None:
        self.http = http or httpx.Client(
            base_url=server,
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(30.0, read=60.0),  # the streams send a line every 10 s
        )
        self.stop = threading.Event()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        answer = self.http.request(method, path, json=body)
        if answer.status_code >= 400:
            raise RosesError(answer)
        return answer.json() if answer.content else None

    def events(self) -> Iterator[dict[str, Any]]:
        """The account's events (``/api/stream/events``), as they happen."""
        with self.http.stream("GET", "/api/stream/events") as answer:
            yield from _lines(answer)

    def views(self, game_id: int) -> Iterator[dict[str, Any]]:
        """The game as this seat sees it, version after version, until it is over."""
        with self.http.stream("GET", f"/api/games/{game_id}/stream") as answer:
            for message in _lines(answer):
                if message.get("type") == "game":
                    yield message["game"]

    def challenge(self, name: str, players: int = 2) -> int:
        """A casual Rose King game against ``name`` (invited to the other seat)."""
        seats = [{"kind": "me"}, *({"kind": "invite", "name": name} for _ in range(1, players))]
        game = self.call("POST", "/api/games", {"game": "roseking", "players": players,
                                                "seats": seats})  # fmt: skip
        return int(game["id"])

    def play(self, game_id: int, agent: Agent) -> dict[str, Any]:
        """Play the game to its end; its last view."""
        view: dict[str, Any] = {}
        for view in self.views(game_id):
            if self.stop.is_set():
                break
            if view["game"] != "roseking" or not view["can_act"]:
                continue
            seat = view["you"]
            observation = observe(view["state"], seat)
            action = agent.act(observation, seat, view["players"])
            try:
                self.call("POST", f"/api/games/{game_id}/moves",
                          {"move": move_text(action), "version": view["version"]})  # fmt: skip
            except RosesError as error:
                if error.status != 409:  # stale: the next version comes on the stream
                    raise
        return view

    def run(
        self, agent: Agent, games: int | None = None, parallel: int = 4
    ) -> list[dict[str, Any]]:
        """Accept every invitation and play every game that starts, ``parallel`` at once,
        until ``games`` have ended (None: until stopped); the last views of those games."""
        finished: list[dict[str, Any]] = []
        playing: dict[int, Future[dict[str, Any]]] = {}
        with ThreadPoolExecutor(parallel) as pool:
            for event in self.events():
                game_id = event.get("game_id")
                if event["type"] == "invitation":
                    try:
                        self.call("POST", f"/api/games/{game_id}/join")
                    except RosesError as error:
                        print(f"game {game_id}: not joined ({error})")
                elif event["type"] == "game-start" and game_id not in playing:
                    playing[game_id] = pool.submit(self.play, game_id, agent)
                elif event["type"] == "game-finish" and game_id in playing:
                    finished.append(playing.pop(game_id).result())  # its stream ended too
                    if games is not None and len(finished) >= games:
                        break
            self.stop.set()  # games still being played stop at their next version
        return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="e.g. https://roses.example")
    parser.add_argument("--token", required=True, help="a personal API token, scope play")
    parser.add_argument("--agent", default="random", help="random, pettingzoo:M:N, openspiel:M:N")
    parser.add_argument("--games", type=int, help="stop after this many games (default: never)")
    parser.add_argument("--challenge", help="first invite this player to a casual game")
    parser.add_argument("--seed", type=int, help="the random agent's seed")
    args = parser.parse_args()
    client = Client(args.server, args.token)
    if args.challenge:
        print(f"invited {args.challenge} to game {client.challenge(args.challenge)}")
    for view in client.run(agent_from(args.agent, args.seed), args.games):
        print(f"game {view['id']}: {view['result']}")


if __name__ == "__main__":
    main()
