"""Pages that speak plainly, through the API: bots named by what they are and how well they
play (weakest first), a game's options in a word each, a bot's seat in words, no rule
numbers in a refusal, a Wars of the Roses fault naming a sea in words and translated, the
planning preview's faults translatable, and a game's terms (rated or casual, the clock) in
every list entry."""

from __future__ import annotations

from fastapi.testclient import TestClient

from roses.games import IllegalAction
from roses.server.i18n import _, game_error, speaking, without_rule_numbers
from roses.wotr import default_board
from roses.wotr.actions import Orders
from roses.wotr.phases.planning import check_orders
from tests.wotr.helpers import RED, game_at, give

from .conftest import sign_up


def test_the_catalogue_lists_bots_by_what_they_are_weakest_first(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    roseking = games["roseking"]["bot_list"]
    assert roseking[0]["name"] == "random"
    assert roseking[-1] == {
        "name": "search",
        "label": "Search",
        "level": "strongest",
        "strengths": ["quick", "normal", "strong"],
    }
    greedy = next(bot for bot in roseking if bot["name"] == "greedy")
    assert (greedy["label"], greedy["level"], greedy["strengths"]) == ("Greedy", "beginner", [])
    assert {bot["name"] for bot in roseking} == set(games["roseking"]["bots"])
    assert [bot["name"] for bot in games["wotr"]["bot_list"]][-1] == "search"
    with speaking("de"):
        assert _("strongest") != "strongest" and _("beginner") != "beginner"


def test_options_have_a_short_name_for_the_lists(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    shorts = {option["name"]: option["short"] for option in games["roseking"]["options"]}
    assert shorts == {
        "random_start": "random start",
        "light": "Light game",
        "show_draw_pile": "open draw pile",
    }


def test_a_bots_seat_says_what_the_bot_is_and_the_lists_say_the_terms(
    client: TestClient,
) -> None:
    ann = sign_up(client)
    body = {
        "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
        "time_limit": {"kind": "correspondence", "days": 3},
    }
    created = ann.post("/api/games", body)
    assert created.status_code == 201, created.text
    seat = created.json()["seats"][1]
    assert (seat["bot"], seat["bot_label"]) == ("greedy", "Greedy")
    assert created.json()["seats"][0]["bot_label"] is None
    mine = ann.get("/api/games/mine").json()
    listed = [game for part in mine.values() if isinstance(part, list) for game in part]
    entry = next(game for game in listed if game["id"] == created.json()["id"])
    assert entry["rated"] is False and entry["clock"]["kind"] == "correspondence"
    assert entry["clock"]["days"] == 3


def test_a_refusal_reads_without_rule_numbers() -> None:
    refusal = IllegalAction(
        "illegal move draw: {who} already holds {n} cards (RK-9)", who="Red", n=5
    )
    for language in ("en", "de", "it", "pt-BR", "pt"):
        with speaking(language):
            said = game_error(refusal)
            assert "RK-" not in said and "(" not in said, said
    assert without_rule_numbers("no undo (a draw can never be undone, RK-19)") == (
        "no undo (a draw can never be undone)"
    )
    assert without_rule_numbers("must be one of MI, SE (WR-10); x") == "must be one of MI, SE; x"


def test_a_planning_fault_names_the_sea_in_words_in_the_readers_language() -> None:
    """WR-5: a ship moved too far is refused naming the sea as the map does ("the sea off
    Midlands"), never its id, and the server translates the sea's words too."""
    state = game_at().state
    give(state, RED, "herbert", "ship-of-milford-haven", "harlech")
    (fault,) = check_orders(
        state, RED, 100, 2, Orders(ship_moves={"ship-of-milford-haven": "MI-sea"})
    )
    assert "MI-sea" not in fault.message and "the sea off Midlands" in fault.message
    board = default_board()
    assert fault.to_json()["params"]["sea"] == board.sea_name("MI-sea").to_json()
    refusal = IllegalAction(fault.template, **fault.params_json())
    with speaking("it"):
        said = game_error(refusal)
        sea = _("the sea off {zone}", zone="Midlands")
    assert sea != "the sea off Midlands" and sea in said and "WR-" not in said


def test_the_preview_faults_carry_their_template_for_the_page() -> None:
    """The planning form translates each fault as it does the log's phrases: the preview
    sends the template and its values beside the English."""
    game = game_at()
    give(game.state, RED, "herbert", "ship-of-milford-haven", "harlech")
    orders = Orders(ship_moves={"ship-of-milford-haven": "MI-sea"})
    (fault,) = game.view(RED).preview(orders).to_json()["faults"]
    assert fault["field"] == "ship_moves.ship-of-milford-haven"
    assert fault["template"] == "{sea} is more than {most} sea zones away (WR-5)"
    assert fault["params"]["most"] == 2
    assert fault["params"]["sea"] == {
        "template": "the sea off {zone}",
        "params": {"zone": "Midlands"},
    }
    assert fault["message"].startswith("the sea off Midlands is more than 2")
