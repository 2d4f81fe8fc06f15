"""The play page survives reloads and restarts, and two tabs never both move."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from roses.roseking import Board, Move
from roses.roseking.moves import HERO, PLAY
from roses.server.db.models import Game
from tests.server.live_server import LiveServer

from .conftest import PHONE, Screenshots
from .helpers import api_user, log_length, make_a_move, sign_in_page, started_game

pytestmark = pytest.mark.browser


def _players(server: LiveServer) -> tuple[tuple[str, httpx.Client], tuple[str, httpx.Client]]:
    suffix = uuid.uuid4().hex[:6]
    red_name, white_name = f"red-{suffix}", f"white-{suffix}"
    return (red_name, api_user(server.url, red_name)), (
        white_name,
        api_user(server.url, white_name),
    )


def _view(client: httpx.Client, game_id: int) -> dict[str, Any]:
    return dict(client.get(f"/api/games/{game_id}").json())


def _play_over_api(clients: list[httpx.Client], game_id: int, count: int) -> None:
    for _ in range(count):
        view = _view(clients[0], game_id)
        mover = clients[0 if view["turn"] == "Red" else 1]
        view = _view(mover, game_id)
        move = view["state"]["legal_moves"][0]
        answer = mover.post(
            f"/api/games/{game_id}/moves", json={"move": move, "version": view["version"]}
        )
        assert answer.status_code == 200, answer.text


def _board_text(page: Page) -> list[str]:
    stones = page.locator("[data-stone]")
    return sorted(stones.nth(i).get_attribute("data-stone") or "" for i in range(stones.count()))


def test_reload_restores_the_view(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    (_, red), (white_name, white) = _players(server)
    game_id = started_game(red, white_name, white)
    _play_over_api([red, white], game_id, 7)
    page = sign_in_page(new_page(PHONE), server.url, white)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#log li")).to_have_count(7)
    before = (_board_text(page), page.locator("[data-crown]").get_attribute("data-crown"))
    page.get_by_role("button", name=re.compile("turn the board", re.IGNORECASE)).click()

    def y(square: str) -> float:
        return float(page.locator(f'[data-square="{square}"]').get_attribute("y") or 0)

    assert y("a1") < y("a9")  # seen from the north (RK-1): rank 1 at the top
    page.reload()
    expect(page.locator("#log li")).to_have_count(7)
    after = (_board_text(page), page.locator("[data-crown]").get_attribute("data-crown"))
    assert after == before
    expect(page.get_by_role("button", name="View from the south")).to_be_visible()  # kept
    shots(page, "after-reload-turned")


def test_a_server_restart_mid_game_loses_nothing(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    (_, red), (white_name, white) = _players(server)
    game_id = started_game(red, white_name, white)
    red_page = sign_in_page(new_page(), server.url, red)
    red_page.goto(f"{server.url}/games/{game_id}")
    for _ in range(3):
        make_a_move(red_page)
        _play_over_api([red, white], game_id, 1)
    expect(red_page.locator(".banner.yours")).to_be_visible()
    moves_before = log_length(red_page)
    server.kill()  # kill -9 mid-game
    server.start()
    # The page reconnects by itself and is up to date without a reload.
    expect(red_page.locator("body.offline")).to_have_count(0, timeout=20_000)
    assert log_length(red_page) == moves_before
    make_a_move(red_page)
    assert len(_view(red, game_id)["log"]) > moves_before
    shots(red_page, "after-restart")


def test_conflicting_moves_from_two_tabs_apply_exactly_one(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    (_, red), (white_name, white) = _players(server)
    game_id = started_game(red, white_name, white)
    first = sign_in_page(new_page(), server.url, red)
    second = first.context.new_page()  # a second tab of the same browser
    held: list[str | bytes] = []

    def slow_connection(socket: WebSocketRoute) -> None:
        """The second tab's live updates (views) are held back, as on a slow connection;
        the answers to the moves it sends on its socket pass."""
        upstream = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if '"type":"game"' in str(message):
                held.append(message)
            else:
                socket.send(message)

        upstream.on_message(from_server)
        socket.on_message(lambda message: upstream.send(message))

    second.route_web_socket(re.compile(r".*/ws(\?.*)?$"), slow_connection)
    for tab in (first, second):
        tab.goto(f"{server.url}/games/{game_id}")
        expect(tab.locator(".banner.yours")).to_be_visible()
    cards = first.locator("button.card:not(.unplayable)")
    one, other = (cards.nth(i).get_attribute("data-card") for i in (0, 1))
    first.locator(f'button.card[data-card="{one}"]').click()
    first.locator("#actions button.primary").click()
    expect(first.locator("#log li")).to_have_count(1)
    second.locator(f'button.card[data-card="{other}"]').click()
    second.locator("#actions button.primary").click()  # chosen on the old version
    expect(second.get_by_role("alert")).to_contain_text("moved on")
    expect(second.locator("#log li")).to_have_count(1)
    shots(second, "second-tab-refused")
    log = _view(red, game_id)["log"]
    assert [entry["move"] for entry in log] == [one]


def test_light_play_is_shown_and_can_be_undone_until_end_turn(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """RK-19: the play is shown; Undo takes it back; End turn makes it final."""
    (_, red), (white_name, white) = _players(server)
    game_id = started_game(red, white_name, white, light=True)
    page = sign_in_page(new_page(PHONE), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    card = page.locator("button.card:not(.unplayable)").first
    name = card.get_attribute("data-card")
    card.click()
    page.get_by_role("button", name=f"Play card {name}").click()
    expect(page.locator("[data-stone]")).to_have_count(1)  # shown at once
    expect(page.get_by_role("button", name="Undo")).to_be_visible()
    shots(page, "light-played")
    assert _view(white, game_id)["state"]["stones"] == {}  # White does not see it yet
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("[data-stone]")).to_have_count(0)
    page.locator(f'button.card[data-card="{name}"]').click()
    page.get_by_role("button", name=f"Play card {name}").click()
    page.get_by_role("button", name="End turn").click()
    expect(page.locator("#log li")).to_have_count(1)
    assert len(_view(white, game_id)["state"]["stones"]) == 1
    # A draw is final at once: no Undo is offered after it (RK-19).
    white_view = _view(white, game_id)
    white_play = next(m for m in white_view["state"]["legal_moves"] if m != "draw")
    pending = white.post(
        f"/api/games/{game_id}/moves", json={"move": white_play, "version": white_view["version"]}
    ).json()
    white.post(f"/api/games/{game_id}/end-turn", json={"version": pending["version"]})
    page.get_by_role("button", name="Draw (cannot be undone)").click()
    expect(page.locator("#log li")).to_have_count(3)
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)


def _hero_only_position() -> tuple[Board, Move]:
    """A position where Red holds a card that only a hero can play (RK-10)."""
    import random

    rng = random.Random(4)
    for seed in range(1000):
        board = Board(seed=seed)
        while not board.is_over():
            if board.turn == 0:
                hero = [m for m in board.legal_moves() if m.kind == HERO]
                plays = {m.card for m in board.legal_moves() if m.kind == PLAY}
                if hero and hero[0].card not in plays:
                    return board.copy(stack=False), hero[0]
            board.push(rng.choice(board.legal_moves()))
    raise AssertionError("no hero position found")


def test_a_card_playable_only_with_a_hero_asks_to_confirm_the_hero(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """RK-18: choosing such a card asks to confirm the hero; confirming flips the stone."""
    (_, red), (white_name, white) = _players(server)
    game_id = started_game(red, white_name, white)
    position, hero_move = _hero_only_position()
    engine = create_engine(server.database_url)
    with Session(engine) as db, db.begin():  # the game continues from the prepared position
        game = db.get(Game, game_id)
        assert game is not None
        game.deal = {**game.deal, "position": position.position()}
        game.to_act = [position.turn]
    engine.dispose()
    server.stop()  # a running server keeps the game in memory: start it again to read it
    server.start()
    page = sign_in_page(new_page(), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    card = str(hero_move).rstrip("h")
    page.locator(f'button.card[data-card="{card}"]').click()
    confirm = page.get_by_role("button", name=f"Play {card} with a hero")
    expect(confirm).to_be_visible()
    expect(page.locator("#actions")).to_contain_text("only be played with a hero")
    shots(page, "hero-confirm")
    heroes_before = page.locator('[data-seat="Red"] .hero').count()
    confirm.click()
    expect(page.locator("#log li").last).to_contain_text(f"{card} + hero: flips")  # RK-10
    expect(page.locator('[data-seat="Red"] .hero')).to_have_count(heroes_before - 1)


def test_the_creator_cancels_a_game_nobody_joined(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    (_, host), (friend_name, _) = _players(server)
    seats = [{"kind": "me"}, {"kind": "invite", "name": friend_name}]
    game_id = host.post("/api/games", json={"seats": seats}).json()["id"]
    page = sign_in_page(new_page(PHONE), server.url, host)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#status")).to_have_text("Waiting for players")
    shots(page, "waiting")
    page.get_by_role("button", name="Cancel this game").click()
    expect(page.locator("#status")).to_have_text("This game was cancelled")
    assert _view(host, game_id)["status"] == "cancelled"


def test_a_team_game_against_bots_is_created_and_played_from_the_lobby(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """RK-16: four seats R1, W1, R2, W2 with bots chosen in the lobby's form."""
    (_, player), _ = _players(server)
    page = sign_in_page(new_page(), server.url, player)
    page.goto(server.url + "/")
    page.get_by_label("4 players").check()
    for label in ("White 1", "Red 2", "White 2"):
        page.get_by_label(f"Seat {label}", exact=True).select_option("bot")
        page.get_by_label(f"Bot in seat {label}", exact=True).select_option("random")
        strength = page.get_by_label(f"Strength of the bot in seat {label}", exact=True)
        expect(strength).to_be_hidden()  # random answers at once: no strength to choose
    shots(page, "team-game-form")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/games/*")
    labels = page.locator(".hand-panel .seat-name")
    expect(labels).to_have_count(4)
    assert sorted(labels.all_inner_texts()) == ["Red 1", "Red 2", "White 1", "White 2"]
    for _ in range(3):
        make_a_move(page)  # then the three bots move
    expect(page.locator("#log li").nth(8)).to_be_visible()
    log = page.locator("#log li").all_inner_texts()
    assert [entry.split()[1:3] for entry in log[:4]] == [
        ["Red", "1"], ["White", "1"], ["Red", "2"], ["White", "2"],
    ]  # fmt: skip
    shots(page, "team-game")


def test_a_guest_plays_the_computer(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    page = new_page(PHONE)
    page.goto(server.url + "/")
    page.get_by_role("button", name="play as a guest").click()
    expect(page.locator(".me")).to_contain_text("(guest)")
    page.get_by_label("Seat White", exact=True).select_option("bot")
    page.get_by_label("Bot in seat White", exact=True).select_option("greedy")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/games/*")
    make_a_move(page)
    expect(page.locator(".banner.yours")).to_be_visible()  # the bot has answered
    log = page.locator("#log li").all_inner_texts()
    assert log[0].split()[1] == "Red" and log[1].split()[1] == "White"
    shots(page, "guest-against-greedy")
