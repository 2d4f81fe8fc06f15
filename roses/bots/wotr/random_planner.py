"""A random legal player: random picks, random French Aid, random legal sealed orders."""

from __future__ import annotations

import random

from roses.wotr.actions import Action, Cube, FrenchAid, Orders, Pick
from roses.wotr.phases.planning import presence, ship_destinations
from roses.wotr.state import BRIBE_CUBES, Phase
from roses.wotr.view import PlayerView


class RandomPlanner:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        if view.phase is Phase.DRAW:
            return Pick(self.rng.choice(view.layout))
        if view.phase is Phase.INCOME:
            return FrenchAid(self.rng.random() < 0.5)
        return self.plan(view)

    def plan(self, view: PlayerView) -> Orders:
        """Random legal orders; they may cost more than the money held (WR-11 shortfall)."""
        rng, board = self.rng, view.board
        seat = view.viewer
        assert seat is not None
        money = view.my_money
        bid, zone = 0, None
        if money and rng.random() < 0.3:
            bid, zone = rng.randint(1, min(money, 6)), rng.choice(board.model.calais.zones)
        noble_moves = {
            noble: rng.choice(sorted(board.zone[view.noble_zone[noble]].land))
            for noble in view.owned(seat, "noble")
            if rng.random() < 0.3 and board.zone[view.noble_zone[noble]].land
        }
        ship_moves = {}
        for ship in view.owned(seat, "ship"):
            seas = ship_destinations(board, view.ship_sea[ship])
            if rng.random() < 0.3:
                ship_moves[ship] = rng.choice(seas)
        draft = Orders(noble_moves=noble_moves)
        present = presence(view, seat, draft)
        targets = [
            card for card, icon in board.icons.items()
            if icon.is_location and view.owner[card] is not None
            and (view.owner[card] == seat or icon.zone in present)
        ]  # fmt: skip
        troops: dict[str, int] = {}
        budget = rng.randint(0, money // board.model.troops.cost + 2)
        budget = min(budget, board.model.troops.per_player)
        while budget > 0 and targets:
            count = rng.randint(1, budget)
            location = rng.choice(targets)
            troops[location] = troops.get(location, 0) + count
            budget -= count
        mercenaries: dict[str, int] = {}
        for _ in range(view.my_mercenaries):
            if targets and rng.random() < 0.7:
                location = rng.choice(targets)
                mercenaries[location] = mercenaries.get(location, 0) + 1
        bribes: dict[str, Cube] = {}
        personalities = [c for c, holder in view.owner.items()
                         if holder is not None and board.is_personality(c)]  # fmt: skip
        for card in rng.sample(personalities, min(len(personalities), 3)):
            colour: Cube = "white" if view.owner[card] == seat else "black"
            if sum(1 for c in bribes.values() if c == colour) < BRIBE_CUBES:
                bribes[card] = colour
        return Orders(bid, zone, noble_moves, ship_moves, troops, mercenaries, bribes)
