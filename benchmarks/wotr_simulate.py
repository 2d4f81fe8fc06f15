"""Wars of the Roses: random 4-player games (random legal planners in every seat) played
through the public API, each bot asked with its own player's view; and reveals per second
(every seat's plan resolved through Parliament), as a game does it (a deep copy of the
state, driven through ``Game``) and as a search does it (a quiet ``GameState.clone``
resolved by ``resolve_reveal``).

Prints one JSON object: games, seconds and games per second, and reveals per second on
each path: the best of several rounds and their median (the machine may be shared), and
the load average at the end.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import time

from roses.bots.wotr import make_wotr_bot
from roses.bots.wotr.match import bot_game
from roses.wotr.actions import Orders
from roses.wotr.game import Game
from roses.wotr.reveal import resolve_reveal
from roses.wotr.state import GameState, Phase


def random_games(games: int, seed: int, players: int = 4) -> dict[str, float]:
    start = time.perf_counter()
    for number in range(games):
        game_seed = seed * 1_000_003 + number
        bots = [make_wotr_bot("random", seed=game_seed * 7 + s) for s in range(players)]
        bot_game(bots, seed=game_seed)
    seconds = time.perf_counter() - start
    return {"games": games, "players": players, "seconds": round(seconds, 3),
            "games_per_s": round(games / seconds, 1)}  # fmt: skip


def planning_positions(count: int, players: int) -> list[tuple[Game, dict[int, Orders]]]:
    """Games waiting for their plans, each with random plans for every seat."""
    positions = []
    for number in range(count):
        game = Game(players, seed=number)
        bots = [make_wotr_bot("random", seed=number * 7 + s) for s in range(players)]
        turn = 1 + number % 5
        while not (game.phase is Phase.PLANNING and game.turn == turn):
            seat = game.awaiting()[0]
            game.apply(seat, bots[seat].act(game.view(seat)))
        plans = {}
        for seat in game.awaiting():
            plan = bots[seat].act(game.view(seat))
            assert isinstance(plan, Orders)
            plans[seat] = plan
        positions.append((game, plans))
    return positions


def reveals_per_second(players: int, repeats: int = 40) -> dict[str, float]:
    positions = planning_positions(50, players)
    start = time.perf_counter()
    for _ in range(repeats // 10):
        for game, plans in positions:
            copied = copy.deepcopy(game)
            for seat, plan in plans.items():
                copied.apply(seat, plan)
    game_path = len(positions) * (repeats // 10) / (time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(repeats):
        for game, plans in positions:
            state: GameState = game.state.clone()
            state.orders.update(plans)
            resolve_reveal(state)
    fast_path = len(positions) * repeats / (time.perf_counter() - start)
    return {
        "reveals_per_s_game_path": round(game_path),
        "reveals_per_s_fast_path": round(fast_path),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()
    results = [random_games(args.games, seed, args.players) for seed in range(args.rounds)]
    best = max(results, key=lambda r: r["games_per_s"])
    best["games_per_s_median"] = statistics.median(r["games_per_s"] for r in results)
    reveals = [reveals_per_second(args.players) for _ in range(args.rounds)]
    for key in ("reveals_per_s_game_path", "reveals_per_s_fast_path"):
        best[key] = max(r[key] for r in reveals)
        best[f"{key}_median"] = statistics.median(r[key] for r in reveals)
    best["load"] = round(os.getloadavg()[0], 2)
    print(json.dumps(best))


if __name__ == "__main__":
    main()
