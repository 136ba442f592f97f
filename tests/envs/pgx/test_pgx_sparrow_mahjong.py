"""SparrowMahjong-v1 beside pgx 2.6.0's sparrow_mahjong, move by move, and rlpool's own walls against pgx's."""

from __future__ import annotations

import itertools

import jax
import numpy as np
import pgx_reference
import pytest
from lane import FULL
from pgx_reference import Mismatch, header, lockstep
from scipy import stats as scistats

import rlpool

pgx = pytest.importorskip("pgx")
sparrow = pytest.importorskip("pgx.sparrow_mahjong")

GAMES = 2000 if FULL else 300
BATCH = 256
DEALS = BATCH * (120 if FULL else 24)
HEADER = 40  # pgx_reference.header's bytes
WALL = HEADER + 3 * 11 * 2 + 3 * 10  # after hands, red doras and rivers
SEATINGS = list(itertools.permutations(range(3)))
ENV = pgx.make("sparrow_mahjong")


def encode(s) -> bytes:
    """rlpool's SparrowMahjong state (int8 each): hands 3x11, red doras 3x11, rivers 3x10, wall 44, seats 3,
    turn, last discard, draw index, dora."""
    arrays = [s._hands, s._n_red_in_hands, s._rivers, s._wall, s._shuffled_players]
    scalars = [s._turn, s._last_discard, s._draw_ix, s._dora]
    return header(s) + b"".join(np.asarray(a, np.int8).tobytes() for a in arrays) + np.int8(scalars).tobytes()


def test_sparrow_mahjong_matches_pgx() -> None:
    stats = lockstep("SparrowMahjong-v1", ENV, encode, games=GAMES, batch=BATCH, seed=5)
    assert stats.games >= GAMES and stats.illegal > 0
    # draws (0), the illegal-move penalty (+2 to the two others) and wins by tsumo or ron (k / 26)
    assert {0.0, 2.0} <= set(stats.terminal_rewards) and len(stats.terminal_rewards) > 5


def test_comparison_can_fail() -> None:
    """Games whose wall beyond the hands is reversed (the draws differ) are caught."""

    def reversed_wall(s) -> bytes:
        wall = np.asarray(s._wall).copy()
        wall[16:43] = wall[16:43][::-1]
        return encode(s.replace(_wall=wall))

    with pytest.raises(Mismatch):
        lockstep("SparrowMahjong-v1", ENV, reversed_wall, games=20, batch=BATCH, seed=6)


def test_state_is_checked() -> None:
    env = rlpool.make_gymnasium("SparrowMahjong-v1", num_envs=1, seed=0)
    try:
        env.reset()
        good = env.get_state(0)
        wall = np.frombuffer(good, np.int8, 44, WALL)
        other_dora = (wall[43] // 4 + 1) % 11
        cases = [(HEADER, 5), (HEADER + 33, -2), (HEADER + 66, 11), (HEADER + 67, 0), (WALL, wall[1]), (WALL, 44)]
        cases += [
            (WALL + 44, good[WALL + 45]),
            (WALL + 47, 1),
            (WALL + 48, -2),
            (WALL + 49, 15),
            (WALL + 50, other_dora),
        ]
        for at, value in cases:
            bad = bytearray(good)
            bad[at] = int(value) & 0xFF
            with pytest.raises(ValueError):
                env.set_state(0, bytes(bad))
            assert env.get_state(0) == good
    finally:
        env.close()


def _homogeneity_p(walls_a: np.ndarray, walls_b: np.ndarray) -> float:
    """Two samples of walls, tile types by position: chi-square of homogeneity summed over the 44 positions.

    The positions of a wall are not independent (it holds each type four times), which spreads the sum a little
    more than chi2(440) (a variance about 44/43 of it): negligible at the 1e-4 level the tests use.
    """
    stat, dof = 0.0, 0
    for pos in range(44):
        table = np.stack([np.bincount(w[:, pos] // 4, minlength=11) for w in (walls_a, walls_b)])
        stat += scistats.chi2_contingency(table, correction=False).statistic
        dof += 10
    return float(scistats.chi2.sf(stat, dof))


def _seating_p(seats_a: np.ndarray, seats_b: np.ndarray) -> float:
    table = np.stack([[np.all(s == order, axis=1).sum() for order in SEATINGS] for s in (seats_a, seats_b)])
    return float(scistats.chi2_contingency(table, correction=False).pvalue)


def _rlpool_deals(n: int) -> tuple[np.ndarray, np.ndarray]:
    pool = rlpool.make_gymnasium("SparrowMahjong-v1", num_envs=n, seed=31)
    try:
        pool.reset(seed=31)
        states = np.array([np.frombuffer(pool.get_state(i), np.int8, 47, WALL) for i in range(n)], np.int64)
        return states[:, :44], states[:, 44:]
    finally:
        pool.close()


def _tenhou(walls: np.ndarray) -> np.ndarray:
    """Whether the dealer's six tiles (wall[0:5] and the first draw, wall[15]) make a complete hand."""
    dealer = np.concatenate([walls[:, :5], walls[:, 15:16]], axis=1) // 4
    hands = np.stack([(dealer == t).sum(axis=1) for t in range(11)], axis=1)
    return np.isin(hands @ (5 ** np.arange(10, -1, -1)), np.asarray(sparrow.WIN_HANDS))


def test_deals_follow_pgx() -> None:
    """rlpool's walls and seatings have pgx's law: tile types by wall position and the seatings match pgx's
    own inits, and neither deals a tenhou (pgx redeals it)."""
    walls, seats = _rlpool_deals(DEALS)
    init = pgx_reference.compiled(ENV)[0]  # lockstep's, at its batch size
    keys = jax.random.split(jax.random.PRNGKey(32), DEALS).reshape(-1, BATCH, 2)
    states = [init(k) for k in keys]
    pgx_walls = np.concatenate([np.asarray(s._wall) for s in states]).astype(np.int64)
    pgx_seats = np.concatenate([np.asarray(s._shuffled_players) for s in states])
    for w in (walls, pgx_walls):
        assert np.array_equal(np.sort(w, axis=1), np.tile(np.arange(44), (DEALS, 1)))
        assert not _tenhou(w).any()
    assert _homogeneity_p(walls, pgx_walls) > 1e-4
    assert _seating_p(seats, pgx_seats) > 1e-4
    # Power: walls shuffled by Sattolo's algorithm (Fisher-Yates off by one: no tile stays in place) are refused.
    rng = np.random.default_rng(33)
    sattolo = np.tile(np.arange(44), (DEALS, 1))
    for i in range(43, 0, -1):
        j = rng.integers(0, i, size=DEALS)
        rows = np.arange(DEALS)
        sattolo[rows, i], sattolo[rows, j] = sattolo[rows, j], sattolo[rows, i].copy()
    assert _homogeneity_p(sattolo[~_tenhou(sattolo)], pgx_walls) < 1e-4
