"""RK-23 positions: one line of six space-separated fields, parsed and written exactly."""

from __future__ import annotations

from .board import Board
from .errors import InvalidPositionError
from .geometry import (
    CARD_COUNT,
    CARD_NAMES,
    CENTRE,
    RANKS,
    STONE_COUNT,
    Bitboard,
    Card,
    parse_card,
    parse_square,
    square_name,
)
from .variants import Variant, seat_name

FIELD_NAMES = ("board", "crown", "turn", "hands", "heroes", "piles")


def _field(index: int) -> str:
    return f"field {index + 1} ({FIELD_NAMES[index]})"


def _parse_board(text: str) -> tuple[Bitboard, Bitboard]:
    where = _field(0)
    ranks = text.split("/")
    if len(ranks) != 9:
        raise InvalidPositionError(where, f"expected 9 ranks separated by '/', got {len(ranks)}")
    red = white = 0
    for row, rank_text in enumerate(ranks):
        rank = 8 - row  # ranks are written from 9 down to 1
        file = 0
        for char in rank_text:
            if char in "123456789":
                file += int(char)
            elif char in "rw":
                if file > 8:
                    break
                bit = 1 << (rank * 9 + file)
                if char == "r":
                    red |= bit
                else:
                    white |= bit
                file += 1
            else:
                raise InvalidPositionError(
                    where, f"rank {RANKS[rank]}: unexpected {char!r} (use r, w or 1..9)"
                )
        if file != 9:
            raise InvalidPositionError(
                where, f"rank {RANKS[rank]} {rank_text!r} covers {file} squares, not 9"
            )
    if (red | white).bit_count() > STONE_COUNT:
        raise InvalidPositionError(where, f"more than {STONE_COUNT} stones on the board (RK-2)")
    return red, white


def _parse_cards(text: str, where: str, what: str) -> tuple[Card, ...]:
    if text == "-":
        return ()
    cards = []
    for token in text.split(","):
        try:
            cards.append(parse_card(token))
        except ValueError:
            raise InvalidPositionError(
                where, f"{what}: {token!r} is not a power card (e.g. N1, SE3)"
            ) from None
    return tuple(cards)


def _write_cards(cards: tuple[Card, ...]) -> str:
    return ",".join(CARD_NAMES[card] for card in cards) if cards else "-"


def parse_position(text: str, seed: int | None = None, *, variant: Variant | None = None) -> Board:
    """Parse RK-23. Raises ``InvalidPositionError`` naming the field at fault."""
    if not isinstance(text, str):
        raise InvalidPositionError("position", "expected a string")
    fields = text.strip().split(" ")
    if len(fields) != 6:
        raise InvalidPositionError(
            "position", f"expected 6 space-separated fields, got {len(fields)}"
        )
    board_text, crown_text, turn_text, hands_text, heroes_text, piles_text = fields
    red, white = _parse_board(board_text)

    try:
        crown = parse_square(crown_text)
    except ValueError as error:
        raise InvalidPositionError(_field(1), str(error)) from None
    if red | white and not (red | white) >> crown & 1:
        raise InvalidPositionError(
            _field(1), f"the crown on {crown_text} must stand on a stone (RK-8)"
        )
    if not red | white and crown != CENTRE:
        raise InvalidPositionError(_field(1), "on an empty board the crown stands on e5 (RK-6)")

    hand_texts = hands_text.split("|")
    if len(hand_texts) not in (2, 4):
        raise InvalidPositionError(
            _field(3), f"expected 2 or 4 hands separated by '|', got {len(hand_texts)}"
        )
    seats = len(hand_texts)
    if variant is None:
        variant = Variant.FOUR_PLAYER if seats == 4 else Variant.CLASSIC
    elif variant.seats != seats:
        raise InvalidPositionError(
            _field(3), f"variant {variant.value} has {variant.seats} hands, not {seats}"
        )

    seat_names = [seat_name(seat, seats) for seat in range(seats)]
    if turn_text not in seat_names:
        raise InvalidPositionError(
            _field(2), f"{turn_text!r} is not one of {', '.join(seat_names)}"
        )
    turn = seat_names.index(turn_text)

    hands = tuple(
        _parse_cards(hand, _field(3), f"hand of {seat_names[seat]}")
        for seat, hand in enumerate(hand_texts)
    )
    for seat, hand in enumerate(hands):
        if len(hand) > variant.hand_limit:
            raise InvalidPositionError(
                _field(3),
                f"{seat_names[seat]} holds {len(hand)} cards, at most {variant.hand_limit}",
            )

    hero_texts = heroes_text.split("|")
    if len(hero_texts) != seats:
        raise InvalidPositionError(
            _field(4), f"expected {seats} hero counts, got {len(hero_texts)}"
        )
    heroes = []
    for seat, count_text in enumerate(hero_texts):
        if not count_text.isdigit() or int(count_text) > variant.heroes_per_seat:
            raise InvalidPositionError(
                _field(4),
                f"{seat_names[seat]}: {count_text!r} is not a count 0..{variant.heroes_per_seat}",
            )
        heroes.append(int(count_text))

    pile_texts = piles_text.split("/")
    if len(pile_texts) != 2:
        raise InvalidPositionError(_field(5), "expected the draw pile, '/', the discard pile")
    draw_pile = _parse_cards(pile_texts[0], _field(5), "draw pile")
    discard_pile = _parse_cards(pile_texts[1], _field(5), "discard pile")
    if not draw_pile:
        raise InvalidPositionError(
            _field(5), "the draw pile is empty; RK-9 turns the discard pile over at once"
        )

    seen: dict[Card, int] = {}
    for card in (*[c for hand in hands for c in hand], *draw_pile, *discard_pile):
        seen[card] = seen.get(card, 0) + 1
    duplicates = [CARD_NAMES[c] for c in sorted(seen) if seen[c] > 1]
    if duplicates:
        raise InvalidPositionError("cards", f"more than once: {', '.join(duplicates)}")
    missing = [CARD_NAMES[c] for c in range(CARD_COUNT) if c not in seen]
    if missing:
        raise InvalidPositionError("cards", f"missing: {', '.join(missing)} (RK-3: 24 cards)")

    return Board.from_state(
        seed=seed,
        variant=variant,
        red=red,
        white=white,
        crown=crown,
        turn=turn,
        hands=hands,
        heroes=tuple(heroes),
        draw_pile=draw_pile,
        discard_pile=discard_pile,
    )


def write_position(board: Board) -> str:
    ranks = []
    for rank in range(8, -1, -1):
        out = ""
        empty = 0
        for file in range(9):
            bit = 1 << (rank * 9 + file)
            char = "r" if board.red & bit else "w" if board.white & bit else ""
            if not char:
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            out += char
        ranks.append(out + (str(empty) if empty else ""))
    return " ".join(
        (
            "/".join(ranks),
            square_name(board.crown),
            board.seat_name(),
            "|".join(_write_cards(hand) for hand in board.hands),
            "|".join(str(count) for count in board.heroes),
            f"{_write_cards(board.draw_pile)}/{_write_cards(board.discard_pile)}",
        )
    )
