"""The self-play example learns TicTacToe on the multi-agent vector face (examples/selfplay_tictactoe.py)."""

from __future__ import annotations

import sys

from lane import REPO

sys.path.insert(0, str(REPO / "examples"))

import selfplay_tictactoe  # noqa: E402


def test_selfplay_tictactoe_does_not_lose_to_random() -> None:
    table, stats = selfplay_tictactoe.train(selfplay_tictactoe.Args(seed=0))
    assert stats["games"] > 50_000
    # Games it has not trained on (another seed), 2000 per role.
    score = selfplay_tictactoe.evaluate(table, games=2000, seed=99)
    assert score["first"] >= 0.95, score
    assert score["second"] >= 0.90, score
