"""Hex-v1 beside pgx 2.6.0's hex (11 x 11, with the swap), move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import assert_other_player_first_caught, assert_states_refused, header, lockstep

pgx = pytest.importorskip("pgx")

GAMES = 2000 if FULL else 300
SWAP = 121


def encode(s) -> bytes:
    """rlpool's Hex state: each cell's stone color (-1 empty), step_count (its parity is the color to move)."""
    x = s._x
    board = np.asarray(x.board)  # group labels: > 0 the color to move's stones, < 0 the other's
    color = int(x.step_count) % 2
    cells = np.where(board > 0, color, np.where(board < 0, 1 - color, -1)).astype(np.int8)
    return header(s) + cells.tobytes() + struct.pack("<3xi", int(x.step_count))


def swap_often(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """Uniform over the legal moves, but the swap half the time it is legal."""
    scores = rng.random(mask.shape) + mask
    scores[:, SWAP] += mask[:, SWAP] * (rng.random(len(mask)) < 0.5)
    return scores.argmax(axis=1)


def test_hex_matches_pgx() -> None:
    stats = lockstep("Hex-v1", pgx.make("hex"), encode, games=GAMES, batch=256, seed=3, policy=swap_often)
    assert stats.games >= GAMES and stats.illegal > 0
    assert set(stats.terminal_rewards) == {1.0}  # no draws in Hex


def untimely_swaps(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """Uniform over the legal moves, but now and then the swap whether or not it is legal."""
    actions = (rng.random(mask.shape) + mask).argmax(axis=1)
    actions[rng.random(len(mask)) < 0.03] = SWAP
    return actions


def test_illegal_moves_match_pgx() -> None:
    """pgx's _step on a stone or an untimely swap (cell 0 on an empty board), shown in the observations."""
    stats = lockstep(
        "Hex-v1", pgx.make("hex"), encode, games=300, batch=128, seed=5, illegal_rate=0.05, policy=untimely_swaps
    )
    assert stats.illegal >= 150


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the colors alone are symmetric)."""
    assert_other_player_first_caught("Hex-v1", pgx.make("hex"), encode)


def test_bad_states_are_refused() -> None:
    def bad_games(game: bytes) -> dict[str, bytes]:
        return {
            r"cells\[5\]": game[:5] + bytes([2]) + game[6:],
            "step_count": game[:124] + struct.pack("<i", -1),
        }

    assert_states_refused("Hex-v1", bad_games)
