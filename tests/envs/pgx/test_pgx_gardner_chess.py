"""GardnerChess-v1 beside pgx 2.6.0's gardner_chess, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep, take

import rlpool

pgx = pytest.importorskip("pgx")

HASH_SLOTS = 257  # pgx's MAX_TERMINATION_STEPS + 1


def encode(s) -> bytes:
    """rlpool's GardnerChess state: hash ring (uint64 x 257), step and halfmove counts, history, board, turn."""
    steps, turn = int(s._step_count), int(s._turn)
    words = np.asarray(s._hash_history, np.uint64)
    newest_first = words[:, 0] | (words[:, 1] << np.uint64(32))
    ring = np.zeros(HASH_SLOTS, np.uint64)
    for i in range(min(steps + 1, HASH_SLOTS)):
        ring[(steps - i) % HASH_SLOTS] = newest_first[i]
    history = np.asarray(s._board_history, np.int8).reshape(8, 5, 5)
    if turn == 1:  # pgx keeps it in the mover's view; rlpool in white's
        history = -history[:, :, ::-1]
    return (
        header(s)
        + ring.tobytes()
        + struct.pack("<ii", steps, int(s._halfmove_count))
        + np.ascontiguousarray(history, np.int8).tobytes()
        + np.asarray(s._board, np.int8).tobytes()
        + bytes([turn])
        + bytes(6)
    )


def test_gardner_chess_matches_pgx() -> None:
    games = 2000 if FULL else 200
    # Few illegal moves here (the next test has many), so that most games end by the rules.
    stats = lockstep(
        "GardnerChess-v1",
        pgx.make("gardner_chess"),
        encode,
        games=games,
        batch=256 if FULL else 64,
        seed=5,
        illegal_rate=0.002,
    )
    assert stats.games >= games and stats.illegal > 0
    assert set(stats.terminal_rewards) >= {0.0, 1.0}  # draws and wins both happened


def test_gardner_chess_illegal_moves_match_pgx() -> None:
    """pgx's _step on any label (off-board targets, empty or enemy squares, odd underpromotions) is followed."""
    games = 1000 if FULL else 150
    stats = lockstep(
        "GardnerChess-v1", pgx.make("gardner_chess"), encode, games=games, batch=64, seed=6, illegal_rate=0.2
    )
    assert stats.illegal >= games // 2


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the color plane shows it)."""

    def swapped(s) -> bytes:
        return encode(s.replace(current_player=1 - s.current_player))

    with pytest.raises(Mismatch):
        lockstep("GardnerChess-v1", pgx.make("gardner_chess"), swapped, games=20, batch=64, seed=4)


def test_bad_state_is_refused() -> None:
    """A state blob with a field out of range (the turn), or of the wrong size, is a ValueError."""
    import jax  # (after pgx_reference, which picks JAX's CPU platform)

    state = take(jax.tree_util.tree_map(lambda a: a[None], pgx.make("gardner_chess").init(jax.random.PRNGKey(0))), 0)
    good = encode(state)
    pool = rlpool.make_gymnasium("GardnerChess-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        pool.set_state(0, good)
        bad_turn = good[:-7] + bytes([2]) + good[-6:]  # the turn byte
        for bad in (bad_turn, good[:-1]):
            with pytest.raises(ValueError):
                pool.set_state(0, bad)
    finally:
        pool.close()
