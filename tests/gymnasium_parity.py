"""Checks of the tests that hold a family to gymnasium's envs: equal spaces, equal registry entries, one
episode stepped in lockstep.

The family's tests build gymnasium's env their own way (warnings, wrappers, options) and hand it here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import rlpool

NO_LIMIT = 2**31 - 1
"""rlpool's max_episode_steps (EnvPool's) for a task gymnasium registers with none (None)."""


def assert_space_equal(ours: spaces.Space, ref: spaces.Space) -> None:
    """rlpool's space is gymnasium's: the same type and dtype; n and start (Discrete); shape, bounds and their
    dtypes (Box); the same entries (Tuple), under the same keys in the same order (Dict)."""
    assert type(ours) is type(ref)
    if isinstance(ref, spaces.Dict):
        assert list(ours.spaces) == list(ref.spaces), (list(ours.spaces), list(ref.spaces))
        for key in ref.spaces:
            assert_space_equal(ours[key], ref[key])
        return
    if isinstance(ref, spaces.Tuple):
        assert len(ours.spaces) == len(ref.spaces)
        for a, b in zip(ours.spaces, ref.spaces, strict=True):
            assert_space_equal(a, b)
        return
    if isinstance(ref, spaces.Discrete):
        assert (ours.n, ours.start, ours.dtype) == (ref.n, ref.start, ref.dtype)
        return
    assert isinstance(ref, spaces.Box), f"no comparison written for {type(ref).__name__}"
    assert ours.dtype == ref.dtype
    assert ours.shape == ref.shape
    assert ours.low.dtype == ref.low.dtype and ours.high.dtype == ref.high.dtype
    assert np.array_equal(ours.low, ref.low), (ours.low, ref.low)
    assert np.array_equal(ours.high, ref.high), (ours.high, ref.high)
    assert np.array_equal(ours.bounded_below, ref.bounded_below)
    assert np.array_equal(ours.bounded_above, ref.bounded_above)


def assert_spec_matches_gymnasium(task_id: str, g: gym.Env) -> tuple[rlpool.EnvSpec, Any]:
    """``task_id``'s spec has the spaces of gymnasium's env ``g`` and the limit and threshold of its registry
    entry; returns (the spec, gymnasium's registry entry)."""
    spec = rlpool.make_spec(task_id)
    assert_space_equal(spec.observation_space, g.observation_space)
    assert_space_equal(spec.action_space, g.action_space)
    ref = gym.spec(task_id)
    assert spec.max_episode_steps == (NO_LIMIT if ref.max_episode_steps is None else ref.max_episode_steps)
    assert spec.reward_threshold == ref.reward_threshold
    return spec, ref


def assert_same_episode(
    env: Any,
    gym_env: gym.Env,
    first_obs: tuple[np.ndarray | None, np.ndarray],
    policy: Callable[[np.ndarray], Any],
    where: str,
    tol: float,
) -> dict[str, float]:
    """Step rlpool's one-env pool ``env`` and ``gym_env`` with the same actions to the end of gymnasium's episode.

    ``first_obs``: (rlpool's first observation, or None where it shows none; gymnasium's). ``policy`` gives the
    action for gymnasium's latest observation; rlpool takes it as a batch of one. Observations and rewards
    agree within ``tol``, the end flags exactly, at every step. Returns the steps taken and the largest
    observation and reward differences.
    """
    rl_obs, g_obs = first_obs
    if rl_obs is not None:
        assert np.abs(rl_obs - g_obs).max() <= tol, (rl_obs, g_obs)
    worst = {"obs": 0.0, "reward": 0.0}
    steps = 0
    while True:
        a = policy(g_obs)
        g_obs, g_r, g_term, g_trunc, _ = gym_env.step(a)
        rl_obs, rl_r, rl_term, rl_trunc, _ = env.step(np.asarray([a]))
        steps += 1
        here = f"{where} step {steps}"
        worst["obs"] = max(worst["obs"], float(np.abs(rl_obs[0] - g_obs).max()))
        worst["reward"] = max(worst["reward"], abs(float(rl_r[0]) - float(g_r)))
        assert worst["obs"] <= tol, f"{here}: observation {rl_obs[0]} != {g_obs}"
        assert worst["reward"] <= tol, f"{here}: reward {rl_r[0]} != {g_r}"
        assert (bool(rl_term[0]), bool(rl_trunc[0])) == (g_term, g_trunc), f"{here}: flags differ"
        if g_term or g_trunc:
            return {"steps": steps, **worst}
