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
from box2d_reference import parse_state, use_words, with_words, words_from

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
    rl_obs, _ = env.reset()
    if rl_to_gym:
        # rlpool drew its words at reset; gymnasium draws the same numbers from them.
        _, words, _, _ = parse_state(env.get_state(0))
        use_words(gym_env, words)
        g_obs, _ = gym_env.reset()
        assert np.abs(rl_obs[0] - g_obs).max() <= TOL, (rl_obs[0], g_obs)
    else:
        # gymnasium draws the words from its own seeded generator; rlpool takes them through set_state.
        gym_env.reset(seed=episode_seed)
        words = words_from(gym_env.unwrapped.np_random)
        use_words(gym_env, words)
        g_obs, _ = gym_env.reset()
        env.set_state(0, with_words(env.get_state(0), words))
    rng = np.random.default_rng(episode_seed)
    worst = {"obs": 0.0, "reward": 0.0}
    steps = 0
    while True:
        a = policy_action(kind, gym_env, g_obs, rng)
        g_obs, g_r, g_term, g_trunc, _ = gym_env.step(a)
        rl_obs, rl_r, rl_term, rl_trunc, _ = env.step(np.asarray([a]))
        steps += 1
        where = f"{rl_id} {options} {kind} seed={episode_seed} step {steps}"
        worst["obs"] = max(worst["obs"], float(np.abs(rl_obs[0] - g_obs).max()))
        worst["reward"] = max(worst["reward"], abs(float(rl_r[0]) - float(g_r)))
        assert worst["obs"] <= TOL, f"{where}: observation {rl_obs[0]} != {g_obs}"
        assert worst["reward"] <= TOL, f"{where}: reward {rl_r[0]} != {g_r}"
        assert (bool(rl_term[0]), bool(rl_trunc[0])) == (g_term, g_trunc), f"{where}: flags differ"
        if g_term or g_trunc:
            break
    env.close()
    gym_env.close()
    return {"steps": steps, **worst}


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
