"""``Game``: the WR rules as an explicit state machine over the 8 phases of a turn.

A game waits in one of three phases for decisions: DRAW (the next pick, WR-7), INCOME
(French Aid, WR-9) and PLANNING (sealed orders from every player, WR-10, revealed only
when all are in; a sealed plan may be taken back, ``Unseal``, until then). Every other
phase runs by itself. ``apply(seat, action)`` checks the action, changes nothing when it is
illegal, and advances the machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from .actions import Action, FrenchAid, Orders, Pick, Unseal
from .data import TURNS, BoardData, default_board
from .errors import IllegalActionError
from .phases.draft import lay_out_cards, next_turn_order, picker, take_card
from .phases.ending import Outcome, outcome
from .phases.income import (
    collect_income,
    french_aid_amount,
    french_aid_candidates,
    take_french_aid,
)
from .phases.planning import check_orders
from .reveal import REVEAL_STEPS
from .state import LANCASTER, YORK, GameState, Phase, PlayerState
from .view import PlayerView

PLAYER_COUNTS: Final = (2, 3, 4)


@dataclass(frozen=True)
class Setup:
    """The game's chance, fixed up front: the deck (top first), turn 1's order (WR-6) and,
    with 4 players, each seat's house tile (WR-4)."""

    deck: tuple[str, ...]
    first_order: tuple[int, ...]
    houses: tuple[str, ...] | None

    @classmethod
    def shuffled(cls, board: BoardData, players: int, rng: random.Random) -> Setup:
        deck = list(board.deck)
        rng.shuffle(deck)
        order = list(range(players))
        rng.shuffle(order)
        houses = None
        if players == 4:
            tiles = [LANCASTER, LANCASTER, YORK, YORK]
            rng.shuffle(tiles)
            houses = tuple(tiles)
        return cls(tuple(deck), tuple(order), houses)

    def check(self, board: BoardData, players: int) -> None:
        if players not in PLAYER_COUNTS:
            raise IllegalActionError("players", f"{players}: the game is for 2, 3 or 4")
        if sorted(self.deck) != sorted(board.deck):
            raise IllegalActionError("deck", "is not an order of the board's cards")
        if sorted(self.first_order) != list(range(players)):
            raise IllegalActionError("first_order", f"is not an order of seats 0..{players - 1}")
        wanted = [LANCASTER, LANCASTER, YORK, YORK] if players == 4 else None
        if (sorted(self.houses) if self.houses else None) != wanted:
            raise IllegalActionError("houses", "4 players hold 2 Lancaster and 2 York tiles")


class Game:
    def __init__(
        self,
        players: int = 4,
        *,
        board: BoardData | None = None,
        seed: int | None = None,
        setup: Setup | None = None,
    ) -> None:
        self.board = board or default_board()
        self.setup = setup or Setup.shuffled(self.board, players, random.Random(seed))
        self.setup.check(self.board, players)
        self.history: list[tuple[int, Action]] = []
        houses = self.setup.houses or (None,) * players
        board_ships = self.board.icons_of("ship")
        self.state = GameState(
            board=self.board,
            players=[PlayerState(house=house) for house in houses],
            order=list(self.setup.first_order),
            deck=list(self.setup.deck),
            owner=dict.fromkeys([*self.board.icons, *self.board.nobles]),
            ship_sea={ship.id: _home_sea(self.board, ship.id) for ship in board_ships},
            mercenary_supply=self.board.model.troops.mercenary_tokens,
        )
        self._enter()
        self._advance()

    # -- the state machine ---------------------------------------------------------------

    def _enter(self) -> None:
        """The work a phase does on entry (WR-6..WR-17)."""
        state = self.state
        phase = state.phase
        if phase is Phase.TURN_ORDER:
            if state.turn > 1:
                next_turn_order(state)
            state.note("Turn order: {seats}.", seats=tuple(state.name(s) for s in state.order))
        elif phase is Phase.DRAW:
            lay_out_cards(state)
        elif phase is Phase.INCOME:
            collect_income(state)
            state.french_aid_queue = french_aid_candidates(state)
        elif phase in REVEAL_STEPS:
            REVEAL_STEPS[phase](state)
            if phase is Phase.PARLIAMENT:
                state.clear_turn()

    def _waiting(self) -> bool:
        state = self.state
        if state.phase is Phase.DRAW:
            return picker(state) is not None
        if state.phase is Phase.INCOME:
            return bool(state.french_aid_queue)
        if state.phase is Phase.PLANNING:
            return len(state.orders) < state.player_count
        return state.phase is Phase.OVER

    def _advance(self) -> None:
        state = self.state
        while not self._waiting():
            if state.phase is Phase.PARLIAMENT:
                if state.turn == TURNS:
                    state.phase = Phase.OVER
                    state.note("The game is over.")
                    return
                state.turn += 1
                state.phase = Phase.TURN_ORDER
            else:
                state.phase = _NEXT[state.phase]
            self._enter()

    # -- decisions -----------------------------------------------------------------------

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose decision the game waits for (several only while planning)."""
        state = self.state
        if state.phase is Phase.DRAW:
            seat = picker(state)
            return () if seat is None else (seat,)
        if state.phase is Phase.INCOME:
            return (state.french_aid_queue[0],)
        if state.phase is Phase.PLANNING:
            return tuple(s for s in state.order if s not in state.orders)
        return ()

    def apply(self, seat: int, action: Action) -> None:
        """Make ``seat``'s decision; raises ``IllegalActionError`` and changes nothing if it
        is not that seat's turn to decide, or the action is illegal."""
        state = self.state
        if isinstance(action, Unseal):
            self._unseal(seat)
        elif seat not in self.awaiting():
            waiting = ", ".join(state.name(s) for s in self.awaiting()) or "nobody"
            raise IllegalActionError(
                "seat",
                "{seat} may not act now ({phase}; waiting for {waiting})",
                seat=seat,
                phase=state.phase.value,
                waiting=waiting,
            )
        elif isinstance(action, Pick):
            self._pick(seat, action)
        elif isinstance(action, FrenchAid):
            self._french_aid(seat, action)
        else:
            self._submit(seat, action)
        self.history.append((seat, action))
        self._advance()

    def _pick(self, seat: int, action: Pick) -> None:
        if self.state.phase is not Phase.DRAW:
            raise IllegalActionError(
                "pick", "no cards are picked in {phase}", phase=self.state.phase.value
            )
        if action.card not in self.state.layout:
            raise IllegalActionError("pick", "'{card}' is not laid out", card=action.card)
        take_card(self.state, seat, action.card)

    def _french_aid(self, seat: int, action: FrenchAid) -> None:
        state = self.state
        if state.phase is not Phase.INCOME:
            raise IllegalActionError(
                "french_aid", "not offered in {phase}", phase=state.phase.value
            )
        if action.take:
            take_french_aid(state, seat)
        else:
            state.note("{seat} declines French Aid.", seat=state.name(seat))
        state.french_aid_queue.pop(0)

    def _submit(self, seat: int, orders: Orders) -> None:
        state = self.state
        if state.phase is not Phase.PLANNING:
            raise IllegalActionError(
                "orders", "no orders are given in {phase}", phase=state.phase.value
            )
        player = state.players[seat]
        faults = check_orders(state, seat, player.money, player.mercenaries, orders)
        if faults:
            if len(faults) == 1:  # one fault: its sentence, which a server can translate
                raise faults[0]
            message = "; ".join([faults[0].message, *(str(fault) for fault in faults[1:])])
            raise IllegalActionError(faults[0].field, message)
        state.orders[seat] = orders
        state.note("{seat} has sealed a plan.", seat=state.name(seat))

    def _unseal(self, seat: int) -> None:
        """WR-10: a sealed plan may be taken back until the last player seals (then the
        plans are revealed at once, so a game still in Planning always has one unsealed)."""
        state = self.state
        if state.phase is not Phase.PLANNING:
            raise IllegalActionError(
                "unseal", "no plans are sealed in {phase}", phase=state.phase.value
            )
        if seat not in state.orders:
            raise IllegalActionError(
                "unseal", "seat {seat} has no sealed plan to take back", seat=seat
            )
        del state.orders[seat]
        # WR-20: at the table the House tile is turned face up again; all see that much.
        state.note("{seat} has taken their plan back and is planning.", seat=state.name(seat))

    # -- questions -----------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def players(self) -> int:
        return self.state.player_count

    def is_over(self) -> bool:
        return self.state.phase is Phase.OVER

    def french_aid_offer(self, seat: int) -> int:
        return french_aid_amount(self.state, seat)

    def outcome(self) -> Outcome | None:
        return outcome(self.state) if self.is_over() else None

    def view(self, seat: int | None = None) -> PlayerView:
        """What ``seat`` may know (WR-20); ``None`` for a spectator."""
        return PlayerView.of(self, seat)


_NEXT: Final = {
    Phase.TURN_ORDER: Phase.DRAW,
    Phase.DRAW: Phase.INCOME,
    Phase.INCOME: Phase.PLANNING,
    Phase.PLANNING: Phase.DEPLOYMENT,
    Phase.DEPLOYMENT: Phase.BRIBERY,
    Phase.BRIBERY: Phase.COMBAT,
    Phase.COMBAT: Phase.PARLIAMENT,
}


def _home_sea(board: BoardData, ship: str) -> str:
    return board.icons[board.icons[ship].port or ""].sea or ""
