"""UTurn-v0/-v1 (and highway-env's spellings) against highway-env 1.12.1's u-turn-v0/-v1, from the same draws.

Parity: rlpool's env and highway-env's start each episode from the same generator words (the reference's
``np_random`` is a ``XoshiroGenerator``), so the six slow vehicles' positions and speeds (normal draws around
fixed values) and the first one's behaviour are the same; then the same random actions must give the same
time-to-collision grids, rewards, flags and info over whole episodes (10 steps).

Two references: highway-env with its scalar transcendental functions computed by the C library
(``highway_libm``), as the C++ computes them, must agree to 1e-9 (measured: exactly, over 100 episodes per id);
highway-env as it is (numpy's SIMD kernels, an ulp apart from the C library now and then) within 1e-5 (measured:
exactly too). Also: spaces and config against highway-env's, determinism across thread counts, saved states,
refused configurations. ``RLPOOL_FULL_REFERENCE=1`` runs more seeds and configurations.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import numpy as np
import pytest
from highway_libm import libm_numpy
from highway_reference import (
    Comparator,
    assert_restore_replays,
    assert_runs_equal,
    compare_step,
    import_highway_env,
    parse_state,
    reference,
    use_words,
)
from lane import FULL

import rlpool
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS

import_highway_env()

EXACT = 1e-9
TOL = 1e-5
IDS = ["UTurn-v0", "u-turn-v0", "UTurn-v1", "u-turn-v1"]
# (rlpool id, options): other observation types, vehicle classes, frequencies and reward settings.
VARIANTS = [
    ("UTurn-v0", {"observation_type": "Kinematics",
                  "other_vehicles_type": "highway_env.vehicle.behavior.DefensiveVehicle"}),
    ("UTurn-v1", {"reward_speed_low": 10.0, "reward_speed_high": 20.0, "normalize_reward": False,
                  "left_lane_reward": 0.3}),
    ("UTurn-v0", {"policy_frequency": 3, "duration": 4.0,
                  "other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle"}),
    ("UTurn-v1", {"observation_type": "TimeToCollision", "observation_horizon": 6, "action_type": "DiscreteMetaAction",
                  "action_target_speeds": [5, 10, 15, 20, 25]}),
    ("UTurn-v0", {"observation_type": "OccupancyGrid", "simulation_frequency": 10}),
]


def run_episode(task_id: str, seed: int, options: dict[str, Any] | None = None, libm: bool = True) -> Comparator:
    """One whole episode of rlpool and highway-env from the same words with the same random actions."""
    options = options or {}
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    ref = reference(HIGHWAY_ENV_IDS[task_id], options)
    space = env.single_action_space
    space.seed(seed)
    cmp = Comparator(EXACT if libm else TOL, f"{task_id} {options} seed={seed} {'libm' if libm else 'numpy'}")
    with libm_numpy() if libm else contextlib.nullcontext(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rl_obs, rl_info = env.reset()
        _, words, _, _ = parse_state(env.get_state(0))
        use_words(ref, words)
        ref_obs, ref_info = ref.reset()
        compare_step(cmp, 0, (rl_obs, None, None, None, rl_info), (ref_obs, None, None, None, ref_info), 0, True)
        for step in range(1, env.spec.max_episode_steps + 1):
            action = space.sample()
            rl = env.step(np.asarray(action)[None])
            compare_step(cmp, step, rl, ref.step(action), 0, False)
            if rl[2][0] or rl[3][0]:
                break
    env.close()
    return cmp


# --------------------------------------------------------------------------- registration, spaces, config


def test_ids_are_registered_as_highway_envs_scenario():
    for task_id in IDS:
        assert task_id in rlpool.list_all_envs()
        assert HIGHWAY_ENV_IDS[task_id] == "u-turn-" + task_id[-2:]
        assert rlpool.registry.task(task_id).env_type == "UTurnEnv"
        assert rlpool.make_spec(task_id).config["neighbour_vehicles_connected_lanes"] == task_id.endswith("v1")


@pytest.mark.parametrize("task_id", ["UTurn-v0", "UTurn-v1"])
def test_spaces_and_config_are_highway_envs(task_id):
    ref = reference(HIGHWAY_ENV_IDS[task_id])
    spec = rlpool.make_spec(task_id)
    assert spec.observation_space == ref.observation_space
    assert spec.observation_space.shape == (3, 3, 16)
    assert spec.action_space == ref.action_space
    c, config = ref.config, spec.config
    for key in ("duration", "collision_reward", "left_lane_reward", "high_speed_reward", "normalize_reward",
                "offroad_terminal", "simulation_frequency", "policy_frequency", "neighbour_vehicles_connected_lanes",
                "screen_width", "screen_height", "scaling", "other_vehicles_type"):
        assert config[key] == c[key], key
    assert [config["reward_speed_low"], config["reward_speed_high"]] == c["reward_speed_range"]
    assert config["observation_type"] == c["observation"]["type"] == "TimeToCollision"
    assert config["observation_horizon"] == c["observation"]["horizon"] == 16
    assert config["action_type"] == c["action"]["type"] == "DiscreteMetaAction"
    assert [float(v) for v in config["action_target_speeds"].split(",")] == c["action"]["target_speeds"]
    assert spec.max_episode_steps == c["duration"] == 10


# --------------------------------------------------------------------------- parity


@pytest.mark.parametrize("task_id", IDS)
def test_episodes_match_highway_env(task_id):
    worst = 0.0
    seeds = range(12) if FULL else range(3 if task_id[0].isupper() else 1)
    for seed in seeds:
        cmp = run_episode(task_id, 100 + seed)
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
    print(f"{task_id}: {len(seeds)} episodes, max |rlpool - highway-env (libm)| = {worst:.3g}")


@pytest.mark.parametrize("task_id", ["UTurn-v0", "UTurn-v1"])
def test_episodes_match_highway_env_with_numpy_math(task_id):
    worst = 0.0
    for seed in range(8 if FULL else 2):
        worst = max(worst, run_episode(task_id, 300 + seed, libm=False).max_error)
    print(f"{task_id}: max |rlpool - highway-env (numpy)| = {worst:.3g}")


@pytest.mark.parametrize(("task_id", "options"), VARIANTS if FULL else VARIANTS[:2])
def test_variants_match_highway_env(task_id, options):
    worst = 0.0
    for seed in range(3 if FULL else 1):
        worst = max(worst, run_episode(task_id, 200 + seed, options).max_error)
    print(f"{task_id} {options}: max error {worst:.3g}")


# --------------------------------------------------------------------------- determinism, saved states, bad input


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["speed"].copy()))
    return out


def test_same_results_on_any_thread_count():
    actions = np.random.default_rng(0).integers(0, 5, (25, 5))  # past the 10-step limit: autoresets too
    runs = []
    for threads in (1, 3):
        env = rlpool.make("UTurn-v1", num_envs=5, num_threads=threads, seed=4)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    assert_runs_equal(runs)


def test_restore_replays_identically():
    env = rlpool.make("UTurn-v0", num_envs=2, seed=4)
    env.reset()
    # (the engine's elapsed steps go on counting through set_state: 1 + 4 + 4 stays below the 10-step limit)
    _trajectory(env, np.full((1, 2), 4))  # slow down behind the vehicle ahead
    later = np.repeat(np.asarray([[4], [1], [4], [1]]), 2, axis=1)
    assert_restore_replays(env, _trajectory, later)


def test_configurations_highway_env_fails_on_are_refused():
    # TimeToCollision reads the ego MDPVehicle's target speeds: only DiscreteMetaAction makes one.
    with pytest.raises(ValueError, match="TimeToCollision"):
        rlpool.make("UTurn-v0", num_envs=1, action_type="ContinuousAction")
    with pytest.raises(ValueError, match="reward_speed"):
        rlpool.make("UTurn-v0", num_envs=1, reward_speed_low=24.0, reward_speed_high=8.0)
    with pytest.raises(ValueError, match="left_lane_reward"):
        rlpool.make("UTurn-v1", num_envs=1, left_lane_reward=float("inf"))
    # normalize_reward maps [collision_reward, high_speed_reward + left_lane_reward] to [0, 1].
    with pytest.raises(ValueError, match="must differ"):
        rlpool.make("UTurn-v0", num_envs=1, collision_reward=0.5)
