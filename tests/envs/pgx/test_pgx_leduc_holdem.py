"""LeducHoldem-v1 beside pgx 2.6.0's leduc_holdem, move by move, and rlpool's own deals against pgx's."""

from __future__ import annotations

import itertools
import struct
from collections import Counter

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, assert_states_refused, header, lockstep, set_byte
from scipy import stats as scistats

import rlpool

pgx = pytest.importorskip("pgx")

GAMES = 3000 if FULL else 400
DEALS = 30000 if FULL else 6000
DECK = (0, 0, 1, 1, 2, 2)
HEADER = 40  # pgx_reference.header's bytes


def encode(s) -> bytes:
    """rlpool's LeducHoldem state (int8 each): first player, cards x 3, last action, chips x 2, round, raises."""
    fields = [int(s._first_player), *np.asarray(s._cards), int(s._last_action), *np.asarray(s._chips)]
    return header(s) + struct.pack("<9b", *fields, int(s._round), int(s._raise_count))


def test_leduc_holdem_matches_pgx() -> None:
    stats = lockstep("LeducHoldem-v1", pgx.make("leduc_holdem"), encode, games=GAMES, batch=256, seed=5)
    assert stats.games >= GAMES and stats.illegal > 0
    assert 0.0 in stats.terminal_rewards  # showdowns of equal cards
    assert max(stats.terminal_rewards) == 13.0  # a second-round showdown after two raises in each round


def test_comparison_can_fail() -> None:
    """Games with player 0's card and the public one swapped are caught (the public card shows in round two)."""

    def swapped(s) -> bytes:
        return encode(s.replace(_cards=np.asarray(s._cards)[[2, 1, 0]]))

    with pytest.raises(Mismatch):
        lockstep("LeducHoldem-v1", pgx.make("leduc_holdem"), swapped, games=50, batch=32, seed=6)


def test_state_is_checked() -> None:
    def bad_games(game: bytes) -> dict[str, bytes]:
        return {
            "first_player": set_byte(game, 0, 2),
            "cards": set_byte(game, 1, 3),
            "last_action": set_byte(game, 4, 3),
            "chips is 0": set_byte(game, 5, 0),
            "chips is 18": set_byte(game, 6, 18),
            "round": set_byte(game, 7, 3),
            "raise_count": set_byte(game, 8, 4),
        }

    assert_states_refused("LeducHoldem-v1", bad_games)


STARTS = sorted({(first, *deal[:3]) for first in (0, 1) for deal in itertools.permutations(DECK)})
"""Every start: the first player and the three cards dealt (player 0's, player 1's, the public one)."""


def _expected() -> np.ndarray:
    """pgx's law of a start: a fair coin and the first three cards of a uniform permutation of DECK."""
    deals = Counter(deal[:3] for deal in itertools.permutations(DECK))
    return np.array([deals[start[1:]] / 2 for start in STARTS]) / sum(deals.values())


def _fit_p(starts: np.ndarray) -> float:
    index = {start: i for i, start in enumerate(STARTS)}
    counts = np.zeros(len(STARTS))
    for row in map(tuple, starts.tolist()):
        counts[index[row]] += 1
    return float(scistats.chisquare(counts, _expected() * len(starts)).pvalue)


def _rlpool_starts(n: int) -> np.ndarray:
    pool = rlpool.make_gymnasium("LeducHoldem-v1", num_envs=n, seed=21)
    try:
        pool.reset(seed=21)
        states = [np.frombuffer(pool.get_state(i), np.int8, count=4, offset=HEADER) for i in range(n)]
        return np.array(states, dtype=np.int64)
    finally:
        pool.close()


def test_deals_follow_pgx() -> None:
    """rlpool's first player and cards follow pgx's law (which pgx's own inits are checked to follow too)."""
    import jax  # after pgx_reference, which keeps JAX on the CPU

    assert _fit_p(_rlpool_starts(DEALS)) > 1e-4
    states = jax.jit(jax.vmap(pgx.make("leduc_holdem").init))(jax.random.split(jax.random.PRNGKey(22), DEALS))
    theirs = np.column_stack([np.asarray(states._first_player), np.asarray(states._cards)])
    assert _fit_p(theirs) > 1e-4
    # Power: a public card drawn uniformly among the types left (not among the cards left) is refused.
    rng = np.random.default_rng(23)
    biased = theirs.copy()
    for row in biased:
        left = Counter(DECK) - Counter(row[1:3].tolist())
        row[3] = rng.choice(sorted(left))
    assert _fit_p(biased) < 1e-4
