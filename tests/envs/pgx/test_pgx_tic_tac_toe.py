"""TicTacToe-v1 beside pgx 2.6.0's tic_tac_toe, move by move."""

from __future__ import annotations

import numpy as np
import pytest
from pgx_reference import assert_other_player_first_caught, header, lockstep

pgx = pytest.importorskip("pgx")


def encode(s) -> bytes:
    """rlpool's TicTacToe state: board (int8 x 9), color to move, winner."""
    x = s._x
    return header(s) + np.asarray(x.board, np.int8).tobytes() + bytes([int(x.color) & 0xFF, int(x.winner) & 0xFF])


def test_tic_tac_toe_matches_pgx() -> None:
    stats = lockstep("TicTacToe-v1", pgx.make("tic_tac_toe"), encode, games=3000, batch=512, seed=3)
    assert stats.games >= 3000 and stats.illegal > 0
    assert set(stats.terminal_rewards) == {0.0, 1.0}  # draws and wins both happened


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the marks' colors alone are symmetric)."""
    assert_other_player_first_caught("TicTacToe-v1", pgx.make("tic_tac_toe"), encode)
