"""The simulated people of ``server_load.py``: one load-generator process, one asyncio loop.

Each game slot is two people (or one person and a server bot) who sign in, create a game
and join it, keep the game's WebSocket open, and whenever a view says they may act, think
(an exponential time) and send a random legal move with the view's version, exactly as the
browser's page does: on the game's socket (answered there by an ack), or with
``moves="post"`` as a POST (the path of API clients, and the page's fallback). When a game
ends the pair starts another, so the number of live games stays constant. Everything is
timed with ``time.monotonic()``, which on Linux is one clock for every process: the
orchestrator cuts the measured window out of the raw records.

Records sent back to the orchestrator (lists of tuples, times in seconds):

- ``posts``: (sent at, latency, status; 0 when no answer came) for every move sent: the
  POST's answer, or the socket's ack (200) or error (its status);
- ``rtts``: (sent at, round trip) for every move of a person that reached the opponent's
  socket: from just before it was sent until that socket received that version (or newer);
- ``undelivered``: (sent at, game id, version) for accepted moves the opponent never received;
- ``bot_moves``: times the person's socket received a version made by the bot;
- ``errors``: (time, what, detail) for every non-2xx answer, transport error and socket drop;
- ``lags``: (time, lateness) of a 100 ms timer: this loop's own delay (is the generator late?).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

PASSWORD = "load-test-password"
COOKIE = "roses_session"


@dataclass(frozen=True)
class WorkerConfig:
    index: int
    slots: list[int]  # the global numbers of the game slots this process plays
    bot_slots: frozenset[int]  # of those, the person-against-bot ones
    total_slots: int
    servers: list[str]  # base URLs, http://127.0.0.1:PORT
    think: float  # mean think time, seconds
    ramp_start: float  # time.monotonic() at which slot 0 starts
    ramp: float  # seconds over which all slots (of every process) start, evenly spread
    accounts: str  # "register" or "guest"
    bot: str
    strength: str
    tag: str  # makes names unique to this run
    seed: int
    setup_concurrency: int
    setup_deadline: float  # time.monotonic() by which it reports ready, all games up or not
    deadline: float  # time.monotonic() after which this process gives up and reports
    moves: str = "socket"  # "socket" (the page's path) or "post"


@dataclass(eq=False)
class Person:
    server: int
    name: str = ""
    cookie: str = ""
    seat: int = -1
    version: int = -1  # the newest version of the current game seen
    acting_on: int = -1  # the version a move is being thought about or sent for
    socket: Any = None  # the game's open WebSocket (moves go there)
    unanswered: dict[int, float] = field(default_factory=dict)  # move id -> sent at


@dataclass(eq=False)
class Sent:
    at: float
    mover: int  # seat


@dataclass(eq=False)
class Game:
    id: int
    people: list[Person]
    bot: bool
    over: asyncio.Event = field(default_factory=asyncio.Event)
    sent: dict[int, Sent] = field(default_factory=dict)  # version made -> the move's POST
    own_versions: set[int] = field(default_factory=set)  # versions made by people (bot games)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class Players:
    def __init__(self, config: WorkerConfig, stop: MpEvent) -> None:
        self.config = config
        self.stop_event = stop
        self.rng = random.Random(config.seed)
        self.stopping = False
        self.posts: list[tuple[float, float, int]] = []
        self.rtts: list[tuple[float, float]] = []
        self.bot_moves: list[float] = []
        self.errors: list[tuple[float, str, str]] = []
        self.lags: list[tuple[float, float]] = []
        self.setup_times: list[float] = []
        self.games_started = 0
        self.games_finished = 0
        self.slots_up = 0
        self.slots_failed = 0
        self.games: set[Game] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.clients: list[httpx.AsyncClient] = []
        self.gate = asyncio.Semaphore(config.setup_concurrency)

    # -- plumbing ---------------------------------------------------------------------------

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def error(self, what: str, detail: str) -> None:
        self.errors.append((time.monotonic(), what, detail[:300]))

    async def request(
        self, person: Person, method: str, path: str, body: Any = None
    ) -> tuple[int, Any]:
        """(status, parsed JSON body or error text); status 0 when no answer came."""
        headers: dict[str, str] = {}
        if person.cookie:
            headers["Cookie"] = f"{COOKIE}={person.cookie}"
        client = self.clients[person.server]
        try:
            response = await client.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as error:
            return 0, f"{type(error).__name__}: {error}"
        if not response.is_success:
            return response.status_code, response.text
        if not person.cookie:  # signing in: the session cookie
            for header in response.headers.get_list("set-cookie"):
                if header.startswith(f"{COOKIE}="):
                    person.cookie = header.split(";")[0].split("=", 1)[1]
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, response.text

    async def checked(self, person: Person, what: str, method: str, path: str,
                      body: Any = None) -> Any:  # fmt: skip
        """The answer's JSON; None (and an error recorded) unless it is a success."""
        status, answer = await self.request(person, method, path, body)
        if not 200 <= status < 300:
            self.error(f"{what} {status}", str(answer))
            return None
        return answer

    # -- setting up games -------------------------------------------------------------------

    async def sign_in(self, person: Person, name: str) -> bool:
        if self.config.accounts == "guest":
            answer = await self.checked(person, "guest", "POST", "/api/accounts/guest")
        else:
            body = {"name": name, "password": PASSWORD}
            answer = await self.checked(person, "register", "POST", "/api/accounts/register", body)
        if answer is None or not person.cookie:
            return False
        person.name = answer["name"]
        return True

    async def new_game(self, people: list[Person], bot: bool) -> Game | None:
        creator = people[0]
        second: dict[str, Any] = (
            {"kind": "bot", "bot": self.config.bot, "strength": self.config.strength}
            if bot
            else {"kind": "invite", "name": people[1].name}
        )
        body = {"seats": [{"kind": "me"}, second]}
        view = await self.checked(creator, "create game", "POST", "/api/games", body)
        if view is None:
            return None
        game = Game(id=int(view["id"]), people=people, bot=bot)
        if not bot:
            joined = await self.checked(people[1], "join", "POST", f"/api/games/{game.id}/join")
            if joined is None:
                return None
        for person in people:
            person.version = person.acting_on = person.seat = -1
        self.games.add(game)
        self.games_started += 1
        for person in people:
            game.tasks.append(self.spawn(self.watch(person, game)))
        return game

    async def play_slot(self, slot: int) -> None:
        config = self.config
        start = config.ramp_start + config.ramp * slot / max(1, config.total_slots)
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        bot = slot in config.bot_slots
        servers = len(config.servers)
        # The two players of a game sit on different servers when there are several.
        people = [Person(server=slot % servers)]
        if not bot:
            people.append(Person(server=(slot + 1) % servers))
        game: Game | None = None
        async with self.gate:
            began = time.monotonic()
            names = [f"{config.tag}{slot}{'ab'[i]}" for i in range(len(people))]
            signed = await asyncio.gather(
                *(self.sign_in(p, n) for p, n in zip(people, names, strict=True))
            )
            if all(signed):
                game = await self.new_game(people, bot)
            if game is not None:
                self.setup_times.append(time.monotonic() - began)
        if game is None:
            self.slots_failed += 1
            return
        self.slots_up += 1
        while not self.stopping:
            await game.over.wait()
            if self.stopping:
                return
            self.games_finished += 1
            self.end_game(game)
            game = None
            while game is None and not self.stopping:
                game = await self.new_game(people, bot)
                if game is None:
                    await asyncio.sleep(2.0)

    def end_game(self, game: Game) -> None:
        for task in game.tasks:
            task.cancel()
        self.games.discard(game)

    # -- playing ----------------------------------------------------------------------------

    async def watch(self, person: Person, game: Game) -> None:
        """Keep the game's socket open, as the page does, reconnecting with ``?version=``."""
        server = self.config.servers[person.server]
        base = server.replace("http://", "ws://", 1) + f"/api/games/{game.id}/ws"
        while not (self.stopping or game.over.is_set()):
            url = base if person.version < 0 else f"{base}?version={person.version}"
            try:
                async with connect(
                    url,
                    origin=server,  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"{COOKIE}={person.cookie}"},
                    proxy=None,
                    ping_interval=None,  # browsers do not ping; the server does
                    open_timeout=60,
                    max_size=2**22,
                    compression=None,  # the server sends small frames uncompressed
                ) as socket:
                    person.socket = socket
                    async for raw in socket:
                        received = time.monotonic()
                        message = json.loads(raw)
                        kind = message["type"]
                        if kind == "game":
                            self.on_view(person, game, message["game"], received, True)
                        elif kind in ("ack", "error"):
                            self.on_reply(person, game, message, received)
                person.socket = None
                if self.stopping or game.over.is_set():
                    return
                code = socket.close_code
                self.error("socket closed by the server", f"{code} {socket.close_reason}")
            except (OSError, WebSocketException, TimeoutError) as error:
                person.socket = None
                if self.stopping or game.over.is_set():
                    return
                self.error("socket", f"{type(error).__name__}: {error}")
            await asyncio.sleep(1.0)  # the page reconnects after a pause

    def on_view(self, person: Person, game: Game, view: dict[str, Any], at: float,
                from_socket: bool) -> None:  # fmt: skip
        version = int(view["version"])
        if from_socket:
            for made in [v for v in game.sent if v <= version]:
                sent = game.sent[made]
                if sent.mover != view["you"]:  # the opponent's move reached this socket
                    del game.sent[made]
                    self.rtts.append((sent.at, at - sent.at))
            if (
                game.bot
                and 0 <= person.version < version
                and version not in game.own_versions
                and view["status"] in ("active", "finished")
            ):
                self.bot_moves.append(at)
        if version <= person.version:
            return
        person.version = version
        person.seat = view["you"]
        if view["status"] in ("finished", "cancelled"):
            if not game.over.is_set():
                game.over.set()
            return
        if view["can_act"] and person.acting_on < version:
            person.acting_on = version
            self.spawn(self.think_and_move(person, game, version, view["state"]["legal_moves"]))

    async def think_and_move(self, person: Person, game: Game, version: int,
                             legal: list[str]) -> None:  # fmt: skip
        await asyncio.sleep(self.rng.expovariate(1.0 / self.config.think))
        if self.stopping or game.over.is_set() or person.version != version or not legal:
            return
        move = self.rng.choice(legal)
        made = version + 1
        sent_at = time.monotonic()
        game.sent[made] = Sent(sent_at, person.seat)
        game.own_versions.add(made)
        if self.config.moves == "socket" and person.socket is not None:
            message = {"type": "move", "move": move, "version": version, "id": made}
            person.unanswered[made] = sent_at
            # A closed socket: the watcher reconnects, the move is reported undelivered.
            with contextlib.suppress(WebSocketException):
                await person.socket.send(json.dumps(message))
            return  # the ack or the error comes on the socket (on_reply)
        status, answer = await self.request(
            person, "POST", f"/api/games/{game.id}/moves", {"move": move, "version": version}
        )
        self.posts.append((sent_at, time.monotonic() - sent_at, status))
        if status == 200:
            self.on_view(person, game, answer, time.monotonic(), False)
            return
        game.sent.pop(made, None)
        if self.stopping:
            return
        self.error(f"POST move {status}", str(answer))
        await self.reload(person, game)

    def on_reply(self, person: Person, game: Game, reply: dict[str, Any], at: float) -> None:
        """The socket's answer to a move (its id is the version it makes)."""
        made = reply["id"]
        sent_at = person.unanswered.pop(made, at)
        status = 200 if reply["type"] == "ack" else int(reply["status"])
        self.posts.append((sent_at, at - sent_at, status))
        if status == 200 or self.stopping:
            return
        game.sent.pop(made, None)
        self.error(f"socket move {status}", str(reply.get("detail")))
        self.spawn(self.reload(person, game))

    async def reload(self, person: Person, game: Game) -> None:
        """The page reloads the game after a refusal."""
        await asyncio.sleep(1.0)
        view = await self.checked(person, "GET game", "GET", f"/api/games/{game.id}")
        if view is not None:
            person.version = person.acting_on = -1
            self.on_view(person, game, view, time.monotonic(), False)

    # -- the process ------------------------------------------------------------------------

    async def watch_lag(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            now = time.monotonic()
            self.lags.append((now, now - before - 0.1))

    async def wait_for_stop(self) -> None:
        while not self.stop_event.is_set() and time.monotonic() < self.config.deadline:
            await asyncio.sleep(0.05)

    async def run(self, to_parent: Queue[Any]) -> None:
        limits = httpx.Limits(max_connections=512, max_keepalive_connections=512)
        no_cookies = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        for server in self.config.servers:
            self.clients.append(
                httpx.AsyncClient(
                    base_url=server,
                    headers={"Origin": server},  # as the browser sends on every POST
                    cookies=no_cookies,  # each person's cookie is sent by hand
                    limits=limits,
                    timeout=httpx.Timeout(120.0),
                    trust_env=False,  # 127.0.0.1 only: never a proxy
                )
            )
        self.spawn(self.watch_lag())
        for slot in self.config.slots:
            self.spawn(self.play_slot(slot))
        stopper = asyncio.get_running_loop().create_task(self.wait_for_stop())
        setup = asyncio.get_running_loop().create_task(self._until_set_up())
        await asyncio.wait(
            [stopper, setup],
            timeout=max(0.0, self.config.setup_deadline - time.monotonic()),
            return_when=asyncio.FIRST_COMPLETED,
        )  # the games not up yet go on trying: an overloaded server is measured as it is
        setup.cancel()
        to_parent.put(("ready", self.config.index, self.slots_up, self.slots_failed))
        await stopper
        self.stopping = True
        undelivered = [
            (sent.at, game.id, version)
            for game in self.games
            if not game.bot
            for version, sent in game.sent.items()
        ]
        to_parent.put(
            (
                "result",
                self.config.index,
                {
                    "posts": self.posts,
                    "rtts": self.rtts,
                    "undelivered": undelivered,
                    "bot_moves": self.bot_moves,
                    "errors": self.errors,
                    "lags": self.lags,
                    "setup_times": self.setup_times,
                    "games_started": self.games_started,
                    "games_finished": self.games_finished,
                    "slots_up": self.slots_up,
                    "slots_failed": self.slots_failed,
                },
            )
        )
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 10.0)
        for client in self.clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.aclose(), 5.0)

    async def _until_set_up(self) -> None:
        """Returns once every slot's first game is set up (or failed)."""
        while self.slots_up + self.slots_failed < len(self.config.slots):
            await asyncio.sleep(0.2)


def worker_main(config: WorkerConfig, to_parent: Queue[Any], stop: MpEvent) -> None:
    """The entry point of a load-generator process."""
    players = Players(config, stop)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(players.run(to_parent))
