"""highway-env 1.12.1's scenarios under EnvPool 1.2.7's 62 ids of its highway family (both spellings).

Each id runs the C++ env type named after highway-env's class (``HighwayEnv``, ``IntersectionEnv``, ...) with
that class's defaults; highway-env's ``ConnectedLane*`` classes are the same type with
``neighbour_vehicles_connected_lanes=True``, its classes that only change the config (``ParkingEnvActionRepeat``,
``ParkingEnvParkedVehicles``) the same type with those options. An id is registered only where its env type
is compiled in, so a scenario file added later lights its ids up without an edit here.

Time limit: highway-env truncates an episode when its float ``time`` (``+= 1 / policy_frequency`` per step)
reaches ``duration``; the env reports that truncation itself, and the task's ``max_episode_steps`` is the step
count at which it happens (``duration_steps``: the same float sums, so 1501 steps for the racetracks' 300 s at
5 Hz, where 0.2 added 1500 times stays below 300). Scenarios that never truncate (lane keeping, merge, two-way)
keep the limit gymnasium's registration or EnvPool 1.2.7 gives them.
"""

from __future__ import annotations

import math
from typing import Any

from rlpool import _rlpool_core
from rlpool.envs.highway.goals import parking_methods
from rlpool.registry import register

_COMPILED = {name for name, _, _ in _rlpool_core.env_types()}

HIGHWAY_ENV_IDS: dict[str, str] = {}
"""rlpool task id -> highway-env 1.12.1's gymnasium id with the same scenario and defaults (the reference of the
parity tests and the benchmark). Not TaskSpec.gymnasium_id: those ids exist only once highway_env is imported."""


def duration_steps(duration: float, policy_frequency: int) -> int:
    """The step at which highway-env's ``time >= duration`` first holds (at least 1: the check follows a step)."""
    if duration * policy_frequency > 10_000_000:  # not summed one by one: the nearest whole count
        return math.ceil(duration * policy_frequency)
    time, steps = 0.0, 0
    while True:
        time += 1 / policy_frequency
        steps += 1
        if time >= duration:
            return steps


def _steps_of_options(options: dict[str, Any]) -> int:
    return duration_steps(options["duration"], options["policy_frequency"])


def _encode(options: dict[str, Any]) -> dict[str, Any]:
    """highway-env's list and dict config values written as the strings the C++ options take.

    ``observation_features=["presence", "x"]`` -> ``"presence,x"``; ``action_target_speeds=[0, 4.5, 9]`` ->
    ``"0.0,4.5,9.0"``; ``observation_features_range={"x": [-100, 100]}`` -> ``"x:-100.0:100.0"``;
    ``observation_grid_size=[[-18, 18], [-18, 18]]`` -> ``"-18.0,18.0,-18.0,18.0"``; None -> ``""``.
    """
    out = dict(options)
    for name, value in options.items():
        if not (name.startswith(("observation_", "action_")) and _LIST_OPTIONS.get(name)):
            continue
        kind = _LIST_OPTIONS[name]
        if value is None:
            out[name] = ""
        elif isinstance(value, str):
            continue
        elif kind == "names":
            if not all(isinstance(v, str) for v in value):
                raise TypeError(f"option {name!r} must be a list of names or a comma-separated str, got {value!r}")
            out[name] = ",".join(value)
        elif kind == "ranges":
            if not hasattr(value, "items"):
                raise TypeError(f"option {name!r} must be a dict of [low, high] or a str, got {value!r}")
            out[name] = ",".join(f"{k}:{_number(name, lo)}:{_number(name, hi)}" for k, (lo, hi) in value.items())
        else:
            flat = [v for row in value for v in (row if hasattr(row, "__len__") else [row])]
            out[name] = ",".join(_number(name, v) for v in flat)
    return out


def _number(name: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise TypeError(f"option {name!r} needs numbers, got {value!r}")
    return repr(float(value))


_LIST_OPTIONS = {
    "observation_features": "names",
    "observation_attributes": "names",
    "observation_features_range": "ranges",
    "observation_grid_size": "numbers",
    "observation_grid_step": "numbers",
    "observation_scales": "numbers",
    "observation_observation_shape": "numbers",
    "observation_weights": "numbers",
    "observation_centering_position": "numbers",
    "action_target_speeds": "numbers",
    "action_acceleration_range": "numbers",
    "action_steering_range": "numbers",
    "action_speed_range": "numbers",
}


def _highway(task_id: str, alias: str, highway_env_id: str, env_type: str, *, max_episode_steps: int | None = None,
             task_methods: Any = None, **options: Any) -> None:
    """Register ``task_id`` and its lower-case spelling ``alias`` as ``env_type`` (if compiled in).

    Without ``max_episode_steps`` the limit follows ``duration`` and ``policy_frequency`` (duration_steps).
    ``task_methods`` (TaskSpec.task_methods): e.g. the parking scenarios' GoalEnv ``compute_reward``.
    """
    if env_type not in _COMPILED:
        return
    for name in (task_id, alias):
        HIGHWAY_ENV_IDS[name] = highway_env_id
        if max_episode_steps is None:
            defaults = {n: d for n, d, _ in _env_type_options(env_type)}
            defaults.update(options)
            register(name, env_type, max_episode_steps=_steps_of_options(defaults), episode_steps=_steps_of_options,
                     encode=_encode, task_methods=task_methods, **options)
        else:
            register(name, env_type, max_episode_steps=max_episode_steps, encode=_encode, task_methods=task_methods,
                     **options)


def _env_type_options(env_type: str) -> list[tuple[str, Any, str]]:
    from rlpool.registry import env_type_options

    return env_type_options(env_type)


_CONNECTED = {"neighbour_vehicles_connected_lanes": True}

_highway("Highway-v0", "highway-v0", "highway-v0", "HighwayEnv")
_highway("HighwayFast-v0", "highway-fast-v0", "highway-fast-v0", "HighwayEnvFast")
_highway("Exit-v0", "exit-v0", "exit-v0", "ExitEnv")
_highway("Exit-v1", "exit-v1", "exit-v1", "ExitEnv", **_CONNECTED)
_highway("Intersection-v0", "intersection-v0", "intersection-v0", "IntersectionEnv")
_highway("Intersection-v1", "intersection-v1", "intersection-v1", "ContinuousIntersectionEnv")
_highway("Intersection-v2", "intersection-v2", "intersection-v2", "IntersectionEnv", **_CONNECTED)
_highway("IntersectionMultiAgent-v0", "intersection-multi-agent-v0", "intersection-multi-agent-v0",
         "MultiAgentIntersectionEnv")
# highway-env's -v1 and -v2 add MultiAgentWrapper: per-agent rewards and terminations.
_highway("IntersectionMultiAgent-v1", "intersection-multi-agent-v1", "intersection-multi-agent-v1",
         "MultiAgentIntersectionEnv", multi_agent_wrapper=True)
_highway("IntersectionMultiAgent-v2", "intersection-multi-agent-v2", "intersection-multi-agent-v2",
         "MultiAgentIntersectionEnv", multi_agent_wrapper=True, **_CONNECTED)
# gymnasium's registration limits lane-keeping-v0 to 200 steps (the env never truncates itself).
_highway("LaneKeeping-v0", "lane-keeping-v0", "lane-keeping-v0", "LaneKeepingEnv", max_episode_steps=200)
# highway-env's merges never truncate; EnvPool 1.2.7 limits them to 200 steps.
_highway("Merge-v0", "merge-v0", "merge-v0", "MergeEnv", max_episode_steps=200)
_highway("Merge-v1", "merge-v1", "merge-v1", "MergeEnv", max_episode_steps=200, **_CONNECTED)
_highway("MergeGeneric-v0", "merge-generic-v0", "merge-generic-v0", "MergeGenericEnv", max_episode_steps=200)
_highway("MergeGeneric-v1", "merge-generic-v1", "merge-generic-v1", "MergeGenericEnv", max_episode_steps=200,
         **_CONNECTED)
# ParkingEnv is a GoalEnv: its ids offer compute_reward (goals.py) as a method of the env.
_highway("Parking-v0", "parking-v0", "parking-v0", "ParkingEnv", task_methods=parking_methods)
# highway-env's ParkingEnvActionRepeat and ParkingEnvParkedVehicles: ParkingEnv with other options.
_highway("ParkingActionRepeat-v0", "parking-ActionRepeat-v0", "parking-ActionRepeat-v0", "ParkingEnv",
         task_methods=parking_methods, policy_frequency=1, duration=20.0)
_highway("ParkingParked-v0", "parking-parked-v0", "parking-parked-v0", "ParkingEnv", task_methods=parking_methods,
         vehicles_count=10)
_highway("Racetrack-v0", "racetrack-v0", "racetrack-v0", "RacetrackEnv")
_highway("Racetrack-v1", "racetrack-v1", "racetrack-v1", "RacetrackEnv", **_CONNECTED)
_highway("RacetrackLarge-v0", "racetrack-large-v0", "racetrack-large-v0", "RacetrackEnvLarge")
_highway("RacetrackLarge-v1", "racetrack-large-v1", "racetrack-large-v1", "RacetrackEnvLarge", **_CONNECTED)
_highway("RacetrackOval-v0", "racetrack-oval-v0", "racetrack-oval-v0", "RacetrackEnvOval")
_highway("RacetrackOval-v1", "racetrack-oval-v1", "racetrack-oval-v1", "RacetrackEnvOval", **_CONNECTED)
_highway("Roundabout-v0", "roundabout-v0", "roundabout-v0", "RoundaboutEnv")
_highway("Roundabout-v1", "roundabout-v1", "roundabout-v1", "RoundaboutEnv", **_CONNECTED)
_highway("RoundaboutGeneric-v0", "roundabout-generic-v0", "roundabout-generic-v0", "RoundaboutGenericEnv")
_highway("RoundaboutGeneric-v1", "roundabout-generic-v1", "roundabout-generic-v1", "RoundaboutGenericEnv",
         **_CONNECTED)
# gymnasium's registration limits two-way-v0 to 15 steps (the env never truncates itself).
_highway("TwoWay-v0", "two-way-v0", "two-way-v0", "TwoWayEnv", max_episode_steps=15)
_highway("UTurn-v0", "u-turn-v0", "u-turn-v0", "UTurnEnv")
_highway("UTurn-v1", "u-turn-v1", "u-turn-v1", "UTurnEnv", **_CONNECTED)
