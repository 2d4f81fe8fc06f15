"""Wars of the Roses in the browser, by clicking: a 2-player game against the heuristic bot to
the end, a reload during planning that keeps the unsealed plan, and a 4-player game of two
people and two bots where neither person ever receives the other's plan or, while
planning, money (WR-20). Screenshots of every phase at 1366x768 and 390x844."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any, NamedTuple, cast

import httpx
import pytest
from playwright.sync_api import Page, Response, ViewportSize, WebSocket, expect

from roses.wotr import Orders, Phase, default_board, replay
from tests.server.hidden import walk
from tests.server.live_server import LiveServer

from .conftest import PHONE, Screenshots
from .helpers import api_user, register, sign_in_page

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
SLOW = 30_000  # ms: for a page that waits on the server (the machine may be busy)
LOCATIONS = {card for card, icon in default_board().icons.items() if icon.is_location}


def new_wotr_game(client: httpx.Client, seats: list[dict[str, str]]) -> int:
    response = client.post(
        "/api/games", json={"game": "wotr", "players": len(seats), "seats": seats}
    )
    assert response.status_code in (200, 201), response.text
    return int(response.json()["id"])


def person(
    server: LiveServer, new_page: Callable[..., Page], viewport: ViewportSize
) -> tuple[str, httpx.Client, Page]:
    name = f"p-{uuid.uuid4().hex[:8]}"
    client = api_user(server.url, name)
    page = sign_in_page(new_page(viewport), server.url, client)
    return name, client, page


class Player:
    """One person at the game page, doing what the page asks: pick, answer French Aid,
    plan and seal, step through the reveal. Screenshots each phase once, at both sizes."""

    def __init__(
        self,
        page: Page,
        shots: Screenshots | None = None,
        withdraw: bool = False,
        overorder: bool = False,
    ) -> None:
        self.page = page
        self.shots = shots
        self.seen: set[str] = set()
        self.sealed = 0
        self.withdraw = withdraw  # take the first sealed plan back once (WR-10)
        self.withdrawn = False
        self.overorder = overorder  # order 20 troops, more than the money buys (WR-11)
        self.bid = "0"  # the Calais bid of the plan sealed last
        self.reveals: dict[int, dict[str, dict[str, str]]] = {}  # turn: step: card: owner
        # turn: step: the troops on the map (card: seat: count) and the step's events
        self.troops: dict[int, dict[str, dict[str, dict[str, int]]]] = {}
        self.events: dict[int, dict[str, list[str]]] = {}
        self.areas: dict[int, dict[str, dict[str, str]]] = {}  # turn: step: card: area line
        self.hold: Callable[[Player], bool] | None = None  # see play_until

    def shoot(self, phase: str) -> None:
        if self.shots is None or phase in self.seen:
            return
        self.seen.add(phase)
        self.shots(self.page, f"{phase}-1366x768")
        self.page.set_viewport_size(cast(ViewportSize, PHONE))
        self.shots(self.page, f"{phase}-390x844")
        self.page.set_viewport_size(LAPTOP)

    def over(self) -> bool:
        return self.page.locator(".panel.end").count() > 0

    def step(self) -> bool:
        """Does the one thing the page asks for now; False when it waits for others."""
        page = self.page
        if page.locator(".reveal").count():
            reveal = page.locator(".reveal")
            step = reveal.get_attribute("data-step") or ""
            self.shoot("reveal-" + step)
            turn = int(reveal.get_attribute("data-turn") or 0)
            self.reveals.setdefault(turn, {})[step] = page.eval_on_selector_all(
                ".wotr-map [data-card]",
                "all => Object.fromEntries(all.map((e) => [e.dataset.card, e.dataset.owner]))",
            )
            self.troops.setdefault(turn, {})[step] = page.eval_on_selector_all(
                ".wotr-map .icon", MAP_TROOPS
            )
            self.events.setdefault(turn, {})[step] = reveal.locator(".events li").all_inner_texts()
            self.areas.setdefault(turn, {})[step] = page.eval_on_selector_all(
                ".map-areas li[data-card]",
                "all => Object.fromEntries(all.map((e) => [e.dataset.card, e.textContent]))",
            )
            page.locator(".reveal button.primary").click()
            return True
        cards = page.locator("button.draft-card")
        if cards.count():
            self.shoot("draft")
            card = cards.first.get_attribute("data-card")
            cards.first.click()
            page.locator(".draft button.primary").click()
            page.wait_for_function(
                f"!document.querySelector('button.draft-card[data-card=\"{card}\"]')"
                " || document.querySelector('.phase-box > .error')"
            )
            refused = page.locator(".phase-box > .error")
            assert not refused.count(), refused.inner_text()
            return True
        aid = page.locator(".income button")
        if aid.count():
            self.shoot("french-aid")
            aid.first.click()  # take it (WR-9)
            expect(aid).to_have_count(0)
            return True
        if page.locator("form.plan-form").count():
            if self.hold is not None and self.hold(self):
                return False  # the form came up after play_until looked: it waits
            self.plan()
            return True
        return False

    def plan(self) -> None:
        """Defends the first Location held with what the money buys, bids 1 for Calais on
        odd turns, then seals (WR-10)."""
        page = self.page
        self.shoot("planning")
        troops = page.locator(".troop-row.defend input").first
        if troops.count():
            troops.fill("20" if self.overorder else "2")
        self.bid = "1" if self.sealed % 2 == 0 else "0"  # what the sealed plan bids
        if self.bid == "1":
            page.get_by_label("Calais bid (pounds)").fill("1")
        expect(page.locator(".plan-footer")).to_contain_text("Cost")
        self.shoot("planning-filled")
        page.get_by_role("button", name="Seal plan").click()
        page.wait_for_function(
            "!document.querySelector('form.plan-form')"
            " || [...document.querySelectorAll('.planning .error')].some((e) => !e.hidden)"
        )
        refused = page.locator(".planning .error")
        assert not refused.is_visible(), refused.inner_text()
        self.sealed += 1
        if page.locator(".sealed").count():
            self.shoot("sealed")
            if self.withdraw:
                self.take_back()

    def take_back(self) -> None:
        """WR-10: a sealed plan is taken back while another player still plans; the form
        comes back with the plan as it was."""
        page = self.page
        bid = page.get_by_label("Calais bid (pounds)")
        page.get_by_role("button", name="Withdraw the plan to change it").click()
        expect(bid).to_have_value(self.bid)  # the plan as it was sealed
        self.withdraw = False
        self.withdrawn = True


# The troops drawn on the map: card -> seat -> the number on its badge.
MAP_TROOPS = """all => Object.fromEntries(all.filter((icon) => icon.querySelector(".troops"))
  .map((icon) => [icon.dataset.card, Object.fromEntries([...icon.querySelectorAll(".troops")]
    .map((badge) => [badge.dataset.seat, Number(badge.textContent)]))]))"""


def play_until(
    players: list[Player], done: Callable[[], bool], hold: Callable[[Player], bool] | None = None
) -> None:
    """Everyone does what their page asks until ``done()``; a player ``hold`` picks waits."""
    for player in players:
        player.hold = hold
    for _ in range(1500):
        if done():
            return
        active = [player for player in players if not (hold and hold(player))]
        if not any(player.step() for player in active):
            players[0].page.wait_for_timeout(100)
    raise AssertionError("the game did not get there")


def play_until_over(players: list[Player]) -> None:
    play_until(players, lambda: all(player.over() for player in players))


def test_a_two_player_game_against_the_heuristic_bot_to_the_end(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    name = f"p-{uuid.uuid4().hex[:8]}"
    page = new_page(LAPTOP)
    register(page, server.url, name)
    page.get_by_label("Wars of the Roses").check()  # from the lobby, by clicking
    page.get_by_label("2 players").check()
    page.get_by_label("Seat Yellow", exact=True).select_option("bot")
    page.get_by_label("Bot in seat Yellow", exact=True).select_option("heuristic")
    shots(page, "lobby-1366x768")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/games/*", timeout=SLOW)
    game_id = int(page.url.rstrip("/").split("/")[-1])
    client = httpx.Client(base_url=server.url, timeout=10)
    client.post("/api/accounts/login", json={"name": name, "password": "secret-rose"})
    expect(page.locator(".wotr-map")).to_be_visible(timeout=SLOW)
    expect(page.locator(".wotr-map .zone")).to_have_count(6)  # WR-1
    expect(page.locator(".wotr-map .sea-zone")).to_have_count(8)  # WR-5
    me = Player(page, shots)
    play_until_over([me])
    assert me.sealed == 5  # a plan every turn (WR-10)
    me.shoot("game-over")
    end = page.locator(".panel.end")
    expect(end.locator("tbody tr")).to_have_count(2)
    expect(end.get_by_role("link", name="Replay the game")).to_have_attribute(
        "href", f"/games/{game_id}/replay"
    )
    expect(end.get_by_role("link", name="Download the record")).to_have_attribute(
        "href", f"/api/games/{game_id}/record"
    )
    final = client.get(f"/api/games/{game_id}").json()
    assert final["status"] == "finished"
    shown = end.locator("tbody td:nth-child(3)").all_inner_texts()
    assert [int(vp) for vp in shown] == sorted(final["state"]["vp"], reverse=True)  # WR-18
    record = client.get(f"/api/games/{game_id}/record").json()
    result = replay(record).outcome()
    assert result is not None and result.to_json().items() <= final["state"]["outcome"].items()

    end.get_by_role("link", name="Replay the game").click()
    page.wait_for_url(f"**/games/{game_id}/replay", timeout=SLOW)
    expect(page.locator(".wotr-map")).to_be_visible(timeout=SLOW)
    status = page.locator(".replay .wotr-status")
    expect(status).to_contain_text("turn 5, game over")
    page.get_by_role("button", name="First").click()
    expect(status).to_contain_text("the start · turn 1, draw cards")
    page.get_by_role("button", name="Next").click()
    expect(status).to_contain_text("decision 1 of")
    expect(page.locator(".replay-controls .events li")).to_have_count(1)  # the first pick
    shots(page, "replay-1366x768")
    assert page.js_errors == []  # type: ignore[attr-defined]


def pick_with_the_keyboard(page: Page) -> None:
    """A card chosen and taken with keys alone; focus stays in the panel as it redraws."""
    card = page.locator("button.draft-card").first
    expect(card).to_be_visible()  # the random bot may pick first: wait for my turn
    name = card.get_attribute("data-card")
    card.focus()
    page.keyboard.press("Space")
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(card).to_be_focused()
    page.keyboard.press("Tab")  # past the cards to the Take button
    while not page.evaluate("document.activeElement.textContent.startsWith('Take')"):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator(f'button.draft-card[data-card="{name}"]')).to_have_count(0)
    assert page.evaluate("document.querySelector('.phase-box').contains(document.activeElement)")


def test_a_reload_during_planning_keeps_the_unsealed_plan(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    _, client, page = person(server, new_page, LAPTOP)
    game_id = new_wotr_game(client, [{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    page.goto(f"{server.url}/games/{game_id}")
    pick_with_the_keyboard(page)
    me = Player(page)
    while not page.locator("form.plan-form").count():
        if not me.step():
            page.wait_for_timeout(100)
    with page.expect_response(lambda r: r.url.endswith("/draft") and r.ok):
        page.get_by_label("Calais bid (pounds)").fill("2")
        page.get_by_label("Calais lands in").select_option("SE")
    with page.expect_response(lambda r: r.url.endswith("/draft") and r.ok):
        page.locator(".troop-row.defend input").first.fill("3")
    page.reload()
    expect(page.get_by_label("Calais bid (pounds)")).to_have_value("2")
    expect(page.get_by_label("Calais lands in")).to_have_value("SE")
    expect(page.locator(".troop-row.defend input").first).to_have_value("3")
    expect(page.locator(".plan-footer")).to_contain_text("Cost 11 pounds")  # 2 + 3 x 3 (WR-10)
    # The draft is the seat's own: a spectator's view holds none of it.
    spectator = api_user(server.url, f"s-{uuid.uuid4().hex[:8]}")
    seen = spectator.get(f"/api/games/{game_id}").json()
    assert seen["draft"] is None
    assert all(node != {"bid": 2, "zone": "SE"} for node in walk(seen))


class Received:
    """Every JSON answer from the API and every WebSocket message a page gets. The answers'
    bodies are read after the game: reading them inside the event handlers (or routing the
    requests) would stall the page while another page waits."""

    def __init__(self, page: Page) -> None:
        self.responses: list[Response] = []
        self.frames: list[str | bytes] = []
        page.on("response", lambda response: self.responses.append(response))
        page.on("websocket", self.listen)

    def listen(self, socket: WebSocket) -> None:
        socket.on("framereceived", lambda frame: self.frames.append(frame))

    def messages(self) -> list[Any]:
        found = [
            response.json() for response in self.responses
            if "/api/" in response.url
            and response.headers.get("content-type", "").startswith("application/json")
        ]  # fmt: skip
        return found + [json.loads(frame) for frame in self.frames]


def test_a_kill_during_the_reveal_loses_nothing_acknowledged(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """Two people (no bot: a bot's worker process would outlive the kill -9, see the
    report), the second seals last; the server is killed while the reveal is shown."""
    _, client, first = person(server, new_page, LAPTOP)
    second_name, second_client, second = person(server, new_page, LAPTOP)
    game_id = new_wotr_game(client, [{"kind": "me"}, {"kind": "invite", "name": second_name}])
    assert second_client.post(f"/api/games/{game_id}/join").status_code == 200
    for page in (first, second):
        page.goto(f"{server.url}/games/{game_id}")
    players = [Player(first), Player(second)]
    while players[0].sealed == 0:
        if not any(player.step() for player in players):
            first.wait_for_timeout(100)
    page = second
    expect(page.locator("form.plan-form")).to_be_visible()
    page.get_by_label("Calais bid (pounds)").fill("1")
    page.get_by_role("button", name="Seal plan").click()  # the last seal: the reveal
    expect(page.locator(".reveal")).to_be_visible()
    acknowledged = second_client.get(f"/api/games/{game_id}").json()
    assert acknowledged["state"]["turn"] == 2  # turn 1 was revealed and scored
    server.kill()  # kill -9 while the page shows the reveal
    server.start()
    expect(page.locator("body.offline")).to_have_count(0, timeout=20_000)
    page.reload()
    expect(page.locator(".wotr-map")).to_be_visible(timeout=SLOW)
    after = second_client.get(f"/api/games/{game_id}").json()
    assert after["version"] == acknowledged["version"]
    assert after["state"] == acknowledged["state"]
    assert after["state"]["revealed"]["Yellow"]["calais"] == {"bid": 1, "zone": "MI"}
    shots(page, "after-restart-1366x768")
    for _ in range(50):  # and the game goes on: a pick after the reveal
        if client.get(f"/api/games/{game_id}").json()["version"] > after["version"]:
            break
        if not any(player.step() for player in players):
            first.wait_for_timeout(100)
    else:
        raise AssertionError("nobody could act after the restart")


def test_resigning_ends_the_game_with_the_resigner_last(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    _, client, page = person(server, new_page, LAPTOP)
    game_id = new_wotr_game(client, [{"kind": "me"}, {"kind": "bot", "bot": "heuristic"}])
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".wotr-map")).to_be_visible(timeout=SLOW)
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Keep playing").click()  # changed my mind
    expect(page.get_by_role("button", name="Yes, resign")).to_have_count(0)
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    end = page.locator(".panel.end")
    expect(end).to_contain_text("Red resigned")
    expect(end.locator(".final-ranking li").last).to_contain_text("Red (you)")
    expect(page.locator(".wotr-status")).to_contain_text("Red resigned; Yellow wins")
    expect(page.get_by_role("button", name="Resign…")).to_have_count(0)
    expect(page.locator("button.draft-card")).to_have_count(0)  # nothing more to do
    shots(page, "resigned-1366x768")
    assert client.get(f"/api/games/{game_id}").json()["result"]["ranks"] == [1, 0]


def assert_the_map_follows_the_reveal(reveals: dict[int, dict[str, dict[str, str]]]) -> None:
    """Step by step, the map changes hands as the rules do: bribes move only Personalities
    (WR-12), battles only Locations (WR-13). A step with no events is not shown."""
    bribed = fought = 0
    for steps in reveals.values():
        before = steps.get("deployment")
        after = steps.get("combat", steps.get("parliament"))
        if before is None or after is None:
            continue
        bribery = steps.get("bribery", before)
        for card in before:
            location = card in LOCATIONS
            assert bribery[card] == (before[card] if location else after[card]), card
            bribed += not location and bribery[card] != before[card]
            fought += location and after[card] != bribery[card]
    assert bribed and fought, "no bribe or battle changed a card's owner in the whole game"


class Resolved(NamedTuple):
    """One turn's reveal as the engine resolved it (WR-11..WR-15)."""

    orders: dict[int, Orders]
    placed: dict[str, dict[str, int]]
    left: dict[str, dict[str, int]]
    crowned: str | None
    king: list[str]  # the log's lines of the King's VP


def resolved_turns(record: dict[str, Any]) -> dict[int, Resolved]:
    """Each turn's reveal, by replaying the record up to its last seal."""
    actions = record["actions"]
    found: dict[int, Resolved] = {}
    for index, entry in enumerate(actions):
        if "orders" not in entry:
            continue
        before = replay({**record, "actions": actions[:index], "result": None})
        after = replay({**record, "actions": actions[: index + 1], "result": None})
        if after.phase is Phase.PLANNING and after.turn == before.turn:
            continue  # not the last seal of the turn
        state = after.state
        placed = {where: {str(s): n for s, n in by.items()}
                  for where, by in state.troops_placed.items()}  # fmt: skip
        left = {where: {str(s): n for s, n in by.items()}
                for where, by in state.troops_after_combat.items() if by}  # fmt: skip
        king = [e.text for e in state.log
                if e.turn == before.turn and e.phrase.template.startswith("The King:")]  # fmt: skip
        found[before.turn] = Resolved(dict(state.revealed), placed, left,
                                      state.crowned[before.turn - 1], king)  # fmt: skip
    return found


def assert_the_reveal_shows_what_the_engine_resolved(
    player: Player, turns: dict[int, Resolved], seat: int
) -> None:
    """WR-11, WR-13: the map shows the troops placed after shortfalls through deployment
    and bribery and those left after combat, never the troops ordered; WR-15: the
    Parliament step lists the King's 5 VP for each player of the crowned house."""
    short = kings = 0
    for turn, steps in player.troops.items():
        truth = turns[turn]
        for step in ("deployment", "bribery"):
            if step in steps:
                assert steps[step] == truth.placed, (turn, step)
        if "combat" in steps:
            assert steps["combat"] == truth.left, (turn, "combat")
        ordered = truth.orders[seat].troops
        if "deployment" in steps and any(
            truth.placed.get(card, {}).get(str(seat), 0) < count for card, count in ordered.items()
        ):
            short += 1
            for card, count in ordered.items():
                shown = steps["deployment"].get(card, {}).get(str(seat), 0)
                placed = truth.placed.get(card, {}).get(str(seat), 0)
                assert shown == placed < count, card
                told = player.areas[turn]["deployment"][card]  # the screen reader's list
                assert f"places {count} troops" not in told, told
                if placed:
                    assert f"places {placed} troop" in told, told
        events = player.events[turn].get("parliament")
        if events is not None and truth.crowned is not None:
            assert len(truth.king) == 2 and all(line in events for line in truth.king), turn
            kings += 1
    assert short, "no shortfall was shown in the whole game"
    assert kings, "no King was crowned in a reveal seen"


def planning_views(messages: list[Any]) -> list[dict[str, Any]]:
    """Every game view in ``messages`` whose table is in Planning."""
    return [
        node for node in walk(messages)
        if isinstance(node, dict) and isinstance(node.get("state"), dict)
        and node["state"].get("phase") == "planning"
    ]  # fmt: skip


def test_four_players_two_people_two_bots_and_no_plan_or_money_leaks(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    alice_name, alice_client, alice = person(server, new_page, LAPTOP)
    bob_name, bob_client, bob = person(server, new_page, LAPTOP)
    carol_name, _, carol = person(
        server, new_page, cast(ViewportSize, PHONE)
    )  # watches, without a seat
    recorders = {name: Received(page) for name, page in
                 [(alice_name, alice), (bob_name, bob), (carol_name, carol)]}  # fmt: skip
    seats = [
        {"kind": "me"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "invite", "name": bob_name},
        {"kind": "bot", "bot": "random"},
    ]
    game_id = new_wotr_game(alice_client, seats)
    assert bob_client.post(f"/api/games/{game_id}/join").status_code == 200
    for page in (alice, bob, carol):
        page.goto(f"{server.url}/games/{game_id}")
    people = [Player(alice, shots, withdraw=True), Player(bob, overorder=True)]

    def planning_turn_2(player: Player) -> bool:
        return player.page.get_by_role("heading", name="Turn 2: your plan").count() > 0

    play_until(people, lambda: all(map(planning_turn_2, people)), hold=planning_turn_2)
    # While Alice types, Bob seals: her page updates and her typing goes on undisturbed.
    bid = alice.get_by_label("Calais bid (pounds)")
    bid.fill("1")
    people[1].plan()
    expect(alice.locator(".plan-status")).to_contain_text(f"({bob_name}) has sealed a plan")
    expect(bid).to_be_focused()
    expect(bid).to_have_value("1")
    play_until_over(people)
    assert people[0].withdrawn
    assert [p.sealed for p in people] == [6, 5]  # Alice sealed turn 1 twice
    assert_the_map_follows_the_reveal(people[0].reveals)
    record = alice_client.get(f"/api/games/{game_id}/record").json()
    assert_the_reveal_shows_what_the_engine_resolved(people[1], resolved_turns(record), seat=2)
    while carol.locator(".reveal").count():  # the last turn's reveal, step by step
        carol.locator(".reveal button.primary").click()
    expect(carol.locator(".panel.end")).to_be_visible()
    # On a phone the end table is one card per player, within the screen.
    table = carol.locator(".panel.end table.final").bounding_box()
    assert table is not None and table["x"] >= 0 and table["x"] + table["width"] <= PHONE["width"]
    assert carol.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(carol.locator(".panel.end tbody .sources").first).to_be_visible()  # VP by source
    received = {name: recorder.messages() for name, recorder in recorders.items()}

    # WR-20: each person's own sealed plans, turn by turn, as their own views showed them.
    seat_of = {alice_name: 0, bob_name: 2, carol_name: None}
    plans: dict[str, dict[int, Any]] = {alice_name: {}, bob_name: {}}
    for name in plans:
        for view in planning_views(received[name]):
            if view["state"]["my_orders"]:
                plans[name][view["state"]["turn"]] = view["state"]["my_orders"]
    for name, messages in received.items():
        views = planning_views(messages)
        assert views, f"{name} received no views while planning"
        for view in views:
            money = view["state"]["money"]
            assert [m is None for m in money] == [s != seat_of[name] for s in range(4)], name
            unrevealed = {**view, "state": {**view["state"], "revealed": None}}  # last turn's
            turn = view["state"]["turn"]
            for other, theirs in plans.items():
                secret = theirs.get(turn)
                # the same orders as the viewer's own plan, or as one of the other's plans
                # already revealed in the log (a plan repeated turns later), are no leak
                known = [plans.get(name, {}).get(turn)] + [p for t, p in theirs.items() if t < turn]
                if other != name and secret and secret not in known:
                    assert all(node != secret for node in walk(unrevealed)), f"{name}: a plan"
    for page in (alice, bob, carol):
        assert page.js_errors == []  # type: ignore[attr-defined]
