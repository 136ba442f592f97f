"""Roundabout-v0/-v1 and RoundaboutGeneric-v0/-v1 (and highway-env's spellings) against highway-env 1.12.1.

Parity: rlpool's env and highway-env's start each episode from the same generator words (the reference's
``np_random`` is a ``XoshiroGenerator``), so the vehicles placed at reset (normal draws around fixed places, the
generic variant's random spawn points and destinations) are the same; then the same random actions must give the
same observations, rewards, flags and info (speed, crashed, action, every reward term) over whole episodes.

Two references: highway-env with its scalar transcendental functions computed by the C library
(``highway_libm``), as the C++ computes them, must agree to 1e-9 (measured: exactly, over 100 episodes per id);
highway-env as it is, whose numpy SIMD kernels differ from the C library by an ulp now and then, within 1e-5
(measured: at most 3.5e-7 for Roundabout-v0 and 9.5e-6 for RoundaboutGeneric-v0 over 100 episodes each, where an
ulp grows in the IDM vehicles' reactions; the generic variant is compared that way only under
``RLPOOL_FULL_REFERENCE=1``).

highway-env's reset info evaluates the rewards with a sample of the action space from a generator of its own
(its ``lane_change_reward`` is ``action in [0, 2]`` of that sample); rlpool's reset has taken no action and
reports no lane change, so the reference's sample is made IDLE. Also: spaces and config against highway-env's,
the time limit, determinism across thread counts, saved states, refused configurations.
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
IDS = ["Roundabout-v0", "roundabout-v0", "Roundabout-v1", "roundabout-v1", "RoundaboutGeneric-v0",
       "roundabout-generic-v0", "RoundaboutGeneric-v1", "roundabout-generic-v1"]
# (rlpool id, options): other vehicle classes, destinations, frequencies, layouts, observation and action types.
VARIANTS = [
    ("Roundabout-v0", {"other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle"}),
    ("RoundaboutGeneric-v1", {"roundabout_lanes": 3, "roundabout_radius": 30.0, "vehicles_count": 12}),
    ("Roundabout-v1", {"incoming_vehicle_destination": 2, "policy_frequency": 2, "normalize_reward": False}),
    ("Roundabout-v0", {"observation_type": "TimeToCollision", "observation_horizon": 8}),
    ("Roundabout-v0", {"action_type": "ContinuousAction", "action_longitudinal": False, "action_lateral": True}),
    ("Roundabout-v1", {"action_type": "DiscreteAction", "action_longitudinal": True, "action_lateral": False}),
    ("RoundaboutGeneric-v0", {"roundabout_lanes": 1, "incoming_vehicle_destination": 7, "vehicles_count": 8,
                              "other_vehicles_type": "highway_env.vehicle.behavior.AggressiveVehicle"}),
    ("RoundaboutGeneric-v0", {"vehicles_count": 0, "roundabout_radius": 12.0, "duration": 8.0}),
]


def no_action_at_reset(ref: Any) -> None:
    """Make the action space sample of highway-env's reset info an action that is no lane change (IDLE)."""
    define_spaces = ref.define_spaces

    def define_and_fix() -> None:
        define_spaces()
        space = ref.action_space
        value = 1 if hasattr(space, "n") else np.full(space.shape, 0.5, space.dtype)
        space.sample = lambda mask=None: value

    ref.define_spaces = define_and_fix


def run_episode(task_id: str, seed: int, options: dict[str, Any] | None = None, libm: bool = True) -> Comparator:
    """One whole episode of rlpool and highway-env from the same words with the same random actions."""
    options = options or {}
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    ref = reference(HIGHWAY_ENV_IDS[task_id], options)
    no_action_at_reset(ref)
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


def test_ids_are_registered_as_highway_envs_scenarios():
    for task_id in IDS:
        assert task_id in rlpool.list_all_envs()
        prefix = "roundabout-generic-" if "eneric" in task_id else "roundabout-"
        assert HIGHWAY_ENV_IDS[task_id] == prefix + task_id[-2:]
        assert rlpool.registry.task(task_id).env_type == ("RoundaboutGenericEnv" if "eneric" in task_id
                                                          else "RoundaboutEnv")
    for task_id in IDS:
        assert rlpool.make_spec(task_id).config["neighbour_vehicles_connected_lanes"] == task_id.endswith("v1")


@pytest.mark.parametrize("task_id", IDS[::2])
def test_spaces_and_config_are_highway_envs(task_id):
    ref = reference(HIGHWAY_ENV_IDS[task_id])
    spec = rlpool.make_spec(task_id)
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space
    c, config = ref.config, spec.config
    keys = ["duration", "collision_reward", "high_speed_reward", "right_lane_reward", "lane_change_reward",
            "normalize_reward", "simulation_frequency", "policy_frequency",
            "neighbour_vehicles_connected_lanes", "screen_width", "screen_height", "scaling", "other_vehicles_type"]
    if "eneric" in task_id:
        keys += ["roundabout_radius", "roundabout_lanes", "vehicles_count"]
    for key in keys:
        assert config[key] == c[key], key
    assert config["incoming_vehicle_destination"] == -1 and c["incoming_vehicle_destination"] is None
    assert config["controlled_vehicles"] == 1 and "controlled_vehicles" not in c  # one ego vehicle
    assert (config["centering_position_x"], config["centering_position_y"]) == tuple(c["centering_position"])
    observation, action = c["observation"], c["action"]
    assert config["observation_type"] == observation["type"] == "Kinematics"
    assert config["observation_absolute"] is observation["absolute"] is True
    assert config["observation_features_range"] == ",".join(
        f"{k}:{lo}:{hi}" for k, (lo, hi) in observation["features_range"].items())
    assert config["action_type"] == action["type"] == "DiscreteMetaAction"
    assert [float(v) for v in config["action_target_speeds"].split(",")] == action["target_speeds"]
    assert spec.max_episode_steps == c["duration"]


# --------------------------------------------------------------------------- parity


@pytest.mark.parametrize("task_id", IDS if FULL else IDS[::2])  # the lower-case spellings are the same tasks
def test_episodes_match_highway_env(task_id):
    worst = 0.0
    seeds = range(5 if FULL else 1)
    for seed in seeds:
        cmp = run_episode(task_id, 100 + seed)
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
    print(f"{task_id}: {len(seeds)} episodes, max |rlpool - highway-env (libm)| = {worst:.3g}")


@pytest.mark.parametrize("task_id", ["Roundabout-v0", "Roundabout-v1", "RoundaboutGeneric-v0"] if FULL
                         else ["Roundabout-v0"])
def test_episodes_match_highway_env_with_numpy_math(task_id):
    worst = 0.0
    for seed in range(5 if FULL else 2):
        worst = max(worst, run_episode(task_id, 300 + seed, libm=False).max_error)
    print(f"{task_id}: max |rlpool - highway-env (numpy)| = {worst:.3g}")


@pytest.mark.parametrize(("task_id", "options"), VARIANTS if FULL else VARIANTS[:1])
def test_variants_match_highway_env(task_id, options):
    worst = 0.0
    for seed in range(2 if FULL else 1):
        worst = max(worst, run_episode(task_id, 200 + seed, options).max_error)
    print(f"{task_id} {options}: max error {worst:.3g}")


def test_reset_info_reports_no_lane_change():
    env = rlpool.make("Roundabout-v0", num_envs=2, seed=3)
    _, info = env.reset()
    assert np.array_equal(info["lane_change_reward"], [0.0, 0.0])
    assert np.array_equal(info["collision_reward"], [0.0, 0.0])
    _, _, _, _, info = env.step(np.array([0, 2]))
    assert np.array_equal(info["lane_change_reward"], [1.0, 1.0])
    _, _, _, _, info = env.step(np.array([1, 3]))
    assert np.array_equal(info["lane_change_reward"], [0.0, 0.0])


# --------------------------------------------------------------------------- determinism, saved states, bad input


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["speed"].copy()))
    return out


@pytest.mark.parametrize("task_id", ["Roundabout-v0", "RoundaboutGeneric-v1"])
def test_same_results_on_any_thread_count(task_id):
    actions = np.random.default_rng(0).integers(0, 5, (30, 4))  # past the 11/17-step limit: autoresets too
    runs = []
    for threads in (1, 3):
        env = rlpool.make(task_id, num_envs=4, num_threads=threads, seed=4)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    assert_runs_equal(runs)


@pytest.mark.parametrize("task_id", ["Roundabout-v1", "RoundaboutGeneric-v0"])
def test_restore_replays_identically(task_id):
    env = rlpool.make(task_id, num_envs=2, seed=6)
    env.reset()
    _trajectory(env, np.full((2, 2), 1))
    later = np.repeat(np.asarray([[4], [1], [1], [4]]), 2, axis=1)
    assert_restore_replays(env, _trajectory, later)


def test_configurations_highway_env_fails_on_are_refused():
    # lane_change_reward is `action in [0, 2]`: ambiguous for an array of two values.
    with pytest.raises(ValueError, match="lane_change_reward"):
        rlpool.make("Roundabout-v0", num_envs=1, action_type="ContinuousAction")
    # destinations[incoming_vehicle_destination] of ["exr", "sxr", "nxr"]; -1 stands for None.
    with pytest.raises(ValueError, match="incoming_vehicle_destination"):
        rlpool.make("Roundabout-v0", num_envs=1, incoming_vehicle_destination=3)
    with pytest.raises(ValueError, match="incoming_vehicle_destination"):
        rlpool.make("RoundaboutGeneric-v0", num_envs=1, incoming_vehicle_destination=-2)
    with pytest.raises(ValueError, match="roundabout_lanes"):
        rlpool.make("RoundaboutGeneric-v0", num_envs=1, roundabout_lanes=0)
    with pytest.raises(ValueError, match="other_vehicles_type"):
        rlpool.make("Roundabout-v0", num_envs=1, other_vehicles_type="highway_env.vehicle.kinematics.Vehicle")
    with pytest.raises(ValueError, match="lane_change_reward"):
        rlpool.make("Roundabout-v1", num_envs=1, lane_change_reward=float("nan"))
    # normalize_reward maps [collision_reward, high_speed_reward] to [0, 1]: Python divides by zero.
    with pytest.raises(ValueError, match="must differ"):
        rlpool.make("Roundabout-v0", num_envs=1, collision_reward=0.2)
    rlpool.make("Roundabout-v0", num_envs=1, collision_reward=0.2, normalize_reward=False).close()
