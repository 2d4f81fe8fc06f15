"""People: follows and friends, presence, blocks, private messages (issue 35)."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.server import Settings, create_app

from .conftest import Player, sign_up, two_player_game
from .test_resign import _wotr_game

pytestmark = pytest.mark.timeout(60)


def put(player: Player, path: str) -> Any:
    return player.client.put(path, headers=player.headers)


def delete(player: Player, path: str) -> Any:
    return player.client.delete(path, headers=player.headers)


def follow(one: Player, other: Player) -> None:
    assert put(one, f"/api/people/follows/{other.name}").status_code == 204


def befriend(one: Player, other: Player) -> None:
    follow(one, other)
    follow(other, one)


def block(one: Player, other: Player) -> None:
    assert put(one, f"/api/people/blocks/{other.name}").status_code == 204


def people(player: Player) -> dict[str, Any]:
    answer = player.get("/api/people")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def names(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["name"] for entry in entries]


def write(one: Player, other: Player, text: str) -> Any:
    return one.post(f"/api/people/messages/{other.name}", {"text": text})


def open_game(creator: Player) -> int:
    body = {"seats": [{"kind": "me"}, {"kind": "open"}]}
    created = creator.post("/api/games", body)
    assert created.status_code == 201, created.text
    return int(created.json()["id"])


# -- follows and friends -------------------------------------------------------------------


def test_following_one_way_is_not_friendship_and_both_ways_is(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    follow(ann, bob)
    assert names(people(ann)["following"]) == [bob.name]
    assert names(people(bob)["followers"]) == [ann.name]
    assert people(ann)["friends"] == [] and people(bob)["friends"] == []
    follow(bob, ann)
    assert names(people(ann)["friends"]) == [bob.name]
    assert names(people(bob)["friends"]) == [ann.name]
    assert people(ann)["following"] == [{"name": bob.name, "friend": True}]
    assert delete(bob, f"/api/people/follows/{ann.name}").status_code == 204
    assert people(ann)["friends"] == [] and people(bob)["friends"] == []


def test_following_is_told_to_the_one_followed(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    with bob.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        follow(ann, bob)
        assert lobby.receive_json() == {"type": "people"}


def test_bad_names_get_a_sentence_and_change_nothing(client: TestClient) -> None:
    ann = sign_up(client)
    nobody = put(ann, "/api/people/follows/nobody-here-at-all")
    assert nobody.status_code == 404 and "nobody-here-at-all" in nobody.json()["detail"]
    myself = put(ann, f"/api/people/blocks/{ann.name}")
    assert myself.status_code == 409 and "your own name" in myself.json()["detail"]
    assert people(ann) == {"friends": [], "following": [], "followers": [], "blocked": [],
                           "muted": []}  # fmt: skip
    german = ann.client.put(
        "/api/people/follows/nobody-here-at-all", headers={**ann.headers, "Accept-Language": "de"}
    )
    assert german.status_code == 404 and "Spieler" in german.json()["detail"]


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["follow", "unfollow", "block", "unblock"]),
        st.integers(0, 2),
        st.integers(0, 2),
    ),
    max_size=12,
)


def test_friendship_is_symmetric_and_never_crosses_a_block(client: TestClient) -> None:
    """Whatever follows and blocks are made: one is the other's friend exactly when the
    other is theirs, friends follow each other, and nobody parted by a block is a friend,
    a follower or followed in either's lists."""
    trio = [sign_up(client) for _ in range(3)]

    @settings(max_examples=30, deadline=None)
    @given(steps=STEPS)
    def check(steps: list[tuple[str, int, int]]) -> None:
        for one in trio:  # each example from nobody following or blocking anybody
            for other in trio:
                if one is not other:
                    delete(one, f"/api/people/blocks/{other.name}")
                    delete(one, f"/api/people/follows/{other.name}")
        blocks: set[tuple[int, int]] = set()
        for verb, one, other in steps:
            if one == other:
                continue
            kind = "follows" if "follow" in verb else "blocks"
            path = f"/api/people/{kind}/{trio[other].name}"
            answer = (delete if verb.startswith("un") else put)(trio[one], path)
            assert answer.status_code in (204, 409), answer.text
            if verb == "block":
                blocks.add((one, other))
            elif verb == "unblock":
                blocks.discard((one, other))
        lists = [people(p) for p in trio]
        for i, mine in enumerate(lists):
            for j, theirs in enumerate(lists):
                if i == j:
                    continue
                friend = trio[j].name in names(mine["friends"])
                assert friend == (trio[i].name in names(theirs["friends"]))
                if friend:
                    assert trio[j].name in names(mine["following"])
                    assert trio[j].name in names(mine["followers"])
                if (i, j) in blocks or (j, i) in blocks:
                    assert not friend
                    seen = names(mine["following"]) + names(mine["followers"])
                    assert trio[j].name not in seen
                assert (trio[j].name in mine["blocked"]) == ((i, j) in blocks)

    check()


# -- presence --------------------------------------------------------------------------------


def test_friends_see_presence_online_playing_away(client: TestClient) -> None:
    ann, bob, eve = sign_up(client), sign_up(client), sign_up(client)
    befriend(ann, bob)
    follow(eve, bob)  # only followed: eve sees no presence at all
    assert people(ann)["friends"][0]["status"] == "offline"
    game = two_player_game(bob, eve)
    with bob.websocket("/api/lobby/ws") as lobby:
        lobby.receive_json()
        assert people(ann)["friends"][0] == {
            "name": bob.name, "status": "online", "games": [], "unread": 0,
        }  # fmt: skip
        with bob.websocket(f"/api/games/{game['id']}/ws") as board:
            board.receive_json()
            seen = people(ann)["friends"][0]
            assert seen["status"] == "playing"
            assert seen["games"] == [{"id": game["id"], "title": "The Rose King"}]
        assert people(ann)["friends"][0]["status"] == "online"
    assert people(ann)["friends"][0]["status"] == "away"
    assert "status" not in str(people(eve)["following"])


def test_a_friends_arrival_is_told_on_the_lobby_socket(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    with ann.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        with bob.websocket("/api/lobby/ws") as other:
            other.receive_json()
            assert lobby.receive_json() == {"type": "presence"}


# -- blocks ----------------------------------------------------------------------------------


def test_a_block_ends_follows_and_the_blocker_unblocks_before_following(
    client: TestClient,
) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    block(ann, bob)
    assert people(ann)["friends"] == [] and people(ann)["blocked"] == [bob.name]
    assert people(bob) == {"friends": [], "following": [], "followers": [], "blocked": [],
                           "muted": []}  # fmt: skip
    again = put(ann, f"/api/people/follows/{bob.name}")
    assert again.status_code == 409 and "unblock" in again.json()["detail"]
    follow(bob, ann)  # the one blocked is not told of the block: the follow is taken...
    assert people(ann)["followers"] == []  # ...and shown to nobody while the block stands
    assert delete(ann, f"/api/people/blocks/{bob.name}").status_code == 204
    assert people(ann)["blocked"] == []
    assert names(people(ann)["followers"]) == [bob.name]


def test_blocked_players_do_not_see_each_others_open_games(client: TestClient) -> None:
    ann, bob, eve = sign_up(client), sign_up(client), sign_up(client)
    anns, bobs = open_game(ann), open_game(bob)
    block(ann, bob)
    ann_open = [g["id"] for g in ann.get("/api/games/mine").json()["open"]]
    bob_open = [g["id"] for g in bob.get("/api/games/mine").json()["open"]]
    eve_open = [g["id"] for g in eve.get("/api/games/mine").json()["open"]]
    assert bobs not in ann_open and anns not in bob_open
    assert {anns, bobs} <= set(eve_open)


def test_blocked_players_cannot_join_each_others_games(client: TestClient) -> None:
    ann, bob, eve = sign_up(client), sign_up(client), sign_up(client)
    anns = open_game(ann)
    block(ann, bob)
    refused = bob.post(f"/api/games/{anns}/join")
    assert refused.status_code == 409
    assert refused.json()["detail"] == "No seat in this game is free for you."  # as if full
    assert ann.game(anns)["status"] == "waiting"
    bobs = open_game(bob)  # nor the one who blocked, the blocked one's
    assert ann.post(f"/api/games/{bobs}/join").status_code == 409
    assert eve.post(f"/api/games/{anns}/join").status_code == 200


def test_blocked_players_cannot_invite_each_other(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    block(ann, bob)
    for one, other in ((bob, ann), (ann, bob)):
        body = {"seats": [{"kind": "me"}, {"kind": "invite", "name": other.name}]}
        refused = one.post("/api/games", body)
        assert refused.status_code == 409, refused.text
        assert refused.json()["detail"] == f"You and {other.name} cannot play together."
        assert one.get("/api/games/mine").json()["others"] == []


def test_an_invitation_from_a_player_blocked_later_is_not_listed(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    body = {"seats": [{"kind": "me"}, {"kind": "invite", "name": ann.name}]}
    game_id = bob.post("/api/games", body).json()["id"]
    assert [g["id"] for g in ann.get("/api/games/mine").json()["invitations"]] == [game_id]
    block(ann, bob)
    assert ann.get("/api/games/mine").json()["invitations"] == []
    assert ann.post(f"/api/games/{game_id}/join").status_code == 409


def test_blocked_players_do_not_read_each_other_at_the_table(client: TestClient) -> None:
    ann, bob, eve = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(ann, bob)
    chat = f"/api/games/{game['id']}/chat"
    assert ann.post(chat, {"text": "before"}).status_code == 201
    block(bob, ann)
    with (
        ann.websocket(f"/api/games/{game['id']}/ws") as ann_ws,
        eve.websocket(f"/api/games/{game['id']}/ws") as eve_ws,
    ):
        ann_ws.receive_json()
        eve_ws.receive_json()
        assert bob.post(chat, {"text": "from bob"}).status_code == 201
        assert eve_ws.receive_json()["message"]["text"] == "from bob"
        assert ann.post(chat, {"text": "from ann"}).status_code == 201
        assert ann_ws.receive_json()["message"]["text"] == "from ann"  # not bob's
    assert [m["text"] for m in ann.get(chat).json()["messages"]] == ["before", "from ann"]
    assert [m["text"] for m in bob.get(chat).json()["messages"]] == ["from bob"]
    assert len(eve.get(chat).json()["messages"]) == 3


def test_unmute_shows_the_table_talk_again(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    game = two_player_game(ann, bob)
    chat = f"/api/games/{game['id']}/chat"
    bob.post(chat, {"text": "hello"})
    assert put(ann, f"/api/chat/mutes/{bob.name}").status_code == 204
    assert people(ann)["muted"] == [bob.name]
    assert ann.get(chat).json()["messages"] == []
    assert delete(ann, f"/api/chat/mutes/{bob.name}").status_code == 204
    assert people(ann)["muted"] == []
    assert [m["text"] for m in ann.get(chat).json()["messages"]] == ["hello"]


# -- private messages ------------------------------------------------------------------------


def test_friends_write_to_each_other_and_hear_it_live(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    with bob.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        sent = write(ann, bob, "  a game tonight?  ")
        assert sent.status_code == 201, sent.text
        message = sent.json()
        assert message["text"] == "a game tonight?" and message["from"] == ann.name
        assert lobby.receive_json() == {"type": "message", "message": message}
    assert people(bob)["friends"][0]["unread"] == 1
    read = bob.get(f"/api/people/messages/{ann.name}").json()
    assert read["messages"] == [message] and read["may_write"] and read["why_not"] is None
    assert people(bob)["friends"][0]["unread"] == 0
    assert write(bob, ann, "yes").status_code == 201
    texts = [m["text"] for m in ann.get(f"/api/people/messages/{bob.name}").json()["messages"]]
    assert texts == ["a game tonight?", "yes"]


def test_only_friends_write_and_bad_messages_change_nothing(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    follow(ann, bob)
    refused = write(ann, bob, "hi")
    assert refused.status_code == 409 and "only to friends" in refused.json()["detail"]
    follow(bob, ann)
    assert write(ann, bob, "   ").status_code == 422
    too_long = write(ann, bob, "x" * 501)
    assert too_long.status_code == 422 and too_long.json()["errors"][0]["field"] == "text"
    assert bob.get(f"/api/people/messages/{ann.name}").json()["messages"] == []


def test_a_block_closes_private_messages_both_ways(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    assert write(bob, ann, "hi").status_code == 201
    block(ann, bob)
    for one, other in ((bob, ann), (ann, bob)):
        refused = write(one, other, "still there?")
        assert refused.status_code == 409 and "only to friends" in refused.json()["detail"]
    assert people(ann)["friends"] == []  # nor is bob's unread message counted


def test_no_private_word_between_players_of_a_wotr_game_in_progress_wr20(
    client: TestClient,
) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    game_id = _wotr_game(ann, bob)
    refused = write(ann, bob, "attack London")
    assert refused.status_code == 409
    assert f"game {game_id}" in refused.json()["detail"]
    assert "table talk" in refused.json()["detail"]
    conversation = bob.get(f"/api/people/messages/{ann.name}").json()
    assert conversation["may_write"] is False and str(game_id) in conversation["why_not"]
    assert bob.post(f"/api/games/{game_id}/resign").status_code == 200
    assert write(ann, bob, "well played").status_code == 201


def test_rose_king_players_may_write_to_each_other_mid_game(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    two_player_game(ann, bob)
    assert write(ann, bob, "good luck").status_code == 201


def test_private_messages_are_rate_limited(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, private_messages_per_account="3/minute"))
    with TestClient(app) as client:
        ann, bob = sign_up(client), sign_up(client)
        befriend(ann, bob)
        for n in range(3):
            assert write(ann, bob, f"message {n}").status_code == 201
        fast = write(ann, bob, "one more")
        assert fast.status_code == 429 and "faster" in fast.json()["detail"]
        assert "Retry-After" in fast.headers
        assert len(bob.get(f"/api/people/messages/{ann.name}").json()["messages"]) == 3
        assert write(bob, ann, "mine are counted apart").status_code == 201


def test_messages_and_presence_travel_between_servers(database_url: str, redis_url: str) -> None:
    channel = f"roses-test-{uuid.uuid4().hex}"
    settings_ = Settings(database_url=database_url, redis_url=redis_url, redis_channel=channel)
    with TestClient(create_app(settings_)) as first, TestClient(create_app(settings_)) as second:
        ann, bob = sign_up(first), sign_up(first)
        befriend(ann, bob)
        bob_elsewhere = Player(second, bob.name, bob.token)
        with bob_elsewhere.websocket("/api/lobby/ws") as lobby:
            assert lobby.receive_json()["type"] == "hello"
            sent = write(ann, bob, "over here").json()
            assert lobby.receive_json() == {"type": "message", "message": sent}
            for _ in range(100):  # the presence news crosses the relay
                if people(ann)["friends"][0]["status"] == "online":
                    break
                time.sleep(0.05)
            assert people(ann)["friends"][0]["status"] == "online"
