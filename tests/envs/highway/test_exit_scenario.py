"""Exit-v0/-v1 against highway-env 1.12.1's exit-v0/-v1, from the same draws.

Parity: rlpool's env and highway-env's start each episode from the same generator words. ExitEnv draws its
vehicles' lanes with ``np_random.choice(lanes, size=1, p=...)``, which ``XoshiroGenerator`` does not take:
``ChoiceGenerator`` adds it as numpy's Generator does it (one uniform double per pick, the index found in the
normalised cumulative probabilities with ``searchsorted(side="right")``), which is what rlpool's ExitEnv
draws. Then the same random actions must give the same ExitObservations, rewards, flags and info (speed,
crashed, action, ``rewards.<name>``, and ExitEnv's ``is_success``) over whole episodes (18 steps: highway-env
truncates at ``time >= duration``). Also: determinism across thread counts, state save/restore, refused
options. ``RLPOOL_FULL_REFERENCE=1`` runs more seeds and configurations.
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
IDS = [("Exit-v0", "exit-v0"), ("Exit-v1", "exit-v1")]
VARIANTS = [
    ("Exit-v0", "exit-v0", {"lanes_count": 3, "vehicles_count": 12, "vehicles_density": 1.0}),
    ("Exit-v1", "exit-v1", {"controlled_vehicles": 2, "normalize_reward": False, "right_lane_reward": 0.1}),
    ("Exit-v0", "exit-v0", {"other_vehicles_type": "highway_env.vehicle.behavior.DefensiveVehicle",
                            "policy_frequency": 2, "duration": 10.0}),
    # highway-env replaces its whole observation dict, rlpool keeps ExitEnv's other observation defaults: the
    # features and clip are given here so that both see the same.
    ("Exit-v1", "exit-v1", {"observation_type": "Kinematics", "observation_vehicles_count": 8,
                            "observation_features": ["presence", "x", "y", "vx", "vy", "cos_h", "sin_h"],
                            "observation_clip": False}),
    ("Exit-v0", "exit-v0", {"action_type": "ContinuousAction"}),
]


class ChoiceGenerator(XoshiroGenerator):
    """XoshiroGenerator with numpy Generator's ``choice(a, size, p=...)`` (with replacement)."""

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        if p is None:
            return super().choice(a, size)
        assert replace
        cdf = np.asarray(p, dtype=np.float64).cumsum()
        cdf /= cdf[-1]
        picks = cdf.searchsorted(self.random(size), side="right")
        population = np.arange(a) if np.ndim(a) == 0 else np.asarray(a)
        return population[picks]


def run_episode(task_id: str, highway_env_id: str, options: dict[str, Any], seed: int) -> Comparator:
    """One whole episode of rlpool and highway-env from the same words with the same random actions."""
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    ref = reference(highway_env_id, options)
    space = env.single_action_space
    space.seed(seed)
    cmp = Comparator(TOL, f"{task_id} {options} seed={seed}")
    rl_obs, rl_info = env.reset()
    _, words, _, _ = parse_state(env.get_state(0))
    ref._np_random = ChoiceGenerator(words)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, ref_info = ref.reset()
    compare_step(cmp, 0, (rl_obs, None, None, None, rl_info), (ref_obs, None, None, None, ref_info), 0, True)
    for step in range(1, env.spec.max_episode_steps + 1):
        action = space.sample()
        rl = env.step(np.asarray(action)[None])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ref.step(action)
        compare_step(cmp, step, rl, theirs, 0, False)
        cmp.equal(f"step {step} info['is_success']", rl[4]["is_success"][0], bool(theirs[4]["is_success"]))
        if rl[2][0] or rl[3][0]:
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
        worst = max(worst, run_episode(task_id, highway_env_id, options, 300 + seed).max_error)
    print(f"{task_id} {options}: max error {worst:.3g}")


def test_lane_draws_follow_the_probabilities():
    """The lanes drawn by rlpool (through ChoiceGenerator's numpy algorithm) have numpy's distribution."""
    gen = ChoiceGenerator((1, 2, 3, 4))
    lanes = np.arange(6)
    picks = np.asarray([gen.choice(lanes, size=1, p=lanes / lanes.sum())[0] for _ in range(6000)])
    counts = np.bincount(picks, minlength=6)
    assert counts[0] == 0
    expected = 6000 * lanes / lanes.sum()
    assert np.all(np.abs(counts[1:] - expected[1:]) < 5 * np.sqrt(expected[1:]))


def test_spaces_and_limit():
    env = rlpool.make("exit-v0", num_envs=1)
    assert env.single_observation_space.shape == (15, 7)
    assert env.single_action_space.n == 5
    assert env.spec.max_episode_steps == 18


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["speed"].copy(),
                    info["is_success"].copy()))
    return out


def test_same_results_on_any_thread_count():
    actions = np.random.default_rng(0).integers(0, 5, (30, 4))
    runs = []
    for threads in (1, 3):
        env = rlpool.make("Exit-v1", num_envs=4, num_threads=threads, seed=8)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    for k, (a, b) in enumerate(zip(*runs, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}"


def test_restore_replays_identically():
    env = rlpool.make("Exit-v0", num_envs=2, seed=3)
    env.reset()
    _trajectory(env, np.full((3, 2), 1))
    saved = env.get_state(0)
    later = np.repeat(np.asarray([[1], [3], [4], [1], [3], [1]]), 2, axis=1)  # no lane change: no crash
    first = _trajectory(env, later)
    assert not any(t[2][0] or t[3][0] for t in first)  # a reset would draw from the pool's generator
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = _trajectory(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True)), f"step {k}"
        assert all(np.array_equal(y[0], y[1]) for y in b), f"step {k}"
    assert env.get_state(0) == env.get_state(1)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="lanes_count"):
        rlpool.make("Exit-v0", num_envs=1, lanes_count=1)  # numpy refuses p = [nan]
    rlpool.make("Exit-v0", num_envs=1, lanes_count=1, vehicles_count=0).reset()
    with pytest.raises(ValueError, match="vehicles_density"):
        rlpool.make("Exit-v0", num_envs=1, vehicles_density=0.0)
    with pytest.raises(ValueError, match="goal_reward"):
        rlpool.make("Exit-v0", num_envs=1, goal_reward=float("nan"))
