"""LaneKeeping-v0 and lane-keeping-v0 against highway-env 1.12.1's LaneKeepingEnv, from the same draws.

Parity: highway-env's ``np_random`` is replaced by a Python copy of rlpool's generator started from the words of
rlpool's reset (``highway_reference``), so the noise of the ``state`` and ``derivative`` attributes is the same
draws (including those of the observations highway-env's define_spaces makes and throws away); whole 200-step
episodes of the same steering actions must give the same observations (state, derivative, reference_state),
rewards and flags within 1e-5. highway-env's LaneKeepingEnv never ends an episode itself: gymnasium's
registration limits it to 200 steps, which is the task's limit here (the reference is wrapped to say so). Its step
info is empty; its reset info (speed, crashed) is compared. Also: spaces and config against highway-env's and
EnvPool 1.2.7's, determinism across thread counts, saved states (across the switch to the sine lane), bad
options. ``RLPOOL_FULL_REFERENCE=1`` runs more seeds and the variants (noise levels, attribute subsets and
orders, steering ranges, DiscreteAction).
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
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS

import_highway_env()

TOL = 1e-5
IDS = ["LaneKeeping-v0", "lane-keeping-v0"]
LIMIT = 200  # gymnasium's max_episode_steps of lane-keeping-v0


class TimeLimited:
    """highway-env's env with gymnasium's step limit (truncated at step ``limit``); its attributes pass through."""

    def __init__(self, env: Any, limit: int) -> None:
        self.__dict__.update(env=env, limit=limit, steps=0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.env, name, value)

    def reset(self, **kwargs: Any) -> Any:
        self.__dict__["steps"] = 0
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.__dict__["steps"] += 1
        return obs, reward, terminated, truncated or self.steps >= self.limit, info


def steering_policy(seed: int, size: int = 1):
    rng = np.random.default_rng(seed)
    return lambda step: rng.uniform(-1, 1, size).astype(np.float32)


def run_episode(task_id: str, options: dict[str, Any], seed: int, policy=None) -> Comparator:
    """One whole episode of rlpool env 0 and highway-env from the same words with the same actions."""
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    ref = TimeLimited(reference(HIGHWAY_ENV_IDS[task_id], options), env.spec.max_episode_steps)
    act = (policy or steering_policy)(seed)
    cmp = Comparator(TOL, f"{task_id} {options} seed={seed}")
    obs, info = env.reset()
    use_words(ref, parse_state(env.get_state(0))[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, ref_info = ref.reset()
    compare_step(cmp, 0, (obs, None, None, None, info), (ref_obs, None, None, None, ref_info), 0, True)
    for step in range(1, env.spec.max_episode_steps + 1):
        action = act(step)
        rl = env.step(np.asarray(action)[None])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ref.step(action)
        compare_step(cmp, step, rl, theirs, 0, False)
        if rl[2][0] or rl[3][0]:
            assert not rl[2][0] and step == env.spec.max_episode_steps  # only the step limit ends it
            break
    env.close()
    return cmp


# --------------------------------------------------------------------------- registration, spaces, config


def test_ids_are_lane_keeping_env():
    for task_id in IDS:
        assert task_id in rlpool.list_all_envs()
        assert rlpool.registry.task(task_id).env_type == "LaneKeepingEnv"
        assert HIGHWAY_ENV_IDS[task_id] == "lane-keeping-v0"


@pytest.mark.parametrize("task_id", IDS)
def test_spaces_and_config_are_highway_envs(task_id):
    ref = reference(HIGHWAY_ENV_IDS[task_id])
    spec = rlpool.make_spec(task_id)
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space
    c, config = ref.config, spec.config
    for key in ("state_noise", "derivative_noise", "simulation_frequency", "policy_frequency", "screen_width",
                "screen_height", "scaling", "neighbour_vehicles_connected_lanes"):
        assert config[key] == c[key], key
    assert config["controlled_vehicles"] == 1 and len(ref.controlled_vehicles) == 1
    assert (config["centering_position_x"], config["centering_position_y"]) == tuple(c["centering_position"])
    assert config["observation_type"] == c["observation"]["type"]
    assert config["observation_attributes"].split(",") == c["observation"]["attributes"]
    action = c["action"]
    assert config["action_type"] == action["type"]
    assert [float(v) for v in config["action_steering_range"].split(",")] == action["steering_range"]
    assert (config["action_longitudinal"], config["action_lateral"], config["action_dynamical"]) == (
        action["longitudinal"], action["lateral"], action["dynamical"])
    assert spec.max_episode_steps == LIMIT


_ENVPOOL_SPACES = """
import json, sys, envpool
out = {}
for task_id in json.loads(sys.argv[1]):
    s = envpool.make_spec(task_id)
    obs = {k: [list(v.shape), str(v.dtype)] for k, v in s.observation_space.spaces.items()}
    a = s.action_space
    out[task_id] = {"obs": obs, "action": [list(a.shape), str(a.dtype), a.low.tolist(), a.high.tolist()],
                    "max_episode_steps": s.config.max_episode_steps, "state_noise": s.config.state_noise,
                    "derivative_noise": s.config.derivative_noise}
print(json.dumps(out))
"""


@pytest.mark.skipif(not FULL, reason="EnvPool 1.2.7 starts in a child Python (seconds): RLPOOL_FULL_REFERENCE=1")
def test_spaces_are_envpools():
    """The ids' spaces, noise levels and time limit are EnvPool 1.2.7's (its Dict lists the keys in another order)."""
    from envpool127 import envpool_python

    run = subprocess.run([str(envpool_python()), "-c", _ENVPOOL_SPACES, json.dumps(IDS)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    theirs = json.loads(run.stdout)
    for task_id in IDS:
        spec = rlpool.make_spec(task_id)
        obs = {k: [list(v.shape), str(v.dtype)] for k, v in spec.observation_space.spaces.items()}
        assert obs == theirs[task_id]["obs"], task_id
        a = spec.action_space
        assert [list(a.shape), str(a.dtype), a.low.tolist(), a.high.tolist()] == theirs[task_id]["action"], task_id
        assert spec.max_episode_steps == theirs[task_id]["max_episode_steps"], task_id
        assert spec.config["state_noise"] == theirs[task_id]["state_noise"]
        assert spec.config["derivative_noise"] == theirs[task_id]["derivative_noise"]


# --------------------------------------------------------------------------- parity


@pytest.mark.parametrize("task_id", IDS)
def test_episodes_match_highway_env(task_id):
    worst, values = 0.0, 0
    for k in range(4 if FULL else 2):
        cmp = run_episode(task_id, {}, 40 + 3 * k + (task_id == "lane-keeping-v0"))
        assert cmp.values > 0
        worst, values = max(worst, cmp.max_error), values + cmp.values
    print(f"{task_id}: {values} values, max |rlpool - highway-env| = {worst:.3g}")


def test_gentle_steering_reaches_the_sine_lane():
    """Small actions keep the vehicle near its lanes: it leaves the straight lane, and the reward follows the sine
    lane (the reference's lane is checked to have switched too)."""
    env = rlpool.make("LaneKeeping-v0", num_envs=1, seed=3)
    ref = TimeLimited(reference("lane-keeping-v0"), LIMIT)
    cmp = Comparator(TOL, "gentle")
    env.reset()
    use_words(ref, parse_state(env.get_state(0))[1])
    ref.reset()
    rng = np.random.default_rng(3)
    for step in range(1, LIMIT + 1):
        action = rng.uniform(-0.05, 0.05, 1).astype(np.float32)
        compare_step(cmp, step, env.step(action[None]), ref.step(action), 0, False)
    assert not ref.lanes and ref.lane is ref.road.network.get_lane(("a", "b", 0))
    print(f"gentle steering: max error {cmp.max_error:.3g}")


# (options): other configurations; the default run takes the first. rlpool's action options keep LaneKeeping's
# defaults (steering range pi/3) where highway-env's new action dict takes the type's (pi/4): given here.
PI_3 = [-np.pi / 3, np.pi / 3]
VARIANTS = [
    {"state_noise": 0.3, "derivative_noise": 0.0},
    {"observation_type": "AttributesObservation", "observation_attributes": ["reference_state", "derivative", "state"]},
    {"observation_type": "AttributesObservation", "observation_attributes": ["derivative"]},
    {"action_type": "ContinuousAction", "action_steering_range": [-0.5, 0.25], "action_longitudinal": False,
     "action_lateral": True, "action_dynamical": True},
    {"action_type": "ContinuousAction", "action_longitudinal": True, "action_lateral": True,
     "action_dynamical": True, "action_steering_range": PI_3},
    {"action_type": "DiscreteAction", "action_longitudinal": False, "action_lateral": True, "action_dynamical": True,
     "action_actions_per_axis": 7, "action_steering_range": PI_3},
    {"simulation_frequency": 20, "policy_frequency": 5, "max_episode_steps": 80},
]


def variant_policy(options: dict[str, Any]):
    if options.get("action_type") == "DiscreteAction":
        return lambda seed: (lambda rng: lambda step: int(rng.integers(7)))(np.random.default_rng(seed))
    if options.get("action_longitudinal") is True:
        return lambda seed: steering_policy(seed, 2)
    return None


@pytest.mark.parametrize("options", VARIANTS if FULL else VARIANTS[:1])
def test_variants_match_highway_env(options):
    worst = 0.0
    for seed in range(2 if FULL else 1):
        worst = max(worst, run_episode("LaneKeeping-v0", options, 70 + seed, variant_policy(options)).max_error)
    print(f"{options}: max error {worst:.3g}")


def test_the_comparison_fails_on_a_perturbed_reference():
    """The check has teeth: other noise in highway-env, or its vehicle nudged by 1 mm, is caught."""
    with pytest.raises(EpisodeMismatch, match=r"reset obs\['state'\]"):
        run_episode_pair = rlpool.make("LaneKeeping-v0", num_envs=1, seed=1)
        ref = reference("lane-keeping-v0", {"state_noise": 0.06})
        obs, info = run_episode_pair.reset()
        use_words(ref, parse_state(run_episode_pair.get_state(0))[1])
        ref_obs, ref_info = ref.reset()
        compare_step(Comparator(TOL, "noise"), 0, (obs, None, None, None, info),
                     (ref_obs, None, None, None, ref_info), 0, True)
    env = rlpool.make("LaneKeeping-v0", num_envs=1, seed=1)
    ref = reference("lane-keeping-v0")
    env.reset()
    use_words(ref, parse_state(env.get_state(0))[1])
    ref.reset()
    ref.vehicle.position[1] += 0.001
    a = np.zeros(1, np.float32)
    with pytest.raises(EpisodeMismatch, match=r"step 1 obs\['(reference_)?state'\] differs"):
        compare_step(Comparator(TOL, "nudged"), 1, env.step(a[None]), ref.step(a), 0, False)


def test_observation_is_taken_before_the_simulation():
    """highway-env's LaneKeepingEnv.step observes before it simulates: the step's state is the previous position."""
    env = rlpool.make("LaneKeeping-v0", num_envs=1, seed=0, state_noise=0.0, derivative_noise=0.0)
    obs, _ = env.reset()
    start = obs["state"][0].copy()
    obs, *_ = env.step(np.array([[0.5]], np.float32))
    assert np.array_equal(obs["state"][0], start)  # the position, heading, speeds have not moved yet
    assert not np.array_equal(obs["derivative"][0][2:], np.zeros((2, 1)))  # but the steering acts already
    obs2, *_ = env.step(np.array([[0.5]], np.float32))
    assert not np.array_equal(obs2["state"][0], start)


# --------------------------------------------------------------------------- determinism and states


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs["state"].copy(), obs["derivative"].copy(), obs["reference_state"].copy(), reward.copy(),
                    term.copy(), trunc.copy()))
    return out


def test_same_results_on_any_thread_count():
    actions = np.random.default_rng(0).uniform(-0.3, 0.3, (60, 5, 1)).astype(np.float32)
    runs = []
    for threads in (1, 3):
        env = rlpool.make("LaneKeeping-v0", num_envs=5, num_threads=threads, seed=11)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    for k, (a, b) in enumerate(zip(*runs, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}"


def test_restore_replays_identically_across_the_lane_switch():
    """A state saved on the straight lane replays onto the sine lane (the lane followed is part of the replay).

    (The pool's step count, which the 200-step limit reads, is not part of a state: the steps stay below it.)
    """
    env = rlpool.make("LaneKeeping-v0", num_envs=2, seed=7)
    env.reset()
    _trajectory(env, np.zeros((20, 2, 1), np.float32))
    saved = env.get_state(0)
    later = np.repeat(np.random.default_rng(1).uniform(-0.05, 0.05, (60, 1, 1)), 2, axis=1).astype(np.float32)
    first = _trajectory(env, later)
    lane_heading = np.array([step[2][0, 1, 0] for step in first])
    assert lane_heading[0] == lane_heading[5] != lane_heading[-1]  # the straight lane's heading, then the sine's
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = _trajectory(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True)), f"step {k}"
        assert all(np.array_equal(y[0], y[1]) for y in b), f"step {k}"
    assert env.get_state(0) == env.get_state(1)


def test_later_episodes_draw_as_highway_envs_later_resets():
    """The episode after an autoreset starts from its words as highway-env's next reset does."""
    env = rlpool.make("LaneKeeping-v0", num_envs=1, seed=5, max_episode_steps=3)
    env.reset()
    for _ in range(3):
        env.step(np.zeros((1, 1), np.float32))
    obs, *_ = env.step(np.zeros((1, 1), np.float32))  # the autoreset
    words = parse_state(env.get_state(0))[1]
    ref = reference("lane-keeping-v0")
    ref.reset()
    use_words(ref, words)
    ref_obs, _ = ref.reset()
    for key in ref_obs:
        assert np.array_equal(obs[key][0], ref_obs[key]), key


def test_saved_state_starts_highway_envs_episode():
    env = rlpool.make("lane-keeping-v0", num_envs=1, seed=0)
    env.reset()
    words = (11, 12, 13, 0x9E3779B97F4A7C15)
    env.set_state(0, with_words(env.get_state(0), words))
    a = np.array([0.4], np.float32)
    obs, reward, *_ = env.step(a[None])
    ref = reference("lane-keeping-v0")
    use_words(ref, words)
    ref.reset()
    ref_obs, ref_reward, *_ = ref.step(a)
    for key in ref_obs:
        assert np.array_equal(obs[key][0], ref_obs[key]), key
    assert reward[0] == ref_reward


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"state_noise": float("nan")}, "state_noise"),
        ({"derivative_noise": float("inf")}, "derivative_noise"),
        ({"action_dynamical": False}, "BicycleVehicle"),
        ({"action_type": "DiscreteMetaAction"}, "BicycleVehicle"),
        ({"observation_attributes": "state,lane"}, "no attribute 'lane'"),
        ({"observation_attributes": ""}, "observation_attributes"),
        ({"observation_type": "MultiAgentObservation", "observation_config_type": "AttributesObservation",
          "action_type": "MultiAgentAction", "action_config_type": "ContinuousAction"}, "MultiAgent"),
    ],
)
def test_bad_options_are_refused(options, match):
    with pytest.raises((ValueError, TypeError), match=match):
        rlpool.make("LaneKeeping-v0", num_envs=1, **options)


def test_bad_actions_are_refused():
    env = rlpool.make("LaneKeeping-v0", num_envs=1, seed=0)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([[np.nan]], np.float32))
    with pytest.raises((ValueError, TypeError)):
        env.step(np.array([[0.0, 0.1]], np.float32))
