"""Table talk by the game's rules, through the API and the sockets: during a Wars of the Roses
game the players exchange only courtesy phrases, each reader getting them in their own
language, and their free text is refused (WR-20: "Non sono consentite discussioni
strategiche e tattiche tra i giocatori"); free talk opens when the game is over. Spectators
talk in a room of their own, which the players read only once the game is over."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games import TableTalk
from roses.games.wotr import WOTR
from roses.server.db.store import read_game
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .conftest import Player, sign_up, two_player_game
from .hidden import PHRASE_KEYS, assert_chat_only

pytestmark = pytest.mark.timeout(60)

PHRASE_KEYS_IN_ORDER = ("hello", "good-luck", "well-played", "thanks", "sorry", "must-go",
                        "back-soon")  # fmt: skip
assert set(PHRASE_KEYS_IN_ORDER) == PHRASE_KEYS
TRANSLATED = {"en": "Good luck!", "de": "Viel Glück!", "it": "Buona fortuna!", "pt": "Boa sorte!"}


def speaks(player: Player, language: str) -> Player:
    chosen = player.client.put("/api/language", json={"language": language}, headers=player.headers)
    assert chosen.status_code in (200, 204), chosen.text
    return player


def wotr_game(one: Player, two: Player) -> int:
    seats = [{"kind": "me"}, {"kind": "invite", "name": two.name}]
    game_id = int(
        one.post("/api/games", {"game": "wotr", "players": 2, "seats": seats}).json()["id"]
    )
    assert two.post(f"/api/games/{game_id}/join").status_code == 200
    return game_id


def live(client: TestClient, game_id: int) -> LiveGame:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        return LiveGame(read_game(db, game_id))


def step(client: TestClient, players: list[Player], game_id: int, rng: random.Random) -> None:
    """One random legal action (the engine's own fallback) of a seat the game waits for."""
    game = live(client, game_id)
    seat = game.to_act[0]
    action = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(game.state, seat), rng))
    answer = players[seat].post(
        f"/api/games/{game_id}/moves", {"move": action, "version": game.version}
    )
    assert answer.status_code == 200, answer.text


def until_chat(socket: Any) -> dict[str, Any]:
    """The next chat message on a game's socket (the views before it skipped)."""
    while (message := socket.receive_json())["type"] != "chat":
        assert message["type"] == "game"
    return message  # type: ignore[no-any-return]


def test_a_wotr_phrase_reaches_each_reader_in_their_language_wr20(client: TestClient) -> None:
    one, two = sign_up(client), speaks(sign_up(client), "it")
    german = speaks(sign_up(client), "de")
    game_id = wotr_game(one, two)
    chat = f"/api/games/{game_id}/chat"
    table = one.get(chat).json()
    assert table["talk"] == "courtesy" and table["may_write"] is False
    assert table["room"] == "players" and "courtesy phrase" in table["refusal"]
    assert [phrase["key"] for phrase in table["phrases"]] == list(PHRASE_KEYS_IN_ORDER)
    italian_phrases = {p["key"]: p["text"] for p in two.get(chat).json()["phrases"]}
    assert italian_phrases["good-luck"] == TRANSLATED["it"]
    path = f"/api/games/{game_id}/ws"
    with two.websocket(path) as opponent, german.websocket(path) as spectator:
        opponent.receive_json()
        spectator.receive_json()
        sent = one.post(chat, {"phrase": "good-luck"})
        assert sent.status_code == 201, sent.text
        assert sent.json()["text"] == TRANSLATED["en"] and sent.json()["phrase"] == "good-luck"
        for socket, language in ((opponent, "it"), (spectator, "de")):
            pushed = socket.receive_json()
            assert_chat_only(pushed, phrase=True)
            assert pushed["message"] == {**sent.json(), "text": TRANSLATED[language]}
    for reader, language in ((one, "en"), (two, "it"), (german, "de")):
        assert [m["text"] for m in reader.get(chat).json()["messages"]] == [TRANSLATED[language]]


def test_free_text_is_refused_in_every_phase_and_accepted_after_the_game_wr20(
    client: TestClient,
) -> None:
    one, two = sign_up(client), speaks(sign_up(client), "it")
    game_id = wotr_game(one, two)
    chat = f"/api/games/{game_id}/chat"
    rng = random.Random(game_id)
    phases: set[str] = set()
    with one.websocket(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()
        while "planning" not in phases or len(phases) < 3:
            phase = live(client, game_id).state.phase.value
            if phase not in phases:  # once a phase (the chat's rate limit)
                phases.add(phase)
                refused = two.post(chat, {"text": "I will attack London"})
                assert refused.status_code == 409
                assert "frase di cortesia" in refused.json()["detail"]  # the writer's language
                assert two.post(chat, {"phrase": "hello"}).status_code == 201
                assert until_chat(socket)["message"]["phrase"] == "hello"  # not the text
            step(client, [one, two], game_id, rng)
    assert [m["phrase"] for m in one.get(chat).json()["messages"]] == ["hello"] * len(phases)
    assert one.post(chat, {"phrase": "nobody-knows"}).status_code == 422
    both = one.post(chat, {"text": "hi", "phrase": "hello"})
    assert both.status_code == 422 and both.json()["errors"][0]["field"] == "text"
    assert one.post(f"/api/games/{game_id}/resign").status_code == 200
    table = two.get(chat).json()
    assert table["talk"] == "free" and table["may_write"] is True and table["refusal"] is None
    said = two.post(chat, {"text": "ben giocato, davvero"})
    assert said.status_code == 201 and said.json()["phrase"] is None
    assert one.post(chat, {"phrase": "well-played"}).status_code == 201  # phrases still work


def test_spectators_talk_apart_until_the_game_is_over(client: TestClient) -> None:
    one, two = sign_up(client), sign_up(client)
    watcher, other_watcher = sign_up(client), speaks(sign_up(client), "pt")
    game_id = wotr_game(one, two)
    chat = f"/api/games/{game_id}/chat"
    path = f"/api/games/{game_id}/ws"
    with one.websocket(path) as player, other_watcher.websocket(path) as spectator:
        player.receive_json()
        spectator.receive_json()
        aside = watcher.post(chat, {"text": "Red should attack London"})
        assert aside.status_code == 201 and aside.json()["room"] == "spectators"
        assert spectator.receive_json()["message"] == aside.json()
        two.post(chat, {"phrase": "sorry"})
        assert until_chat(player)["message"]["phrase"] == "sorry"  # not the spectator's
        assert until_chat(spectator)["message"]["text"] == "Desculpa!"
        assert [m["room"] for m in one.get(chat).json()["messages"]] == ["players"]
        assert [m["room"] for m in watcher.get(chat).json()["messages"]] == [
            "spectators",
            "players",
        ]
        assert watcher.get(chat).json()["talk"] == "free"
        assert one.post(f"/api/games/{game_id}/resign").status_code == 200
        after = watcher.post(chat, {"text": "well, that was short"}).json()
        assert until_chat(player)["message"] == after  # the players read it now
    texts = [m["text"] for m in one.get(chat).json()["messages"]]
    assert texts == ["Red should attack London", "Sorry!", "well, that was short"]


def test_the_rose_king_keeps_free_talk_and_its_spectators_a_room_apart(
    client: TestClient,
) -> None:
    red, white, watcher = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    chat = f"/api/games/{game['id']}/chat"
    assert red.get(chat).json()["talk"] == "free"
    assert red.post(chat, {"text": "nice opening"}).status_code == 201
    assert watcher.post(chat, {"text": "white is lost"}).status_code == 201
    assert [m["text"] for m in white.get(chat).json()["messages"]] == ["nice opening"]


def test_a_game_that_closes_its_table_refuses_phrases_and_text(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(type(WOTR), "table_talk", lambda self, state: TableTalk.CLOSED)
    one, two = sign_up(client), sign_up(client)
    chat = f"/api/games/{wotr_game(one, two)}/chat"
    table = one.get(chat).json()
    assert table["talk"] == "closed" and table["may_write"] is False
    for body in ({"phrase": "hello"}, {"text": "hello"}):
        refused = one.post(chat, body)
        assert refused.status_code == 409 and "no table talk now" in refused.json()["detail"]
    assert one.get(chat).json()["messages"] == []
