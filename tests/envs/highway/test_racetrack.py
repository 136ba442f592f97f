"""Racetrack-v0/-v1, RacetrackLarge-v0/-v1, RacetrackOval-v0/-v1 (and highway-env's spellings) against highway-env
1.12.1's racetrack scenarios, from the same draws.

Parity: rlpool's env and highway-env's start each episode from the same generator words (the reference's
``np_random`` is a ``XoshiroGenerator``), so the ego lane and place and the IDM vehicles' lanes, places and speeds
are the same; then the same actions must give the same occupancy grids, rewards, flags and info over whole
episodes: random steering (which soon leaves the road and ends the episode) and a lane-following controller that
reads highway-env's ego vehicle (laps with the other vehicles, to a shortened time limit).

Two references: highway-env with its scalar transcendental functions computed by the C library
(``highway_libm``), as the C++ computes them, must agree to 1e-9 (measured: within 1e-20 over 30 episodes per
id); highway-env as it is (numpy's SIMD kernels) within 1e-5 (measured: within 1e-15). The reward follows
highway-env's float32 arithmetic where the float32 action's norm enters it. highway-env's reset info evaluates
the rewards with a sample of the action space from a generator of its own (``action_reward`` is its norm); rlpool's
reset has taken no action, so the reference's sample is made the zero action. RacetrackOval's length 0 (a random
length from an unseeded generator in highway-env) is compared by giving highway-env the generator rlpool uses.
Also: spaces and config against highway-env's, determinism across thread counts, saved states, refused
configurations. ``RLPOOL_FULL_REFERENCE=1`` runs more seeds and configurations.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable
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
from xoshiro import XoshiroGenerator

import rlpool
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS

import_highway_env()

EXACT = 1e-9
TOL = 1e-5
IDS = ["Racetrack-v0", "racetrack-v0", "Racetrack-v1", "racetrack-v1", "RacetrackLarge-v0", "racetrack-large-v0",
       "RacetrackLarge-v1", "racetrack-large-v1", "RacetrackOval-v0", "racetrack-oval-v0", "RacetrackOval-v1",
       "racetrack-oval-v1"]
ENV_TYPES = {"Racetrack": "RacetrackEnv", "RacetrackLarge": "RacetrackEnvLarge", "RacetrackOval": "RacetrackEnvOval"}
# Laps with the lane-following controller: more vehicles, a shorter time limit (150 steps at 5 Hz; 40 by default).
LAPS = {"other_vehicles": 6, "duration": 15.0 if FULL else 8.0}
# (rlpool id, options): other layouts, obstacles, vehicles, action types and reward settings.
VARIANTS = [
    ("RacetrackOval-v0", {"no_lanes": 4, "length": 150.0, "block_lane": True, "force_decision": True,
                          "other_vehicles": 4}),
    ("Racetrack-v1", {"controlled_vehicles": 2, "other_vehicles": 8, "terminate_off_road": False, "duration": 12.0}),
    ("RacetrackLarge-v0", {"speed_limit": 14.0, "lane_centering_cost": 2.0, "action_reward": -0.5}),
    ("RacetrackOval-v1", {"no_lanes": 2, "length": 120.0, "collision_reward": -2.0}),
    ("Racetrack-v0", {"action_type": "ContinuousAction", "action_longitudinal": True, "action_lateral": True}),
    ("RacetrackLarge-v1", {"action_type": "DiscreteAction", "action_longitudinal": False, "action_lateral": True,
                           "action_actions_per_axis": 5}),
    ("Racetrack-v0", {"policy_frequency": 3, "simulation_frequency": 12, "other_vehicles": 3}),
]


def zero_action_at_reset(ref: Any) -> None:
    """Make the action space sample of highway-env's reset info the zero action (rlpool's reset takes none)."""
    define_spaces = ref.define_spaces

    def define_and_fix() -> None:
        define_spaces()
        space = ref.action_space
        value = 0 if hasattr(space, "n") else np.zeros(space.shape, space.dtype)
        space.sample = lambda mask=None: value

    ref.define_spaces = define_and_fix


def lane_follower(ref: Any, seed: int) -> Callable[[int], np.ndarray]:
    """Steering that follows highway-env's ego vehicle's lane (a pure pursuit with a little noise), as float32."""
    rng = np.random.default_rng(seed)

    def policy(step: int) -> np.ndarray:
        v = ref.vehicle
        longitudinal, lateral = v.lane.local_coordinates(v.position)
        target = v.lane.heading_at(longitudinal + 0.6 * v.speed) - 0.15 * lateral
        error = (target - v.heading + np.pi) % (2 * np.pi) - np.pi
        steering = np.clip(error / (np.pi / 4) + rng.normal(0, 0.05), -1, 1)
        return np.asarray([steering], np.float32)

    return policy


def run_episode(task_id: str, seed: int, options: dict[str, Any] | None = None, libm: bool = True,
                follow: bool = False) -> Comparator:
    """One whole episode of rlpool and highway-env from the same words with the same actions."""
    options = options or {}
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    # highway_reference reads action_* options as keys of highway-env's action dict: action_reward is not one.
    ref = reference(HIGHWAY_ENV_IDS[task_id], {k: v for k, v in options.items() if k != "action_reward"})
    if "action_reward" in options:
        ref.config["action_reward"] = options["action_reward"]
    zero_action_at_reset(ref)
    space = env.single_action_space
    space.seed(seed)
    policy = lane_follower(ref, seed) if follow else (lambda step: space.sample())
    label = f"{task_id} {options} seed={seed} {'libm' if libm else 'numpy'}{' follow' if follow else ''}"
    cmp = Comparator(EXACT if libm else TOL, label)
    with libm_numpy() if libm else contextlib.nullcontext(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rl_obs, rl_info = env.reset()
        _, words, _, _ = parse_state(env.get_state(0))
        use_words(ref, words)
        ref_obs, ref_info = ref.reset()
        compare_step(cmp, 0, (rl_obs, None, None, None, rl_info), (ref_obs, None, None, None, ref_info), 0, True)
        for step in range(1, env.spec.max_episode_steps + 1):
            action = policy(step)
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
        name = task_id.split("-")[0]
        camel = name if name[0].isupper() else {"racetrack": "Racetrack", "large": "RacetrackLarge",
                                                "oval": "RacetrackOval"}[task_id.split("-")[-2]]
        assert rlpool.registry.task(task_id).env_type == ENV_TYPES[camel]
        assert HIGHWAY_ENV_IDS[task_id] == {"Racetrack": "racetrack-", "RacetrackLarge": "racetrack-large-",
                                            "RacetrackOval": "racetrack-oval-"}[camel] + task_id[-2:]
        assert rlpool.make_spec(task_id).config["neighbour_vehicles_connected_lanes"] == task_id.endswith("v1")


@pytest.mark.parametrize("task_id", ["Racetrack-v0", "RacetrackLarge-v1", "RacetrackOval-v0"])
def test_spaces_and_config_are_highway_envs(task_id):
    ref = reference(HIGHWAY_ENV_IDS[task_id])
    spec = rlpool.make_spec(task_id)
    assert spec.observation_space == ref.observation_space
    assert spec.observation_space.shape == (2, 12, 12)
    assert spec.action_space == ref.action_space
    c, config = ref.config, spec.config
    keys = ["duration", "collision_reward", "lane_centering_cost", "lane_centering_reward", "action_reward",
            "controlled_vehicles", "other_vehicles", "speed_limit", "terminate_off_road", "simulation_frequency",
            "policy_frequency", "neighbour_vehicles_connected_lanes", "screen_width", "screen_height", "scaling"]
    if "Oval" in task_id:
        keys += ["length", "no_lanes", "block_lane", "force_decision"]
    for key in keys:
        assert config[key] == c[key], key
    assert (config["centering_position_x"], config["centering_position_y"]) == tuple(c["centering_position"])
    observation, action = c["observation"], c["action"]
    assert config["observation_type"] == observation["type"] == "OccupancyGrid"
    assert config["observation_features"].split(",") == observation["features"]
    assert [float(v) for v in config["observation_grid_size"].split(",")] == sum(observation["grid_size"], [])
    assert [float(v) for v in config["observation_grid_step"].split(",")] == observation["grid_step"]
    assert config["observation_align_to_vehicle_axes"] is observation["align_to_vehicle_axes"] is True
    assert config["observation_as_image"] is observation["as_image"] is False
    assert config["action_type"] == action["type"] == "ContinuousAction"
    assert (config["action_longitudinal"], config["action_lateral"]) == (action["longitudinal"], action["lateral"])
    # highway-env truncates at time >= 300, 0.2 s added per step: 1500 additions stay below 300.
    assert spec.max_episode_steps == 1501


# --------------------------------------------------------------------------- parity


@pytest.mark.parametrize("task_id", IDS if FULL else IDS[::2])  # the lower-case spellings are the same tasks
def test_episodes_match_highway_env(task_id):
    worst = 0.0
    seeds = range(4 if FULL else 1)
    for seed in seeds:
        cmp = run_episode(task_id, 100 + seed)
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
    print(f"{task_id}: {len(seeds)} episodes, max |rlpool - highway-env (libm)| = {worst:.3g}")


@pytest.mark.parametrize("task_id", ["Racetrack-v0", "RacetrackLarge-v1", "RacetrackOval-v0"] if FULL
                         else ["RacetrackOval-v0"])
def test_laps_match_highway_env(task_id):
    worst = 0.0
    for seed in range(2 if FULL else 1):
        cmp = run_episode(task_id, 500 + seed, LAPS, follow=True)
        # The controller keeps to the track (only steering: it may still run into a slower vehicle in the end).
        assert cmp.values > 20 * 2 * 12 * 12
        worst = max(worst, cmp.max_error)
    print(f"{task_id} laps: max |rlpool - highway-env (libm)| = {worst:.3g}")


@pytest.mark.parametrize("task_id", ["Racetrack-v0", "RacetrackLarge-v0", "RacetrackOval-v1"] if FULL
                         else ["Racetrack-v0"])
def test_episodes_match_highway_env_with_numpy_math(task_id):
    worst = 0.0
    for seed in range(3 if FULL else 2):
        worst = max(worst, run_episode(task_id, 300 + seed, libm=False).max_error)
    if FULL:
        worst = max(worst, run_episode(task_id, 400, LAPS, libm=False, follow=True).max_error)
    print(f"{task_id}: max |rlpool - highway-env (numpy)| = {worst:.3g}")


@pytest.mark.parametrize(("task_id", "options"), VARIANTS if FULL else VARIANTS[:1])
def test_variants_match_highway_env(task_id, options):
    worst = 0.0
    for seed in range(2 if FULL else 1):
        worst = max(worst, run_episode(task_id, 200 + seed, options).max_error)
    print(f"{task_id} {options}: max error {worst:.3g}")


def _splitmix_words(seed: int) -> tuple[int, int, int, int]:
    """The words of rlpool's ``Rng(seed)`` (splitmix64)."""
    mask, words = (1 << 64) - 1, []
    for _ in range(4):
        seed = (seed + 0x9E3779B97F4A7C15) & mask
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        words.append(z ^ (z >> 31))
    return tuple(words)  # type: ignore[return-value]


def test_random_oval_length_is_highway_envs_draw_from_rlpool_generator(monkeypatch):
    """length 0: rlpool draws the length from a generator seeded from the episode's words (highway-env's is unseeded);
    given that generator, highway-env builds the same track."""
    from highway_env.envs import racetrack_env

    options = {"length": 0.0, "other_vehicles": 3}
    words_now: list[tuple[int, int, int, int]] = [(1, 2, 3, 4)]

    def default_rng(*args: Any) -> XoshiroGenerator:
        w = words_now[0]
        return XoshiroGenerator(_splitmix_words(w[0] ^ w[1] ^ w[2] ^ w[3] ^ 0x7261636574726163))

    monkeypatch.setattr(racetrack_env.np.random, "default_rng", default_rng)
    lengths = set()
    for seed in range(3 if FULL else 2):
        env = rlpool.make("RacetrackOval-v0", num_envs=1, seed=seed, **options)
        ref = reference("racetrack-oval-v0", options)
        zero_action_at_reset(ref)
        cmp = Comparator(EXACT, f"RacetrackOval-v0 length 0 seed={seed}")
        follow = lane_follower(ref, seed)
        with libm_numpy(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rl_obs, rl_info = env.reset()
            _, words, _, _ = parse_state(env.get_state(0))
            words_now[0] = words
            use_words(ref, words)
            ref_obs, ref_info = ref.reset()
            lengths.add(float(ref.road.network.get_lane(("a", "b", 0)).length))
            compare_step(cmp, 0, (rl_obs, None, None, None, rl_info), (ref_obs, None, None, None, ref_info), 0, True)
            for step in range(1, 30 if FULL else 6):
                action = follow(step)
                rl = env.step(np.asarray(action)[None])
                compare_step(cmp, step, rl, ref.step(action), 0, False)
                if rl[2][0] or rl[3][0]:
                    break
        assert cmp.values > 0
    assert all(101 <= n < 201 for n in lengths) and len(lengths) > 1, lengths  # lane ("a", "b") is length + 1 long


def test_reset_info_reports_no_action():
    env = rlpool.make("Racetrack-v0", num_envs=2, seed=3)
    _, info = env.reset()
    assert np.array_equal(info["action_reward"], [0.0, 0.0])
    _, _, _, _, info = env.step(np.array([[0.5], [-0.25]], np.float32))
    assert np.array_equal(info["action_reward"], [0.5, 0.25])


# --------------------------------------------------------------------------- determinism, saved states, bad input


def _trajectory(env: Any, actions: np.ndarray) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["speed"].copy()))
    return out


@pytest.mark.parametrize("task_id", ["Racetrack-v1", "RacetrackOval-v0"])
def test_same_results_on_any_thread_count(task_id):
    actions = np.random.default_rng(0).uniform(-1, 1, (40, 4, 1)).astype(np.float32)  # with autoresets
    runs = []
    for threads in (1, 3):
        env = rlpool.make(task_id, num_envs=4, num_threads=threads, seed=4, other_vehicles=5)
        env.reset()
        runs.append(_trajectory(env, actions))
        env.close()
    assert_runs_equal(runs)


@pytest.mark.parametrize("task_id", ["Racetrack-v0", "RacetrackLarge-v1"])
def test_restore_replays_identically(task_id):
    env = rlpool.make(task_id, num_envs=2, seed=4)
    env.reset()
    _trajectory(env, np.zeros((3, 2, 1), np.float32))
    later = np.repeat(np.asarray([[[0.05]], [[-0.05]], [[0.0]], [[0.02]]], np.float32), 2, axis=1)
    assert_restore_replays(env, _trajectory, later)


def test_configurations_highway_env_fails_on_are_refused():
    # The controlled vehicles are placed by action_type.vehicle_class.make_on_lane: a functools.partial for
    # DiscreteMetaAction, which has no make_on_lane.
    with pytest.raises(ValueError, match="DiscreteMetaAction"):
        rlpool.make("Racetrack-v0", num_envs=1, action_type="DiscreteMetaAction")
    # no_lanes 0 draws a random lane count for the road, then np_random.integers(0) fails in _make_vehicles.
    with pytest.raises(ValueError, match="no_lanes"):
        rlpool.make("RacetrackOval-v0", num_envs=1, no_lanes=0)
    with pytest.raises(ValueError, match="length"):
        rlpool.make("RacetrackOval-v1", num_envs=1, length=-10.0)
    with pytest.raises(ValueError, match="collision_reward"):
        rlpool.make("Racetrack-v0", num_envs=1, collision_reward=1.0)
    with pytest.raises(ValueError, match="speed_limit"):
        rlpool.make("RacetrackLarge-v0", num_envs=1, speed_limit=0.0)
