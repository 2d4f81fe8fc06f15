"""A plain-text drawing of a position for terminals (north, White's edge, at the top)."""

from __future__ import annotations

from .geometry import CARD_NAMES, FILES, STONE_COUNT
from .scoring import team_score
from .variants import seat_name
from .view import PlayerView


def draw_board(view: PlayerView) -> str:
    """The board, ``R``/``W`` stones, the crown in brackets, then hands, heroes, piles, scores."""
    lines = ["      " + "   ".join(FILES) + "      (north: White)"]
    for rank in range(8, -1, -1):
        cells = []
        for file in range(9):
            sq = rank * 9 + file
            bit = 1 << sq
            mark = "R" if view.red & bit else "W" if view.white & bit else "."
            if sq == 40 and mark == ".":
                mark = "*"  # the sun square
            cells.append(f"[{mark}]" if sq == view.crown else f" {mark} ")
        lines.append(f"  {rank + 1} " + " ".join(cells) + f" {rank + 1}")
    lines.append("      " + "   ".join(FILES) + "      (south: Red)")
    lines.append("")
    seats = view.seats
    for seat in range(seats):
        marker = "->" if seat == view.turn and not view.is_over() else "  "
        hand = " ".join(CARD_NAMES[c] for c in view.hands[seat]) or "(no cards)"
        name = {"r": "Red", "w": "White"}[seat_name(seat, seats)[0]] + seat_name(seat, seats)[1:]
        lines.append(f"{marker} {name:<8} hand: {hand:<20} heroes: {view.heroes[seat]}")
    red, white = team_score(view.red), team_score(view.white)
    supply = STONE_COUNT - (view.red | view.white).bit_count()
    lines.append(
        f"   draw pile: {len(view.draw_pile_cards)} cards   discard pile: "
        f"{len(view.discard_pile)} cards   stones in supply: {supply}"
    )
    lines.append(f"   score (largest, stones): Red {red}   White {white}")
    return "\n".join(lines)
