"""Parking-v0, ParkingActionRepeat-v0, ParkingParked-v0 (and highway-env's spellings) against highway-env 1.12.1.

Parity: highway-env's ``np_random`` is replaced by a Python copy of rlpool's generator started from the words of
rlpool's reset (``highway_reference``), so the ego heading, the goal spot and the parked vehicles' spots are the
same draws; whole episodes of the same actions (random ones, and a goal-seeking driver whose episodes end in
success) must give the same KinematicsGoal observations, rewards, flags and info (speed, crashed, action,
is_success) within 1e-5 (in practice exactly). highway-env's ``ParkingEnvActionRepeat`` and
``ParkingEnvParkedVehicles`` take no config: with other options the reference is ``parking-v0`` with their
options. Also: the spaces and config against highway-env's and EnvPool 1.2.7's, the ``compute_reward`` task
method (bitwise the step reward), determinism across thread counts, saved states, bad options.
``RLPOOL_FULL_REFERENCE=1`` runs more seeds and the variants (vehicle classes, observation and action types,
parked vehicles, several controlled vehicles, MultiAgent).
"""

from __future__ import annotations

import json
import subprocess
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
    use_words,
    with_words,
)
from lane import FULL

import rlpool
from rlpool.envs.highway.goals import parking_methods
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS, duration_steps

import_highway_env()

TOL = 1e-5
IDS = ["Parking-v0", "parking-v0", "ParkingActionRepeat-v0", "parking-ActionRepeat-v0", "ParkingParked-v0",
       "parking-parked-v0"]
# What highway-env's ParkingEnvActionRepeat and ParkingEnvParkedVehicles change in ParkingEnv's config.
CLASS_OPTIONS = {"parking-v0": {}, "parking-ActionRepeat-v0": {"policy_frequency": 1, "duration": 20.0},
                 "parking-parked-v0": {"vehicles_count": 10}}
WEIGHTS = [1, 0.3, 0, 0, 0.02, 0.02]


def make_reference(task_id: str, options: dict[str, Any]) -> Any:
    """highway-env's env of ``task_id`` with rlpool's ``options`` (its own class where no option is given)."""
    highway_env_id = HIGHWAY_ENV_IDS[task_id]
    if not options and highway_env_id != "parking-v0":
        from highway_env.envs import parking_env

        cls = (parking_env.ParkingEnvActionRepeat if "ActionRepeat" in highway_env_id
               else parking_env.ParkingEnvParkedVehicles)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cls()
    theirs = {**CLASS_OPTIONS[highway_env_id], **options}
    if isinstance(theirs.get("reward_weights"), str):
        theirs["reward_weights"] = [float(v) for v in theirs["reward_weights"].split(",")]
    return reference("parking-v0", theirs)


def random_policy(seed: int):
    rng = np.random.default_rng(seed)
    return lambda step, obs: rng.uniform(-1, 1, 2).astype(np.float32)


def goal_policy(seed: int):
    """Drives to the goal spot (forwards or backwards, whichever faces it), slowing down near it."""
    del seed

    def act(step: int, obs: dict[str, np.ndarray]) -> np.ndarray:
        o, g = obs["observation"], obs["desired_goal"]
        x, y, vx, vy, c, s = o[0] * 100, o[1] * 100, o[2] * 5, o[3] * 5, o[4], o[5]
        dx, dy = g[0] * 100 - x, g[1] * 100 - y
        heading, speed = np.arctan2(s, c), vx * c + vy * s
        err = (np.arctan2(dy, dx) - heading + np.pi) % (2 * np.pi) - np.pi
        sign = 1.0
        if abs(err) >= np.pi / 2:  # reverse towards it
            err, sign = (err + 2 * np.pi) % (2 * np.pi) - np.pi, -1.0
        want = sign * min(2.0, 0.5 * np.hypot(dx, dy))
        return np.array([np.clip(want - speed, -1, 1), sign * np.clip(2 * err, -1, 1)], np.float32)

    return act


def compare_success(cmp: Comparator, where: str, ours: Any, theirs: Any) -> None:
    cmp.equal(f"{where} info['is_success']", np.asarray(ours), np.asarray(theirs))


def run_episode(task_id: str, options: dict[str, Any], seed: int, policy, max_steps: int | None = None) -> dict:
    """One whole episode of rlpool env 0 and highway-env from the same words; the comparator and how it ended."""
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    ref = make_reference(task_id, options)
    act = policy(seed)
    cmp = Comparator(TOL, f"{task_id} {options} seed={seed}")
    obs, info = env.reset()
    _, words, _, _ = parse_state(env.get_state(0))
    use_words(ref, words)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, ref_info = ref.reset()
    compare_step(cmp, 0, (obs, None, None, None, info), (ref_obs, None, None, None, ref_info), 0, True)
    compare_success(cmp, "reset", info["is_success"][0], ref_info["is_success"])
    limit = env.spec.max_episode_steps if max_steps is None else max_steps
    end = {"steps": 0, "success": False, "crashed": False, "truncated": False}
    for step in range(1, limit + 1):
        action = act(step, {k: v[0] for k, v in obs.items()} if isinstance(obs, dict) else obs[0])
        rl = env.step(np.asarray(action)[None])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ref.step(action)
        compare_step(cmp, step, rl, theirs, 0, False)
        compare_success(cmp, f"step {step}", rl[4]["is_success"][0], theirs[4]["is_success"])
        obs = rl[0]
        end.update(steps=step, success=bool(np.all(rl[4]["is_success"][0])), crashed=bool(rl[4]["crashed"][0]),
                   truncated=bool(rl[3][0]))
        if rl[2][0] or rl[3][0]:
            break
    env.close()
    end["cmp"] = cmp
    return end


# --------------------------------------------------------------------------- registration, spaces, config


def test_ids_are_parking_env():
    for task_id in IDS:
        assert task_id in rlpool.list_all_envs()
        assert rlpool.registry.task(task_id).env_type == "ParkingEnv"
    assert HIGHWAY_ENV_IDS["ParkingActionRepeat-v0"] == "parking-ActionRepeat-v0"
    assert HIGHWAY_ENV_IDS["ParkingParked-v0"] == "parking-parked-v0"


@pytest.mark.parametrize("task_id", IDS)
def test_spaces_and_config_are_highway_envs(task_id):
    ref = make_reference(task_id, {})
    spec = rlpool.make_spec(task_id)
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space
    c, config = ref.config, spec.config
    for key in ("vehicles_count", "controlled_vehicles", "duration", "collision_reward", "success_goal_reward",
                "add_walls", "simulation_frequency", "policy_frequency", "neighbour_vehicles_connected_lanes",
                "screen_width", "screen_height", "scaling"):
        assert config[key] == c[key], key
    assert [float(w) for w in config["reward_weights"].split(",")] == c["reward_weights"]
    assert (config["centering_position_x"], config["centering_position_y"]) == tuple(c["centering_position"])
    assert config["observation_type"] == c["observation"]["type"]
    assert config["observation_features"].split(",") == c["observation"]["features"]
    assert [float(s) for s in config["observation_scales"].split(",")] == c["observation"]["scales"]
    assert config["observation_normalize"] == c["observation"]["normalize"]
    assert config["action_type"] == c["action"]["type"]
    assert spec.max_episode_steps == duration_steps(c["duration"], c["policy_frequency"])


_ENVPOOL_SPACES = """
import json, sys, envpool
out = {}
for task_id in json.loads(sys.argv[1]):
    s = envpool.make_spec(task_id)
    obs = {k: [list(v.shape), str(v.dtype)] for k, v in s.observation_space.spaces.items()}
    a = s.action_space
    out[task_id] = {"obs": obs, "action": [list(a.shape), str(a.dtype), a.low.tolist(), a.high.tolist()],
                    "max_episode_steps": s.config.max_episode_steps}
print(json.dumps(out))
"""


def envpool_spaces(task_ids: list[str]) -> dict[str, Any]:
    """EnvPool 1.2.7's observation keys/shapes/dtypes, action space and time limit of ``task_ids``."""
    from envpool127 import envpool_python

    run = subprocess.run([str(envpool_python()), "-c", _ENVPOOL_SPACES, json.dumps(task_ids)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


@pytest.mark.skipif(not FULL, reason="EnvPool 1.2.7 starts in a child Python (seconds): RLPOOL_FULL_REFERENCE=1")
def test_spaces_are_envpools():
    """The ids' spaces and time limits are EnvPool 1.2.7's (its Dict lists the keys in another order)."""
    theirs = envpool_spaces(IDS)
    for task_id in IDS:
        spec = rlpool.make_spec(task_id)
        obs = {k: [list(v.shape), str(v.dtype)] for k, v in spec.observation_space.spaces.items()}
        assert obs == theirs[task_id]["obs"], task_id
        a = spec.action_space
        assert [list(a.shape), str(a.dtype), a.low.tolist(), a.high.tolist()] == theirs[task_id]["action"], task_id
        assert spec.max_episode_steps == theirs[task_id]["max_episode_steps"], task_id


# --------------------------------------------------------------------------- parity


EPISODES = [("Parking-v0", 2), ("parking-ActionRepeat-v0", 1), ("ParkingParked-v0", 1)]
if FULL:  # the lower-case spellings are the same tasks: fewer episodes
    EPISODES = [(t, 8 if t[0].isupper() else 3) for t in IDS]


@pytest.mark.parametrize(("task_id", "episodes"), EPISODES)
def test_random_episodes_match_highway_env(task_id, episodes):
    worst, values = 0.0, 0
    for k in range(episodes):
        end = run_episode(task_id, {}, 100 + k, random_policy)
        assert end["steps"] > 0
        worst, values = max(worst, end["cmp"].max_error), values + end["cmp"].values
    print(f"{task_id}: {episodes} episodes, {values} values, max |rlpool - highway-env| = {worst:.3g}")


def test_goal_reaching_episodes_match_highway_env():
    """A driver that reaches its spot: episodes end in success (is_success, terminated) as highway-env's do."""
    options = {"success_goal_reward": 0.2, "duration": 20.0}
    successes, worst = 0, 0.0
    for seed in range(3 if FULL else 2):
        end = run_episode("Parking-v0", options, 2 + 2 * seed, goal_policy)
        successes += end["success"]
        worst = max(worst, end["cmp"].max_error)
    assert successes >= 1
    print(f"goal-reaching: {successes} successes, max error {worst:.3g}")


def test_episode_to_the_time_limit_matches_highway_env():
    """Truncation at time >= duration (the env's own flag; the task's limit is the same step).

    0.2 added 10 times is 1.9999999999999998: highway-env truncates a 2 s episode at 5 Hz after 11 steps.
    """
    end = run_episode("Parking-v0", {"duration": 2.0}, 7, lambda seed: lambda step, obs: np.zeros(2, np.float32))
    assert end["truncated"] and not end["crashed"]
    assert end["steps"] == duration_steps(2.0, 5) == 11


# (rlpool id, options): other configurations; the default run takes the first.
VARIANTS = [
    ("Parking-v0", {"controlled_vehicles": 3, "vehicles_count": 4, "duration": 10.0}),
    ("Parking-v0", {"vehicles_count": 30, "add_walls": False, "collision_reward": -2.5, "duration": 20.0}),
    ("Parking-v0", {"reward_weights": "1,0.5,0.1,0.1,0.05,0.05", "success_goal_reward": 0.3}),
    ("Parking-v0", {"action_type": "ContinuousAction", "action_dynamical": True}),
    ("Parking-v0", {"action_type": "DiscreteAction", "action_actions_per_axis": 5}),
    ("Parking-v0", {"action_type": "ContinuousAction", "action_lateral": False}),
    # rlpool's observation options keep Parking's defaults (normalize False) under another observation type, where
    # highway-env's new observation dict takes that type's defaults: given here.
    ("ParkingParked-v0", {"observation_type": "Kinematics", "observation_features": ["presence", "x", "y", "vx", "vy"],
                          "observation_vehicles_count": 8, "observation_normalize": True, "vehicles_count": 10}),
    ("ParkingActionRepeat-v0", {"neighbour_vehicles_connected_lanes": True}),
]


def forward_policy(seed: int):
    """Random steering, always accelerating forwards.

    The dynamical bicycle model driven backwards (random throttle) is unstable: its states grow differences by
    about 8 times a step, and numpy's arctan2 (a SIMD kernel) and glibc's differ by 1 ulp on some inputs, so
    such episodes part after some 40 steps. Forwards, they stay within 1e-15.
    """
    rng = np.random.default_rng(seed)
    return lambda step, obs: np.array([rng.uniform(0.05, 0.6), rng.uniform(-1, 1)], np.float32)


def variant_policy(options: dict[str, Any]):
    if options.get("action_dynamical"):
        return forward_policy
    if options.get("action_type") == "DiscreteAction":
        return lambda seed: (lambda rng: lambda step, obs: int(rng.integers(25)))(np.random.default_rng(seed))
    if options.get("action_lateral") is False:
        return lambda seed: (lambda rng: lambda step, obs: rng.uniform(-1, 1, 1).astype(np.float32))(
            np.random.default_rng(seed))
    return random_policy


@pytest.mark.parametrize(("task_id", "options"), VARIANTS if FULL else VARIANTS[:1])
def test_variants_match_highway_env(task_id, options):
    worst = 0.0
    for seed in range(2 if FULL else 1):
        end = run_episode(task_id, options, 300 + seed, variant_policy(options))
        worst = max(worst, end["cmp"].max_error)
    print(f"{task_id} {options}: max error {worst:.3g}")


def test_multi_agent_parking_matches_highway_env():
    """MultiAgentObservation/MultiAgentAction: per-agent KinematicsGoal and is_success, the shared reward."""
    options = {"controlled_vehicles": 2, "observation_type": "MultiAgentObservation",
               "observation_config_type": "KinematicsGoal", "observation_features": ["x", "y", "vx", "vy", "cos_h",
                                                                                      "sin_h"],
               "observation_scales": [100, 100, 5, 5, 1, 1], "observation_normalize": False,
               "action_type": "MultiAgentAction", "action_config_type": "ContinuousAction"}
    spec = rlpool.make_spec("Parking-v0", **options)
    assert spec.observation_space["observation"].shape == (2, 6)
    for seed in range(3 if FULL else 1):
        env = rlpool.make("Parking-v0", num_envs=1, seed=seed, **options)
        ref = reference("parking-v0", options)
        rng = np.random.default_rng(seed)
        cmp = Comparator(TOL, f"multi-agent seed={seed}")
        obs, info = env.reset()
        use_words(ref, parse_state(env.get_state(0))[1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref_obs, ref_info = ref.reset()
        compare_step(cmp, 0, (obs, None, None, None, info), (ref_obs, None, None, None, ref_info), 2, True)
        compare_success(cmp, "reset", info["is_success"][0], ref_info["is_success"])
        for step in range(1, 60):
            action = rng.uniform(-1, 1, (2, 2)).astype(np.float32)
            rl = env.step(action[None])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = ref.step(tuple(action))
            compare_step(cmp, step, rl, theirs, 2, False)
            compare_success(cmp, f"step {step}", rl[4]["is_success"][0], theirs[4]["is_success"])
            if np.all(rl[2][0] | rl[3][0]):
                break
        assert cmp.values > 0


def test_the_comparison_fails_on_a_perturbed_reference():
    """The check has teeth: another reward weight in highway-env, or a nudged goal, is caught."""
    with pytest.raises(EpisodeMismatch, match="reward"):
        env = rlpool.make("Parking-v0", num_envs=1, seed=3)
        ref = reference("parking-v0", {"reward_weights": [1, 0.3, 0, 0, 0.02, 0.03]})
        obs, _ = env.reset()
        use_words(ref, parse_state(env.get_state(0))[1])
        ref.reset()
        cmp = Comparator(TOL, "perturbed weights")
        for step in range(1, 5):
            a = np.array([0.5, 0.1], np.float32)
            compare_step(cmp, step, env.step(a[None]), ref.step(a), 0, False)
    env = rlpool.make("Parking-v0", num_envs=1, seed=3)
    ref = reference("parking-v0")
    obs, _ = env.reset()
    use_words(ref, parse_state(env.get_state(0))[1])
    ref.reset()
    ref.vehicle.goal.position[1] += 0.01
    with pytest.raises(EpisodeMismatch, match=r"step 1 obs\['desired_goal'\] differs by 0.0001"):
        a = np.zeros(2, np.float32)
        compare_step(Comparator(TOL, "moved goal"), 1, env.step(a[None]), ref.step(a), 0, False)


# --------------------------------------------------------------------------- compute_reward


def test_compute_reward_is_the_step_reward():
    """The task method gives the env's reward (no crash) bitwise, per goal and over batches."""
    env = rlpool.make("Parking-v0", num_envs=3, seed=4)
    compute_reward = env.spec.task_methods["compute_reward"]
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    achieved, desired, rewards = [], [], []
    for _ in range(40):
        obs, reward, term, trunc, info = env.step(rng.uniform(-0.3, 0.3, (3, 2)).astype(np.float32))
        for i in range(3):
            if not info["crashed"][i] and not (term[i] or trunc[i]):
                assert compute_reward(obs["achieved_goal"][i], obs["desired_goal"][i], {}) == reward[i]
                achieved.append(obs["achieved_goal"][i])
                desired.append(obs["desired_goal"][i])
                rewards.append(reward[i])
    assert len(rewards) > 20
    batch = compute_reward(np.array(achieved), np.array(desired), None)
    assert np.array_equal(batch, rewards)
    grid = compute_reward(np.array(achieved[:6]).reshape(2, 3, 6), np.array(desired[:6]).reshape(2, 3, 6))
    assert np.array_equal(grid.ravel(), rewards[:6])
    # highway-env's own compute_reward on the same goals.
    ref = reference("parking-v0")
    for a, d, r in zip(achieved[:10], desired[:10], rewards[:10], strict=True):
        assert ref.compute_reward(a, d, {}) == r
    weights = parking_methods({"reward_weights": "1,0,0,0,0,0"})["compute_reward"]
    assert weights(np.array([3.0, 0, 0, 0, 0, 0]), np.array([-1.0, 9, 9, 9, 9, 9])) == -2.0
    with pytest.raises(ValueError, match="6 values"):
        compute_reward(np.zeros(5), np.zeros(5))


def test_crash_costs_collision_reward():
    """Driving into a wall: crashed, terminated, and the reward is the goal reward plus collision_reward."""
    env = rlpool.make("Parking-v0", num_envs=1, seed=1, collision_reward=-7.0)
    compute_reward = env.spec.task_methods["compute_reward"]
    obs, _ = env.reset()
    for _ in range(200):
        obs, reward, term, trunc, info = env.step(np.array([[1.0, 0.0]], np.float32))
        if term[0]:
            break
    assert info["crashed"][0] and term[0] and not info["is_success"][0]
    goal = compute_reward(obs["achieved_goal"][0], obs["desired_goal"][0])
    assert reward[0] == goal + -7.0


# --------------------------------------------------------------------------- determinism and states


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs["observation"].copy(), obs["desired_goal"].copy(), reward.copy(), term.copy(), trunc.copy(),
                    info["is_success"].copy(), info["speed"].copy()))
    return out


def test_same_results_on_any_thread_count():
    actions = np.random.default_rng(0).uniform(-1, 1, (60, 6, 2)).astype(np.float32)
    runs = []
    for threads in (1, 3):
        env = rlpool.make("ParkingParked-v0", num_envs=6, num_threads=threads, seed=11)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    for k, (a, b) in enumerate(zip(*runs, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}"


def test_restore_replays_identically():
    env = rlpool.make("ParkingParked-v0", num_envs=2, seed=7)
    env.reset()
    _trajectory(env, np.full((3, 2, 2), 0.2, np.float32))
    saved = env.get_state(0)
    later = np.repeat(np.random.default_rng(1).uniform(-0.4, 0.4, (8, 1, 2)), 2, axis=1).astype(np.float32)
    first = _trajectory(env, later)
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = _trajectory(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True)), f"step {k}"
        assert all(np.array_equal(y[0], y[1]) for y in b), f"step {k}"
    assert env.get_state(0) == env.get_state(1)


def test_saved_state_starts_highway_envs_episode():
    env = rlpool.make("parking-parked-v0", num_envs=1, seed=0)
    env.reset()
    words = (5, 6, 7, 0x9E3779B97F4A7C15)
    env.set_state(0, with_words(env.get_state(0), words))
    a = np.array([0.3, -0.2], np.float32)
    obs, *_ = env.step(a[None])
    ref = make_reference("parking-parked-v0", {})
    use_words(ref, words)
    ref.reset()
    ref_obs, *_ = ref.step(a)
    for key in ref_obs:
        assert np.array_equal(obs[key][0], ref_obs[key]), key


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"reward_weights": "1,0.3,0"}, "reward_weights"),
        ({"reward_weights": "1,a,0,0,0,0"}, "not a number"),
        ({"vehicles_count": -1}, "vehicles_count"),
        ({"success_goal_reward": float("nan")}, "success_goal_reward"),
        ({"collision_reward": float("inf")}, "collision_reward"),
        ({"observation_type": "MultiAgentObservation", "observation_config_type": "Kinematics",
          "action_type": "MultiAgentAction", "action_config_type": "ContinuousAction"}, "KinematicsGoal"),
        ({"observation_scales": "100,100,5"}, "observation_scales"),
    ],
)
def test_bad_options_are_refused(options, match):
    with pytest.raises((ValueError, TypeError), match=match):
        rlpool.make("Parking-v0", num_envs=1, **options)


def test_too_many_controlled_vehicles_fail_as_highway_env():
    """Controlled vehicles nearest the same spot: highway-env's list.remove fails; rlpool's reset says why."""
    with pytest.raises(ValueError):
        make_reference("Parking-v0", {"controlled_vehicles": 15})
    env = rlpool.make("Parking-v0", num_envs=1, seed=0, controlled_vehicles=15)
    with pytest.raises((RuntimeError, ValueError), match="taken twice"):
        env.reset()


def test_bad_actions_are_refused():
    env = rlpool.make("Parking-v0", num_envs=1, seed=0)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([[0.0, np.nan]], np.float32))
    with pytest.raises((ValueError, TypeError)):
        env.step(np.array([[0.0, 0.1, 0.2]], np.float32))
