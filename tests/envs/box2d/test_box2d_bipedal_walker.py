"""BipedalWalker (normal and hardcore) against gymnasium 1.x's (on the box2d wheel), from the same draws.

Parity: rlpool's env and gymnasium's start from the same generator words (drawn
by gymnasium's own seeded ``np_random`` and handed to rlpool through
``set_state``, or taken from rlpool's reset and handed to gymnasium), so
terrain, clouds and the initial push are the same draws; then the same actions
(random, and gymnasium's heuristic walker) must give the same observations,
rewards and flags over whole episodes. gymnasium reuses one Box2D world across
its resets and its recycled broad-phase proxies change later episodes, so each
compared episode is a fresh gymnasium env's first (rlpool builds a fresh world
every episode). Statistics: over many episodes per policy with independent
seeds, the returns of the two implementations have the same distribution
(two-sample Kolmogorov-Smirnov). CI runs a sample; ``RLPOOL_FULL_REFERENCE=1``
runs more.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np
import pytest
from box2d_reference import start_pair
from gymnasium_parity import assert_same_episode

import rlpool

gym = pytest.importorskip("gymnasium")
pytest.importorskip("Box2D")

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
TOL = 1e-4
TASKS = ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"]


class Heuristic:
    """gymnasium's ``BipedalWalkerHeuristics`` (bipedal_walker.py, by Oleg Klimov), ported: a walking state machine."""

    STAY_ON_ONE_LEG, PUT_OTHER_DOWN, PUSH_OFF = 1, 2, 3
    SPEED = 0.29  # falls forward at higher speed
    SUPPORT_KNEE_ANGLE = +0.1

    def __init__(self) -> None:
        self.state = self.STAY_ON_ONE_LEG
        self.moving_leg = 0
        self.supporting_leg = 1
        self.supporting_knee_angle = self.SUPPORT_KNEE_ANGLE

    def __call__(self, s: np.ndarray) -> np.ndarray:
        moving_base = 4 + 5 * self.moving_leg
        supporting_base = 4 + 5 * self.supporting_leg
        hip_targ: list[float | None] = [None, None]
        knee_targ: list[float | None] = [None, None]
        hip_todo = [0.0, 0.0]
        knee_todo = [0.0, 0.0]
        if self.state == self.STAY_ON_ONE_LEG:
            hip_targ[self.moving_leg] = 1.1
            knee_targ[self.moving_leg] = -0.6
            self.supporting_knee_angle += 0.03
            if s[2] > self.SPEED:
                self.supporting_knee_angle += 0.03
            self.supporting_knee_angle = min(self.supporting_knee_angle, self.SUPPORT_KNEE_ANGLE)
            knee_targ[self.supporting_leg] = self.supporting_knee_angle
            if s[supporting_base + 0] < 0.10:  # supporting leg is behind
                self.state = self.PUT_OTHER_DOWN
        if self.state == self.PUT_OTHER_DOWN:
            hip_targ[self.moving_leg] = +0.1
            knee_targ[self.moving_leg] = self.SUPPORT_KNEE_ANGLE
            knee_targ[self.supporting_leg] = self.supporting_knee_angle
            if s[moving_base + 4]:
                self.state = self.PUSH_OFF
                self.supporting_knee_angle = min(s[moving_base + 2], self.SUPPORT_KNEE_ANGLE)
        if self.state == self.PUSH_OFF:
            knee_targ[self.moving_leg] = self.supporting_knee_angle
            knee_targ[self.supporting_leg] = +1.0
            if s[supporting_base + 2] > 0.88 or s[2] > 1.2 * self.SPEED:
                self.state = self.STAY_ON_ONE_LEG
                self.moving_leg = 1 - self.moving_leg
                self.supporting_leg = 1 - self.moving_leg
        # gymnasium tests the targets' truth, so a target of exactly 0 counts as none.
        for leg, (hip_s, knee_s) in enumerate(((4, 6), (9, 11))):
            if hip_targ[leg]:
                hip_todo[leg] = 0.9 * (hip_targ[leg] - s[hip_s]) - 0.25 * s[hip_s + 1]
            if knee_targ[leg]:
                knee_todo[leg] = 4.0 * (knee_targ[leg] - s[knee_s]) - 0.25 * s[knee_s + 1]
            hip_todo[leg] -= 0.9 * (0 - s[0]) - 1.5 * s[1]  # PID to keep the head straight
            knee_todo[leg] -= 15.0 * s[3]  # vertical speed, to damp oscillations
        a = np.array([hip_todo[0], knee_todo[0], hip_todo[1], knee_todo[1]])
        return np.clip(0.5 * a, -1.0, 1.0)


def make_policy(kind: str, seed: int) -> Any:
    """A fresh policy for one episode: obs -> float32 action (what both envs get)."""
    if kind == "heuristic":
        walker = Heuristic()
        return lambda obs: walker(obs).astype(np.float32)
    rng = np.random.default_rng(seed)
    return lambda obs: rng.uniform(-1, 1, 4).astype(np.float32)


def run_pair(task_id: str, kind: str, episode_seed: int, rl_to_gym: bool) -> dict[str, float]:
    """One whole episode in both envs from the same draws; returns the largest differences."""
    env = rlpool.make(task_id, num_envs=1, seed=episode_seed)
    gym_env = gym.make(task_id)
    first_obs = start_pair(env, gym_env, task_id, {}, episode_seed, rl_to_gym)
    where = f"{task_id} {kind} seed={episode_seed} rl_to_gym={rl_to_gym}"
    report = assert_same_episode(env, gym_env, first_obs, make_policy(kind, episode_seed), where, TOL)
    env.close()
    gym_env.close()
    return report


@pytest.mark.parametrize("task_id", TASKS)
@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_same_episodes_as_gymnasium(task_id: str, kind: str) -> None:
    episodes = 20 if FULL else 2
    for k in range(episodes):
        report = run_pair(task_id, kind, episode_seed=2000 + k, rl_to_gym=bool(k % 2))
        assert report["steps"] > 0


def ks_statistic(x: np.ndarray, y: np.ndarray) -> float:
    """The two-sample Kolmogorov-Smirnov statistic: the largest gap between the empirical CDFs."""
    grid = np.concatenate([x, y])
    cdf_x = np.searchsorted(np.sort(x), grid, side="right") / len(x)
    cdf_y = np.searchsorted(np.sort(y), grid, side="right") / len(y)
    return float(np.abs(cdf_x - cdf_y).max())


def ks_critical(n: int, m: int, alpha: float = 1e-3) -> float:
    """The asymptotic critical value of the two-sample KS statistic at level ``alpha``."""
    return float(np.sqrt(-np.log(alpha / 2) / 2) * np.sqrt((n + m) / (n * m)))


def rlpool_returns(task_id: str, kind: str, episodes: int, seed: int) -> np.ndarray:
    """Returns of ``episodes`` whole episodes, 16 envs at a time (autoreset in the same step)."""
    n = 16
    env = rlpool.make(task_id, num_envs=n, seed=seed, autoreset_mode="SameStep")
    obs, _ = env.reset()
    policies = [make_policy(kind, seed * 1000 + i) for i in range(n)]
    totals = np.zeros(n)
    returns: list[float] = []
    started = n
    while len(returns) < episodes:
        actions = np.stack([p(o) for p, o in zip(policies, obs, strict=True)])
        obs, r, term, trunc, _ = env.step(actions)
        totals += r
        for i in np.flatnonzero(term | trunc):
            returns.append(float(totals[i]))
            totals[i] = 0.0
            started += 1
            policies[i] = make_policy(kind, seed * 1000 + started)
    env.close()
    return np.asarray(returns[:episodes])


def gymnasium_returns(task_id: str, kind: str, episodes: int, seed: int) -> np.ndarray:
    env = gym.make(task_id)
    returns = []
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        policy = make_policy(kind, seed * 1000 + k)
        total = 0.0
        while True:
            obs, r, term, trunc, _ = env.step(policy(obs))
            total += float(r)
            if term or trunc:
                break
        returns.append(total)
    env.close()
    return np.asarray(returns)


# (policy, gymnasium episodes in CI): heuristic episodes run to the far end, random ones mostly fall early.
@pytest.mark.parametrize("kind, ci_episodes", [("heuristic", 10), ("random", 30)])
def test_returns_distributed_like_gymnasium(kind: str, ci_episodes: int) -> None:
    task_id = "BipedalWalker-v3"
    gym_episodes = 200 if FULL else ci_episodes
    rl_episodes = 400 if FULL else 64
    ours = rlpool_returns(task_id, kind, rl_episodes, seed=11)
    theirs = gymnasium_returns(task_id, kind, gym_episodes, seed=7_000_000)
    d = ks_statistic(ours, theirs)
    assert d <= ks_critical(len(ours), len(theirs)), (
        f"{kind}: KS {d:.3f}; rlpool mean {ours.mean():.1f} sd {ours.std():.1f}, "
        f"gymnasium mean {theirs.mean():.1f} sd {theirs.std():.1f}"
    )
    if kind == "heuristic":
        assert ours.max() > 250, ours  # it falls often, but some episodes walk the whole way


@pytest.mark.parametrize("task_id", TASKS)
def test_state_restores_bitwise(task_id: str) -> None:
    """Saved mid-episode, restored (in the same env and in another), the same actions give the same steps."""
    env = rlpool.make(task_id, num_envs=1, seed=5)
    obs, _ = env.reset()
    walker = Heuristic()
    for _ in range(100):
        obs, _, term, trunc, _ = env.step(walker(obs[0]).astype(np.float32)[None])
        assert not (term[0] or trunc[0])
    saved = env.get_state(0)
    start_obs = obs

    def go_on(pool: Any, obs: np.ndarray, walker: Heuristic) -> tuple[np.ndarray, np.ndarray]:
        """50 steps of the heuristic (the window ends before the hardcore walker's first fall)."""
        out_obs, out_rewards = [], []
        for _ in range(50):
            obs, r, term, trunc, _ = pool.step(walker(obs[0]).astype(np.float32)[None])
            assert not (term[0] or trunc[0])
            out_obs.append(obs)
            out_rewards.append(r)
        return np.stack(out_obs), np.stack(out_rewards)

    first = go_on(env, start_obs, copy.deepcopy(walker))
    env.set_state(0, saved)
    again = go_on(env, start_obs, copy.deepcopy(walker))
    other = rlpool.make(task_id, num_envs=1, seed=77)
    other.reset()
    other.set_state(0, saved)
    elsewhere = go_on(other, start_obs, copy.deepcopy(walker))
    for run in (again, elsewhere):
        assert np.array_equal(first[0], run[0])
        assert np.array_equal(first[1], run[1])
    env.close()
    other.close()


def test_hardcore_state_refused_by_normal_env() -> None:
    hard = rlpool.make("BipedalWalkerHardcore-v3", num_envs=1, seed=1)
    hard.reset()
    hard.step(np.zeros((1, 4), np.float32))
    normal = rlpool.make("BipedalWalker-v3", num_envs=1, seed=1)
    normal.reset()
    with pytest.raises(ValueError):
        normal.set_state(0, hard.get_state(0))
    hard.close()
    normal.close()


@pytest.mark.parametrize("task_id", TASKS)
def test_spaces_are_gymnasiums(task_id: str) -> None:
    env = rlpool.make(task_id, num_envs=1)
    gym_env = gym.make(task_id)
    for ours, theirs in ((env.single_observation_space, gym_env.observation_space),
                         (env.single_action_space, gym_env.action_space)):
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        assert np.array_equal(ours.low, theirs.low) and np.array_equal(ours.high, theirs.high)
    env.close()
    gym_env.close()

