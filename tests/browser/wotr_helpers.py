"""Wars of the Roses tables for the browser tests, set up over the HTTP API (faster than
clicking): two people at a game, played on by simple legal actions until a chosen moment."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx

from .helpers import api_user

View = dict[str, Any]


def person(base_url: str, prefix: str = "p") -> tuple[str, httpx.Client]:
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    return name, api_user(base_url, name)


def two_people_game(base_url: str) -> tuple[int, list[tuple[str, httpx.Client]]]:
    """A 2-player game of two people (Red, Yellow), started: both seats taken."""
    red, yellow = person(base_url, "red"), person(base_url, "yel")
    seats = [{"kind": "me"}, {"kind": "invite", "name": yellow[0]}]
    response = red[1].post("/api/games", json={"game": "wotr", "players": 2, "seats": seats})
    assert response.status_code == 201, response.text
    game_id = int(response.json()["id"])
    assert yellow[1].post(f"/api/games/{game_id}/join").status_code == 200
    return game_id, [red, yellow]


def simple_action(view: View) -> dict[str, Any]:
    """A legal action for the seat the view belongs to: the first card of the layout, no
    French Aid, an empty plan (WR-7, WR-9, WR-10)."""
    state = view["state"]
    if state["phase"] == "draw cards":
        return {"pick": state["layout"][0]}
    if state["phase"] == "income":
        return {"french_aid": False}
    return {"orders": {}}


def play_on(
    game_id: int, clients: list[httpx.Client], stop: Callable[[View], bool], limit: int = 400
) -> View:
    """Each seat that may act does ``simple_action`` until ``stop(view)`` (a spectator's view
    of the game) or the game is over."""
    for _ in range(limit):
        view = clients[0].get(f"/api/games/{game_id}").json()
        if stop(view) or view["status"] == "finished":
            return view
        for client in clients:
            mine = client.get(f"/api/games/{game_id}").json()
            if not mine["can_act"]:
                continue
            body = {"move": simple_action(mine), "version": mine["version"]}
            response = client.post(f"/api/games/{game_id}/moves", json=body)
            assert response.status_code == 200, response.text
            break
    raise AssertionError(f"game {game_id} did not get there in {limit} actions")


def planning(view: View) -> bool:
    return bool(view["state"]["phase"] == "planning")
