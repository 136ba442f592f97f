"""Othello-v1 beside pgx 2.6.0's othello, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import assert_other_player_first_caught, assert_states_refused, header, lockstep

import rlpool

pgx = pytest.importorskip("pgx")

GAMES = 2000 if FULL else 300
BITS = 1 << np.arange(64, dtype=np.uint64)
PASS = 64


def encode(s) -> bytes:
    """rlpool's Othello state: the mover's discs, the other's (bit r * 8 + c), passed, turn."""
    x = s._x
    board = np.asarray(x.board)
    own, opp = int(BITS[board > 0].sum()), int(BITS[board < 0].sum())
    return header(s) + struct.pack("<2QBB6x", own, opp, int(x.passed), int(x.turn))


def test_othello_matches_pgx() -> None:
    stats = lockstep("Othello-v1", pgx.make("othello"), encode, games=GAMES, batch=256, seed=3)
    assert stats.games >= GAMES and stats.illegal > 0
    assert set(stats.terminal_rewards) == {0.0, 1.0}  # draws and wins both happened


def untimely_passes(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """Uniform over the legal moves, but now and then a pass whether or not it is legal."""
    actions = (rng.random(mask.shape) + mask).argmax(axis=1)
    actions[rng.random(len(mask)) < 0.02] = PASS
    return actions


def test_illegal_moves_match_pgx() -> None:
    """pgx's _step on an occupied cell or an untimely pass, shown in the observations, then the penalty."""
    stats = lockstep(
        "Othello-v1",
        pgx.make("othello"),
        encode,
        games=300,
        batch=128,
        seed=5,
        illegal_rate=0.1,
        policy=untimely_passes,
    )
    assert stats.illegal >= 250


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the board is relative to the mover)."""
    assert_other_player_first_caught("Othello-v1", pgx.make("othello"), encode)


def test_bad_states_are_refused() -> None:
    def bad_games(game: bytes) -> dict[str, bytes]:
        return {
            "share a cell": struct.pack("<2Q", 1, 1) + game[16:],
            "passed": game[:16] + bytes([2]) + game[17:],
            "turn": game[:17] + bytes([2]) + game[18:],
        }

    assert_states_refused("Othello-v1", bad_games)


def test_wipeout_matches_pgx() -> None:
    """A move that flips the opponent's last disc ends the game (random play almost never gets there)."""
    import jax
    import jax.numpy as jnp

    env = pgx.make("othello")
    step = jax.jit(env.step)
    observe = jax.jit(lambda s: jnp.stack([env._observe(s, jnp.int32(p)) for p in range(2)]))
    pool = rlpool.make_gymnasium("Othello-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        # The mover's discs, the opponent's, the move (which flips cell 1), and whether it ends the game.
        for own, opp, action, over in (([0], [1], 2, True), ([0], [1, 20], 2, False)):
            board = jnp.zeros(64, jnp.int32).at[jnp.int32(own)].set(1).at[jnp.int32(opp)].set(-1)
            s = env.init(jax.random.PRNGKey(0))
            s = s.replace(
                _x=s._x._replace(board=board), legal_action_mask=jnp.zeros(65, jnp.bool_).at[action].set(True)
            )
            pool.set_state(0, encode(jax.tree_util.tree_map(np.asarray, s)))
            obs, reward, terminated, _, info = pool.step(np.array([action]))
            after = step(s, jnp.int32(action))
            expected = np.asarray(observe(after))
            assert bool(after.terminated) == over and terminated[0].tolist() == [over, over]
            assert np.array_equal(obs[0], expected)
            assert reward[0].tolist() == np.asarray(after.rewards).tolist()
            assert np.array_equal(info["legal_action_mask"][0], np.asarray(after.legal_action_mask))
            assert info["current_player"][0] == int(after.current_player)
    finally:
        pool.close()
