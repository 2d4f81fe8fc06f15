"""Recorded playthroughs (OpenSpiel style) guard the interface against silent changes.

Each record is a whole game of ``python_rose_king``: every action with chance outcomes, the
final position, the returns and the final observation tensor's ones. Regenerate only after a
deliberate change of the rules or the interface:
``.venv/bin/python -m tests.interop.test_playthrough``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from roses.interop import openspiel as rose_openspiel

RECORDS = Path(__file__).with_name("playthroughs.json")


def record_game(players: int, seed: int) -> dict[str, Any]:
    game = rose_openspiel.load(players)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return {
        "players": players,
        "seed": seed,
        "history": state.history(),
        "final": str(state),
        "returns": state.returns(),
        "observation_ones": np.flatnonzero(state.observation_tensor(0)).tolist(),
    }


def load_records() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(RECORDS.read_text())
    return records


def test_recorded_playthroughs_replay() -> None:
    records = load_records()
    assert {record["players"] for record in records} == {2, 4}
    for record in records:
        replay(record)


def replay(record: dict[str, Any]) -> None:
    game = rose_openspiel.load(record["players"])
    state = game.new_initial_state()
    for index, action in enumerate(record["history"]):
        legal = (
            [card for card, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        assert action in legal, f"recorded action {index} ({action}) is no longer legal"
        state.apply_action(action)
    assert state.is_terminal()
    assert str(state) == record["final"]
    assert state.returns() == record["returns"]
    assert np.flatnonzero(state.observation_tensor(0)).tolist() == record["observation_ones"]


def test_records_are_what_random_play_gives_now() -> None:
    # The same seeds give the same games: chance and legal actions keep their order.
    for record in load_records():
        assert record_game(record["players"], record["seed"]) == record


if __name__ == "__main__":
    games = [record_game(players, seed) for players in (2, 4) for seed in (0, 1)]
    RECORDS.write_text(json.dumps(games, indent=None) + "\n")
