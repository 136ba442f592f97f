"""Connector-v3 (src/rlpool/envs/jumanji/connector.cc) beside jumanji 1.1.2's Connector, step by step, bit for bit.

A multi-agent task: every observation entry has the agent axis first, ``grid`` and ``step_count`` repeated on
every agent's row (compared as one copy), one reward per agent. The default generator's random walks (JAX's
PRNG, and XLA's float32 exp in their softmax) from many reset keys; whole episodes under a policy whose agents
mostly walk the shortest free path to their targets (so they connect, get blocked, or reach the time limit),
now and then choosing a move their mask refuses (a no-op), with ``info``'s num_connections, ratio_connections
and total_path_length beside jumanji's extras; hand-made states (a collision, where the lower id is put back;
connections; an action_mask that lets agents off the grid or onto a path); a planted difference that the
comparison catches; bad state blobs refused naming the field; other sizes and generator limits in the full lane.
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
    flatten,
    flatten_obs,
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

TASK = "Connector-v3"
SHARED = ("grid", "step_count")
EXTRAS = ("num_connections", "ratio_connections", "total_path_length")
MOVES = ((0, 0), (-1, 0), (0, 1), (1, 0), (0, -1))  # no-op, up, right, down, left
AGENTS = 10
CELLS = 100  # the default 10 x 10 grid
# Offsets into the default task's state blob: the env's key, grid, step_count, agents (id, start, target,
# position), the State's key, action_mask.
STEP_COUNT_AT = 8 + 4 * CELLS
IDS_AT = STEP_COUNT_AT + 4
START_AT = IDS_AT + 4 * AGENTS
TARGET_AT = START_AT + 8 * AGENTS
POSITION_AT = TARGET_AT + 8 * AGENTS
MASK_AT = POSITION_AT + 8 * AGENTS + 8


def ref(grid_size: int | None = None, num_agents: int | None = None, max_steps: int | None = None,
        **kwargs: Any) -> Reference:
    """jumanji's Connector-v3; a RandomWalkGenerator of these sizes where given (``kwargs`` for jumanji.make)."""
    if grid_size is not None:
        from jumanji.environments.routing.connector.generator import RandomWalkGenerator

        kwargs["generator"] = RandomWalkGenerator(grid_size=grid_size, num_agents=num_agents, max_steps=max_steps)
    return Reference("Connector-v3", kwargs)


def encode(state: Any, env_key: Any = (0, 0)) -> bytes:
    """jumanji's Connector ``State`` as the env's state bytes: the env's key, then connector.cc's layout."""
    agents = state.agents
    return state_blob(env_key, (state.grid, "<i4"), (state.step_count, "<i4"), (agents.id, "<i4"),
                      (agents.start, "<i4"), (agents.target, "<i4"), (agents.position, "<i4"), (state.key, "key"),
                      (state.action_mask, "u1"))


def toward_target(grid: np.ndarray, agent: int) -> int | None:
    """The first move of a shortest path for ``agent`` from its square to its target over empty squares."""
    here = np.argwhere(grid == 2 + 3 * agent)
    goal = np.argwhere(grid == 3 + 3 * agent)
    if len(here) != 1 or len(goal) != 1:
        return None
    start, target = tuple(int(v) for v in here[0]), tuple(int(v) for v in goal[0])
    n = grid.shape[0]
    first: dict[tuple[int, int], int | None] = {start: None}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == target:
            return first[square]
        for a, (dr, dc) in enumerate(MOVES[1:], start=1):
            nxt = (square[0] + dr, square[1] + dc)
            if (0 <= nxt[0] < n and 0 <= nxt[1] < n and nxt not in first
                    and (grid[nxt] == 0 or nxt == target)):
                first[nxt] = a if first[square] is None else first[square]
                queue.append(nxt)
    return None


def connect_policy(p_seek: float = 0.6, p_any: float = 0.03, p_idle: float = 0.8) -> Any:
    """Per agent: with ``p_seek`` a step along its shortest free path to its target, with ``p_any`` any action
    (often one its mask refuses: a no-op), else a random legal one; but env 0's agents idle (no-op) with
    ``p_idle``, so that its episodes run into the time limit."""

    def policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
        actions = np.zeros(action_space.shape, np.int64)
        for i, masks in enumerate(obs["action_mask"]):
            grid = np.asarray(obs["grid"][i][0])
            for j, mask in enumerate(masks):
                if i == 0 and rng.random() < p_idle:
                    continue
                u = rng.random()
                move = toward_target(grid, j) if u < p_seek else None
                if move is None:
                    legal = np.flatnonzero(mask)
                    move = int(rng.integers(5)) if u > 1 - p_any else int(rng.choice(legal))
                actions[i, j] = move
        return actions

    return policy


def handmade_state(reference: Reference, grid_size: int, positions: list[tuple[int, int]],
                   targets: list[tuple[int, int]], step_count: int = 0, action_mask: np.ndarray | None = None,
                   paths: list[tuple[int, int, int]] = ()) -> Any:
    """A jumanji State: each agent on its square (its start too) aiming at its target, ``paths`` squares
    ``(row, col, agent)`` marked as that agent's path; the action_mask jumanji computes unless given."""
    import jax
    import jax.numpy as jnp
    from jumanji.environments.routing.connector.types import Agent, State
    from jumanji.environments.routing.connector.utils import get_action_masks

    grid = np.zeros((grid_size, grid_size), np.int32)
    for i, ((r, c), (tr, tc)) in enumerate(zip(positions, targets, strict=True)):
        grid[r, c] = 2 + 3 * i
        grid[tr, tc] = 3 + 3 * i
    for r, c, i in paths:
        grid[r, c] = 1 + 3 * i
    agents = Agent(id=jnp.arange(len(positions), dtype=jnp.int32), start=jnp.asarray(positions, jnp.int32),
                   target=jnp.asarray(targets, jnp.int32), position=jnp.asarray(positions, jnp.int32))
    grid = jnp.asarray(grid)
    if action_mask is None:
        action_mask = get_action_masks(agents, grid)
    return State(grid=grid, step_count=jnp.int32(step_count), agents=agents, key=jax.random.PRNGKey(3),
                 action_mask=jnp.asarray(action_mask, bool))


SMALL = {"grid_size": 5, "num_agents": 3}


def test_reset_keys_give_jumanjis_instances() -> None:
    """The generator's random walks: the first and a later reset of 64 envs, each jumanji's."""
    reference = ref()
    pool = rlpool.make(TASK, num_envs=64, seed=40)
    try:
        for again in (False, True):
            obs, _ = pool.reset()
            for i in range(64):
                key = prng_key(40 + i)
                _, ts = reference.reset(split(key)[1] if again else key)
                theirs, ours = flatten(ts.observation), flatten_obs(obs, i)
                assert np.array_equal(ours["grid"][0], theirs["grid"]), (i, again)
                assert np.array_equal(ours["action_mask"], theirs["action_mask"]), (i, again)
    finally:
        pool.close()


def test_lockstep_whole_episodes() -> None:
    stats, seen = lockstep_extras(TASK, ref(), EXTRAS, seed=0, num_envs=4, steps=150, policy=connect_policy(),
                                  shared=SHARED)
    assert stats.steps >= 500 and stats.episodes >= 10
    assert max(seen["num_connections"]) >= 5  # agents connect
    assert 0 < stats.truncations < stats.episodes  # time limits and ends of their own


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def test_collision_and_connections() -> None:
    """Two agents onto one square (the lower id stays), connections (reward 1 - 0.03, then 0), all connected."""
    reference = ref(**SMALL)
    state = handmade_state(reference, 5, [(2, 1), (2, 3), (4, 4)], [(4, 1), (0, 3), (3, 4)])
    actions = [[2, 4, 1], [3, 1, 0], [3, 2, 0], [0, 1, 3]]
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED, **SMALL) == 4


def test_time_limit_is_a_truncation() -> None:
    """From step 48, two no-op steps: the second is truncated at jumanji's time_limit (50)."""
    reference = ref()
    state, _ = reference.reset(prng_key(2))
    state = state.replace(step_count=state.step_count + 48)
    assert run_from_state(TASK, reference, state, encode(state), [[0] * AGENTS] * 3, shared=SHARED) == 2


def test_an_action_mask_that_leaves_the_grid() -> None:
    """jumanji moves wherever the State's action_mask allows: off the grid (a -1 row writes the last row, past
    the end writes nothing) and onto a path square; then the agents are blocked."""
    reference = ref(**SMALL)
    state = handmade_state(reference, 5, [(0, 0), (2, 4), (2, 2)], [(3, 0), (0, 4), (4, 2)],
                           action_mask=np.ones((3, 5), bool), paths=[(1, 2, 0)])
    actions = [[1, 2, 1], [3, 4, 3], [2, 1, 2], [1, 1, 1]]
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED, **SMALL) >= 2


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state, _ = reference.reset(prng_key(5))
    actions = [[0] * AGENTS] * 2
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 2
    grid = np.asarray(state.grid).copy()
    grid.reshape(-1)[int(np.flatnonzero(grid.reshape(-1) == 0)[0])] = 1
    check_caught(TASK, reference, state, encode(state.replace(grid=grid)), actions, match="grid", shared=SHARED)
    # An agent aiming at another square than the grid shows: its action_mask tells after the first step.
    target = np.asarray(state.agents.target).copy()
    target[0] = np.asarray(state.agents.position)[0]
    moved = state.replace(agents=state.agents.replace(target=target))
    check_caught(TASK, reference, state, encode(moved), actions, match="action_mask", shared=SHARED)


def test_bad_state_blobs_are_refused() -> None:
    good = reset_state(TASK, seed=0)
    check_refused_blobs(TASK, good, {
        "grid": patched(good, 8 + 4 * 17, np.int32(31).tobytes()),
        "step_count": patched(good, STEP_COUNT_AT, np.int32(-1).tobytes()),
        "agents.id": patched(good, IDS_AT + 4, np.int32(10).tobytes()),
        "agents.start": patched(good, START_AT, np.int32(-1).tobytes()),
        "agents.target": patched(good, TARGET_AT + 4, np.int32(10).tobytes()),
        "agents.position": patched(good, POSITION_AT + 8, np.int32(11).tobytes()),
        "action_mask": patched(good, MASK_AT + 3, b"\x02"),
        "ends before its action_mask": good[:-1],
        "Connector state has": good + b"\0",
    })


def test_bad_options_are_refused() -> None:
    check_refused_options(TASK, {
        "grid_size": dict(grid_size=1),
        "num_agents": dict(grid_size=4, num_agents=9),
        "time_limit": dict(time_limit=0),
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats, _ = lockstep_extras(TASK, ref(), EXTRAS, seed=seed * 1000, num_envs=8, steps=300,
                               policy=connect_policy(), shared=SHARED)
    assert stats.episodes >= 30 and stats.truncations > 0


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("grid_size", "num_agents", "time_limit", "max_steps"),
                         [(2, 1, 50, 0), (8, 5, 30, 4), (20, 4, 80, 40)])
def test_other_sizes(grid_size: int, num_agents: int, time_limit: int, max_steps: int) -> None:
    reference = ref(grid_size, num_agents, max_steps or None, time_limit=time_limit)
    stats, _ = lockstep_extras(TASK, reference, EXTRAS, seed=grid_size * 100 + num_agents, num_envs=4, steps=200,
                               policy=connect_policy(), shared=SHARED, grid_size=grid_size, num_agents=num_agents,
                               time_limit=time_limit, max_steps=max_steps, max_episode_steps=10**6)
    assert stats.episodes >= 4


@pytest.mark.skipif(not FULL, reason="full lane")
def test_many_reset_keys() -> None:
    """1,000 reset keys of the default generator, bit for bit (grid, action_mask)."""
    reference = ref()
    pool = rlpool.make(TASK, num_envs=1000, seed=77)
    try:
        obs, _ = pool.reset()
        for i in range(1000):
            _, ts = reference.reset(prng_key(77 + i))
            assert np.array_equal(obs["grid"][i][0], np.asarray(ts.observation.grid)), i
            assert np.array_equal(obs["action_mask"][i], np.asarray(ts.observation.action_mask)), i
    finally:
        pool.close()
