"""LunarLander against gymnasium 1.x's (on the box2d wheel), from the same draws.

Parity: rlpool's env and gymnasium's start from the same generator words (drawn
by gymnasium's own ``np_random`` and handed to rlpool through ``set_state``, or
taken from rlpool's reset and handed to gymnasium), so terrain, initial push,
wind offsets and engine dispersion are the same draws; then the same actions
(random, and gymnasium's own heuristic controller) must give the same
observations, rewards and flags over whole episodes. Statistics: over 200+
episodes per policy with independent seeds, the returns of the two
implementations have the same distribution (two-sample Kolmogorov-Smirnov).
CI runs a sample; ``RLPOOL_FULL_REFERENCE=1`` runs every configuration in full.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from box2d_reference import parse_state, start_pair
from gymnasium_parity import assert_same_episode

import rlpool

gym = pytest.importorskip("gymnasium")
pytest.importorskip("Box2D")
from gymnasium.envs.box2d.lunar_lander import heuristic  # noqa: E402

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
TOL = 1e-4

# (rlpool id, gymnasium id, options shared by both)
CONFIGS = [
    ("LunarLander-v3", "LunarLander-v3", {}),
    ("LunarLanderContinuous-v3", "LunarLanderContinuous-v3", {}),
    ("LunarLander-v3", "LunarLander-v3", {"enable_wind": True, "wind_power": 18.0, "turbulence_power": 1.9}),
    ("LunarLanderContinuous-v3", "LunarLanderContinuous-v3", {"enable_wind": True, "gravity": -7.5}),
    ("LunarLander-v2", "LunarLander-v3", {}),
    ("LunarLanderContinuous-v2", "LunarLanderContinuous-v3", {}),
]


def policy_action(kind: str, gym_env, obs: np.ndarray, rng: np.random.Generator):
    """The action both envs take: gymnasium's heuristic (float32 for continuous) or a random one."""
    continuous = gym_env.unwrapped.continuous
    if kind == "heuristic":
        a = heuristic(gym_env, obs)
        return np.asarray(a, np.float32) if continuous else int(a)
    if continuous:
        return rng.uniform(-1, 1, 2).astype(np.float32)
    return int(rng.integers(4))


def run_pair(rl_id: str, gym_id: str, options: dict, kind: str, episode_seed: int, rl_to_gym: bool) -> dict:
    """One whole episode in both envs from the same draws; returns the largest differences."""
    env = rlpool.make(rl_id, num_envs=1, seed=episode_seed, **options)
    gym_env = gym.make(gym_id, **options)
    first_obs = start_pair(env, gym_env, gym_id, options, episode_seed, rl_to_gym)
    rng = np.random.default_rng(episode_seed)
    report = assert_same_episode(
        env,
        gym_env,
        first_obs,
        lambda obs: policy_action(kind, gym_env, obs, rng),
        f"{rl_id} {options} {kind} seed={episode_seed}",
        TOL,
    )
    env.close()
    gym_env.close()
    return report


@pytest.mark.parametrize("rl_id, gym_id, options", CONFIGS if FULL else CONFIGS[:4])
@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_same_episodes_as_gymnasium(rl_id, gym_id, options, kind):
    episodes = 20 if FULL else 3
    for k in range(episodes):
        report = run_pair(rl_id, gym_id, options, kind, episode_seed=1000 + k, rl_to_gym=bool(k % 2))
        assert report["steps"] > 0


def test_heuristic_lands_like_gymnasium():
    """The heuristic's returns: each rlpool episode matches its gymnasium twin, so the means agree too."""
    returns = []
    for k in range(4):
        env = rlpool.make("LunarLander-v3", num_envs=1, seed=k)
        obs, _ = env.reset()
        total = 0.0
        gym_env = gym.make("LunarLander-v3")  # only for heuristic(), which reads env.unwrapped.continuous
        while True:
            obs, r, term, trunc, _ = env.step(np.asarray([heuristic(gym_env, obs[0])]))
            total += float(r[0])
            if term[0] or trunc[0]:
                break
        returns.append(total)
    assert np.mean(returns) > 100, returns  # gymnasium's heuristic lands (its docs: mean > 200)


def run_returns_rlpool(task_id: str, kind: str, episodes: int, seed: int, **options) -> np.ndarray:
    """Returns of ``episodes`` whole episodes in rlpool (16 envs, autoreset), policy in Python."""
    num_envs = 16
    env = rlpool.make(task_id, num_envs=num_envs, seed=seed, **options)
    gym_env = gym.make(task_id)  # heuristic() reads env.unwrapped.continuous only
    rng = np.random.default_rng(seed)
    obs, _ = env.reset()
    totals = np.zeros(num_envs)
    done_prev = np.zeros(num_envs, bool)
    returns: list[float] = []
    while len(returns) < episodes:
        actions = [policy_action(kind, gym_env, obs[i], rng) for i in range(num_envs)]
        obs, r, term, trunc, _ = env.step(np.asarray(actions))
        totals += np.where(done_prev, 0.0, r)  # NextStep autoreset: the step after an end is a reset
        done = term | trunc
        for i in np.flatnonzero(done & ~done_prev):
            returns.append(float(totals[i]))
            totals[i] = 0.0
        done_prev = done
    env.close()
    return np.asarray(returns[:episodes])


def run_returns_gymnasium(task_id: str, kind: str, episodes: int, seed: int) -> np.ndarray:
    gym_env = gym.make(task_id)
    rng = np.random.default_rng(seed)
    returns = []
    for k in range(episodes):
        obs, _ = gym_env.reset(seed=seed + k)
        total = 0.0
        while True:
            obs, r, term, trunc, _ = gym_env.step(policy_action(kind, gym_env, obs, rng))
            total += float(r)
            if term or trunc:
                break
        returns.append(total)
    return np.asarray(returns)


@pytest.mark.parametrize("task_id", ["LunarLander-v3", "LunarLanderContinuous-v3"] if FULL else ["LunarLander-v3"])
@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_return_distribution_same_as_gymnasium(task_id, kind):
    """Independent seeds on each side: the returns pass a two-sample Kolmogorov-Smirnov test."""
    stats = pytest.importorskip("scipy.stats")
    episodes = 200
    ours = run_returns_rlpool(task_id, kind, episodes, seed=7)
    theirs = run_returns_gymnasium(task_id, kind, episodes, seed=100_000)
    result = stats.ks_2samp(ours, theirs)
    assert result.pvalue > 0.01, (
        f"{task_id} {kind}: returns differ (KS p={result.pvalue:.4f}); rlpool mean {ours.mean():.1f} sd "
        f"{ours.std():.1f}, gymnasium mean {theirs.mean():.1f} sd {theirs.std():.1f}")
    if kind == "heuristic":
        assert ours.mean() > 150  # the heuristic lands: a check that the sample is the intended one


def test_ks_tells_another_gravity_apart():
    """The distribution test has power: weaker gravity changes the heuristic's returns detectably."""
    stats = pytest.importorskip("scipy.stats")
    ours = run_returns_rlpool("LunarLander-v3", "heuristic", 200, seed=7)
    other = run_returns_rlpool("LunarLander-v3", "heuristic", 200, seed=7, gravity=-2.0)
    assert stats.ks_2samp(ours, other).pvalue < 0.01


def _steps(env, actions):
    """Observations and rewards of env 0 over ``actions`` (the other envs take the same)."""
    out = []
    for a in actions:
        obs, r, term, trunc, _ = env.step(np.full(env.num_envs, a) if np.ndim(a) == 0 else np.stack([a] * env.num_envs))
        out.append((obs[0].copy(), float(r[0]), bool(term[0]), bool(trunc[0])))
    return out


@pytest.mark.parametrize("task_id", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_restore_replays_identically(task_id):
    options = {"enable_wind": True}
    env = rlpool.make(task_id, num_envs=2, seed=3, max_episode_steps=10_000, **options)
    env.reset()
    rng = np.random.default_rng(0)
    space = env.single_action_space
    warmup = [space.sample() for _ in range(30)]
    _steps(env, warmup)
    saved = env.get_state(0)
    later = [np.asarray(a) for a in (rng.uniform(-1, 1, (40, 2)).astype(np.float32)
                                     if task_id.startswith("LunarLanderContinuous") else rng.integers(0, 4, 40))]
    first = _steps(env, later)
    env.set_state(0, saved)
    env.set_state(1, saved)  # another env takes the same state and goes on the same way
    second = _steps(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        assert np.array_equal(a[0], b[0]) and a[1:] == b[1:], f"step {k}: {a} != {b}"
    assert env.get_state(0) == env.get_state(1)


def test_bad_states_are_refused_and_leave_the_env_alone():
    env = rlpool.make("LunarLander-v3", num_envs=1, seed=0)
    env.reset()
    _steps(env, [2, 2, 1])
    good = env.get_state(0)
    other = rlpool.make("LunarLanderContinuous-v3", num_envs=1, seed=0)
    other.reset()
    with pytest.raises(ValueError, match="made as"):
        env.set_state(0, other.get_state(0))
    with pytest.raises(ValueError, match="not a Box2D env state"):
        env.set_state(0, b"junk" * 20)
    with pytest.raises(ValueError, match="truncated|bytes of actions"):
        env.set_state(0, good[:-3])
    _, _, _, actions = parse_state(good)
    bad_action = good[: len(good) - len(actions)] + np.asarray([2, 9, 1], np.int64).tobytes()
    with pytest.raises(ValueError, match="outside the action space"):
        env.set_state(0, bad_action)
    # A state that replays past the end of its episode: a crash, then more actions.
    crashed = rlpool.make("LunarLander-v3", num_envs=1, seed=0, max_episode_steps=10_000)
    crashed.reset()
    log = []
    term = np.zeros(1, bool)
    while not term[0]:
        _, _, term, _, _ = crashed.step(np.asarray([0]))
        log.append(0)
    ended = crashed.get_state(0)
    head = ended[: len(ended) - 8 * len(log) - 8]
    too_long = head + np.uint64(len(log) + 2).tobytes() + np.zeros(len(log) + 2, np.int64).tobytes()
    with pytest.raises(ValueError, match="past the end"):
        crashed.set_state(0, too_long)
    # A step count whose byte count wraps around 2**64 to the bytes present (2**61 + 3 eight-byte actions):
    # refused by the size check, before the replay reads anything past the blob.
    head = good[: len(good) - len(actions) - 8]
    wrapped = head + np.uint64(2**61 + 3).tobytes() + actions
    with pytest.raises(ValueError, match=r"holds 24 bytes of actions for 2305843009213693955 steps of 8 bytes"):
        env.set_state(0, wrapped)
    # After every refusal the env goes on from where it was.
    assert env.get_state(0) == good


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="gravity"):
        rlpool.make("LunarLander-v3", num_envs=1, gravity=-12.0)
    with pytest.raises(ValueError, match="gravity"):
        rlpool.make("LunarLander-v3", num_envs=1, gravity=0.5)
    with pytest.raises(ValueError, match="wind_power"):
        rlpool.make("LunarLander-v3", num_envs=1, wind_power=float("nan"))


def test_state_with_a_non_finite_action_is_refused():
    """Replayed actions bypass the pool's action checks, so set_state checks them itself."""
    env = rlpool.make("LunarLanderContinuous-v3", num_envs=1, seed=0)
    env.reset()
    env.step(np.asarray([[0.5, 0.0]], np.float32))
    good = env.get_state(0)
    _, _, _, actions = parse_state(good)
    bad = good[: len(good) - len(actions)] + np.asarray([0.5, np.nan], np.float64).tobytes()
    with pytest.raises(ValueError, match="not finite"):
        env.set_state(0, bad)
    assert env.get_state(0) == good
