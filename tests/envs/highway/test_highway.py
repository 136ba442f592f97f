"""The Highway scenarios (Highway-v0, HighwayFast-v0 and highway-env's spellings) against highway-env 1.12.1.

Parity: highway-env's ``np_random`` (which its road shares) is replaced by a Python copy of rlpool's generator
started from the words of rlpool's reset (``highway_reference``), so both draw the same numbers; whole episodes of
the same actions must give the same observations, rewards, flags and info (within 1e-5; in practice within
1e-15). Statistics: with highway-env's own numpy generator, the traffic its resets create has the distribution
of rlpool's (two-sample Kolmogorov-Smirnov over 500 resets), and a shifted traffic density is told apart.
Also: spaces and config against highway-env's, the time limit, determinism, saved states, bad input.
The default run compares a sample; ``RLPOOL_FULL_REFERENCE=1`` runs more episodes and Highway-v0's traffic.
"""

from __future__ import annotations

import numpy as np
import pytest
from highway_reference import (
    EpisodeMismatch,
    import_highway_env,
    parse_state,
    reference,
    reference_config,
    run_pair,
    use_words,
    with_words,
)
from lane import FULL

import rlpool
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS, duration_steps

IDS = ["Highway-v0", "highway-v0", "HighwayFast-v0", "highway-fast-v0"]


def cautious_policy(seed: int):
    """Mostly idle, with lane and speed changes now and then: episodes that often last to the time limit."""
    rng = np.random.default_rng(seed)
    return lambda step: int(rng.choice(5, p=[0.1, 0.6, 0.1, 0.1, 0.1]))


def random_policy(seed: int):
    rng = np.random.default_rng(seed)
    return lambda step: int(rng.integers(5))


# --------------------------------------------------------------------------- registration and spaces


def test_both_spellings_are_registered_as_highway_envs_scenarios():
    for task_id in IDS:
        assert task_id in rlpool.list_all_envs()
        assert HIGHWAY_ENV_IDS[task_id] == task_id.replace("HighwayFast", "highway-fast").replace("Highway", "highway")
    assert rlpool.registry.task("Highway-v0").env_type == "HighwayEnv"
    assert rlpool.registry.task("highway-fast-v0").env_type == "HighwayEnvFast"


@pytest.mark.parametrize("task_id", IDS)
def test_spaces_and_config_are_highway_envs(task_id):
    ref = reference(HIGHWAY_ENV_IDS[task_id])
    spec = rlpool.make_spec(task_id)
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space
    c, config = ref.config, spec.config
    for key in ("lanes_count", "vehicles_count", "controlled_vehicles", "duration", "ego_spacing", "vehicles_density",
                "collision_reward", "right_lane_reward", "high_speed_reward", "lane_change_reward", "normalize_reward",
                "offroad_terminal", "simulation_frequency", "policy_frequency", "neighbour_vehicles_connected_lanes",
                "screen_width", "screen_height", "scaling"):
        assert config[key] == c[key], key
    assert [config["reward_speed_low"], config["reward_speed_high"]] == c["reward_speed_range"]
    assert (config["centering_position_x"], config["centering_position_y"]) == tuple(c["centering_position"])
    assert config["initial_lane_id"] == -1 and c["initial_lane_id"] is None
    assert config["observation_type"] == c["observation"]["type"]
    assert config["action_type"] == c["action"]["type"]
    assert config["other_vehicles_type"] == c["other_vehicles_type"]
    assert spec.max_episode_steps == c["duration"]
    # HighwayEnvFast: only the controlled vehicles check collisions.
    assert config["other_vehicles_check_collisions"] == (rlpool.registry.task(task_id).env_type == "HighwayEnv")


def test_time_limit_is_highway_envs_float_time():
    """highway-env truncates at time >= duration, time summed in floats: the task's limit is that step."""
    assert duration_steps(40, 1) == 40
    assert duration_steps(300, 5) == 1501  # 0.2 added 1500 times stays below 300
    assert duration_steps(100, 5) == 500
    assert duration_steps(0, 1) == 1
    assert rlpool.make_spec("Highway-v0", duration=7.0).max_episode_steps == 7
    assert rlpool.make_spec("Highway-v0", duration=4.0, policy_frequency=3).max_episode_steps == duration_steps(4, 3)
    assert rlpool.make_spec("Highway-v0", max_episode_steps=5).max_episode_steps == 5
    env = rlpool.make("HighwayFast-v0", num_envs=1, seed=3, duration=3.0, vehicles_count=0)
    env.reset()
    flags = []
    for _ in range(3):
        _, _, term, trunc, info = env.step(np.array([1]))
        flags.append((bool(term[0]), bool(trunc[0])))
    assert flags == [(False, False), (False, False), (False, True)]


# --------------------------------------------------------------------------- parity


# (task id, policy, episodes): the default run's sample; highway-env steps Highway-v0 at about 4 steps/s.
EPISODES = [("Highway-v0", "random", 1), ("highway-fast-v0", "random", 2), ("highway-fast-v0", "cautious", 2)]
if FULL:  # the second spelling of a scenario is the same env type: a few episodes suffice
    _FULL_EPISODES = {"Highway-v0": 3, "highway-v0": 1, "highway-fast-v0": 6, "HighwayFast-v0": 2}
    EPISODES = [(t, p, _FULL_EPISODES[t]) for t in IDS for p in ("random", "cautious")]


@pytest.mark.parametrize(("task_id", "policy", "episodes"), EPISODES)
def test_episodes_match_highway_env(task_id, policy, episodes):
    worst = 0.0
    for k in range(episodes):
        seed = 1000 + 17 * k
        env = rlpool.make(task_id, num_envs=1, seed=seed)
        ref = reference(HIGHWAY_ENV_IDS[task_id])
        act = (random_policy if policy == "random" else cautious_policy)(seed)
        cmp = run_pair(env, ref, act, f"{task_id} {policy} seed={seed}")
        assert cmp.values > 0
        worst = max(worst, cmp.max_error)
        env.close()
    print(f"{task_id} {policy}: {episodes} episodes, max |rlpool - highway-env| = {worst:.3g}")


VARIANTS = {
    "linear-drivers": {"vehicles_count": 10, "other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle"},
    "aggressive-drivers": {"vehicles_count": 10, "other_vehicles_type": "AggressiveVehicle"},
    "defensive-drivers": {"vehicles_count": 10, "other_vehicles_type": "DefensiveVehicle"},
    "two-lanes-three-egos": {"lanes_count": 2, "initial_lane_id": 1, "controlled_vehicles": 3, "vehicles_count": 12,
                             "normalize_reward": False, "offroad_terminal": True,
                             "neighbour_vehicles_connected_lanes": True, "reward_speed_low": 15.0,
                             "collision_reward": -2.0, "right_lane_reward": 0.3, "ego_spacing": 1.0,
                             "vehicles_density": 1.5, "policy_frequency": 3, "duration": 10.0},
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_options_match_highway_env(name):
    options = VARIANTS[name]
    for k in range(3 if FULL else 1):
        env = rlpool.make("highway-fast-v0", num_envs=1, seed=70 + k, **options)
        ref = reference("highway-fast-v0", options)
        cmp = run_pair(env, ref, cautious_policy(70 + k), f"{name} seed={70 + k}")
        assert cmp.values > 0


def test_episode_reaches_the_time_limit_like_highway_env():
    """A whole episode to the time limit (no vehicle ahead to crash into)."""
    options = {"vehicles_count": 3, "duration": 12.0}
    env = rlpool.make("highway-fast-v0", num_envs=1, seed=5, **options)
    ref = reference("highway-fast-v0", options)
    cmp = run_pair(env, ref, lambda step: [3, 1, 1, 4][step % 4], "highway-fast-v0 to the limit")
    _, _, _, trunc, info = env.step(np.array([1]))  # NextStep autoreset: the step after the end is a reset
    assert info["elapsed_step"][0] == 0
    assert cmp.values >= 12 * 25


def test_the_comparison_fails_on_a_perturbed_reference():
    """The parity check has teeth: nudging one value of highway-env's world or results is caught."""
    import_highway_env()
    env = rlpool.make("highway-fast-v0", num_envs=1, seed=9)
    ref = reference("highway-fast-v0")
    original_step = ref.step
    count = {"n": 0}

    def nudged_step(action):
        obs, reward, term, trunc, info = original_step(action)
        count["n"] += 1
        if count["n"] == 2:
            obs = obs.copy()
            obs[1, 1] += 1e-4
        return obs, reward, term, trunc, info

    ref.step = nudged_step
    with pytest.raises(EpisodeMismatch, match=r"step 2 obs differs by 0.0001"):
        run_pair(env, ref, lambda step: 1, "nudged observation")

    # A vehicle moved by 1 cm in highway-env's world (not in its results) shows up later.
    env = rlpool.make("highway-fast-v0", num_envs=1, seed=9)
    ref = reference("highway-fast-v0")
    original_reset = ref.reset

    def moved_reset(**kwargs):
        result = original_reset(**kwargs)
        ref.road.vehicles[1].position[0] += 0.01
        return result

    ref.reset = moved_reset
    with pytest.raises(EpisodeMismatch, match=r"step 1 obs differs"):
        run_pair(env, ref, lambda step: 1, "moved vehicle")


# --------------------------------------------------------------------------- reset statistics

_STATS_OPTIONS = {"observation_type": "Kinematics", "observation_vehicles_count": 12, "observation_absolute": True,
                  "observation_normalize": False, "observation_features": ["presence", "x", "y", "vx"]}


def _traffic_stats(observations: np.ndarray) -> dict[str, np.ndarray]:
    """Per reset: vehicles within sight, their gaps along the road, their lanes (y) and speeds."""
    present = observations[..., 0] > 0
    counts = present.sum(axis=1).astype(np.float64)
    gaps, ys, speeds, ego_lane = [], [], [], []
    for obs, mask in zip(observations, present, strict=True):
        rows = obs[mask]
        xs = np.sort(rows[:, 1])
        gaps.extend(np.diff(xs))
        ys.extend(rows[1:, 2])
        speeds.extend(rows[1:, 3])
        ego_lane.append(rows[0, 2])
    return {"count": counts, "gap": np.asarray(gaps), "y": np.asarray(ys), "speed": np.asarray(speeds),
            "ego_y": np.asarray(ego_lane)}


def _rlpool_resets(task_id: str, n: int, seed: int, **options) -> np.ndarray:
    env = rlpool.make(task_id, num_envs=n, seed=seed, **_STATS_OPTIONS, **options)
    obs, _ = env.reset()
    env.close()
    return np.asarray(obs, dtype=np.float64)


def _highway_env_resets(highway_env_id: str, n: int, seed: int, options: dict) -> np.ndarray:
    ref = reference(highway_env_id, {**_STATS_OPTIONS, **options})
    return np.stack([np.asarray(ref.reset(seed=seed + i)[0], dtype=np.float64) for i in range(n)])


# The default run: 10 other vehicles (highway-env's reset costs O(vehicles^2)); CI: the tasks' own traffic.
TRAFFIC = [("highway-fast-v0", {}), ("Highway-v0", {})] if FULL else [("highway-fast-v0", {"vehicles_count": 10})]


@pytest.mark.parametrize(("task_id", "options"), TRAFFIC)
def test_reset_traffic_has_highway_envs_distribution(task_id, options):
    stats = pytest.importorskip("scipy.stats")
    n = 500
    ours = _traffic_stats(_rlpool_resets(task_id, n, seed=1, **options))
    theirs = _traffic_stats(_highway_env_resets(HIGHWAY_ENV_IDS[task_id], n, seed=50_000, options=options))
    for key in ours:
        p = stats.ks_2samp(ours[key], theirs[key]).pvalue
        assert p > 0.001, f"{task_id} {key}: KS p={p:.2g}, rlpool mean {ours[key].mean():.3f}, " \
                          f"highway-env {theirs[key].mean():.3f}"
    # Power: denser traffic (10 % smaller gaps) is told apart by the same test.
    denser = _traffic_stats(_rlpool_resets(task_id, n, seed=1, **{**options, "vehicles_density": 1.1}))
    assert stats.ks_2samp(denser["gap"], theirs["gap"]).pvalue < 0.001


# --------------------------------------------------------------------------- determinism and states


def _run(env, steps: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    obs, _ = env.reset()
    out.append(obs.copy())
    for _ in range(steps):
        obs, r, term, trunc, info = env.step(rng.integers(0, 5, env.num_envs))
        out.append((obs.copy(), r.copy(), term.copy(), trunc.copy(), info["speed"].copy()))
    return out


def test_same_seed_same_episodes_whatever_the_threads():
    a = _run(rlpool.make("HighwayFast-v0", num_envs=4, seed=11, num_threads=1), 60, 0)
    b = _run(rlpool.make("HighwayFast-v0", num_envs=4, seed=11, num_threads=2), 60, 0)
    for x, y in zip(a, b, strict=True):
        for u, v in zip(x if isinstance(x, tuple) else (x,), y if isinstance(y, tuple) else (y,), strict=True):
            assert np.array_equal(u, v)
    c = _run(rlpool.make("HighwayFast-v0", num_envs=4, seed=12, num_threads=2), 5, 0)
    assert not np.array_equal(a[1][0], c[1][0])


def test_async_batches_give_the_sync_episodes():
    """Envs stepped in async batches of 2 (in whatever order they finish) go through the sync pool's episodes."""
    steps = 30
    actions = np.random.default_rng(1).integers(0, 5, (steps + 8, 4))
    sync = rlpool.make("HighwayFast-v0", num_envs=4, seed=21)
    sync.reset()
    expected = [sync.step(a)[0].copy() for a in actions[:steps]]
    env = rlpool.make("HighwayFast-v0", num_envs=4, batch_size=2, seed=21, num_threads=2)
    env.async_reset()
    results = np.zeros(4, int)  # results received per env (the first is the reset's)
    got: dict[int, list] = {i: [] for i in range(4)}
    while results.min() <= steps:
        obs, _, _, _, info = env.recv()
        ids = np.asarray(info["env_id"])
        for k, i in enumerate(ids):
            if 0 < results[i] <= steps:
                got[i].append(obs[k].copy())
            results[i] += 1
        env.send(np.array([actions[min(results[i] - 1, len(actions) - 1)][i] for i in ids]), ids)
    for i in range(4):
        assert len(got[i]) == steps
        for t in range(steps):
            assert np.array_equal(got[i][t], expected[t][i]), (i, t)


def test_saved_state_replays_the_episode():
    env = rlpool.make("HighwayFast-v0", num_envs=2, seed=6, vehicles_count=6)
    env.reset()
    for _ in range(6):
        env.step(np.array([1, 1]))
    saved = env.get_state(0)
    _, words, steps, _ = parse_state(saved)
    assert steps == 6
    later = [3, 1, 0, 1, 4, 2, 1, 1]
    first = [env.step(np.array([a, 1])) for a in later]
    assert not any(r[2][0] or r[3][0] for r in first)  # the episode goes on (no autoreset in between)
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = [env.step(np.array([a, a])) for a in later]
    for x, y in zip(first, second, strict=True):
        assert np.array_equal(x[0][0], y[0][0]) and np.array_equal(x[0][0], y[0][1])
        assert x[1][0] == y[1][0] == y[1][1]
    assert env.get_state(0) == env.get_state(1)


def test_saved_state_starts_highway_envs_episode():
    """Words handed in through a state start the episode highway-env starts from the same words."""
    env = rlpool.make("highway-fast-v0", num_envs=1, seed=0)
    env.reset()
    words = (1, 2, 3, 0x9E3779B97F4A7C15)
    env.set_state(0, with_words(env.get_state(0), words))
    obs, *_ = env.step(np.array([1]))
    ref = reference("highway-fast-v0")
    use_words(ref, words)
    ref.reset()
    ref_obs, *_ = ref.step(1)
    assert np.array_equal(obs[0], ref_obs)


def test_bad_states_are_refused_and_leave_the_env_alone():
    env = rlpool.make("HighwayFast-v0", num_envs=1, seed=0)
    env.reset()
    for a in (1, 3, 1):
        env.step(np.array([a]))
    good = env.get_state(0)
    other = rlpool.make("HighwayFast-v0", num_envs=1, seed=0, lanes_count=4)
    other.reset()
    with pytest.raises(ValueError, match="made as"):
        env.set_state(0, other.get_state(0))
    with pytest.raises(ValueError, match="not a highway env state"):
        env.set_state(0, b"junk" * 20)
    with pytest.raises(ValueError, match="truncated|bytes of actions"):
        env.set_state(0, good[:-3])
    _, _, _, actions = parse_state(good)
    with pytest.raises(ValueError, match="outside the action space"):
        env.set_state(0, good[: len(good) - len(actions)] + np.asarray([1, 7, 1], np.int64).tobytes())
    head = good[: len(good) - len(actions) - 8]
    with pytest.raises(ValueError, match=r"holds 24 bytes of actions for 2305843009213693955 steps of 8 bytes"):
        env.set_state(0, head + np.uint64(2**61 + 3).tobytes() + actions)
    # A state that replays past the end of its episode (the time limit, 2 steps, then more actions).
    short = rlpool.make("HighwayFast-v0", num_envs=1, seed=0, duration=2.0, vehicles_count=0)
    short.reset()
    short.step(np.array([1]))
    state = short.get_state(0)
    head = state[: len(state) - 8 - 8]
    with pytest.raises(ValueError, match="past the end"):
        short.set_state(0, head + np.uint64(4).tobytes() + np.ones(4, np.int64).tobytes())
    assert env.get_state(0) == good


# --------------------------------------------------------------------------- bad input


def test_bad_actions_are_refused():
    env = rlpool.make("Highway-v0", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([1, 5]))
    with pytest.raises(ValueError):
        env.step(np.array([1, -1]))
    with pytest.raises((ValueError, TypeError)):
        env.step(np.array([[1, 1]]))
    with pytest.raises((ValueError, TypeError)):
        env.step(np.array([1.0, 1.0]))
    cont = rlpool.make("Highway-v0", num_envs=1, seed=0, action_type="ContinuousAction")
    cont.reset()
    with pytest.raises(ValueError):
        cont.step(np.array([[0.0, np.nan]], np.float32))
    with pytest.raises((ValueError, TypeError)):
        cont.step(np.array([[0.0, 0.1, 0.2]], np.float32))


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"lanes_count": 0}, "lanes_count"),
        ({"initial_lane_id": 4}, "initial_lane_id"),
        ({"vehicles_density": 0.0}, "vehicles_density"),
        ({"policy_frequency": 30}, "policy_frequency"),
        ({"controlled_vehicles": 0}, "controlled_vehicles"),
        ({"reward_speed_low": 30.0, "reward_speed_high": 20.0}, "reward_speed"),
        ({"observation_type": "Foo"}, "observation_type"),
        ({"observation_type": "TupleObservation"}, "TupleObservation"),
        ({"observation_order": "shuffled"}, "shuffle"),
        ({"observation_features": ["presence", "speed"]}, "unknown feature 'speed'"),
        ({"observation_features_range": "x:1"}, "feature:low:high"),
        ({"observation_features_range": {"x": [-1, "a"]}}, "needs numbers"),
        ({"action_type": "Steering"}, "action_type"),
        ({"action_target_speeds": "20,abc"}, "not a number"),
        ({"action_longitudinal": False, "action_lateral": False}, "longitudinal"),
        ({"observation_type": "MultiAgentObservation"}, "go together"),
        ({"observation_type": "TimeToCollision", "action_type": "ContinuousAction"}, "DiscreteMetaAction"),
        ({"other_vehicles_type": "highway_env.vehicle.kinematics.Vehicle"}, "other_vehicles_type|class"),
        ({"observation_type": "OccupancyGrid", "observation_absolute": True}, "not implemented"),
    ],
)
def test_bad_options_are_refused(options, match):
    with pytest.raises((ValueError, TypeError), match=match):
        rlpool.make("Highway-v0", num_envs=1, **options)


def test_reference_config_of_options():
    config = reference_config({"observation_type": "MultiAgentObservation", "observation_config_type": "Kinematics",
                               "observation_vehicles_count": 7, "initial_lane_id": -1, "reward_speed_low": 15.0})
    assert config == {"observation": {"type": "MultiAgentObservation",
                                      "observation_config": {"type": "Kinematics", "vehicles_count": 7}},
                      "initial_lane_id": None, "reward_speed_range": [15.0, 30.0]}
