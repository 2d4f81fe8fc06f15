"""Train the learned evaluations (``roses/bots/roseking/value_net*.json``) by self-play.

    .venv/bin/python -m roses.bots.roseking.training play FIRST LAST [--nodes 3000]
        [--learned] [--variant classic|four-player] [--out DIR]
    .venv/bin/python -m roses.bots.roseking.training train [--data DIR] [--hidden 64]
        [--epochs 5] [--searched SHARE] [--start FILE] [--write FILE]

``play`` plays the games with seeds FIRST..LAST-1, every seat the search on ``--nodes`` a
move with the best-play evaluation (``evaluation.WEIGHTS``; with ``--learned`` the
committed network of that player count) and one move in twenty random, and saves every
block of 50 games as it finishes (in ``--out``, by default ``benchmarks/value-net-data``
under the working directory, not kept in git): each position's active inputs, its
features, the final points of the team to move and the value its search found (as points
expected). ``train`` fits the network to those labels, the results blended with a share
``--searched`` of the search's values (logistic loss, Adam, each position turned by a
random one of the board's 8 symmetries, the games with seed % 10 == 0 held out; from the
network ``--start`` when given, else from a new one), keeps the epoch with the least
held-out loss against the results and writes ``--write`` (``value_net.json``). It needs
PyTorch (``pip install torch``), which roses itself does not.

The committed networks were made by ``play 0 12000 --learned --out
benchmarks/value-net-data-2`` with the network before it, then ``train --data
benchmarks/value-net-data-2 --hidden 32 --epochs 16 --searched 1``; for the four-player
game ``play 0 4000 --variant four-player --learned --out benchmarks/value-net-data-four-2``,
then ``train --data benchmarks/value-net-data-four-2 --hidden 16 --epochs 16 --searched 1
--write roses/bots/roseking/value_net_four.json``. Their held-out losses and matches are in
``benchmarks/results/tuning.md``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from roses.roseking import Move, Variant
from roses.roseking.geometry import CARD_COUNT, DIRECTION_STEPS, SQUARE_COUNT
from roses.roseking.view import PlayerView

from . import kernel
from .evaluation import (
    FEATURE_COUNT,
    FEATURE_NAMES,
    SCRATCH_SIZE,
    WEIGHTS,
    features,
    new_features,
)
from .search import SAMPLE, encode, run
from .selfplay import self_play
from .value_net import (
    CROWN,
    INPUT_COUNT,
    MAX_ACTIVE,
    OTHER_CARDS,
    OTHER_REACH,
    OTHER_STONES,
    OWN_CARDS,
    OWN_REACH,
    OWN_STONES,
    PILE,
    WEIGHTS_FILES,
    inputs,
    learned_weights,
)

DATA = Path("benchmarks") / "value-net-data"  # not kept in git: 180 MB for 6,000 games
BLOCK = 50  # games a file
EXPLORE = 0.05


def game(
    seed: int, nodes: int, weights: tuple[float, ...], variant: Variant
) -> tuple[list[NDArray[np.int16]], list[NDArray[np.float32]], list[float], list[float]]:
    """One self-play game: each position's inputs, features, the mover's final points and
    its search's value (as points expected)."""
    scratch = kernel._new(SCRATCH_SIZE)
    out = new_features()
    rows: list[NDArray[np.int16]] = []
    feats: list[NDArray[np.float32]] = []
    searched: list[float] = []
    last: list[Move] = []

    def record(view: PlayerView) -> None:
        s = encode(view)
        idx = np.full(MAX_ACTIVE, -1, np.int16)
        count = inputs(s, 0, scratch, 0)
        idx[:count] = scratch[:count]
        features(s, 0, scratch, out)
        rows.append(idx)
        feats.append(np.array(out[:FEATURE_COUNT], np.float32))
        result = run(view, weights=weights, nodes=nodes, sample=SAMPLE, table=True)
        searched.append((result.values[0] + 1) / 2)
        last[:] = [result.best]

    points = self_play(seed, variant, EXPLORE, lambda view: last[0], record)
    return rows, feats, points, searched


def play(
    first: int, last: int, nodes: int, weights: tuple[float, ...], variant: Variant, out: Path
) -> None:
    """Self-play games with seeds ``first..last-1``, saved in blocks of ``BLOCK`` to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for start in range(first, last, BLOCK):
        path = out / f"games-{start}.npz"
        if path.exists():
            continue  # a block played before: resumed
        began = time.perf_counter()
        rows: list[NDArray[np.int16]] = []
        feats: list[NDArray[np.float32]] = []
        points: list[float] = []
        searched: list[float] = []
        seeds: list[int] = []
        end = min(start + BLOCK, last)
        for seed in range(start, end):
            r, f, p, q = game(seed, nodes, weights, variant)
            rows += r
            feats += f
            points += p
            searched += q
            seeds += [seed] * len(r)
        np.savez(path, idx=np.array(rows), f=np.array(feats), p=np.array(points, np.float32),
                 q=np.array(searched, np.float32), g=np.array(seeds))  # fmt: skip
        print(f"games {start}-{end - 1}: {len(rows)} positions, "
              f"{time.perf_counter() - began:.1f} s", flush=True)  # fmt: skip


def symmetries() -> list[list[int]]:
    """Each of the board's 8 symmetries as a map of the inputs (squares and cards move)."""
    maps = []
    for swap in (False, True):
        for fx in (1, -1):
            for fy in (1, -1):
                turn = _turning(swap, fx, fy)

                square = []
                for sq in range(SQUARE_COUNT):
                    x, y = turn(sq % 9 - 4, sq // 9 - 4)
                    square.append((y + 4) * 9 + x + 4)
                card = [
                    DIRECTION_STEPS.index(turn(*DIRECTION_STEPS[c // 3])) * 3 + c % 3
                    for c in range(CARD_COUNT)
                ]
                m = list(range(INPUT_COUNT + 1))  # the last: padding
                for block in (OWN_STONES, OTHER_STONES, CROWN, OWN_REACH, OTHER_REACH):
                    for sq in range(SQUARE_COUNT):
                        m[block + sq] = block + square[sq]
                for block in (OWN_CARDS, OTHER_CARDS, PILE):
                    for c in range(CARD_COUNT):
                        m[block + c] = block + card[c]
                maps.append(m)
    return maps


def _turning(swap: bool, fx: int, fy: int) -> Callable[[int, int], tuple[int, int]]:
    """A symmetry of the board on a step (x, y) from the centre: a mirror, then a swap."""

    def turn(x: int, y: int) -> tuple[int, int]:
        return (y * fx, x * fy) if swap else (x * fx, y * fy)

    return turn


def train(
    data: Path,
    hidden: int,
    epochs: int,
    rate: float,
    seed: int,
    searched: float,
    write: Path,
    start: Path | None = None,
) -> None:
    """Fit a network to the saved games of ``data`` and write the best epoch's to ``write``."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    parts = [np.load(path) for path in sorted(data.glob("games-*.npz"))]
    idx = np.concatenate([p["idx"] for p in parts]).astype(np.int64)
    idx[idx < 0] = INPUT_COUNT
    feats = np.concatenate([p["f"] for p in parts])
    points = np.concatenate([p["p"] for p in parts])
    # a game's result is a noisy label in this game of draws: blended with (or replaced
    # by) the search's value of the same position; the held-out loss stays on the results
    target = (1 - searched) * points + searched * np.concatenate([p["q"] for p in parts])
    held = np.concatenate([p["g"] for p in parts]) % 10 == 0
    linear = torch.tensor(WEIGHTS, dtype=torch.float32)
    # the frontier's board scan costs an eighth of the evaluation; the hidden units see
    # the stones by square, so its weight stays 0 and the search skips it
    scanned = torch.ones(FEATURE_COUNT)
    scanned[FEATURE_NAMES.index("frontier")] = 0.0

    class Network(nn.Module):  # type: ignore[misc]  # torch is untyped here
        def __init__(self, hidden: int = hidden) -> None:
            super().__init__()
            self.rows = nn.EmbeddingBag(
                INPUT_COUNT + 1, hidden, mode="sum", padding_idx=INPUT_COUNT
            )
            nn.init.normal_(self.rows.weight, std=0.05)
            with torch.no_grad():
                self.rows.weight[INPUT_COUNT].zero_()
            self.hidden_bias = nn.Parameter(torch.zeros(hidden))
            self.output = nn.Linear(hidden, 1)
            nn.init.zeros_(self.output.weight)
            nn.init.zeros_(self.output.bias)
            self.linear = nn.Parameter(linear.clone())  # starts as the best-play evaluation

        def forward(self, i: Any, x: Any) -> Any:
            units = torch.relu(self.rows(i) + self.hidden_bias)
            return self.output(units).squeeze(1) + x @ (self.linear * scanned)

    def held_out_loss(logits: Any) -> float:
        target = torch.tensor(points[held])
        return float(nn.functional.binary_cross_entropy_with_logits(logits, target))

    i, x, y = (torch.tensor(a[~held]) for a in (idx, feats, target))
    i_held, x_held = torch.tensor(idx[held]), torch.tensor(feats[held])
    print(f"{len(points)} positions; held out {held.sum()}; "
          f"WEIGHTS' loss {held_out_loss(x_held @ linear):.4f}", flush=True)  # fmt: skip
    maps = torch.tensor(symmetries())
    if start is None:
        network = Network()
    else:  # go on fitting a network: its size wins over --hidden
        saved = json.loads(start.read_text(encoding="utf-8"))
        network = Network(len(saved["hidden_bias"]))
        with torch.no_grad():
            network.rows.weight[:INPUT_COUNT] = torch.tensor(saved["inputs"])
            network.hidden_bias[:] = torch.tensor(saved["hidden_bias"])
            network.output.weight[0] = torch.tensor(saved["output"])
            network.output.bias[0] = saved["bias"]
            network.linear[:] = torch.tensor(saved["linear"])
    optimiser = torch.optim.Adam(network.parameters(), lr=rate)
    best = float("inf")
    state: dict[str, Any] = {}
    for epoch in range(epochs):
        order = torch.randperm(len(y))
        for first in range(0, len(y), 1024):
            batch = order[first : first + 1024]
            turned = maps[torch.randint(0, 8, (len(batch), 1)), i[batch]]
            optimiser.zero_grad()
            loss = nn.functional.binary_cross_entropy_with_logits(
                network(turned, x[batch]), y[batch]
            )
            loss.backward()
            optimiser.step()
        with torch.no_grad():
            loss_now = held_out_loss(network(i_held, x_held))
        print(f"epoch {epoch}: held-out loss {loss_now:.4f}", flush=True)
        if loss_now < best:
            best = loss_now
            state = {k: v.detach().numpy().copy() for k, v in network.state_dict().items()}

    def rounded(values: Any) -> list[float]:
        return [float(f"{v:.5g}") for v in np.asarray(values).ravel()]

    network_json = {
        "about": f"roses.bots.roseking.training train: {len(points)} positions of {data}, "
        f"held-out log loss {best:.4f}",
        "linear": rounded(state["linear"] * scanned.numpy()),
        "bias": float(state["output.bias"][0]),
        "hidden_bias": rounded(state["hidden_bias"]),
        "output": rounded(state["output.weight"][0]),
        "inputs": [rounded(row) for row in state["rows.weight"][:INPUT_COUNT]],
    }
    write.write_text(json.dumps(network_json, separators=(",", ":")), encoding="utf-8")
    print(f"wrote {write} (held-out loss {best:.4f})")


def main() -> None:
    """``python -m roses.bots.roseking.training play|train ...``"""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    play_command = commands.add_parser("play", help="Play and save self-play games.")
    play_command.add_argument("first", type=int)
    play_command.add_argument("last", type=int)
    play_command.add_argument("--nodes", type=int, default=3000)
    play_command.add_argument("--out", type=Path, default=DATA)
    play_command.add_argument(
        "--learned", action="store_true", help="play the committed network, not WEIGHTS"
    )
    play_command.add_argument(
        "--variant", default=Variant.CLASSIC.value, choices=[v.value for v in Variant]
    )
    train_command = commands.add_parser("train", help="Fit the network to the saved games.")
    train_command.add_argument("--data", type=Path, default=DATA)
    train_command.add_argument("--hidden", type=int, default=64)
    train_command.add_argument("--epochs", type=int, default=5)
    train_command.add_argument("--rate", type=float, default=1e-3)
    train_command.add_argument("--seed", type=int, default=1)
    train_command.add_argument(
        "--searched", type=float, default=0.0, help="the search value's share of the label"
    )
    train_command.add_argument("--write", type=Path, default=WEIGHTS_FILES[2])
    train_command.add_argument(
        "--start", type=Path, help="a network (JSON) to go on fitting instead of a new one"
    )
    args = parser.parse_args()
    if args.command == "play":
        variant = Variant(args.variant)
        weights = learned_weights(variant.seats) if args.learned else WEIGHTS
        play(args.first, args.last, args.nodes, weights, variant, args.out)
    else:
        train(
            args.data, args.hidden, args.epochs, args.rate, args.seed, args.searched,
            args.write, args.start,
        )  # fmt: skip


if __name__ == "__main__":
    main()
