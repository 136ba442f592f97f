"""Each observation and action type of the highway family against highway-env 1.12.1, from the same draws.

On highway-fast-v0 with 8 other vehicles (short, cheap episodes), every option of the observation types
(Kinematics, OccupancyGrid, TimeToCollision, LidarObservation) and of the action types (DiscreteMetaAction,
ContinuousAction, DiscreteAction, and MultiAgentObservation / MultiAgentAction for two controlled vehicles) runs
whole episodes next to highway-env's with the same actions: observations, rewards, flags and info must agree
within 1e-5 (measured: at most about 1e-14). KinematicsGoal, AttributesObservation and ExitObservation need their
scenarios (parking, lane keeping, exit) and are tested with them. ``RLPOOL_FULL_REFERENCE=1`` runs more episodes.
"""

from __future__ import annotations

import numpy as np
import pytest
from highway_reference import reference, run_pair
from lane import FULL

import rlpool

BASE = {"vehicles_count": 8}
ALL_FEATURES = ["presence", "x", "y", "vx", "vy", "heading", "cos_h", "sin_h", "cos_d", "sin_d", "long_off",
                "lat_off", "ang_off"]

OBSERVATIONS = {
    "kinematics-all-features": {"observation_type": "Kinematics", "observation_features": ALL_FEATURES,
                                "observation_absolute": True, "observation_see_behind": True,
                                "observation_observe_intentions": True, "observation_vehicles_count": 7},
    "kinematics-raw": {"observation_type": "Kinematics", "observation_normalize": False,
                       "observation_vehicles_count": 10},
    "kinematics-ranges-unclipped": {"observation_type": "Kinematics", "observation_clip": False,
                                    "observation_features_range": {"x": [-50, 50], "vx": [-10, 10]}},
    "kinematics-no-obstacles": {"observation_type": "Kinematics", "observation_include_obstacles": False,
                                "observation_features": ["presence", "x", "y", "cos_h", "sin_h"]},
    "occupancy-grid": {"observation_type": "OccupancyGrid"},
    "occupancy-grid-aligned": {"observation_type": "OccupancyGrid", "observation_align_to_vehicle_axes": True,
                               "observation_features": ["presence", "on_road", "x", "vx"],
                               "observation_grid_size": [[-18, 18], [-18, 18]], "observation_grid_step": [3, 3]},
    "occupancy-grid-image": {"observation_type": "OccupancyGrid", "observation_as_image": True,
                             "observation_features": ["presence", "on_road", "vx"],
                             "observation_features_range": {"vx": [-20, 20], "x": [-30, 30]}},
    "time-to-collision": {"observation_type": "TimeToCollision", "observation_horizon": 5},
    "time-to-collision-2hz": {"observation_type": "TimeToCollision", "observation_horizon": 4,
                              "policy_frequency": 2, "action_type": "DiscreteMetaAction",
                              "action_target_speeds": [15, 20, 25, 30]},
    "lidar": {"observation_type": "LidarObservation"},
    "lidar-raw-7": {"observation_type": "LidarObservation", "observation_normalize": False, "observation_cells": 7,
                    "observation_maximum_range": 40.0},
}

ACTIONS = {
    "continuous": {"action_type": "ContinuousAction"},
    "continuous-dynamical": {"action_type": "ContinuousAction", "action_dynamical": True,
                             "action_speed_range": [10, 30], "action_steering_range": [-0.3, 0.3]},
    "continuous-longitudinal-unclipped": {"action_type": "ContinuousAction", "action_lateral": False,
                                          "action_clip": False, "action_acceleration_range": [-3, 2.5]},
    "continuous-lateral": {"action_type": "ContinuousAction", "action_longitudinal": False},
    "discrete-4": {"action_type": "DiscreteAction", "action_actions_per_axis": 4},
    "discrete-lateral-5": {"action_type": "DiscreteAction", "action_longitudinal": False,
                           "action_actions_per_axis": 5},
    "meta-longitudinal": {"action_type": "DiscreteMetaAction", "action_lateral": False,
                          "action_target_speeds": [15, 20, 25, 30]},
    "meta-lateral": {"action_type": "DiscreteMetaAction", "action_longitudinal": False},
    "multi-agent": {"controlled_vehicles": 2, "observation_type": "MultiAgentObservation",
                    "observation_config_type": "Kinematics", "action_type": "MultiAgentAction",
                    "action_config_type": "DiscreteMetaAction"},
    "multi-agent-continuous-grid": {"controlled_vehicles": 3, "observation_type": "MultiAgentObservation",
                                    "observation_config_type": "OccupancyGrid", "action_type": "MultiAgentAction",
                                    "action_config_type": "ContinuousAction"},
    "two-controlled-single-agent": {"controlled_vehicles": 2},
}


def _policy(env, seed: int):
    """Random actions; for meta-actions mostly idle (episodes last longer than under uniform random actions)."""
    rng = np.random.default_rng(seed)
    space = env.single_action_space
    space.seed(seed)
    meta = rlpool.registry.task("highway-fast-v0") and env.spec.config["action_type"] in (
        "DiscreteMetaAction", "MultiAgentAction") and env.spec.config["action_config_type"] == "DiscreteMetaAction"
    if env.spec.config["action_type"] == "DiscreteMetaAction" and env.spec.config["action_lateral"] and \
            env.spec.config["action_longitudinal"]:
        return lambda step: int(rng.choice(5, p=[0.1, 0.6, 0.1, 0.1, 0.1]))
    if meta and env.spec.config["action_type"] == "MultiAgentAction":
        return lambda step: rng.choice(5, size=space.shape, p=[0.1, 0.6, 0.1, 0.1, 0.1]).astype(np.int64)
    return lambda step: space.sample()


def _compare(options: dict, episodes: int, label: str) -> float:
    worst = 0.0
    for k in range(episodes):
        seed = 300 + 7 * k
        env = rlpool.make("highway-fast-v0", num_envs=1, seed=seed, **options)
        ref = reference("highway-fast-v0", options)
        cmp = run_pair(env, ref, _policy(env, seed), f"{label} seed={seed}")
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
        env.close()
    return worst


@pytest.mark.parametrize("name", list(OBSERVATIONS))
def test_observation_type_matches_highway_env(name):
    worst = _compare({**BASE, **OBSERVATIONS[name]}, 4 if FULL else 1, name)
    print(f"{name}: max |rlpool - highway-env| = {worst:.3g}")


@pytest.mark.parametrize("name", list(ACTIONS))
def test_action_type_matches_highway_env(name):
    worst = _compare({**BASE, **ACTIONS[name]}, 4 if FULL else 1, name)
    print(f"{name}: max |rlpool - highway-env| = {worst:.3g}")


def test_spaces_match_highway_env():
    for name, options in {**OBSERVATIONS, **ACTIONS}.items():
        spec = rlpool.make_spec("highway-fast-v0", **BASE, **options)
        ref = reference("highway-fast-v0", {**BASE, **options})
        if spec.arrays.num_agents:
            agents = spec.arrays.num_agents
            assert len(ref.observation_space.spaces) == len(ref.action_space.spaces) == agents, name
            one = ref.observation_space.spaces[0]
            assert spec.observation_space.shape == (agents, *one.shape), name
            assert spec.observation_space.dtype == one.dtype, name
            act = ref.action_space.spaces[0]
            assert spec.action_space.shape == (agents, *act.shape), name
        else:
            assert spec.observation_space == ref.observation_space, name
            assert spec.action_space == ref.action_space, name


def test_one_row_kinematics_keeps_the_observer_only():
    """highway-env's Kinematics with vehicles_count=1 returns the observer and every close vehicle (more rows than
    its space has: close[-0:] is the whole list); rlpool keeps the space's one row, the observer's."""
    options = {**BASE, "observation_type": "Kinematics", "observation_vehicles_count": 1}
    env = rlpool.make("highway-fast-v0", num_envs=1, seed=4, **options)
    obs, _ = env.reset()
    from highway_reference import parse_state, use_words

    ref = reference("highway-fast-v0", options)
    use_words(ref, parse_state(env.get_state(0))[1])
    ref_obs, _ = ref.reset()
    assert obs.shape == (1, 1, 5) and ref_obs.shape[0] > 1
    assert np.array_equal(obs[0, 0], ref_obs[0])


def test_multi_agent_shapes_and_flags():
    env = rlpool.make("highway-fast-v0", num_envs=2, seed=1, **BASE, **ACTIONS["multi-agent"])
    obs, info = env.reset()
    assert obs.shape == (2, 2, 5, 5)
    assert env.single_action_space.shape == (2,)
    obs, reward, term, trunc, info = env.step(np.ones((2, 2), np.int64))
    assert reward.shape == term.shape == trunc.shape == (2, 2)
    assert info["action"].shape == (2, 2)
    # highway-env's HighwayEnv rewards the first vehicle: every agent gets that reward.
    assert np.array_equal(reward[:, 0], reward[:, 1])
