"""ConnectFour-v1 beside pgx 2.6.0's connect_four, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import assert_other_player_first_caught, assert_states_refused, header, lockstep

pgx = pytest.importorskip("pgx")

GAMES = 2000 if FULL else 300


def encode(s) -> bytes:
    """rlpool's ConnectFour state: stones by color (bit r * 7 + c), discs per column, color to move."""
    x = s._x
    board = np.asarray(x.board).reshape(6, 7)
    bits = 1 << np.arange(42, dtype=np.uint64)
    stones = [int(bits[board.reshape(-1) == k].sum()) for k in (0, 1)]
    heights = (board >= 0).sum(axis=0)
    return header(s) + struct.pack("<2Q7Bb", *stones, *heights.tolist(), int(x.color))


def full_columns(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """Fill column 0 first (so that illegal moves come early and often), else uniform over the legal moves."""
    scores = rng.random(mask.shape) + mask
    scores[:, 0] += mask[:, 0] * (rng.random(len(mask)) < 0.5)
    return scores.argmax(axis=1)


def test_connect_four_matches_pgx() -> None:
    stats = lockstep("ConnectFour-v1", pgx.make("connect_four"), encode, games=GAMES, batch=256, seed=3)
    assert stats.games >= GAMES and stats.illegal > 0
    assert stats.terminal_rewards.get(1.0, 0) > 0


def test_illegal_moves_match_pgx() -> None:
    """A full column: pgx's _step writes the disc over the bottom one (JAX's index -1), then the penalty."""
    stats = lockstep(
        "ConnectFour-v1",
        pgx.make("connect_four"),
        encode,
        games=200,
        batch=128,
        seed=5,
        illegal_rate=0.3,
        policy=full_columns,
    )
    assert stats.illegal >= 100


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the colors alone are symmetric)."""
    assert_other_player_first_caught("ConnectFour-v1", pgx.make("connect_four"), encode)


def test_bad_states_are_refused() -> None:
    def bad_games(game: bytes) -> dict[str, bytes]:
        _, stones1 = struct.unpack_from("<2Q", game)
        return {
            "off the board": struct.pack("<2Q", 1 << 42, stones1) + game[16:],
            "share a cell": struct.pack("<2Q", 1 << 35, 1 << 35) + game[16:],
            "height": game[:16] + bytes([1]) + game[17:],  # a disc count with no disc
            "color": game[:23] + bytes([2]),
        }

    assert_states_refused("ConnectFour-v1", bad_games)
