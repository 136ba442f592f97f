"""Merge-v0/-v1 and MergeGeneric-v0/-v1 against highway-env 1.12.1's merge scenarios, from the same draws.

Parity: rlpool's env and highway-env's start each episode from the same generator words (the reference's
``np_random`` is a ``XoshiroGenerator``), so the traffic placed at reset is the same; then the same random
actions must give the same observations, rewards, flags and info (speed, crashed, action, every
``rewards.<name>``) over whole episodes. highway-env's reset info samples the action space with a generator
of its own (its ``lane_change_reward`` is ``action in [0, 2]`` of that sample); the reference's sample is made
IDLE here, which is what rlpool reports at reset (no lane change). Also: determinism across thread counts,
state save/restore, bad options. ``RLPOOL_FULL_REFERENCE=1`` runs more seeds and configurations.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from highway_reference import (
    Comparator,
    EpisodeMismatch,
    compare_step,
    import_highway_env,
    parse_state,
    reference,
)
from lane import FULL
from xoshiro import XoshiroGenerator

import rlpool

import_highway_env()

TOL = 1e-5
IDS = [("Merge-v0", "merge-v0"), ("Merge-v1", "merge-v1"), ("MergeGeneric-v0", "merge-generic-v0"),
       ("MergeGeneric-v1", "merge-generic-v1")]
# (rlpool id, highway-env id, options): other layouts, vehicle classes and action/observation types.
VARIANTS = [
    ("MergeGeneric-v0", "merge-generic-v0", {"lanes_count": 3, "vehicles_count": 8, "before_merge_length": 100.0,
                                             "converge_merge_length": 60.0, "parallel_merge_length": 120.0,
                                             "after_merge_length": 200.0}),
    ("Merge-v0", "merge-v0", {"other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle"}),
    ("MergeGeneric-v1", "merge-generic-v1", {"vehicles_count": 6,
                                             "other_vehicles_type": "highway_env.vehicle.behavior.AggressiveVehicle"}),
    ("Merge-v0", "merge-v0", {"action_type": "DiscreteAction", "action_actions_per_axis": 3}),
    ("Merge-v1", "merge-v1", {"action_type": "ContinuousAction", "action_lateral": False}),
    ("Merge-v0", "merge-v0", {"observation_type": "OccupancyGrid", "policy_frequency": 3}),
    ("MergeGeneric-v0", "merge-generic-v0", {"observation_type": "TimeToCollision", "lanes_count": 4,
                                             "vehicles_count": 10}),
]


def idle_reset_sample(ref: Any) -> None:
    """highway-env's reset info samples a fresh action space: make that sample IDLE (1), as rlpool reports."""
    define_spaces = ref.define_spaces

    def define_and_fix() -> None:
        define_spaces()
        ref.action_space.sample = lambda mask=None: 1

    ref.define_spaces = define_and_fix


def run_episode(task_id: str, highway_env_id: str, options: dict[str, Any], seed: int) -> Comparator:
    """One whole episode of rlpool and highway-env from the same words with the same random actions."""
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    ref = reference(highway_env_id, options)
    idle_reset_sample(ref)
    space = env.single_action_space
    space.seed(seed)
    cmp = Comparator(TOL, f"{task_id} {options} seed={seed}")
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
        if step == limit:  # gymnasium's TimeLimit (EnvPool's max_episode_steps) truncates there
            theirs = (*theirs[:3], True, theirs[4])
        compare_step(cmp, step, rl, theirs, 0, False)
        if rl[2][0] or rl[3][0]:
            assert rl[2][0] or step == limit  # merges never truncate themselves: only the step limit does
            break
    env.close()
    return cmp


@pytest.mark.parametrize("task_id, highway_env_id", IDS)
def test_same_episodes_as_highway_env(task_id, highway_env_id):
    worst = 0.0
    for seed in range(5 if FULL else 2):
        cmp = run_episode(task_id, highway_env_id, {}, seed)
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
    print(f"{task_id}: max error {worst:.3g}")


@pytest.mark.parametrize("task_id, highway_env_id, options", VARIANTS if FULL else VARIANTS[:1])
def test_variants_same_as_highway_env(task_id, highway_env_id, options):
    worst = 0.0
    for seed in range(2 if FULL else 1):
        worst = max(worst, run_episode(task_id, highway_env_id, options, 100 + seed).max_error)
    print(f"{task_id} {options}: max error {worst:.3g}")


def test_a_different_reward_weight_is_caught():
    """The comparison sees the rewards: highway-env with another merging_speed_reward weight differs."""
    env = rlpool.make("Merge-v0", num_envs=1, seed=5)
    ref = reference("merge-v0", {"merging_speed_reward": -0.4})
    idle_reset_sample(ref)
    env.reset()
    _, words, _, _ = parse_state(env.get_state(0))
    ref._np_random = XoshiroGenerator(words)
    ref.reset()
    cmp = Comparator(TOL, "perturbed")
    with pytest.raises(EpisodeMismatch, match="reward"):
        for step in range(1, 30):
            compare_step(cmp, step, env.step(np.asarray([1])), ref.step(1), 0, False)


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["speed"].copy(),
                    info["merging_speed_reward"].copy()))
    return out


@pytest.mark.parametrize("task_id", ["Merge-v1", "MergeGeneric-v0"])
def test_same_results_on_any_thread_count(task_id):
    actions = np.random.default_rng(0).integers(0, 5, (40, 6))
    runs = []
    for threads in (1, 3):
        env = rlpool.make(task_id, num_envs=6, num_threads=threads, seed=11)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    for k, (a, b) in enumerate(zip(*runs, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}"


@pytest.mark.parametrize("task_id", ["Merge-v0", "MergeGeneric-v1"])
def test_restore_replays_identically(task_id):
    env = rlpool.make(task_id, num_envs=2, seed=3)
    env.reset()
    rng = np.random.default_rng(1)
    _trajectory(env, np.full((3, 2), 1))
    saved = env.get_state(0)
    later = np.repeat(rng.choice([1, 3, 4], (6, 1)), 2, axis=1)  # no lane change: the episode goes on
    first = _trajectory(env, later)
    assert not any(t[2][0] or t[3][0] for t in first)  # a reset would draw from the pool's generator
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = _trajectory(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        # env 0 goes on as it did from the saved state; env 1, given the same state, goes the same way.
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True)), f"step {k}"
        assert all(np.array_equal(y[0], y[1]) for y in b), f"step {k}"
    assert env.get_state(0) == env.get_state(1)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="after_merge_length"):
        rlpool.make("MergeGeneric-v0", num_envs=1, after_merge_length=80.0)
    with pytest.raises(ValueError, match="before_merge_length"):
        rlpool.make("MergeGeneric-v0", num_envs=1, before_merge_length=0.0)
    with pytest.raises(ValueError, match="merging_speed_reward"):
        rlpool.make("Merge-v0", num_envs=1, merging_speed_reward=float("nan"))
    with pytest.raises(ValueError, match="reward_speed"):
        rlpool.make("Merge-v0", num_envs=1, reward_speed_low=30.0, reward_speed_high=20.0)
    with pytest.raises(ValueError, match="unknown option"):
        rlpool.make("Merge-v0", num_envs=1, lanes_count=3)  # MergeEnv's road has no such option
