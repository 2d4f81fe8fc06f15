"""Wars of the Roses: random 4-player games (random legal planners in every seat) played
through the public API, each bot asked with its own player's view.

Prints one JSON object: games, seconds and games per second (best of several rounds, to
damp noise from other processes on the machine).
"""

from __future__ import annotations

import argparse
import json
import time

from roses.bots.wotr import make_wotr_bot
from roses.bots.wotr.match import bot_game


def random_games(games: int, seed: int, players: int = 4) -> dict[str, float]:
    start = time.perf_counter()
    for number in range(games):
        game_seed = seed * 1_000_003 + number
        bots = [make_wotr_bot("random", seed=game_seed * 7 + s) for s in range(players)]
        bot_game(bots, seed=game_seed)
    seconds = time.perf_counter() - start
    return {"games": games, "players": players, "seconds": round(seconds, 3),
            "games_per_s": round(games / seconds, 1)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()
    results = [random_games(args.games, seed, args.players) for seed in range(args.rounds)]
    print(json.dumps(max(results, key=lambda r: r["games_per_s"])))


if __name__ == "__main__":
    main()
