"""Cleaner-v0 (src/rlpool/envs/jumanji/cleaner.cc) beside jumanji 1.1.2's Cleaner, step by step, bit for bit.

A multi-agent task: every observation entry has the agent axis first, ``grid`` and ``step_count`` repeated on
every agent's row (compared as one copy). Whole episodes from the same keys under a policy whose agents mostly
walk to the nearest dirty square (so mazes get cleaned), else wander, now and then making a move a wall blocks
(which ends the episode), with ``info``'s ratio_dirty_tiles and num_dirty_tiles beside jumanji's extras; states
a random policy rarely reaches (the last dirty square, agents sharing a square, an action_mask that lets an
agent off the grid, the step before the time limit) put in with ``set_state``; a planted difference that the
comparison catches; bad state blobs refused naming the field; other sizes (non-square ones too, where jumanji
checks a row against num_cols) in the full lane.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

from jumanji_reference import (  # noqa: E402
    Reference,
    check_caught,
    check_refused_blobs,
    check_refused_options,
    check_saved_states,
    lockstep_extras,
    patched,
    prng_key,
    reset_state,
    run_from_state,
    split,
    state_blob,
)
from lane import FULL  # noqa: E402

import rlpool  # noqa: E402

TASK = "Cleaner-v0"
SHARED = ("grid", "step_count")
EXTRAS = ("ratio_dirty_tiles", "num_dirty_tiles")
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIRTY, CLEAN, WALL = 0, 1, 2
AGENTS = 3
CELLS = 100  # the default 10 x 10 grid
# Offsets into the default task's state blob: the env's key, grid, agents_locations, action_mask, step_count.
LOCATIONS_AT = 8 + CELLS
MASK_AT = LOCATIONS_AT + 8 * AGENTS
STEP_COUNT_AT = MASK_AT + 4 * AGENTS


def ref(**kwargs: Any) -> Reference:
    """jumanji's Cleaner-v0 (``kwargs`` for jumanji.make)."""
    return Reference("Cleaner-v0", kwargs)


def encode(state: Any, env_key: Any = (0, 0)) -> bytes:
    """jumanji's Cleaner ``State`` as the env's state bytes: the env's key, then cleaner.cc's layout."""
    return state_blob(env_key, (state.grid, "i1"), (state.agents_locations, "<i4"), (state.action_mask, "u1"),
                      (state.step_count, "<i4"), (state.key, "key"))


def toward_dirt(grid: np.ndarray, start: tuple[int, int]) -> int | None:
    """The first move of a shortest path from ``start`` to the nearest dirty square (breadth first)."""
    rows, cols = grid.shape
    first: dict[tuple[int, int], int | None] = {start: None}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if grid[square] == DIRTY and first[square] is not None:
            return first[square]
        for a, (dr, dc) in enumerate(MOVES):
            nxt = (square[0] + dr, square[1] + dc)
            if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and grid[nxt] != WALL and nxt not in first:
                first[nxt] = a if first[square] is None else first[square]
                queue.append(nxt)
    return None


def clean_policy(p_any: float = 0.01) -> Any:
    """Per agent: 80% a step toward the nearest dirty square, else a random legal move; with probability
    ``p_any`` per env, one agent's move uniform over all four (a blocked one ends the episode)."""

    def policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
        actions = np.zeros(action_space.shape, np.int64)
        for i, masks in enumerate(obs["action_mask"]):
            grid = np.asarray(obs["grid"][i][0])
            for j, mask in enumerate(masks):
                legal = np.flatnonzero(mask)
                row, col = (int(v) for v in obs["agents_locations"][i][j])
                on_grid = 0 <= row < grid.shape[0] and 0 <= col < grid.shape[1]  # jumanji's mask may let it off
                move = toward_dirt(grid, (row, col)) if rng.random() < 0.8 and on_grid else None
                if move is None:
                    move = int(rng.choice(legal)) if len(legal) else int(rng.integers(4))
                actions[i, j] = move
            if rng.random() < p_any:
                actions[i, rng.integers(len(masks))] = rng.integers(4)
        return actions

    return policy


def handmade_state(reference: Reference, grid: np.ndarray, locations: list[tuple[int, int]], step_count: int = 0,
                   action_mask: np.ndarray | None = None) -> Any:
    """A jumanji State with this grid and these agents' squares, the action_mask jumanji computes unless given."""
    import jax.numpy as jnp

    state, _ = reference.reset(prng_key(1))
    grid = jnp.asarray(grid, jnp.int8)
    locations = jnp.asarray(locations, jnp.int32)
    if action_mask is None:
        action_mask = reference.env._compute_action_mask(grid, locations)
    return state.replace(grid=grid, agents_locations=locations, step_count=jnp.int32(step_count),
                         action_mask=jnp.asarray(action_mask, bool))


def open_grid(rows: int = 10, cols: int = 10) -> np.ndarray:
    """A grid with no walls, every square clean."""
    return np.full((rows, cols), CLEAN, np.int8)


def test_lockstep_whole_episodes() -> None:
    stats, seen = lockstep_extras(TASK, ref(), EXTRAS, seed=0, num_envs=4, steps=250, policy=clean_policy(0.02),
                                  shared=SHARED)
    assert stats.steps >= 900 and stats.episodes >= 12
    assert 0 in seen["num_dirty_tiles"]  # mazes cleaned, not only time limits and blocked moves


def test_reset_keys_give_jumanjis_instances() -> None:
    """The generator's mazes: the first and a later reset of 64 envs, each jumanji's (1,000 in the full lane)."""
    reference = ref()
    n = 1000 if FULL else 64
    pool = rlpool.make(TASK, num_envs=n, seed=40)
    try:
        for again in (False, True):
            obs, _ = pool.reset()
            for i in range(n):
                key = prng_key(40 + i)
                _, ts = reference.reset(split(key)[1] if again else key)
                assert np.array_equal(obs["grid"][i][0], np.asarray(ts.observation.grid)), (i, again)
                assert np.array_equal(obs["action_mask"][i], np.asarray(ts.observation.action_mask)), (i, again)
    finally:
        pool.close()


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def test_last_dirty_square_and_shared_squares() -> None:
    """Two agents onto the same square (cleaned once), then the last dirty square: a termination."""
    reference = ref()
    grid = open_grid()
    grid[2, 2] = grid[3, 3] = DIRTY
    grid[5, :4] = WALL
    state = handmade_state(reference, grid, [(2, 1), (1, 2), (3, 1)])
    assert run_from_state(TASK, reference, state, encode(state), [[1, 2, 1], [2, 0, 1], [0, 0, 0]],
                          shared=SHARED) == 2


def test_blocked_move_ends_the_episode() -> None:
    """One agent into a wall: it stays, the others move, the episode terminates."""
    reference = ref()
    grid = open_grid()
    grid[0, 1] = WALL
    grid[4:, :] = DIRTY
    state = handmade_state(reference, grid, [(0, 0), (3, 3), (3, 5)])
    assert run_from_state(TASK, reference, state, encode(state), [[1, 2, 2], [2, 2, 2]], shared=SHARED) == 1


def test_time_limit_is_a_termination() -> None:
    """From step 98, a legal move and back: the second ends the episode at jumanji's time_limit (100)."""
    reference = ref()
    state, _ = reference.reset(prng_key(3))
    state = state.replace(step_count=state.step_count + 98)
    move = int(np.flatnonzero(np.asarray(state.action_mask[0]))[0])
    actions = [[move] * AGENTS, [(move + 2) % 4] * AGENTS, [0] * AGENTS]
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 2


def test_an_action_mask_that_leaves_the_grid() -> None:
    """jumanji moves wherever the State's action_mask allows: off the grid, where a -1 row or column cleans the
    last row or column (JAX's scatter) and a square past the end cleans nothing; then back."""
    reference = ref()
    grid = np.zeros((10, 10), np.int8)
    state = handmade_state(reference, grid, [(0, 0), (9, 9), (5, 0)], action_mask=np.ones((3, 4), bool))
    assert run_from_state(TASK, reference, state, encode(state), [[0, 1, 3], [2, 3, 1], [1, 2, 1]],
                          shared=SHARED) == 3


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state, _ = reference.reset(prng_key(5))
    moves = [[int(np.flatnonzero(np.asarray(m))[0]) for m in state.action_mask]] * 3
    assert run_from_state(TASK, reference, state, encode(state), moves, shared=SHARED) == 3
    grid = np.asarray(state.grid).copy()
    square = int(np.flatnonzero(grid.reshape(-1) == DIRTY)[-1])
    grid.reshape(-1)[square] = CLEAN
    check_caught(TASK, reference, state, encode(state.replace(grid=grid)), moves, match="grid", shared=SHARED)
    check_caught(TASK, reference, state, encode(state.replace(step_count=state.step_count + 1)), moves,
                 match="step_count", shared=SHARED)


def test_bad_state_blobs_are_refused() -> None:
    good = reset_state(TASK, seed=0)
    check_refused_blobs(TASK, good, {
        "grid": patched(good, 8 + 17, b"\x03"),
        "agents_locations": patched(good, LOCATIONS_AT + 4, np.int32(11).tobytes()),
        "agents_locations is -2": patched(good, LOCATIONS_AT + 8, np.int32(-2).tobytes()),
        "action_mask": patched(good, MASK_AT + 5, b"\x02"),
        "step_count": patched(good, STEP_COUNT_AT, np.int32(-1).tobytes()),
        "key": good[:-1],
        "Cleaner state has": good + b"\0",
    })


def test_bad_options_are_refused() -> None:
    check_refused_options(TASK, {
        "num_rows": dict(num_rows=1),
        "num_agents": dict(num_agents=0),
        "time_limit": dict(time_limit=-1),
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats, seen = lockstep_extras(TASK, ref(), EXTRAS, seed=seed * 1000, num_envs=8, steps=400,
                                  policy=clean_policy(0.01), shared=SHARED)
    assert stats.episodes >= 20 and 0 in seen["num_dirty_tiles"]


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("rows", "cols", "agents", "time_limit", "penalty"),
                         [(2, 2, 1, 0, 0.5), (9, 4, 5, 30, 1.0), (12, 12, 3, 0, 0.1)])
def test_other_sizes(rows: int, cols: int, agents: int, time_limit: int, penalty: float) -> None:
    from jumanji.environments.routing.cleaner.generator import RandomGenerator

    reference = ref(generator=RandomGenerator(num_rows=rows, num_cols=cols, num_agents=agents),
                    time_limit=time_limit or None, penalty_per_timestep=penalty)
    stats, _ = lockstep_extras(TASK, reference, EXTRAS, seed=rows * 100 + cols, num_envs=4, steps=300,
                               policy=clean_policy(0.01), shared=SHARED, num_rows=rows, num_cols=cols,
                               num_agents=agents, time_limit=time_limit, penalty_per_timestep=penalty,
                               max_episode_steps=10**6)
    assert stats.episodes >= 4
