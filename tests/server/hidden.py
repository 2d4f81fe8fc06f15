"""Checks shared by the hidden-information tests (server and browser): RK-5, RK-20."""

from __future__ import annotations

import re
from typing import Any

from roses.roseking import Board, card_name
from roses.roseking.record import root

# Names under which the deal or a god's-view position could travel.
SECRET_KEYS = {"seed", "start_position", "start", "deck", "shuffles", "draw_pile", "position"}


def walk(message: Any) -> list[Any]:
    """Every node of a JSON message; fails on a secret key anywhere in it."""
    found = [message]
    if isinstance(message, dict):
        for key, value in message.items():
            assert key not in SECRET_KEYS, f"a message holds the secret field {key!r}"
            found += walk(value)
    elif isinstance(message, list):
        for value in message:
            found += walk(value)
    return found


def history(board: Board) -> list[Board]:
    """The positions of the game so far, from the start."""
    replayed = root(board)
    positions = [replayed.copy()]
    for move in board.move_stack:
        replayed.push(move)
        positions.append(replayed.copy())
    return positions


def secret_order(board: Board) -> list[str] | None:
    """The draw pile's order as card names, if it tells more than the sorted contents."""
    if len(board.draw_pile) < 2 or list(board.draw_pile) == sorted(board.draw_pile):
        return None
    return [card_name(card) for card in board.draw_pile]


def assert_states_hide_the_pile(message: Any, positions: list[Board]) -> int:
    """Check every state in ``message`` against the true position after as many moves.

    Returns how many states were checked.
    """
    checked = 0
    for node in walk(message):
        if isinstance(node, dict) and "draw_pile_count" in node:
            truth = positions[len(node["moves"])]
            assert node["draw_pile_count"] == len(truth.draw_pile)
            order = secret_order(truth)
            for inner in walk(node):
                assert order is None or inner != order, "the draw pile's order was sent"
            checked += 1
    return checked


CHAT_MESSAGE_KEYS = {"id", "player", "room", "phrase", "text", "at"}
PHRASE_KEYS = {"hello", "good-luck", "well-played", "thanks", "sorry", "must-go", "back-soon"}


def assert_chat_only(message: Any, *, phrase: bool = False) -> None:
    """A chat socket message carries a message (who, when, which room, what) and never a
    view; with ``phrase``, a courtesy phrase's key and text, and no free text."""
    assert set(message) == {"type", "game_id", "message"}, message
    said = message["message"]
    assert message["type"] == "chat" and set(said) == CHAT_MESSAGE_KEYS
    assert said["room"] in ("players", "spectators")
    assert all(isinstance(value, int | str | None) for value in said.values())
    if phrase:
        assert said["phrase"] in PHRASE_KEYS and said["room"] == "players", said
    walk(message)


CLOCK_KEYS = {"kind", "on_time_out", "now", "remaining_ms", "running", "deadlines",
              "claimable_by", "paused_until"}  # fmt: skip
TIME_CONTROL_KEYS = {"live": {"initial_ms", "increment_ms"}, "correspondence": {"days"}}


def assert_clock_only(view: Any) -> None:
    """The envelope's clock holds the time limit and times only (each seat's time left,
    ISO moments), and says no more about who is deciding than ``to_act`` does (a sealed
    WotR plan stops its clock exactly as it leaves ``to_act``)."""
    clock = view["clock"]
    if clock is None:
        return
    walk(clock)
    assert set(clock) == CLOCK_KEYS | TIME_CONTROL_KEYS[clock["kind"]], clock
    assert sorted(clock["running"]) == sorted(view["to_act"])
    assert clock["remaining_ms"] is None or all(isinstance(ms, int) for ms in clock["remaining_ms"])
    moments = [clock["now"], *(clock["deadlines"] or []), *(clock["paused_until"] or [])]
    assert all(moment is None or isinstance(moment, str) for moment in moments)
    assert all(isinstance(seat, int) for seat in clock["running"] + clock["claimable_by"])


def assert_envelopes_only(games: list[Any]) -> None:
    """A list of games carries each game's envelope (who plays, whose turn), no state."""
    from roses.server.play.views import ENVELOPE_KEYS

    for game in games:
        assert set(game) <= ENVELOPE_KEYS, f"a list holds {sorted(set(game) - ENVELOPE_KEYS)}"
        walk(game)
        if "clock" in game:
            assert_clock_only(game)


PROFILE_KEYS = {"name", "guest", "bot", "ratings", "record", "recent"}
RATED_PLAYER_KEYS = {"player", "bot_account", "bot", "strength", "rating", "deviation", "games"}


def assert_ratings_only(answer: Any) -> None:
    """A profile or a leaderboard holds ratings and counts, and games only as envelopes."""
    walk(answer)
    if "recent" in answer:
        assert set(answer) == PROFILE_KEYS, answer
        assert_envelopes_only(answer["recent"])
    else:
        assert set(answer) == {"game", "title", "variant", "ladder", "system", "players"}, answer
        assert all(set(player) == RATED_PLAYER_KEYS for player in answer["players"])


VACATION_KEYS = {"available_days", "max_days", "days_per_year", "cap_days", "started_at", "until"}


def assert_vacation_only(answer: Any) -> None:
    """A vacation answer: days and moments of its owner's own, nothing of any game."""
    walk(answer)
    assert set(answer) == VACATION_KEYS, answer
    assert all(value is None or isinstance(value, int | str) for value in answer.values())


HISTORY_KEYS = {"name", "games", "page", "pages", "total"}
HISTORY_GAME_KEYS = {"id", "game", "title", "variant", "seat", "opponents", "result", "rated",
                     "date"}  # fmt: skip


def assert_history_only(answer: Any) -> None:
    """A player's history: per game who sat where, the result for the player, rated, the
    date; plain values only, nothing of a game's state (no deal, hands, pile or plan)."""
    walk(answer)
    assert set(answer) == HISTORY_KEYS, answer
    for game in answer["games"]:
        assert set(game) == HISTORY_GAME_KEYS, game
        assert all(set(o) == {"seat", "player", "bot"} for o in game["opponents"])
        values = [v for k, v in game.items() if k != "opponents"]
        values += [v for o in game["opponents"] for v in o.values()]
        assert all(v is None or isinstance(v, int | str | bool) for v in values), game


ANALYSIS_KEYS = {"game", "decisions", "running", "problem", "seconds"}
RK_DECISION_KEYS = {"ply", "seat", "team", "move", "judgement", "win_before", "win_after",
                    "best_move", "red_win_before", "red_win_after", "exact", "depth",
                    "moves"}  # fmt: skip


def assert_analysis_only(answer: Any) -> None:
    """A game's analysis holds its envelope and, per decision made, numbers and moves:
    no state, no deal, no pile."""
    walk(answer)
    assert set(answer) == ANALYSIS_KEYS, answer
    assert_envelopes_only([answer["game"]])
    for decision in answer["decisions"]:
        if decision is None:
            continue
        assert set(decision) == RK_DECISION_KEYS, decision
        moves = decision["moves"]  # every legal move from the mover's position, and its value
        assert all(set(move) == {"move", "win"} for move in moves), moves
        values = [v for k, v in decision.items() if k != "moves"]
        values += [value for move in moves for value in move.values()]
        assert all(isinstance(value, int | float | str | bool) for value in values)


WAITING_KEYS = {"count", "games", "invitations"}
WAITING_GAME_KEYS = {"id", "game", "title", "turn_since"}


def assert_waiting_only(answer: Any) -> None:
    """The badge's answer: how many games wait for me and which (number, game, since when),
    nothing of any game's state."""
    walk(answer)
    assert set(answer) == WAITING_KEYS, answer
    assert answer["count"] == len(answer["games"]) + len(answer["invitations"])
    for game in [*answer["games"], *answer["invitations"]]:
        assert set(game) == WAITING_GAME_KEYS, game
        assert all(isinstance(value, int | str) for value in game.values())


def assert_mail_hides(text: str, secrets: list[str]) -> None:
    """An e-mail (its links taken out: their tokens are random) names none of ``secrets``
    (the draw pile's cards, another seat's sealed plan)."""
    words = re.sub(r"https?://\S+", " ", text)
    for secret in secrets:
        assert not re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", words), f"{secret!r} mailed"


# A Rose King log entry (roses.games.roseking.move_entry): public facts of a move made.
RK_LOG_KEYS = {"ply", "seat", "seat_index", "team", "move", "kind", "card", "from", "to",
               "flipped", "drew"}  # fmt: skip


def assert_log_tells_only_the_past(view: Any, positions: list[Board]) -> int:
    """Every log entry and last move in ``view`` is a move already made (``positions`` are
    the true positions so far), with only public fields; a draw names the card that entered
    the drawer's face-up hand (RK-5), never the pile's next card. Returns the entries seen."""
    seen = 0
    for node in walk(view):
        if isinstance(node, dict) and "seat_index" in node and "kind" in node:
            assert set(node) == RK_LOG_KEYS, sorted(node)
            if node["drew"] is not None and node["ply"] + 1 < len(positions):
                after = positions[node["ply"] + 1]
                hand = after.hands[node["seat_index"]]
                assert card_name(hand[-1]) == node["drew"], "a draw names another card"
            seen += 1
    return seen


SOCKET_REPLY_KEYS = {"ack": {"type", "id", "version"},
                     "error": {"type", "id", "status", "detail", "errors"}}  # fmt: skip


def assert_socket_reply_only(message: Any) -> None:
    """A reply to a move sent on a game's socket says only whether it was taken: the move's
    id and the new version, or the refusal's status and sentences; never a view."""
    walk(message)
    allowed = SOCKET_REPLY_KEYS[message["type"]]
    assert set(message) <= allowed and {"type", "id"} <= set(message), message
    assert message["id"] is None or isinstance(message["id"], int | str)
    if message["type"] == "ack":
        assert isinstance(message["version"], int)
    else:
        assert isinstance(message["status"], int) and isinstance(message["detail"], str)
        for problem in message.get("errors", []):
            assert set(problem) == {"field", "message"}, problem


PEOPLE_KEYS = {"friends", "following", "followers", "blocked", "muted"}
FRIEND_KEYS = {"name", "status", "games", "unread"}
PRIVATE_MESSAGE_KEYS = {"id", "from", "to", "text", "at"}


def assert_people_only(answer: Any) -> None:
    """The people page's answer: names, a status word and the numbers and titles of the
    games in progress a friend has open; nothing of any game's state."""
    walk(answer)
    assert set(answer) == PEOPLE_KEYS, answer
    for friend in answer["friends"]:
        assert set(friend) == FRIEND_KEYS, friend
        assert friend["status"] in {"online", "playing", "away", "offline"}
        assert all(set(game) == {"id", "title"} for game in friend["games"]), friend
    for person in answer["following"] + answer["followers"]:
        assert set(person) == {"name", "friend"}, person
    assert all(isinstance(name, str) for name in answer["blocked"] + answer["muted"])


def assert_private_message_only(message: Any) -> None:
    """A private message (an answer, or ``{"type": "message"}`` on a socket): who, to
    whom, when, what; never a view."""
    walk(message)
    if "type" in message:
        assert set(message) == {"type", "message"} and message["type"] == "message"
        message = message["message"]
    assert set(message) == PRIVATE_MESSAGE_KEYS, message
    assert all(isinstance(value, int | str) for value in message.values())


WOTR_REVIEW_KEYS = {"turn", "seat", "vp_before", "made", "search", "same", "iterations",
                    "candidates"}  # fmt: skip
WOTR_VALUED_KEYS = {"orders", "vp", "prospects", "share"}
WOTR_PLAN_PARTS = {"calais", "noble_moves", "ship_moves", "troops", "mercenaries", "bribes"}


def assert_review_only(answer: Any) -> None:
    """A Wars of the Roses turn review holds its envelope and, per seat and revealed turn,
    two plans (made and the search's, public once revealed: WR-10) with numbers: no state,
    no deal, no money behind a screen (WR-20)."""
    walk(answer)
    assert set(answer) == ANALYSIS_KEYS, answer
    assert_envelopes_only([answer["game"]])
    for review in answer["decisions"]:
        if review is None:
            continue
        assert set(review) == WOTR_REVIEW_KEYS, review
        for valued in (review["made"], review["search"]):
            assert set(valued) == WOTR_VALUED_KEYS, valued
            assert set(valued["orders"]) <= WOTR_PLAN_PARTS, valued
            assert all(isinstance(valued[k], int | float) for k in ("vp", "prospects", "share"))


# A web push message (the service worker's title, body, tag) or a webhook's body
# (Discord's content, Slack's text, and the same as data): notify/outbox.py.
REACH_KEYS = {"kind", "text", "url", "game_id", "game", "title", "player", "language",
              "tournament", "round", "body", "tag", "content", "sent_at", "id"}  # fmt: skip


def assert_reach_only(message: Any, secrets: list[str]) -> None:
    """A push or webhook message says whose news it is and about which game (or
    tournament), as plain values, and names none of ``secrets`` (the pile's cards, a
    hand, a sealed plan)."""
    walk(message)
    assert set(message) <= REACH_KEYS, sorted(set(message) - REACH_KEYS)
    assert all(v is None or isinstance(v, int | str) for v in message.values()), message
    for key in ("text", "body", "content"):
        if key in message:
            assert_mail_hides(message[key], secrets)


TOURNAMENT_KEYS = {
    "id", "name", "format", "game", "players_per_table", "rated", "time_control", "starts_at",
    "ends_at", "status", "version", "entered", "round", "rounds", "options", "vacation",
    "late_join_until_round", "organiser", "conditions", "entrants", "standings", "pairings",
    "you",
}  # fmt: skip
TOURNAMENT_LINE_KEYS = TOURNAMENT_KEYS - {
    "options", "vacation", "late_join_until_round", "organiser", "conditions", "entrants",
    "standings", "pairings", "you",
}  # fmt: skip
STANDING_KEYS = {
    "rank", "player", "name", "points", "tie_breaks", "games", "wins", "draws", "losses",
    "byes", "bot", "withdrawn",
}  # fmt: skip


def assert_tournament_only(answer: Any) -> None:
    """A tournament (its page's answer, a line of the list, or the lobby socket's notice
    of a change) says who plays whom, at which game, and each game's ranks once it is over:
    never anything of a game's state (a hand, a pile, a plan)."""
    walk(answer)
    if answer.get("type") == "tournament":
        assert set(answer) == {"type", "tournament_id", "version"}, answer
        return
    if "pairings" not in answer:
        assert set(answer) == TOURNAMENT_LINE_KEYS, answer
        return
    assert set(answer) == TOURNAMENT_KEYS, answer
    assert set(answer["time_control"]) <= {"kind", "initial_ms", "increment_ms", "days"}
    for entrant in answer["entrants"]:
        assert set(entrant) == {
            "player", "name", "bot", "bot_name", "strength", "withdrawn", "rating",
        }, entrant  # fmt: skip
    for row in answer["standings"]:
        assert set(row) == STANDING_KEYS, row
        assert all(set(value) == {"name", "value"} for value in row["tie_breaks"]), row
    for round_ in answer["pairings"]:
        assert set(round_) == {"round", "tables", "byes"}, round_
        for table in round_["tables"]:
            assert set(table) == {"table", "game_id", "seats", "ranks"}, table
            assert all(isinstance(seat, int) for seat in table["seats"]), table
    assert set(answer["you"]) == {
        "player", "entered", "withdrawn", "organiser", "may_enter", "barred_until",
    }  # fmt: skip
