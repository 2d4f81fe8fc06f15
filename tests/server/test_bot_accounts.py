"""Programs as players: personal API tokens (shown once, kept as a sha256, scoped, revocable,
accepted on the routes of playing only), bot accounts (one-way, listed as bots, on the bots'
ladder) and the bar on bot accounts in rated games against people.
"""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.server.accounts.tokens import ApiToken
from roses.server.services import services_of

from .conftest import Player, opening, sign_up, two_player_game
from .hidden import assert_envelopes_only, assert_ratings_only


def _token(player: Player, *scopes: str, label: str = "my bot") -> dict[str, Any]:
    answer = player.post("/api/accounts/tokens", {"label": label, "scopes": list(scopes)})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _bearer(token: str, **more: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}", **more}


def _bot(client: TestClient, prefix: str = "bot") -> Player:
    bot = sign_up(client, prefix)
    answer = bot.post("/api/accounts/bot")
    assert answer.status_code == 200, answer.text
    assert answer.json()["bot"] is True
    return bot


def _stored_hashes(client: TestClient) -> list[str]:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        return list(db.scalars(select(ApiToken.token_hash)))


# -- tokens -----------------------------------------------------------------------------------


def test_a_token_is_shown_once_and_kept_only_as_its_sha256(sqlite_url: str) -> None:
    from roses.server.app import create_app
    from roses.server.settings import Settings

    with TestClient(create_app(Settings(database_url=sqlite_url))) as client:
        ann = sign_up(client, "ann")
        made = _token(ann, "read", "play")
        secret = made["token"]
        assert secret.startswith("roses_") and len(secret) > 40
        assert made["scopes"] == ["play", "read"] and made["last_used_at"] is None
        assert _stored_hashes(client) == [hashlib.sha256(secret.encode()).hexdigest()]
        # Every other answer about the account leaves the secret out.
        listed = ann.get("/api/accounts/tokens").json()
        assert [t["label"] for t in listed] == ["my bot"] and "token" not in listed[0]
        for path in ("/api/accounts/tokens", "/api/me", "/api/accounts/data"):
            text = ann.get(path).text
            assert secret not in text and _stored_hashes(client)[0] not in text, path
        # It signs its account in on the routes of playing, and its use is noted.
        me = client.get(f"/api/players/{ann.name}", headers=_bearer(secret))
        assert me.status_code == 200 and me.json()["name"] == ann.name
        assert ann.get("/api/accounts/tokens").json()[0]["last_used_at"] is not None


def test_a_read_token_reads_and_is_refused_a_move_with_a_sentence(client: TestClient) -> None:
    red, white = sign_up(client, "red"), sign_up(client, "white")
    game = two_player_game(red, white)
    read_only = _token(red, "read")["token"]
    seen = client.get(f"/api/games/{game['id']}", headers=_bearer(read_only))
    assert seen.status_code == 200 and seen.json()["you"] == 0
    move = {"move": opening(client, game), "version": game["version"]}
    refused = client.post(f"/api/games/{game['id']}/moves", json=move, headers=_bearer(read_only))
    assert refused.status_code == 403
    assert (
        "may only read" in refused.json()["detail"] and "'play' scope" in refused.json()["detail"]
    )
    german = _bearer(read_only, **{"accept-language": "de"})
    assert "nur lesen" in client.post(f"/api/games/{game['id']}/resign", headers=german).text
    # On the game socket too: the views come, a move is answered with the same sentence.
    path = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(path, headers=_bearer(read_only)) as socket:
        assert socket.receive_json()["game"]["you"] == 0
        socket.send_json({"type": "move", "id": 1, **move})
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["status"] == 403 and answer["id"] == 1
    assert red.game(game["id"])["version"] == game["version"]  # nothing changed


def test_a_play_token_plays_over_http_and_the_socket(client: TestClient) -> None:
    red, white = sign_up(client, "red"), sign_up(client, "white")
    game = two_player_game(red, white)
    token = _token(red, "play")["token"]
    move = {"move": opening(client, game), "version": game["version"]}
    with client.websocket_connect(f"/api/games/{game['id']}/ws", headers=_bearer(token)) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "id": "a", **move})
        assert ws.receive_json()["type"] == "game"
        assert ws.receive_json() == {"type": "ack", "id": "a", "version": game["version"] + 1}
    white_token = _token(white, "play")["token"]
    view = client.get(f"/api/games/{game['id']}", headers=_bearer(white_token)).json()
    reply = {"move": view["state"]["legal_moves"][0], "version": view["version"]}
    moved = client.post(f"/api/games/{game['id']}/moves", json=reply, headers=_bearer(white_token))
    assert moved.status_code == 200, moved.text


def test_a_revoked_token_is_refused_and_its_socket_closed(client: TestClient) -> None:
    red, white = sign_up(client, "red"), sign_up(client, "white")
    game = two_player_game(red, white)
    made = _token(red, "play")
    path = f"/api/games/{game['id']}"
    assert client.get(path, headers=_bearer(made["token"])).status_code == 200
    with client.websocket_connect(f"{path}/ws", headers=_bearer(made["token"])) as socket:
        socket.receive_json()
        gone = client.delete(f"/api/accounts/tokens/{made['id']}", headers=red.headers)
        assert gone.status_code == 204
        assert socket.receive()["type"] == "websocket.close"  # closed, nothing more sent
    refused = client.get(path, headers=_bearer(made["token"]))
    assert refused.status_code == 401
    assert refused.json()["detail"] == "This API token is unknown or was revoked."
    assert red.get("/api/accounts/tokens").json() == []
    again = client.delete(f"/api/accounts/tokens/{made['id']}", headers=red.headers)
    assert again.status_code == 404  # and nobody else's token can be named
    with client.websocket_connect(f"{path}/ws", headers=_bearer(made["token"])) as socket:
        closed = socket.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4401


def test_a_token_is_not_accepted_for_the_account_itself(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    token = _token(ann, "read", "play")["token"]
    for method, path, body in [
        ("GET", "/api/accounts/tokens", None),
        ("POST", "/api/accounts/tokens", {"label": "more", "scopes": ["play"]}),
        ("POST", "/api/accounts/bot", None),
        ("POST", "/api/accounts/password", {"current": "secret-rose", "new": "other-rose"}),
        ("GET", "/api/accounts/data", None),
        ("GET", "/api/vacation", None),
    ]:
        answer = client.request(method, path, json=body, headers=_bearer(token))
        assert answer.status_code == 403, (path, answer.text)
        assert "not accepted here" in answer.json()["detail"]
    assert ann.get("/api/me").json()["bot"] is False  # nothing changed
    assert len(ann.get("/api/accounts/tokens").json()) == 1


def test_bad_token_requests_are_refused_with_sentences(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    for body in ({"label": "x", "scopes": []}, {"label": "x", "scopes": ["admin"]},
                 {"label": "", "scopes": ["read"]}):  # fmt: skip
        answer = ann.post("/api/accounts/tokens", body)
        assert answer.status_code == 422 and answer.json()["detail"], answer.text
    guest = client.post("/api/accounts/guest")
    cookies = {"cookie": "; ".join(f"{k}={v}" for k, v in guest.cookies.items())}
    client.cookies.clear()
    refused = client.post("/api/accounts/tokens", json={"label": "x", "scopes": ["read"]},
                          headers=cookies)  # fmt: skip
    assert refused.status_code == 409 and "register first" in refused.json()["detail"]
    unknown = client.get("/api/games/mine", headers=_bearer("roses_nothing"))
    assert unknown.status_code == 401


# -- bot accounts -----------------------------------------------------------------------------


def _rated_game_against_the_random_bot(player: Player) -> dict[str, Any]:
    """A rated game against the server's random bot, resigned at once (it is rated)."""
    body = {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}], "rated": True}
    created = player.post("/api/games", body)
    assert created.status_code == 201, created.text
    resigned = player.post(f"/api/games/{created.json()['id']}/resign")
    assert resigned.status_code == 200, resigned.text
    return dict(resigned.json())


def test_a_bot_account_is_listed_as_a_bot_and_rated_on_the_bots_ladder(client: TestClient) -> None:
    person, bot = sign_up(client, "ann"), _bot(client)
    _rated_game_against_the_random_bot(person)
    game = _rated_game_against_the_random_bot(bot)
    assert [seat["bot_account"] for seat in game["seats"]] == [True, False]
    assert person.get(f"/api/players/{bot.name}").json()["bot"] is True
    assert person.get(f"/api/players/{person.name}").json()["bot"] is False

    ours = {person.name, bot.name, "random"}  # a shared database holds others' players

    def ladder(which: str) -> list[tuple[str | None, bool]]:
        answer = person.get(f"/api/ratings/roseking/2p?ladder={which}").json()
        assert_ratings_only(answer)
        rows = [(p["player"] or p["bot"], p["bot_account"]) for p in answer["players"]]
        return sorted(row for row in rows if row[0] in ours)

    assert ladder("people") == [(person.name, False)]
    assert ladder("bots") == sorted([(bot.name, True), ("random", False)])
    assert len(ladder("all")) == 3
    mine = bot.get("/api/games/mine").json()
    assert_envelopes_only(mine["finished"])


def test_becoming_a_bot_is_one_way_and_only_for_accounts_without_rated_games(
    client: TestClient,
) -> None:
    person = sign_up(client, "ann")
    _rated_game_against_the_random_bot(person)
    refused = person.post("/api/accounts/bot")
    assert refused.status_code == 409 and "rated games" in refused.json()["detail"]
    bot = _bot(client)
    assert bot.post("/api/accounts/bot").status_code == 409  # already, for good
    assert bot.get("/api/me").json()["bot"] is True
    guest = client.post("/api/accounts/guest")
    cookies = {"cookie": "; ".join(f"{k}={v}" for k, v in guest.cookies.items())}
    client.cookies.clear()
    assert client.post("/api/accounts/bot", headers=cookies).status_code == 409


def test_a_rated_game_refuses_bot_accounts_beside_people_unless_its_creator_accepts(
    client: TestClient,
) -> None:
    person, other, bot = sign_up(client, "ann"), sign_up(client, "bea"), _bot(client)
    invite_bot = {"seats": [{"kind": "me"}, {"kind": "invite", "name": bot.name}], "rated": True}
    refused = person.post("/api/games", invite_bot)
    assert refused.status_code == 409
    assert (
        bot.name in refused.json()["detail"] and "accept bot accounts" in refused.json()["detail"]
    )
    german = {**person.headers, "accept-language": "de"}
    in_german = client.post("/api/games", json=invite_bot, headers=german).json()["detail"]
    assert bot.name in in_german and in_german != refused.json()["detail"]
    # A bot may not take an open seat of a rated game between people, nor a person a bot's.
    open_seat = {"seats": [{"kind": "me"}, {"kind": "open"}], "rated": True}
    by_person = person.post("/api/games", open_seat).json()
    assert bot.post(f"/api/games/{by_person['id']}/join").status_code == 409
    by_bot = bot.post("/api/games", open_seat).json()
    assert by_bot["bot_accounts"] is False
    assert other.post(f"/api/games/{by_bot['id']}/join").status_code == 409
    # Accepted: rated, bot and person at one table.
    accepted = person.post("/api/games", {**invite_bot, "bot_accounts": True})
    assert accepted.status_code == 201 and accepted.json()["bot_accounts"] is True
    joined = bot.post(f"/api/games/{accepted.json()['id']}/join")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    assert [s["bot_account"] for s in joined.json()["seats"]] == [False, True]
    # Casual games and bots among themselves are never barred.
    casual = person.post("/api/games", {**invite_bot, "rated": False})
    assert casual.status_code == 201
    against_a_bot = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    among_bots = bot.post("/api/games", {"seats": against_a_bot, "rated": True})
    assert among_bots.status_code == 201


# -- the event stream's kinds -----------------------------------------------------------------


def _header(status: str, *seats: tuple[int | None, int | None]) -> Any:
    """What ``streams`` reads of a game: its status and who sits or is invited where."""
    from types import SimpleNamespace

    from roses.server.play.live_games import SeatInfo

    infos = [
        SeatInfo(
            seat=i,
            label=str(i),
            user_id=user,
            player=None,
            invited_id=invited,
            invited=None,
            bot=None,
            strength=None,
            bot_account=False,
        )
        for i, (user, invited) in enumerate(seats)
    ]

    def seat_of(user_id: int) -> int | None:
        return next((s.seat for s in infos if s.user_id == user_id), None)

    return SimpleNamespace(status=status, seats=infos, seat_of=seat_of)


def test_the_event_stream_tells_each_game_by_what_it_is_to_the_account() -> None:
    from roses.server.play.streams import event_kind

    me, other = 7, 8
    cases = [
        (_header("waiting", (other, None), (None, me)), "invitation"),
        (_header("waiting", (me, None), (None, other)), None),  # my own game waits for others
        (_header("waiting", (other, None), (None, None)), None),  # an open game is no event
        (_header("active", (other, None), (me, None)), "game-start"),
        (_header("active", (other, None), (9, None)), None),  # not mine
        (_header("finished", (me, None), (other, None)), "game-finish"),
        (_header("cancelled", (other, None), (None, me)), "game-cancelled"),
        (_header("cancelled", (other, None), (None, None)), None),
    ]
    assert [event_kind(header, me) for header, _ in cases] == [kind for _, kind in cases]
