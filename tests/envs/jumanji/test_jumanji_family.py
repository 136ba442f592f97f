"""What every Jumanji task shares: jumanji's instances from the same keys, determinism, state, bad actions.

Each env's own file compares whole episodes with jumanji; this one takes every task of registration.py:
its first observations from many reset keys bit for bit with jumanji's (the generator, drawn with JAX's PRNG
reproduced; 1,000 keys in the full lane, the second reset of the first 100), the same trajectories whatever
``num_threads``, a saved state that plays on as the original, and out-of-range actions refused with the pool
still usable.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from jumanji_reference import Reference, agents_obs, flatten, flatten_obs, prng_key, random_masked_actions, split
from lane import FULL

import rlpool
from rlpool.envs.jumanji.registration import TASKS

pytest.importorskip("jumanji")
from jumanji.environments.routing.sokoban.generator import ToyGenerator  # noqa: E402

TASK_OPTIONS: dict[str, dict[str, Any]] = {"Sokoban-v0": {"generator": "toy"}}
"""Options a task is made with here: Sokoban's default Boxoban levels are not on this machine (its own test
file covers them from a level file); jumanji's ToyGenerator is the same levels."""

TASK_REFERENCES: dict[str, tuple[str, dict[str, Any]]] = {
    "TSP-v1": ("TSP-v1", {}),
    "CVRP-v1": ("CVRP-v1", {}),
    "MultiCVRP-v0": ("MultiCVRP-v0", {}),
    "Knapsack-v1": ("Knapsack-v1", {}),
    "Snake-v1": ("Snake-v1", {}),
    "RubiksCube-v0": ("RubiksCube-v0", {}),
    "RubiksCube-partly-scrambled-v0": ("RubiksCube-partly-scrambled-v0", {}),
    "Game2048-v1": ("Game2048-v1", {}),
    "Minesweeper-v0": ("Minesweeper-v0", {}),
    "Sudoku-v0": ("Sudoku-v0", {}),
    "Sudoku-very-easy-v0": ("Sudoku-very-easy-v0", {}),
    "GraphColoring-v1": ("GraphColoring-v1", {}),
    "SlidingTilePuzzle-v0": ("SlidingTilePuzzle-v0", {}),
    "BinPack-v2": ("BinPack-v2", {}),
    "Maze-v0": ("Maze-v0", {}),
    "Tetris-v0": ("Tetris-v0", {}),
    "FlatPack-v0": ("FlatPack-v0", {}),
    "JobShop-v0": ("JobShop-v0", {}),
    "PacMan-v1": ("PacMan-v1", {}),
    "SearchAndRescue-v0": ("SearchAndRescue-v0", {}),
    "LevelBasedForaging-v0": ("LevelBasedForaging-v0", {}),
    "RobotWarehouse-v0": ("RobotWarehouse-v0", {}),
    "Cleaner-v0": ("Cleaner-v0", {}),
    "Connector-v3": ("Connector-v3", {}),
    "MMST-v0": ("MMST-v0", {}),
    "Sokoban-v0": ("Sokoban-v0", {"generator": ToyGenerator()}),
}
"""Task id -> (jumanji's id, the kwargs of jumanji.make that make it that task)."""


def test_every_task_has_a_reference() -> None:
    assert set(TASK_REFERENCES) == set(TASKS)


def _trajectory(task_id: str, steps: int, **options: Any) -> list[np.ndarray]:
    pool = rlpool.make(task_id, num_envs=4, seed=5, **TASK_OPTIONS.get(task_id, {}), **options)
    rng = np.random.default_rng(0)
    out = []
    try:
        obs, _ = pool.reset()
        for _ in range(steps):
            obs, reward, terminated, truncated, _ = pool.step(random_masked_actions(obs, rng, pool.action_space))
            out += [np.concatenate([np.asarray(v, np.float64).reshape(4, -1) for v in flatten_rows(obs)], axis=1),
                    reward, terminated, truncated]
    finally:
        pool.close()
    return out


def flatten_rows(obs: Any) -> list[Any]:
    """Every entry of a batch observation (nested dicts opened), in order."""
    return [v for value in obs.values() for v in (value.values() if isinstance(value, dict) else [value])]


def shared_fields(pool: Any, ours: dict[str, np.ndarray], theirs: dict[str, np.ndarray]) -> tuple[str, ...]:
    """A multi-agent task's fields that jumanji gives once and rlpool repeats per agent: shape (A, *jumanji's)."""
    agents = pool.spec.arrays.num_agents
    return tuple(name for name, value in theirs.items()
                 if agents and ours[name].shape == (agents, *np.shape(value)))


@pytest.mark.skipif(not FULL, reason="the default lane's reset keys are each env's own file's (its lockstep runs)")
@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_reset_keys_give_jumanjis_instances(task_id: str) -> None:
    """The first observation of env i of a pool seeded s is jumanji's reset(PRNGKey(s + i)) (1,000 envs); the
    second reset's, of the first 100 envs, that of split's second key."""
    jumanji_id, kwargs = TASK_REFERENCES[task_id]
    ref = Reference(jumanji_id, kwargs)
    n, n_again = 1000, 100
    pool = rlpool.make(task_id, num_envs=n, seed=123, **TASK_OPTIONS.get(task_id, {}))
    try:
        obs, _ = pool.reset()
        again, _ = pool.reset()
        for i in range(n):
            key = prng_key(123 + i)
            theirs = flatten(ref.reset(key)[1].observation)
            ours = agents_obs(obs, i, shared_fields(pool, flatten_obs(obs, i), theirs))
            for name, value in theirs.items():
                assert np.array_equal(ours[name], value), (task_id, i, name)
            if i >= n_again:
                continue
            theirs = flatten(ref.reset(split(key)[1])[1].observation)
            ours = agents_obs(again, i, shared_fields(pool, flatten_obs(again, i), theirs))
            for name, value in theirs.items():
                assert np.array_equal(ours[name], value), (task_id, i, "second reset", name)
    finally:
        pool.close()


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_same_trajectories_whatever_the_threads(task_id: str) -> None:
    one = _trajectory(task_id, 60, num_threads=1)
    two = _trajectory(task_id, 60, num_threads=2)
    assert len(one) == len(two)
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_saved_state_plays_on_the_same(task_id: str) -> None:
    pool = rlpool.make(task_id, num_envs=2, seed=9, **TASK_OPTIONS.get(task_id, {}))
    rng = np.random.default_rng(1)
    try:
        obs, _ = pool.reset()
        for _ in range(3):
            obs, *_ = pool.step(random_masked_actions(obs, rng, pool.action_space))
        blob = pool.get_state(0)
        pool.set_state(1, blob)
        assert pool.get_state(1) == blob
        for _ in range(5):
            action = random_masked_actions(obs, rng, pool.action_space)
            action[1] = action[0]
            obs, reward, terminated, truncated, _ = pool.step(action)
            for value in flatten_rows(obs):
                assert np.array_equal(value[0], value[1])
            for flags in (reward, terminated, truncated):  # per agent in a multi-agent task
                assert np.array_equal(flags[0], flags[1])
        with pytest.raises(ValueError):
            pool.set_state(0, blob[:-1])
        with pytest.raises(ValueError):
            pool.set_state(0, b"")
        assert pool.get_state(1) is not None
    finally:
        pool.close()


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_bad_actions_are_refused(task_id: str) -> None:
    pool = rlpool.make(task_id, num_envs=2, seed=0, **TASK_OPTIONS.get(task_id, {}))
    try:
        pool.reset()
        space = pool.single_action_space
        if np.issubdtype(space.dtype, np.floating):  # a continuous action: clipped as jumanji does; NaN refused
            with pytest.raises(ValueError, match="not finite"):
                pool.step(np.full((2, *space.shape), np.nan, space.dtype))
            pool.step(np.zeros((2, *space.shape), space.dtype))  # still usable
            return
        nvec = np.asarray(getattr(space, "nvec", [getattr(space, "n", 0)]))
        bad = np.zeros((2, *space.shape), np.int64)
        bad.reshape(2, -1)[1, -1] = int(nvec.reshape(-1)[-1])
        with pytest.raises(ValueError, match="out of range"):
            pool.step(bad)
        with pytest.raises(ValueError, match="out of range"):
            pool.step(-np.ones((2, *space.shape), np.int64))
        pool.step(np.zeros((2, *space.shape), np.int64))  # still usable
    finally:
        pool.close()
