"""The end of the game (WR-18)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..chart import Holdings
from ..data import ICON_KINDS
from ..state import GameState

FinalKey = tuple[int, int, tuple[tuple[int, ...], tuple[int, ...]]]


@dataclass(frozen=True)
class Outcome:
    ranking: tuple[int, ...]  # seats, winner first
    winners: tuple[int, ...]  # more than one only when every tie-break is equal
    vp: tuple[int, ...]  # by seat
    keys: tuple[FinalKey, ...]  # by seat: what WR-18 compared

    def to_json(self) -> dict[str, Any]:
        """The result as records keep it."""
        return {"ranking": list(self.ranking), "winners": list(self.winners), "vp": list(self.vp)}

    def standings(self) -> list[dict[str, Any]]:
        """WR-18's tie-breaks for an end screen, winner first: VP, crowns won by the
        player's house, noble ranks (highest first) and the icons held, by chart order."""
        rows = []
        for seat in self.ranking:
            vp, crowns, (nobles, counts) = self.keys[seat]
            rows.append({"seat": seat, "vp": vp, "crowns": crowns, "nobles": list(nobles),
                         "icons": dict(zip(ICON_KINDS, counts, strict=True))})  # fmt: skip
        return rows


def _final_key(state: GameState, seat: int) -> FinalKey:
    """WR-18: VP, then crowns won by the player's house, then WR-3 over all holdings:
    highest noble, next noble, ..., most royal castles, most large towns, and so on."""
    player = state.players[seat]
    crowns = sum(1 for house in state.crowned if house is not None and house == player.house)
    held = Holdings()
    for card in state.owned(seat):
        if card in state.board.nobles:
            held.add_noble(state.board.nobles[card].cp)
        else:
            held.add_icon(state.board.icons[card].kind, 0)
    return player.vp, crowns, held.priority()


def outcome(state: GameState) -> Outcome:
    keys = {seat: _final_key(state, seat) for seat in range(state.player_count)}
    ranking = sorted(keys, key=lambda seat: keys[seat], reverse=True)
    best = keys[ranking[0]]
    return Outcome(
        ranking=tuple(ranking),
        winners=tuple(seat for seat in ranking if keys[seat] == best),
        vp=tuple(p.vp for p in state.players),
        keys=tuple(keys[seat] for seat in range(state.player_count)),
    )
