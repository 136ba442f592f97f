"""GardnerChess-v1 beside pgx 2.6.0's gardner_chess, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep, other_player_first, take

import rlpool

pgx = pytest.importorskip("pgx")

HEADER = 40  # pgx_reference.header's bytes
HASH_BYTES = 257 * 8  # the hash ring: pgx's MAX_TERMINATION_STEPS + 1 slots of uint64


def _start_hashes() -> bytes:
    """rlpool's hash ring at a game's start (its own zobrist keys, not pgx's): the same in every game."""
    pool = rlpool.make_gymnasium("GardnerChess-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        return pool.get_state(0)[HEADER : HEADER + HASH_BYTES]
    finally:
        pool.close()


START_HASHES = _start_hashes()


def encode(s) -> bytes:
    """rlpool's GardnerChess state: hash ring (uint64 x 257), step and halfmove counts, history, board, turn.

    Only a game's start is encoded: its hashes are rlpool's (its keys are not pgx's), the rest pgx's.
    """
    steps, turn = int(s._step_count), int(s._turn)
    assert steps == 0, "only a start position can be encoded (rlpool's hashes are not pgx's)"
    history = np.asarray(s._board_history, np.int8).reshape(8, 5, 5)
    if turn == 1:  # pgx keeps it in the mover's view; rlpool in white's
        history = -history[:, :, ::-1]
    return (
        header(s)
        + START_HASHES
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


    with pytest.raises(Mismatch, match="observation differs"):
        lockstep("GardnerChess-v1", pgx.make("gardner_chess"), other_player_first(encode), games=20, batch=64, seed=4)


def _knight_shuffle():
    """A policy: white's knight b1-c3, black's b5-a3 (in its view), both back, over and over: the start repeats."""
    # from * 49 + plane in the mover's view (pgx's TO_MAP): 5 -> 12, 5 -> 2, 12 -> 5, 2 -> 5.
    moves = (5 * 49 + 48, 5 * 49 + 44, 12 * 49 + 43, 2 * 49 + 47)
    step = [0]

    def policy(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
        action = moves[step[0] % 4]
        step[0] += 1
        assert mask[:, action].all(), "the shuffle's move is not legal"
        return np.full(len(mask), action)

    return policy


def test_repetition_matches_pgx_and_bad_hashes_are_caught() -> None:
    """The start position's third occurrence is pgx's draw (step 8); a state with zeroed hashes is caught (step 4)."""
    env = pgx.make("gardner_chess")
    stats = lockstep(
        "GardnerChess-v1", env, encode, games=64, batch=64, seed=9, illegal_rate=0, policy=_knight_shuffle()
    )
    assert stats.steps == 8 * 64 and stats.terminal_rewards == {0.0: 64}

    def zero_hashes(s) -> bytes:
        good = encode(s)
        return good[:HEADER] + bytes(HASH_BYTES) + good[HEADER + HASH_BYTES :]

    # rlpool sees the start position's hash (now 0) in every unused slot at the 4th step, pgx a first repetition.
    with pytest.raises(Mismatch, match=f"step {3 * 64}, "):  # (lockstep counts steps of all games)
        lockstep(
            "GardnerChess-v1", env, zero_hashes, games=64, batch=64, seed=9, illegal_rate=0, policy=_knight_shuffle()
        )


def test_bad_state_is_refused() -> None:
    """A state blob with a field out of range (the turn), or of the wrong size, is a ValueError."""
    import jax  # (after pgx_reference, which picks JAX's CPU platform)

    state = take(jax.tree_util.tree_map(lambda a: a[None], pgx.make("gardner_chess").init(jax.random.PRNGKey(0))), 0)
    good = encode(state)
    pool = rlpool.make_gymnasium("GardnerChess-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        assert pool.get_state(0)[HEADER:] == good[HEADER:]  # rlpool's start is pgx's (its own hashes aside)
        pool.set_state(0, good)
        bad_turn = good[:-7] + bytes([2]) + good[-6:]  # the turn byte
        for bad in (bad_turn, good[:-1]):
            with pytest.raises(ValueError):
                pool.set_state(0, bad)
    finally:
        pool.close()
