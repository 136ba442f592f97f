"""KuhnPoker-v1 beside pgx 2.6.0's kuhn_poker, move by move, and rlpool's own deals against pgx's."""

from __future__ import annotations

import itertools
import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, assert_states_refused, header, lockstep, set_byte
from scipy import stats as scistats

import rlpool

pgx = pytest.importorskip("pgx")

GAMES = 3000 if FULL else 400
DEALS = 30000 if FULL else 6000
CELLS = [(first, a, b) for first in (0, 1) for a, b in itertools.permutations(range(3), 2)]
"""Every start: the first player and the two players' cards (pgx: a fair coin, one of six deals)."""


def encode(s) -> bytes:
    """rlpool's KuhnPoker state: cards (int8 x 2), last action (int8), pot (int8 x 2)."""
    return header(s) + struct.pack("<5b", *np.asarray(s._cards), int(s._last_action), *np.asarray(s._pot))


def test_kuhn_poker_matches_pgx() -> None:
    stats = lockstep("KuhnPoker-v1", pgx.make("kuhn_poker"), encode, games=GAMES, batch=256, seed=5)
    assert stats.games >= GAMES
    assert stats.illegal == 0  # both actions are always legal
    assert set(stats.terminal_rewards) == {1.0, 2.0}  # folds and 1-chip showdowns, 2-chip showdowns


def test_comparison_can_fail() -> None:
    """Games dealt with the players' cards swapped are caught."""

    def swapped(s) -> bytes:
        return encode(s.replace(_cards=s._cards[::-1]))

    with pytest.raises(Mismatch):
        lockstep("KuhnPoker-v1", pgx.make("kuhn_poker"), swapped, games=20, batch=16, seed=6)


def test_state_is_checked() -> None:
    def bad_games(game: bytes) -> dict[str, bytes]:
        return {
            "cards hold 3": set_byte(game, 0, 3),
            "cards are equal": set_byte(game, 1, game[0]),
            "last_action": set_byte(game, 2, 2),
            "pot holds 2": set_byte(game, 3, 2),
            "pot holds -1": set_byte(game, 4, -1),
        }

    assert_states_refused("KuhnPoker-v1", bad_games)


def _counts(starts: np.ndarray) -> np.ndarray:
    """How often each of CELLS occurs among rows (first player, card 0, card 1)."""
    index = {cell: i for i, cell in enumerate(CELLS)}
    counts = np.zeros(len(CELLS))
    for row in map(tuple, starts.tolist()):
        counts[index[row]] += 1
    return counts


def _uniform_p(starts: np.ndarray) -> float:
    return float(scistats.chisquare(_counts(starts)).pvalue)


def _rlpool_starts(n: int) -> np.ndarray:
    pool = rlpool.make_gymnasium("KuhnPoker-v1", num_envs=n, seed=11)
    try:
        obs, info = pool.reset(seed=11)
        cards = obs[:, :, :3].argmax(axis=2)  # each player sees its own card
        return np.column_stack([info["current_player"], cards])
    finally:
        pool.close()


def test_deals_follow_pgx() -> None:
    """rlpool's first player and cards are uniform over the 12 starts, as pgx's (checked on pgx's own inits too)."""
    import jax  # after pgx_reference, which keeps JAX on the CPU

    ours = _rlpool_starts(DEALS)
    assert _uniform_p(ours) > 1e-4
    states = jax.jit(jax.vmap(pgx.make("kuhn_poker").init))(jax.random.split(jax.random.PRNGKey(12), DEALS))
    theirs = np.column_stack([np.asarray(states.current_player), np.asarray(states._cards)])
    assert _uniform_p(theirs) > 1e-4
    # Power: a deal that gives player 0 the king a quarter more often than its share is refused at this size.
    rng = np.random.default_rng(13)
    weights = np.ones(len(CELLS))
    weights[[i for i, (_, a, _b) in enumerate(CELLS) if a == 2]] = 1.25
    biased = np.asarray(CELLS)[rng.choice(len(CELLS), size=DEALS, p=weights / weights.sum())]
    assert _uniform_p(biased) < 1e-4
