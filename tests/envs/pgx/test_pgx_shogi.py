"""Shogi-v1 beside pgx 2.6.0's shogi, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep

pgx = pytest.importorskip("pgx")

import jax  # noqa: E402

import rlpool  # noqa: E402


def encode(s) -> bytes:
    """rlpool's Shogi state: board (int8 x 81, the mover's side), hands (int8 x 2 x 7), a zero byte, step count."""
    x = s._x
    board = np.asarray(x.board, np.int8).tobytes()
    hand = np.asarray(x.hand, np.int8).tobytes()
    return header(s) + board + hand + b"\0" + struct.pack("<i", int(x.step_count))


def test_shogi_matches_pgx() -> None:
    # pgx's shogi is slow on CPU (~35 s to compile the step, ~3 ms per game step), so the default lane is small;
    # with 1% illegal moves a game lasts ~100 steps.
    games = 2000 if FULL else 48
    stats = lockstep("Shogi-v1", pgx.make("shogi"), encode, games=games, batch=256 if FULL else 48, seed=5)
    assert stats.games >= games and stats.illegal > 0


@pytest.mark.skipif(not FULL, reason="whole games (up to 512 moves) against pgx: the full lane")
def test_whole_games_match_pgx() -> None:
    """Without illegal moves games run to a mate or to pgx's 512-move limit."""
    stats = lockstep("Shogi-v1", pgx.make("shogi"), encode, games=256, batch=128, seed=6, illegal_rate=0.0)
    assert stats.games >= 256
    assert set(stats.terminal_rewards) == {0.0, 1.0}  # mates and the move limit both ended games


def test_comparison_can_fail() -> None:
    """Games started with a hand that pgx does not have are caught (a drop becomes legal in rlpool only)."""

    def extra_pawn(s) -> bytes:
        x = s._x
        hand = np.asarray(x.hand, np.int8).copy()
        hand[0, 0] += 1
        board = np.asarray(x.board, np.int8).tobytes()
        return header(s) + board + hand.tobytes() + b"\0" + struct.pack("<i", int(x.step_count))

    with pytest.raises(Mismatch):
        lockstep("Shogi-v1", pgx.make("shogi"), extra_pawn, games=4, batch=4, seed=7)


def test_state_is_checked() -> None:
    env = pgx.make("shogi")
    good = encode(jax.tree_util.tree_map(np.asarray, env.init(jax.random.PRNGKey(0))))
    pool = rlpool.make_gymnasium("Shogi-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        pool.set_state(0, good)
        assert pool.get_state(0) == good
        start = len(header(env.init(jax.random.PRNGKey(0))))
        for offset, value in [(0, 28), (81, 20), (95, 1)]:
            bad = bytearray(good)
            bad[start + offset] = value
            with pytest.raises(ValueError):
                pool.set_state(0, bytes(bad))
        with pytest.raises(ValueError):
            pool.set_state(0, good[:-1])
        assert pool.get_state(0) == good
    finally:
        pool.close()
