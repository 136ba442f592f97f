"""Shogi-v1 beside pgx 2.6.0's shogi, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep

pgx = pytest.importorskip("pgx")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import rlpool  # noqa: E402


def encode(s) -> bytes:
    """rlpool's Shogi state: board (int8 x 81, the mover's side), hands (int8 x 2 x 7), a zero byte, step count."""
    x = s._x
    board = np.asarray(x.board, np.int8).tobytes()
    hand = np.asarray(x.hand, np.int8).tobytes()
    return header(s) + board + hand + b"\0" + struct.pack("<i", int(x.step_count))


def test_shogi_matches_pgx() -> None:
    # pgx's shogi is slow on CPU (~35 s to compile the step, ~1.3 ms per game step on 2 cores), so the default lane
    # is small (1% illegal moves: ~100 steps a game); the full lane's 1000 games have 4% (~25 steps a game, ~35 s),
    # and whole games are the next test's.
    games, batch, rate = (1000, 256, 0.04) if FULL else (48, 48, 0.01)
    stats = lockstep("Shogi-v1", pgx.make("shogi"), encode, games=games, batch=batch, seed=5, illegal_rate=rate)
    assert stats.games >= games and stats.illegal > 0


@pytest.mark.skipif(not FULL, reason="whole games (up to 512 moves) against pgx: the full lane")
def test_whole_games_match_pgx() -> None:
    """Without illegal moves games run to a mate or to pgx's 512-move limit (~30000 steps, ~45 s)."""
    stats = lockstep("Shogi-v1", pgx.make("shogi"), encode, games=64, batch=64, seed=6, illegal_rate=0.0)
    assert stats.games >= 64
    assert set(stats.terminal_rewards) == {0.0, 1.0}  # mates and the move limit both ended games


# A position of seed 6's whole games (move 296, the mover to drop): the opponent's king on square 9 (file 1, its
# back rank), our pawn in hand, square 10 in front of the king covered by our promoted knight, and no escape.
MATE_BOARD = [
    -1, -1, 1, 15, 14, -1, 5, 2, -1, 21, -1, 14, -1, -1, -1, 26, -1, 24, 14, 15, 10, -1, -1, -1, -1, -1, -1,
    -1, -1, 20, -1, -1, -1, 0, 14, -1, -1, 11, 14, -1, -1, -1, 4, 3, 7, -1, -1, -1, 3, 14, -1, 0, -1, -1,
    14, -1, 13, -1, 6, -1, 0, 6, -1, -1, -1, -1, 14, -1, -1, 0, -1, 2, -1, -1, 14, -1, -1, -1, 17, 6, 1,
]  # fmt: skip
PAWN_DROP_MATE = 20 * 81 + 10


def test_pawn_drop_mate_as_pgx_judges_it() -> None:
    """pgx's pawn-drop mate lets a king next to square 0 "escape" off the board (AROUND_IX's -1, read as square 80
    of the opponent's board) unless the opponent holds our square 0 or our pieces attack our square 80.

    Each variant of the position is reached by the opponent's last move (its silver to our square 78) and the masks
    after it are compared: pgx's from its _legal_action_mask, rlpool's from the step.
    """
    from pgx._src.games.shogi import GameState, _legal_action_mask
    from pgx.shogi import State

    variants = {  # square -> piece, from the mover's side; whether dropping the pawn mates
        "our lance on 80": ({}, False),  # the king "escapes": 80 holds our own piece
        "80 empty, our gold on 79 attacks it": ({80: -1}, True),
        "80 and 79 empty": ({80: -1, 79: -1}, False),
        "80 attacked by our bishop on 70": ({80: -1, 79: -1, 70: 4}, True),
        "their pawn on 0": ({80: -1, 79: -1, 0: 14}, True),
        "our silver on 0": ({80: -1, 79: -1, 0: 3}, False),
    }
    boards = []
    for changes, _ in variants.values():
        board = np.array(MATE_BOARD, np.int32)
        for square, piece in changes.items():
            board[square] = piece
        boards.append(board)
    hand = np.array([[1, 0, 0, 0, 0, 0, 0], [4, 0, 0, 0, 0, 0, 0]], np.int32)
    pgx_masks = jax.jit(jax.vmap(lambda b: _legal_action_mask(GameState(board=b, hand=jnp.asarray(hand)))))
    masks = np.asarray(pgx_masks(jnp.asarray(np.stack(boards))))
    pool = rlpool.make_gymnasium("Shogi-v1", num_envs=len(boards), seed=0)
    try:
        pool.reset()
        for i, board in enumerate(boards):
            before = board.copy()
            before[68], before[78] = before[78], -1  # the opponent's silver back where it came from
            theirs = np.where(before[::-1] < 0, -1, (before[::-1] + 14) % 28)  # the board from its side
            x = GameState(step_count=jnp.int32(295), board=jnp.asarray(theirs), hand=jnp.asarray(hand[::-1]))
            pool.set_state(i, encode(State(current_player=jnp.int32(1), _x=x)))
        _, _, terminated, _, info = pool.step(np.full(len(boards), 2 * 81 + 2))  # silver from 12 up-left to 2
    finally:
        pool.close()
    assert not terminated.any()
    for i, (name, (_, mates)) in enumerate(variants.items()):
        assert masks[i, PAWN_DROP_MATE] == (not mates), name
        np.testing.assert_array_equal(info["legal_action_mask"][i], masks[i], err_msg=name)


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
