"""What a bot can work out of others' money from what is public (WR-20).

Money is behind the screens only while the players plan; every change of it is told in the
public log: income and French Aid (WR-9), the Calais bid, the troops placed (WR-11) and the
black cubes (WR-12, each one either bribes or fails). The white cubes of the last reveal are
in its revealed plans, less those a shortfall cancelled. The one thing the table never tells
is a white cube of an earlier turn that no black cube met, so the inferred amount is exact
or, after such a cube, too high by its price.
"""

from __future__ import annotations

from roses.wotr.phases.planning import bribe_cost
from roses.wotr.state import SEAT_NAMES, START_MONEY
from roses.wotr.text import Phrase, Value
from roses.wotr.view import PlayerView

INCOME = "{seat} collects {pounds} of income."
FRENCH_AID = "{seat} takes French Aid: {pounds}."
CALAIS_BID = "{seat} bids {cost} for Calais."
PLACES = ("{seat} places {placed} to defend {name}.", "{seat} places {placed} to attack {name}.")
TAKES = "{seat} takes {card}."
BRIBES = "{seat} bribes {name} away from {holder}."
FAILS = "{seat} fails to bribe {name}: a white cube guards it."
SHORT = "{seat} is short of money; cancelled: {cancelled}."
WHITE_CUBE = "the white cube on {name}"


def _count(value: Value) -> int:
    assert isinstance(value, Phrase), f"expected a counted phrase, not {value!r}"
    number = value.params["n"]
    assert isinstance(number, int)
    return number


def _troops(placed: Value) -> int:
    """The troops (not mercenaries, which are free) in "{troops} and {mercenaries}",
    "{n} troops" or "{n} mercenaries"."""
    assert isinstance(placed, Phrase)
    if "troops" in placed.params:
        return _count(placed.params["troops"])
    return _count(placed) if placed.template == "{n} troop" else 0


def inferred_money(view: PlayerView) -> tuple[int, ...]:
    """Every seat's money as the viewer can know it: what the view shows (its own, and
    everyone's when no screen is up), otherwise what the public log implies."""
    board = view.board
    seat_of = {name: seat for seat, name in enumerate(SEAT_NAMES[: view.players])}
    by_name = {board.card_name(card): card for card in view.owner if board.is_personality(card)}
    unit = board.model.troops.cost
    money = [START_MONEY] * view.players
    holder: dict[str, int] = {}  # Personalities change hands only by the draft and bribes
    last_reveal = view.turn - 1  # the turn whose plans ``view.revealed`` shows
    cancelled_white: set[tuple[int, str]] = set()
    for event in view.log:
        template, params = event.phrase.template, event.phrase.params
        seat = seat_of.get(str(params.get("seat")), -1)
        if template in (INCOME, FRENCH_AID):
            money[seat] += _count(params["pounds"])
        elif template == CALAIS_BID:
            cost = params["cost"]
            assert isinstance(cost, int)
            money[seat] -= cost
        elif template in PLACES:
            money[seat] -= unit * _troops(params["placed"])
        elif template == TAKES and str(params["card"]) in by_name:
            holder[by_name[str(params["card"])]] = seat
        elif template in (BRIBES, FAILS):
            card = by_name[str(params["name"])]
            money[seat] -= bribe_cost(board, card, "black")
            if template == BRIBES:
                holder[card] = seat
            elif event.turn != last_reveal:  # the last reveal's white cubes are counted below
                money[holder[card]] -= bribe_cost(board, card, "white")
        elif template == SHORT and event.turn == last_reveal:
            cancelled = params["cancelled"]
            assert isinstance(cancelled, tuple)
            for charge in cancelled:
                if isinstance(charge, Phrase) and charge.template == WHITE_CUBE:
                    cancelled_white.add((seat, str(charge.params["name"])))
    for seat, orders in view.revealed.items():
        for card, colour in orders.bribes.items():
            if colour == "white" and (seat, board.card_name(card)) not in cancelled_white:
                money[seat] -= bribe_cost(board, card, "white")
    shown = [known if known is not None else money[seat] for seat, known in enumerate(view.money)]
    return tuple(shown)
