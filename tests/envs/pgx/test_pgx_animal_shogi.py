"""AnimalShogi-v1 beside pgx 2.6.0's animal_shogi, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep, other_player_first, take

import rlpool

pgx = pytest.importorskip("pgx")

HEADER = 40  # pgx_reference.header's bytes
HASH_BYTES = 8 + 257 * 8  # the hash (uint64), then the history's 257 low words and 257 high words (uint32)


def _start_hashes() -> bytes:
    """rlpool's hash and hash history at a game's start (its own zobrist keys, not pgx's): the same in every game."""
    pool = rlpool.make_gymnasium("AnimalShogi-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        return pool.get_state(0)[HEADER : HEADER + HASH_BYTES]
    finally:
        pool.close()


START_HASHES = _start_hashes()


def encode(s) -> bytes:
    """rlpool's AnimalShogi state: pgx's fields in its layouts, but for the hashes.

    Only a game's start is encoded: its hashes are rlpool's (its keys are not pgx's), the rest pgx's.
    """
    assert int(s._step_count) == 0, "only a start position can be encoded (rlpool's hashes are not pgx's)"
    return (
        header(s)
        + START_HASHES
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


    with pytest.raises(Mismatch, match="observation differs"):
        lockstep("AnimalShogi-v1", pgx.make("animal_shogi"), other_player_first(encode), games=20, batch=64, seed=4)


def _giraffe_shuffle():
    """A policy: both sides' giraffe a step forward and back, over and over: the start position repeats."""
    out, back = 3 * 12 + 3, 4 * 12 + 2  # direction * 12 + from: square 3 -> 2, 2 -> 3 (either side's view)
    step = [0]

    def policy(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
        action = (out, out, back, back)[step[0] % 4]
        step[0] += 1
        assert mask[:, action].all(), "the shuffle's move is not legal"
        return np.full(len(mask), action)

    return policy


def test_repetition_matches_pgx_and_bad_hashes_are_caught() -> None:
    """The start position's third occurrence is pgx's draw (step 8); a state with zeroed hashes is caught (step 4)."""
    env = pgx.make("animal_shogi")
    stats = lockstep(
        "AnimalShogi-v1", env, encode, games=64, batch=64, seed=9, illegal_rate=0, policy=_giraffe_shuffle()
    )
    assert stats.steps == 8 * 64 and stats.terminal_rewards == {0.0: 64}

    def zero_hashes(s) -> bytes:
        good = encode(s)
        return good[:HEADER] + bytes(HASH_BYTES) + good[HEADER + HASH_BYTES :]

    # rlpool sees the start position's hash (now 0) in every unused slot at the 4th step, pgx a first repetition.
    with pytest.raises(Mismatch, match=f"step {3 * 64}, "):  # (lockstep counts steps of all games)
        lockstep(
            "AnimalShogi-v1", env, zero_hashes, games=64, batch=64, seed=9, illegal_rate=0, policy=_giraffe_shuffle()
        )


def test_bad_state_is_refused() -> None:
    """A state blob with a field out of range (the turn), or of the wrong size, is a ValueError."""
    import jax  # (after pgx_reference, which picks JAX's CPU platform)

    state = take(jax.tree_util.tree_map(lambda a: a[None], pgx.make("animal_shogi").init(jax.random.PRNGKey(0))), 0)
    good = encode(state)
    pool = rlpool.make_gymnasium("AnimalShogi-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        assert pool.get_state(0)[HEADER:] == good[HEADER:]  # rlpool's start is pgx's (its own hashes aside)
        pool.set_state(0, good)
        bad_turn = good[:-2] + bytes([2]) + good[-1:]  # the turn byte
        for bad in (bad_turn, good[:-1]):
            with pytest.raises(ValueError):
                pool.set_state(0, bad)
    finally:
        pool.close()
