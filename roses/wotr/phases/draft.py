"""Phases 1 and 2: turn order (WR-6) and drawing cards (WR-7, WR-8)."""

from __future__ import annotations

from typing import Final

from ..state import GameState
from ..text import mercenaries
from .awards import refresh_awards

# WR-7: cards laid out per turn, by number of players.
CARDS_PER_TURN: Final = {2: (12, 8, 8, 8, 8), 3: (9, 9, 9, 9, 9), 4: (12, 8, 8, 8, 8)}


def next_turn_order(state: GameState) -> None:
    """WR-6: turns 2-5 by score, lowest first; tied players keep their relative order."""
    state.order = sorted(state.order, key=lambda seat: state.players[seat].vp)


def pick_sequence(order: list[int], count: int, snake: bool) -> list[int]:
    """WR-7: who picks each card: snake order (1234, 4321, ...) or straight (1234, 1234)."""
    sequence: list[int] = []
    forward = True
    while len(sequence) < count:
        sequence += order if forward or not snake else order[::-1]
        forward = not forward
    return sequence[:count]


def lay_out_cards(state: GameState) -> None:
    """WR-7: neutral Locations' cards first, then the turn's normal count from the deck."""
    count = CARDS_PER_TURN[state.player_count][state.turn - 1]
    drawn, state.deck = state.deck[:count], state.deck[count:]
    state.layout = [*state.returned, *drawn]
    state.returned = []
    state.picks = pick_sequence(state.order, count, snake=state.turn == 1)
    state.pick_index = 0
    names = tuple(state.board.card_name(card) for card in state.layout)
    state.note("Turn {turn}: laid out {cards}.", turn=state.turn, cards=names)


def picker(state: GameState) -> int | None:
    """The seat to pick next, or None when the normal count is taken."""
    if state.pick_index >= len(state.picks):
        return None
    return state.picks[state.pick_index]


def take_card(state: GameState, seat: int, card: str) -> None:
    """WR-8: the card's icon gets the player's marker; a noble enters in its home zone;
    a mercenary card gives this turn's mercenaries (as many as are left) and leaves.
    The last pick of the draft ends it (WR-7)."""
    state.layout.remove(card)
    state.pick_index += 1
    _take(state, seat, card)
    if picker(state) is None:
        finish_draft(state)


def _take(state: GameState, seat: int, card: str) -> None:
    board = state.board
    if card in board.mercenary_cards:
        tokens = min(board.mercenaries_for_turn(state.turn), state.mercenary_supply)
        state.mercenary_supply -= tokens
        state.players[seat].mercenaries += tokens
        state.removed.append(card)
        state.note(
            "{seat} takes a mercenary card: {mercenaries}.",
            seat=state.name(seat),
            mercenaries=mercenaries(tokens),
        )
        return
    state.owner[card] = seat
    if card in board.nobles:
        state.noble_zone[card] = board.nobles[card].home
    state.note("{seat} takes {card}.", seat=state.name(seat), card=board.card_name(card))
    refresh_awards(state)


def finish_draft(state: GameState) -> None:
    """WR-7: the cards nobody took leave the game."""
    if state.layout:
        names = tuple(state.board.card_name(card) for card in state.layout)
        state.note("Left over and out of the game: {cards}.", cards=names)
    state.removed += state.layout
    state.layout = []
