"""AnimalShogi-v1 beside pgx 2.6.0's animal_shogi, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep, take

import rlpool

pgx = pytest.importorskip("pgx")

def _words(a) -> np.ndarray:
    """pgx's hashes (..., 2) uint32 as uint64 (low word first)."""
    a = np.asarray(a, np.uint64)
    return a[..., 0] | (a[..., 1] << np.uint64(32))


def encode(s) -> bytes:
    """rlpool's AnimalShogi state: pgx's fields in its layouts (the hash history's low words, then its high words)."""
    return (
        header(s)
        + _words(s._zobrist_hash).tobytes()
        + np.ascontiguousarray(np.asarray(s._hash_history, np.uint32).T).tobytes()
        + np.asarray(s._rep_history, np.int32).tobytes()
        + struct.pack("<i", int(s._step_count))
        + np.asarray(s._board_history, np.int8).tobytes()
        + np.asarray(s._hand_history, np.int8).tobytes()
        + np.asarray(s._board, np.int8).tobytes()
        + np.asarray(s._hand, np.int8).tobytes()
        + bytes([int(s._turn), 0])
    )


def test_animal_shogi_matches_pgx() -> None:
    games = 2000 if FULL else 300
    # Few illegal moves here (the next test has many), so that most games end by the rules.
    stats = lockstep(
        "AnimalShogi-v1",
        pgx.make("animal_shogi"),
        encode,
        games=games,
        batch=256 if FULL else 64,
        seed=7,
        illegal_rate=0.002,
    )
    assert stats.games >= games and stats.illegal > 0
    assert set(stats.terminal_rewards) >= {0.0, 1.0}  # draws and wins both happened


def test_animal_shogi_illegal_moves_match_pgx() -> None:
    """pgx's _step on any label (off-board targets, moves of empty or enemy squares, drops from empty hands)."""
    games = 1000 if FULL else 150
    stats = lockstep(
        "AnimalShogi-v1", pgx.make("animal_shogi"), encode, games=games, batch=64, seed=8, illegal_rate=0.2
    )
    assert stats.illegal >= games // 2


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the color plane shows it)."""

    def swapped(s) -> bytes:
        return encode(s.replace(current_player=1 - s.current_player))

    with pytest.raises(Mismatch):
        lockstep("AnimalShogi-v1", pgx.make("animal_shogi"), swapped, games=20, batch=64, seed=4)


def test_bad_state_is_refused() -> None:
    """A state blob with a field out of range (the turn), or of the wrong size, is a ValueError."""
    import jax  # (after pgx_reference, which picks JAX's CPU platform)

    state = take(jax.tree_util.tree_map(lambda a: a[None], pgx.make("animal_shogi").init(jax.random.PRNGKey(0))), 0)
    good = encode(state)
    pool = rlpool.make_gymnasium("AnimalShogi-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        pool.set_state(0, good)
        bad_turn = good[:-2] + bytes([2]) + good[-1:]  # the turn byte
        for bad in (bad_turn, good[:-1]):
            with pytest.raises(ValueError):
                pool.set_state(0, bad)
    finally:
        pool.close()
