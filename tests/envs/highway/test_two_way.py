"""TwoWay-v0 against highway-env 1.12.1's two-way-v0, from the same draws.

Parity: rlpool's env and highway-env's start each episode from the same generator words (the reference's
``np_random`` is a ``XoshiroGenerator``), so the five other vehicles' positions and speeds (normal draws) are
the same; then the same random actions must give the same time-to-collision grids, rewards, flags and info
over whole episodes (15 steps: gymnasium's registration limit, EnvPool's max_episode_steps). Also:
determinism across thread counts, state save/restore, refused configurations. ``RLPOOL_FULL_REFERENCE=1``
runs more seeds and configurations.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from highway_reference import Comparator, compare_step, import_highway_env, parse_state, reference
from lane import FULL
from xoshiro import XoshiroGenerator

import rlpool

import_highway_env()

TOL = 1e-5
# Other observation types, vehicle classes and frequencies (highway-env's config keys).
VARIANTS = [
    {"observation_type": "Kinematics"},
    {"other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle", "policy_frequency": 2},
    {"observation_type": "TimeToCollision", "observation_horizon": 8, "action_type": "DiscreteMetaAction",
     "action_target_speeds": [15, 20, 25, 30]},
    {"observation_type": "OccupancyGrid"},
]


def run_episode(options: dict[str, Any], seed: int) -> Comparator:
    """One whole episode (to termination or the 15-step limit) from the same words with the same actions."""
    env = rlpool.make("TwoWay-v0", num_envs=1, seed=seed, **options)
    ref = reference("two-way-v0", options)
    space = env.single_action_space
    space.seed(seed)
    cmp = Comparator(TOL, f"TwoWay-v0 {options} seed={seed}")
    rl_obs, rl_info = env.reset()
    _, words, _, _ = parse_state(env.get_state(0))
    ref._np_random = XoshiroGenerator(words)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, ref_info = ref.reset()
    compare_step(cmp, 0, (rl_obs, None, None, None, rl_info), (ref_obs, None, None, None, ref_info), 0, True)
    limit = env.spec.max_episode_steps
    for step in range(1, limit + 1):
        action = space.sample()
        rl = env.step(np.asarray(action)[None])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ref.step(action)
        if step == limit:  # gymnasium's TimeLimit truncates there (the env never truncates itself)
            theirs = (*theirs[:3], True, theirs[4])
        compare_step(cmp, step, rl, theirs, 0, False)
        if rl[2][0] or rl[3][0]:
            break
    env.close()
    return cmp


def test_same_episodes_as_highway_env():
    worst = 0.0
    for seed in range(16 if FULL else 6):
        cmp = run_episode({}, seed)
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
    print(f"TwoWay-v0: max error {worst:.3g}")


@pytest.mark.parametrize("options", VARIANTS if FULL else VARIANTS[:1])
def test_variants_same_as_highway_env(options):
    worst = 0.0
    for seed in range(3 if FULL else 2):
        worst = max(worst, run_episode(options, 200 + seed).max_error)
    print(f"TwoWay-v0 {options}: max error {worst:.3g}")


def test_spaces_and_limit():
    env = rlpool.make("two-way-v0", num_envs=1)
    assert env.single_observation_space.shape == (3, 3, 5)
    assert env.single_observation_space.dtype == np.float32
    assert env.single_action_space.n == 5
    assert env.spec.max_episode_steps == 15


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["speed"].copy()))
    return out


def test_same_results_on_any_thread_count():
    actions = np.random.default_rng(0).integers(0, 5, (40, 5))
    runs = []
    for threads in (1, 3):
        env = rlpool.make("TwoWay-v0", num_envs=5, num_threads=threads, seed=4)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    for k, (a, b) in enumerate(zip(*runs, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}"


def test_restore_replays_identically():
    env = rlpool.make("TwoWay-v0", num_envs=2, seed=4)
    env.reset()
    _trajectory(env, np.full((2, 2), 4))  # slow down behind the vehicles ahead
    saved = env.get_state(0)
    later = np.repeat(np.asarray([[4], [1], [4], [1], [1]]), 2, axis=1)
    first = _trajectory(env, later)
    assert not any(t[2][0] or t[3][0] for t in first)  # a reset would draw from the pool's generator
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = _trajectory(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True)), f"step {k}"
        assert all(np.array_equal(y[0], y[1]) for y in b), f"step {k}"
    assert env.get_state(0) == env.get_state(1)


def test_configurations_highway_env_fails_on_are_refused():
    # The rewards read the ego MDPVehicle's speed_index over (len(target_speeds) - 1).
    with pytest.raises(ValueError, match="DiscreteMetaAction"):
        rlpool.make("TwoWay-v0", num_envs=1, action_type="ContinuousAction", observation_type="Kinematics")
    with pytest.raises(ValueError, match="target_speeds"):
        rlpool.make("TwoWay-v0", num_envs=1, action_target_speeds="25.0")
    with pytest.raises(ValueError, match="left_lane_reward"):
        rlpool.make("TwoWay-v0", num_envs=1, left_lane_reward=float("inf"))
