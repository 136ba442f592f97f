"""Play2048-v1 beside pgx 2.6.0's play2048, move by move, and rlpool's own tiles against pgx's distribution."""

from __future__ import annotations

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, assert_states_refused, header, lockstep, set_byte

pgx = pytest.importorskip("pgx")
stats_mod = pytest.importorskip("scipy.stats")

NO_TILE = bytes([0xFF] * 4 + [0] * 4)  # no pending tile in any direction: the env draws the next tile itself

# LINES[a][l]: the cells of line l when sliding in direction a (0 left, 1 up, 2 right, 3 down), the far side first.
LINES = [
    [[4 * r + j for j in range(4)] for r in range(4)],
    [[4 * j + 3 - r for j in range(4)] for r in range(4)],
    [[4 * (3 - r) + 3 - j for j in range(4)] for r in range(4)],
    [[4 * (3 - j) + r for j in range(4)] for r in range(4)],
]


def slide(board: np.ndarray, direction: int) -> np.ndarray:
    """The board (16 exponents) after sliding and merging, without the new tile."""
    out = np.zeros(16, dtype=board.dtype)
    for line in LINES[direction]:
        tiles = [int(board[c]) for c in line if board[c]]
        merged = []
        while tiles:
            if len(tiles) > 1 and tiles[0] == tiles[1]:
                merged.append(tiles[0] + 1)
                tiles = tiles[2:]
            else:
                merged.append(tiles.pop(0))
        for c, v in zip(line, merged, strict=False):
            out[c] = v
    return out


def encode(s, pending: bytes = NO_TILE) -> bytes:
    """rlpool's Play2048 state: board (uint8 exponents x 16), then the pending tile per direction (cells, values)."""
    return header(s) + np.asarray(s._board, np.uint8).tobytes() + pending


def spawned(slid: np.ndarray, after: np.ndarray) -> tuple[int, int] | None:
    """The tile pgx added to a slid board, as (cell, exponent), when ``after`` is that board plus one new tile."""
    if not (slid == 0).any():  # a full board (an illegal move's): JAX's draw lands on cell 0
        same = np.array_equal(slid[1:], after[1:]) and after[0] in (1, 2)
        return (0, int(after[0])) if same else None
    diff = np.flatnonzero(slid != after)
    if len(diff) == 1 and slid[diff[0]] == 0 and after[diff[0]] in (1, 2):
        return int(diff[0]), int(after[diff[0]])
    return None


def with_pgx_tile(before, after) -> bytes:
    """The state before the step, with pgx's new tile pending for each direction whose slide it fits.

    The tile's cell depends on the slide, and the action is not given here: each direction gets the tile when pgx's
    board after the step is that direction's slide plus one tile (rlpool uses the pending tile of its action)."""
    old, new = np.asarray(before._board), np.asarray(after._board)
    cells, values = [], []
    for direction in range(4):
        tile = spawned(slide(old, direction), new)
        cells.append(-1 if tile is None else tile[0])
        values.append(0 if tile is None else tile[1])
    return encode(before, np.array(cells, np.int8).tobytes() + np.array(values, np.uint8).tobytes())


def test_play2048_matches_pgx() -> None:
    # Random games last about 115 steps; an illegal move in one step of 300 leaves most games to their end.
    games = 2000 if FULL else 300
    stats = lockstep(
        "Play2048-v1",
        pgx.make("2048"),
        encode,
        games=games,
        batch=256 if FULL else 128,
        seed=5,
        illegal_rate=0.003,
        before_step=with_pgx_tile,
    )
    assert stats.games >= games and stats.illegal > 0
    assert -1.0 in stats.terminal_rewards  # illegal moves' penalty
    assert max(stats.terminal_rewards) > 0  # and games that ended on a merge


def test_comparison_can_fail() -> None:
    """Without pgx's tiles rlpool draws its own, and the first step shows it."""
    with pytest.raises(Mismatch):
        lockstep(
            "Play2048-v1", pgx.make("2048"), encode, games=20, batch=128, seed=6, before_step=lambda b, a: encode(b)
        )


def test_state_is_checked() -> None:
    """get_state/set_state round trip; set_state refuses each bad field (naming it) and changes nothing."""

    def bad_games(game: bytes) -> dict[str, bytes]:
        return {
            "board": set_byte(game, 5, 31),  # past the observation's 31 planes
            "pending tile 1": set_byte(game, 17, 16),  # no such cell
            "pending tile 2": set_byte(game, 18, 3),  # a tile's value without a cell
            "pending tile 0": set_byte(set_byte(game, 16, 4), 20, 3),  # a tile of 8
        }

    assert_states_refused("Play2048-v1", bad_games)


def test_pending_tile_is_used() -> None:
    """A pending tile lands where it says (on its direction only), else the env draws; every step clears it."""
    import rlpool

    pool = rlpool.make_gymnasium("Play2048-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        head = pool.get_state(0)[:-24]
        board = np.zeros(16, np.uint8)
        board[[0, 1]] = 1  # two 2s on the top row: left merges them into a 4 at cell 0
        pending = np.array([15, -1, -1, -1], np.int8).tobytes() + np.array([2, 0, 0, 0], np.uint8).tobytes()
        pool.set_state(0, head + board.tobytes() + pending)
        obs, reward, *_ = pool.step(np.array([0]))
        tiles = obs[0].argmax(-1).ravel()
        assert reward[0] == 4.0 and tiles[0] == 2 and tiles[15] == 2 and (tiles > 0).sum() == 2
        assert pool.get_state(0)[-8:] == NO_TILE
    finally:
        pool.close()


def test_illegal_move_on_full_board() -> None:
    """An illegal direction on a full board: pgx's tile lands on cell 0 (JAX's choice with no empty cell to weigh),
    overwriting it, and the game ends with -1; rlpool's own draw does the same."""
    import jax
    import jax.numpy as jnp

    import rlpool

    keys = jax.random.split(jax.random.PRNGKey(0), 64)
    picks = jax.vmap(lambda k: jax.random.choice(k, jnp.arange(16), p=jnp.zeros(16, jnp.bool_)))(keys)
    assert (np.asarray(picks) == 0).all()
    pool = rlpool.make_gymnasium("Play2048-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        head = pool.get_state(0)[:-24]
        # Left and right merge the two 8s on the top row; nothing moves up or down.
        board = np.array([5, 3, 3, 6, 1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2], np.uint8)
        for _ in range(20):
            pool.set_state(0, head + board.tobytes() + NO_TILE)  # a running game again (no reset step)
            obs, reward, terminated, _, info = pool.step(np.array([1]))  # up: illegal
            tiles = obs[0].argmax(-1).ravel()
            assert reward[0] == -1.0 and terminated[0] and info["legal_action_mask"][0].all()
            assert (tiles[1:] == board[1:]).all() and tiles[0] in (1, 2)
    finally:
        pool.close()


def test_big_tiles() -> None:
    """Tiles past 2^15 (beyond the 4-bit table of line slides) slide and merge as pgx's do."""
    import rlpool

    pool = rlpool.make_gymnasium("Play2048-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        head = pool.get_state(0)[:-24]
        board = np.zeros(16, np.uint8)
        board[:4] = [15, 15, 16, 16]
        board[4:8] = [14, 14, 0, 30]
        pending = np.array([15, -1, -1, -1], np.int8).tobytes() + np.array([1, 0, 0, 0], np.uint8).tobytes()
        pool.set_state(0, head + board.tobytes() + pending)
        obs, reward, *_ = pool.step(np.array([0]))
        tiles = obs[0].argmax(-1).ravel()
        assert list(tiles[:8]) == [16, 17, 0, 0, 15, 30, 0, 0] and tiles[15] == 1
        assert reward[0] == 2.0**16 + 2.0**17 + 2.0**15
    finally:
        pool.close()


def rlpool_tiles(steps: int, resets: int, batch: int = 256, seed: int = 7) -> dict[str, np.ndarray]:
    """rlpool's own tiles over random legal play: the counts of 2s and 4s, of the cell among the empty ones (by
    number of empty cells, rank), and of the cells and values of the two opening tiles (over ``resets`` resets)."""
    import rlpool

    rng = np.random.default_rng(seed)
    values = np.zeros(3, int)
    ranks = np.zeros((17, 16), int)  # [empty cells after the slide, the new tile's rank among them]
    opening_cells, opening_values = np.zeros(16, int), np.zeros(3, int)
    pool = rlpool.make_gymnasium("Play2048-v1", num_envs=batch, seed=seed)
    try:
        for _ in range(resets):
            obs, info = pool.reset()
            boards = obs.argmax(-1).reshape(batch, 16)
            assert ((boards > 0).sum(axis=1) == 2).all()
            opening_cells += (boards > 0).sum(axis=0)
            opening_values += np.bincount(boards.ravel(), minlength=3)[:3] * [0, 1, 1]
        boards = obs.argmax(-1).reshape(batch, 16)
        done = np.zeros(batch, bool)
        for _ in range(steps):
            mask = info["legal_action_mask"]
            actions = (rng.random(mask.shape) + mask).argmax(axis=1)
            obs, _, terminated, _, info = pool.step(actions)
            new = obs.argmax(-1).reshape(batch, 16)
            for i in np.flatnonzero(~done):
                slid = slide(boards[i], int(actions[i]))
                cell, value = spawned(slid, new[i])
                empty = np.flatnonzero(slid == 0)
                values[value] += 1
                ranks[len(empty), int(np.searchsorted(empty, cell))] += 1
            boards, done = new, terminated
    finally:
        pool.close()
    return {"values": values[1:], "ranks": ranks, "opening_cells": opening_cells, "opening_values": opening_values[1:]}


def fits(observed: np.ndarray, expected: np.ndarray) -> bool:
    """Pearson's chi-square test of counts against expected counts, at the 1e-4 level."""
    keep = expected > 0
    assert observed[~keep].sum() == 0
    return float(stats_mod.chisquare(observed[keep], expected[keep] * observed.sum() / expected.sum()).pvalue) > 1e-4


def uniform_ranks(ranks: np.ndarray) -> np.ndarray:
    """The expected counts of ``ranks`` when the cell is uniform over the empty ones."""
    n = np.arange(17)[:, None]
    return np.where(np.arange(16)[None, :] < n, ranks.sum(axis=1, keepdims=True) / np.maximum(n, 1), 0.0)


def test_own_tiles_follow_pgx() -> None:
    t = rlpool_tiles(steps=120, resets=20)
    assert t["values"].sum() > 25000 and t["opening_cells"].sum() > 10000
    assert fits(t["values"], np.array([0.9, 0.1])), t["values"]
    assert fits(t["opening_values"], np.array([0.9, 0.1])), t["opening_values"]
    assert fits(t["opening_cells"], np.full(16, 1.0)), t["opening_cells"]  # each cell in 2 of 16 openings
    assert fits(t["ranks"].ravel(), uniform_ranks(t["ranks"]).ravel())
    # Power: the same checks refuse 4s at 12% and a cell drawn with a lean of 30% to the first empty one.
    n = int(t["values"].sum())
    rng = np.random.default_rng(8)
    fours = int((rng.random(n) < 0.12).sum())
    assert not fits(np.array([n - fours, fours]), np.array([0.9, 0.1]))
    leaning = np.zeros_like(t["ranks"])
    for empty, count in enumerate(t["ranks"].sum(axis=1)):
        if empty:
            p = np.full(empty, 1.0)
            p[0] *= 1.3
            leaning[empty, :empty] = rng.multinomial(count, p / p.sum())
    assert not fits(leaning.ravel(), uniform_ranks(leaning).ravel())
