"""What more time changes: the search bot's move at two clocks over the same positions.

    .venv/bin/python benchmarks/decisions.py [--short 0.1] [--long 1.0] [--games 6]

Positions every 10 plies of random games (deals 0..games-1) with a choice to make; for
each, ``search``'s move, depth and value at the short and the long clock. A longer search
can only be stronger where it moves differently, so the share of positions where the two
agree bounds what a time-odds match can show.
"""

from __future__ import annotations

import argparse
import random

from roses.bots.roseking.base import BotSpec
from roses.bots.roseking.search import search_bot
from roses.roseking import Board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--long", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    bots = [search_bot(BotSpec("search", time_limit=s)) for s in (args.short, args.long)]
    agree = positions = 0
    print("deal ply  move, depth and value at each clock")
    for deal in range(args.games):
        board = Board(seed=deal)
        chooser = random.Random(deal)
        while moves := board.legal_moves():
            if len(board.move_stack) % 10 == 5 and len(moves) > 1:
                results = [bot.search(board.view(board.turn)) for bot in bots]
                short, long = results
                positions += 1
                agree += short.best == long.best
                print(f"{deal:>4} {len(board.move_stack):>3}  " + "   ".join(
                    f"{r.best} d{r.depth} {r.values[0]:+.3f}" for r in results
                ))  # fmt: skip
            board.push(chooser.choice(moves))
    print(f"the same move at {args.short:g} s and {args.long:g} s in {agree} of {positions} "
          "positions")  # fmt: skip


if __name__ == "__main__":
    main()
