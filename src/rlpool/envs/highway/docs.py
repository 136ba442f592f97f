"""The hand-written reference text of the highway family (``docs/envs/highway.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry computes: task
ids, spaces, time limits and options. The ids are ``registration.py``'s (EnvPool 1.2.7's 62). An env whose C++
type is not in this build is left out, so a scenario file added later appears here with no edit.
"""

from __future__ import annotations

from rlpool import _rlpool_core
from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

INTRO = """
highway-env 1.12.1's driving scenarios (Farama Foundation, MIT), ported to C++: the road networks and lanes,
the vehicles (kinematic bicycle model, IDM and MOBIL drivers, linear drivers, the dynamical bicycle),
collisions, the observation types (Kinematics, OccupancyGrid, TimeToCollision, KinematicsGoal, Attributes,
Lidar, Exit) and the action types (DiscreteMetaAction, DiscreteAction, ContinuousAction), each following
highway-env's Python step for step in float64 (its float32 where numpy's rules make it float32: the
observation arrays, ContinuousAction's mapping of a float32 action). The ids are EnvPool 1.2.7's, in both of
its spellings (`Highway-v0` and highway-env's own `highway-v0`).

Options are highway-env's config keys by the same names (`vehicles_count`, `lanes_count`, `duration`,
`policy_frequency`, ...); the nested `observation` and `action` dicts are the options prefixed
`observation_` and `action_` (`observation_type`, `observation_vehicles_count`, `action_type`,
`action_target_speeds`, ...), and `reward_speed_range` is `reward_speed_low` / `reward_speed_high` (EnvPool
1.2.7's names). List-valued keys take a Python list or a comma-separated string
(`observation_features=["presence", "x", "y"]`, `action_target_speeds="0,4.5,9"`), a feature range dict a
dict or `"x:-100:100,y:-100:100"`; `""` is highway-env's None. `MultiAgentObservation` and
`MultiAgentAction` (with `observation_config_type` / `action_config_type` the agents' types) make one agent
per controlled vehicle on rlpool's multi-agent API (observations `[N, agents, ...]`, an action, reward and
flags per agent). Not supported: `TupleObservation` and Kinematics' `order="shuffled"` (numpy's
`shuffle`); each is refused with an error naming it.

`render_mode="rgb_array"` draws highway-env's EnvViewer frame (`screen_width` x `screen_height`, `scaling`,
`centering_position_x`/`_y`) in C++, pixel for pixel as pygame draws it (tests/envs/highway/
test_highway_render.py), and `GrayscaleObservation` stacks such frames of its own viewer in gray
(`observation_observation_shape`, `observation_stack_size`, `observation_weights`, `observation_scaling`,
`observation_centering_position`).

Every random draw of an episode (highway-env's `env.np_random`, which is also `road.np_random`: the road's
lanes and vehicles, the drivers' random behaviour, spawns) comes from the env's own generator, seeded from
the pool's at each reset. Tested against highway-env 1.12.1 itself (tests/envs/highway/): its `np_random`
replaced by a Python copy of rlpool's generator started from the same words, whole episodes of the same
actions give the same observations, rewards, flags and info; with its own generator, the traffic that reset
creates has the same distribution (Kolmogorov-Smirnov over 500 resets). `get_state(env_id)` returns the
generator's words at the episode's start and the actions taken since; `set_state` rebuilds the scene and
replays them (one step of work per step replayed).

Time limit: highway-env truncates when its simulated time (`1 / policy_frequency` seconds a step, summed in
floating point) reaches `duration`; rlpool's env does the same and reports it as truncation, and each task's
`max_episode_steps` (which follows `duration` and `policy_frequency`) is the step at which that happens, so
the two limits agree (1501 steps for the racetracks' 300 s at 5 Hz: the float sum of 1500 steps stays just
below 300). Scenarios that never truncate themselves (lane keeping, merges, two-way) keep the limit of
gymnasium's registration (200, 15) or EnvPool's (200 for the merges).

`info` holds highway-env's: `speed` and `crashed` of the (first) controlled vehicle, the `action` taken (zeros
at a reset, where highway-env shows a random sample of the action space), each entry of highway-env's
`info["rewards"]` under its own name (`info["collision_reward"]`, ...: rlpool's info keys are flat), plus a
scenario's own entries.
"""

_META = ("change to the left lane", "idle", "change to the right lane", "faster (next target speed)",
         "slower (previous target speed)")

HIGHWAY = EnvDoc(
    title="Highway",
    env_types=("HighwayEnv", "HighwayEnvFast"),
    summary="""
The ego vehicle drives on a straight highway of `lanes_count` lanes among `vehicles_count` other vehicles (IDM
and MOBIL drivers with random behaviour), rewarded for a high forward speed and the right-most lanes, punished
for collisions. `HighwayFast` (highway-env's `highway-fast-v0`) simulates at 5 Hz with fewer lanes and
vehicles, and only the ego vehicle checks collisions.
""",
    actions=(Part(_META),),
    action_text="""
With the default `action_type` DiscreteMetaAction (an MDPVehicle tracking one of `action_target_speeds`,
20, 25 and 30 m/s by default). `ContinuousAction` (throttle and steering in [-1, 1]) and `DiscreteAction`
(those quantised) are options.
""",
    observation_text="""
With the default `observation_type` Kinematics: `observation_vehicles_count` rows (the ego vehicle, then the
closest vehicles ahead, sorted by distance along the lane; missing rows are zeros) of `observation_features`
(presence, x, y, vx, vy), the others' relative to the ego vehicle, each normalised to [-1, 1] by highway-env's
ranges (x +-200 m, y +-4 m times the road's lanes, speeds +-80 m/s) and clipped.
""",
    reward="""
`collision_reward` x crashed + `right_lane_reward` x (target lane index / (lanes - 1)) + `high_speed_reward` x
the forward speed mapped from [`reward_speed_low`, `reward_speed_high`] to [0, 1] (clipped); with
`normalize_reward` mapped from [`collision_reward`, `high_speed_reward` + `right_lane_reward`] to [0, 1]; times
0 when off the road. `lane_change_reward` is unused, as in highway-env.
""",
    starting_state="""
The ego vehicle at 25 m/s on a random lane (`initial_lane_id`), then the other vehicles, each placed behind
the last one on a random lane at a random spacing, with a speed of 70 % to 80 % of the 30 m/s speed limit.
""",
    termination="""
Terminates when the ego vehicle crashes (or leaves the road, with `offroad_terminal`); truncated after
`duration` seconds of simulated time.
""",
    version_history=("`v0`: highway-env 1.12.1's highway-v0 and highway-fast-v0.",),
)

EXIT = EnvDoc(
    title="Exit", env_types=("ExitEnv",),
    summary="Take the exit of a highway: the ego vehicle must reach the exit lane among traffic.",
    actions=(Part(_META),),
    reward="A speed reward and `goal_reward` on reaching the exit, normalised to [0, 1].",
    starting_state="The ego vehicle and `vehicles_count` other vehicles on random lanes of the highway.",
    termination="Terminates on a crash; truncated after `duration` seconds.",
    version_history=("`v0`: highway-env's exit-v0; `v1`: its ConnectedLaneExitEnv.",),
)

INTERSECTION = EnvDoc(
    title="Intersection",
    env_types=("IntersectionEnv", "ContinuousIntersectionEnv", "MultiAgentIntersectionEnv"),
    summary="""
Cross a four-way intersection with priorities, among vehicles that spawn at random on its access roads.
`Intersection-v1` controls throttle and steering (ContinuousIntersectionEnv); `IntersectionMultiAgent` has two
controlled vehicles, one agent each.
""",
    reward="`collision_reward` on a crash, `arrived_reward` on leaving by the destination, else a speed reward.",
    starting_state="Vehicles spawned on the access roads and simulated for 3 s, then the ego vehicle(s).",
    termination="Terminates on a crash or when every controlled vehicle has arrived; truncated after `duration` s.",
    version_history=("`v0`: highway-env's intersection-v0; `v1`: its continuous variant; `v2`: its connected-lane "
                     "variant. IntersectionMultiAgent `-v1` and `-v2` give per-agent rewards and terminations "
                     "(highway-env's MultiAgentWrapper).",),
)

LANE_KEEPING = EnvDoc(
    title="LaneKeeping", env_types=("LaneKeepingEnv",),
    summary="Steer a dynamical bicycle model along a sinusoidal lane (continuous steering).",
    reward="1 - (lateral offset / lane width)^2.",
    starting_state="The vehicle at 8.3 m/s beside the first lane segment.",
    termination="Never terminates; the time limit (200 steps, gymnasium's) ends the episode.",
    version_history=("`v0`: highway-env's lane-keeping-v0.",),
)

MERGE = EnvDoc(
    title="Merge", env_types=("MergeEnv", "MergeGenericEnv"),
    summary="""
Drive past a highway merge, making room for the vehicles coming in on the access ramp. MergeGeneric builds the
road from `lanes_count` and the merge section lengths.
""",
    actions=(Part(_META),),
    reward="Speed and right-lane rewards, a collision penalty and an altruistic penalty for slow merging vehicles.",
    starting_state="The ego vehicle on the highway, other vehicles ahead and on the ramp.",
    termination="Terminates on a crash or past the merge; highway-env does not truncate (EnvPool's limit: 200).",
    version_history=("`v0`: highway-env's merge-v0 / merge-generic-v0; `v1`: their connected-lane variants.",),
)

PARKING = EnvDoc(
    title="Parking", env_types=("ParkingEnv",),
    summary="""
A goal-conditioned continuous control task: park in the goal spot of a parking lot (KinematicsGoal
observations: observation, achieved_goal, desired_goal). `ParkingActionRepeat` acts at 1 Hz for 20 s,
`ParkingParked` has 10 parked vehicles.
""",
    reward="Minus a weighted p-norm of the distance to the goal, and `collision_reward` per crash.",
    starting_state="The vehicle at the lot's centre with a random heading; the goal spot at random.",
    termination="Terminates on success or a crash; truncated after `duration` seconds.",
    version_history=("`v0`: highway-env's parking-v0, parking-ActionRepeat-v0 and parking-parked-v0.",),
)

RACETRACK = EnvDoc(
    title="Racetrack", env_types=("RacetrackEnv", "RacetrackEnvLarge", "RacetrackEnvOval"),
    summary="Follow a closed track and avoid the other vehicles (continuous steering, occupancy grid).",
    reward="A lane-centering reward, an action penalty and a collision penalty, mapped to [0, 1].",
    starting_state=("The ego vehicle 20-50 m along the first straight (lane 0 or 1), one IDM vehicle in the first "
                    "curve and up to `other_vehicles` - 1 more at random places (none within 20 m of another)."),
    termination="Terminates on a crash or leaving the road; truncated after `duration` seconds.",
    version_history=("`v0`: highway-env's racetrack, racetrack-large and racetrack-oval; `v1`: their connected-lane "
                     "variants.",),
)

ROUNDABOUT = EnvDoc(
    title="Roundabout", env_types=("RoundaboutEnv", "RoundaboutGenericEnv"),
    summary="Drive through a roundabout among incoming vehicles. RoundaboutGeneric sizes it by its options.",
    actions=(Part(_META),),
    reward=("A speed reward, a collision penalty and a lane-change penalty (`lane_change_reward` for a LANE_LEFT "
            "or LANE_RIGHT action), normalised, times 0 off the road."),
    starting_state="The ego vehicle on an access road, other vehicles in and around the roundabout.",
    termination="Terminates on a crash; truncated after `duration` seconds.",
    version_history=("`v0`: highway-env's roundabout-v0 / roundabout-generic-v0; `v1`: their connected-lane "
                     "variants.",),
)

TWO_WAY = EnvDoc(
    title="TwoWay", env_types=("TwoWayEnv",),
    summary="Overtake on a two-way road with oncoming traffic (time-to-collision observations).",
    actions=(Part(_META),),
    reward="A speed reward and a reward for the right (own) lane.",
    starting_state="The ego vehicle behind slower vehicles, oncoming vehicles on the other lane.",
    termination="Terminates on a crash; the time limit (15 steps, gymnasium's) ends the episode.",
    version_history=("`v0`: highway-env's two-way-v0.",),
)

U_TURN = EnvDoc(
    title="UTurn", env_types=("UTurnEnv",),
    summary="Overtake the vehicles blocking a U-turn (time-to-collision observations).",
    actions=(Part(_META),),
    reward="Speed and left-lane rewards and a collision penalty, normalised, times 0 off the road.",
    starting_state="The ego vehicle before the U-turn, slow vehicles on and after it.",
    termination="Terminates on a crash; truncated after `duration` seconds.",
    version_history=("`v0`: highway-env's u-turn-v0; `v1`: its connected-lane variant.",),
)

ENVS = (HIGHWAY, EXIT, INTERSECTION, LANE_KEEPING, MERGE, PARKING, RACETRACK, ROUNDABOUT, TWO_WAY, U_TURN)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/highway.md; an env whose C++ types are not in this build is left out."""
    compiled = {name for name, _, _ in _rlpool_core.env_types()}
    envs = []
    for env in ENVS:
        present = tuple(t for t in env.env_types if t in compiled)
        if present:
            envs.append(env if present == env.env_types else _only(env, present))
    return FamilyDoc(name="highway", title="highway-env", intro=INTRO, envs=tuple(envs))


def _only(env: EnvDoc, env_types: tuple[str, ...]) -> EnvDoc:
    from dataclasses import replace

    return replace(env, env_types=env_types)
