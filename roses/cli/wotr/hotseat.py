"""People playing Wars of the Roses at one terminal, bots in any seat.

Planning is secret (WR-10, WR-20): each person plans on the terminal's alternate screen,
entered after the keyboard is handed over and left when the orders are sealed, so nothing
of a plan or of the planner's money stays on the screen or in the scrollback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Final, TypeVar

from roses.bots.wotr import WotrBot
from roses.wotr.actions import Cube, FrenchAid, Orders, Pick
from roses.wotr.data import BoardData
from roses.wotr.errors import WotrError
from roses.wotr.game import Game
from roses.wotr.state import SEAT_NAMES, Phase

from .render import describe_orders, draw_layout, draw_table, seat_label

# The alternate screen (xterm, and every common terminal): entered cleared, cleared again
# before it is left, and it has no scrollback of its own.
PRIVATE: Final = "\033[?1049h\033[2J\033[H"
PUBLIC: Final = "\033[2J\033[?1049l"
PLAN_HELP: Final = """Orders (WR-10), one per line:
  bid N ZONE            bid N pounds for the Captain of Calais (MI or SE); bid 0 to withdraw
  move NOBLE ZONE       move a noble to an adjacent zone      (unmove NOBLE)
  sail SHIP SEA         sail a ship up to 2 sea zones         (unsail SHIP)
  troops LOCATION N     buy N troops (3 pounds each) to defend or attack; 0 removes them
  mercs LOCATION N      place N of your mercenaries; 0 removes them
  white CARD / black CARD / unbribe CARD   bribe cubes on Personalities
  show   clear   done   help
Cards are named by their ids, e.g. windsor, ship-of-sandwich, neville; zones by NM, NE, MI,
SE, WC, WA; sea zones by the ids listed under the table. Upper or lower case."""

V = TypeVar("V")
Reader = Callable[[str], str]
Writer = Callable[[str], None]


class Quit(Exception):
    """The players left the game."""


class HotSeat:
    def __init__(
        self, game: Game, bots: Sequence[WotrBot | None], read: Reader, write: Writer
    ) -> None:
        self.game = game
        self.bots = bots
        self.read = read
        self.write = write
        self.logged = 0

    def ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt).strip()
        except EOFError:
            raise Quit from None
        if text in ("quit", "exit"):
            raise Quit
        return text

    def news(self) -> None:
        """Print the public log since last time."""
        log = self.game.state.log
        for event in log[self.logged :]:
            if "sealed" not in event.text:
                self.write(event.text)
        self.logged = len(log)

    def run(self) -> Game:
        game = self.game
        try:
            while not game.is_over():
                self.news()
                for seat in game.awaiting():
                    bot = self.bots[seat]
                    if bot is not None:
                        game.apply(seat, bot.act(game.view(seat)))
                    elif game.phase is Phase.DRAW:
                        self.pick(seat)
                    elif game.phase is Phase.INCOME:
                        self.french_aid(seat)
                    else:
                        self.plan(seat)
                    if game.phase is not Phase.PLANNING:
                        break  # the seats awaited have changed
        except Quit:
            self.write("Game left unfinished.")
            return game
        self.news()
        outcome = game.outcome()
        assert outcome is not None
        names = " and ".join(SEAT_NAMES[s] for s in outcome.winners)
        scores = ", ".join(f"{SEAT_NAMES[s]} {outcome.vp[s]}" for s in outcome.ranking)
        self.write(f"Game over: {names} {'win' if len(outcome.winners) > 1 else 'wins'}. {scores}.")
        return game

    def pick(self, seat: int) -> None:
        view = self.game.view(None)  # the whole table watches (money is public now, WR-20)
        self.write("")
        self.write(draw_table(view))
        self.write(draw_layout(view))
        while True:
            text = self.ask(f"{seat_label(view, seat)}, pick a card (number or id): ")
            card = next((c for c in view.layout if c.lower() == text.lower()), text)
            if text.isdigit() and 1 <= int(text) <= len(view.layout):
                card = view.layout[int(text) - 1]
            try:
                self.game.apply(seat, Pick(card))
                return
            except WotrError as error:
                self.write(str(error))

    def french_aid(self, seat: int) -> None:
        offer = self.game.french_aid_offer(seat)
        while True:
            text = self.ask(f"{SEAT_NAMES[seat]}, take {offer} pounds of French Aid (WR-9)? y/n: ")
            if text.lower() in ("y", "yes", "n", "no"):
                self.game.apply(seat, FrenchAid(text.lower().startswith("y")))
                return

    def plan(self, seat: int) -> None:
        self.ask(f"Hand the keyboard to {SEAT_NAMES[seat]} alone, then press Enter. ")
        self.write(PRIVATE)
        try:
            self.plan_in_private(seat)
        finally:
            self.write(PUBLIC)
        self.write(f"{SEAT_NAMES[seat]}'s orders are sealed.")

    def plan_in_private(self, seat: int) -> None:
        view = self.game.view(seat)
        self.write(draw_table(view))
        self.write(PLAN_HELP)
        orders = Orders()
        while True:
            text = self.ask(f"{SEAT_NAMES[seat]} plans> ")
            if text == "done":
                try:
                    self.game.apply(seat, orders)
                except WotrError as error:
                    self.write(str(error))
                    continue
                return
            if text == "help":
                self.write(PLAN_HELP)
            elif text == "show":
                self.write(describe_orders(view, orders))
            elif text == "clear":
                orders = Orders()
            elif text:
                try:
                    changed = edit_orders(view.board, orders, text)
                except ValueError as error:
                    self.write(str(error))
                    continue
                faults = view.check(changed)
                if faults:
                    self.write("; ".join(str(f) for f in faults))
                    continue
                orders = changed
                self.write(describe_orders(view, orders))


def _count(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _without(mapping: Mapping[str, V], key: str) -> dict[str, V]:
    return {k: v for k, v in mapping.items() if k != key}


def _ids(board: BoardData, kind: str) -> dict[str, str]:
    """Ids of one kind by their lower-case spelling: typed ids are not case-sensitive."""
    if kind == "zone":
        ids: tuple[str, ...] = tuple(board.zone)
    elif kind == "sea":
        ids = board.sea_order
    else:
        ids = (*board.icons, *board.nobles)
    return {item.lower(): item for item in ids}


def _id(board: BoardData, kind: str, text: str) -> str:
    found = _ids(board, kind).get(text.lower())
    if found is None:
        if kind == "sea":
            raise ValueError(f"no sea zone {text!r} (sea zones: {', '.join(board.sea_order)})")
        if kind == "zone":
            raise ValueError(f"no zone {text!r} (zones: {', '.join(board.zone)})")
        raise ValueError(f"no card {text!r} on the board")
    return found


def edit_orders(board: BoardData, orders: Orders, text: str) -> Orders:
    """The orders after one planning command; raises ``ValueError`` for a bad command.
    Ids may be typed in any case."""
    words = text.split()
    verb, args = words[0].lower(), words[1:]
    shapes = {"bid": 2, "move": 2, "sail": 2, "troops": 2, "mercs": 2, "white": 1, "black": 1,
              "unbribe": 1, "unmove": 1, "unsail": 1}  # fmt: skip
    if verb not in shapes:
        raise ValueError(f"unknown command {verb!r} (type help)")
    if len(args) != shapes[verb]:
        raise ValueError(f"{verb} takes {shapes[verb]} argument(s)")
    if verb == "bid":
        bid = _count(args[0])
        zone = _id(board, "zone", args[1]) if bid else None
        return replace(orders, calais_bid=bid, calais_zone=zone)
    target = _id(board, "card", args[0])
    if verb == "move":
        moves = {**orders.noble_moves, target: _id(board, "zone", args[1])}
        return replace(orders, noble_moves=moves)
    if verb == "sail":
        return replace(orders, ship_moves={**orders.ship_moves, target: _id(board, "sea", args[1])})
    if verb == "unmove":
        return replace(orders, noble_moves=_without(orders.noble_moves, target))
    if verb == "unsail":
        return replace(orders, ship_moves=_without(orders.ship_moves, target))
    if verb in ("troops", "mercs"):
        count = _count(args[1])
        placed = _without(orders.troops if verb == "troops" else orders.mercenaries, target)
        if count:
            placed[target] = count
        if verb == "troops":
            return replace(orders, troops=placed)
        return replace(orders, mercenaries=placed)
    bribes: dict[str, Cube] = _without(orders.bribes, target)
    if verb in ("white", "black"):
        bribes[target] = "white" if verb == "white" else "black"
    return replace(orders, bribes=bribes)


def play_hotseat(
    game: Game,
    bots: Sequence[WotrBot | None],
    read: Reader = input,
    write: Writer = print,
) -> Game:
    """Play until the game ends or the players quit; ``None`` seats are people."""
    write("Wars of the Roses: Lancaster vs York. Type quit at any prompt to stop.")
    return HotSeat(game, bots, read, write).run()
