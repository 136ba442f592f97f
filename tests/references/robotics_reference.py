"""gymnasium-robotics 1.4.2's own envs as the reference of rlpool's Gymnasium-Robotics tasks.

``reference(task_id)`` makes gymnasium-robotics' env of a task. On MuJoCo 3.17 its joint helpers
(``utils/mujoco_utils.py``: ``get_joint_qpos`` and the like) fail for every hinge and slide joint: they test
``model.jnt_type[i] in (mjJNT_HINGE, mjJNT_SLIDE)``, and an ``np.int32`` is not ``in`` a tuple of MuJoCo's enum
values (``==`` holds, ``in`` does not). ``patch_joint_helpers`` (of ``rlpool.envs.robotics.peers``, which the
benchmark's gymnasium-robotics peer needs too) replaces those four functions where they fail, with the same
code comparing plain ints; every caller looks them up on the module, so that is enough. Nothing else of the
reference is changed.

``use_generator(env, words)`` makes the reference draw exactly what rlpool's env draws: rlpool's env seeds a
generator of its own from four words at each reset (the start of its saved state), and the reference's
``np_random`` becomes a Python copy of that generator (``xoshiro.XoshiroGenerator``).
"""

from __future__ import annotations

import struct
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from lane import require
from xoshiro import XoshiroGenerator

from rlpool.envs.robotics.peers import patch_joint_helpers

MAGIC = b"rlpool-robotics-v1\n"


def _import_or_skip() -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import gymnasium_robotics
    except ImportError:
        require(
            "gymnasium-robotics is not installed: pip install 'gymnasium-robotics==1.4.2' (rlpool's robotics extra) "
            "(the reference and the models)"
        )
        pytest.skip("unreachable")
    return gymnasium_robotics


def reference(task_id: str, **kwargs: Any) -> gym.Env:
    """gymnasium-robotics' env of ``task_id`` (a current id), without time limit or checker."""
    _import_or_skip()
    patch_joint_helpers()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gym.make(task_id, max_episode_steps=10**9, disable_env_checker=True, **kwargs)


def assert_spaces_like_reference(task_id: str, reference_id: str | None = None, **options: Any) -> Any:
    """rlpool's spaces of ``task_id`` (with ``options``) equal gymnasium-robotics' env's; returns rlpool's spec.

    ``reference_id`` is gymnasium-robotics' id where it is not ``task_id`` (EnvPool's old ids). The time limit
    is gymnasium-robotics' registered one.
    """
    from gymnasium_parity import assert_space_equal

    import rlpool

    ref_id = reference_id or task_id
    ref = reference(ref_id, **options)
    spec = rlpool.make_spec(task_id, **options)
    try:
        assert_space_equal(spec.observation_space, ref.observation_space)
        assert_space_equal(spec.action_space, ref.action_space)
        assert spec.max_episode_steps == gym.spec(ref_id).max_episode_steps
    finally:
        ref.close()
    return spec


def start_words(state: bytes) -> tuple[int, int, int, int]:
    """The four words rlpool's env seeded its generator with at its last reset, read from its saved state."""
    assert state.startswith(MAGIC), state[:40]
    pos = len(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, pos)
    pos += 4 + key_size
    return struct.unpack_from("<4Q", state, pos)  # type: ignore[return-value]


RNG_BYTES = 48
"""Size of rlpool's C++ ``Rng`` in a state (four words, a cached normal, a flag, padding)."""


def with_qpos(state: bytes, updates: dict[int, float]) -> bytes:
    """An rlpool robotics state with some qpos entries changed (``{index: value}``)."""
    assert state.startswith(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, len(MAGIC))
    start = len(MAGIC) + 4 + key_size + 32 + RNG_BYTES + 8  # past the config, the words, the generator, time
    out = bytearray(state)
    for i, value in updates.items():
        struct.pack_into("<d", out, start + 8 * i, value)
    return bytes(out)


def use_generator(env: gym.Env, words: tuple[int, int, int, int]) -> None:
    """Make ``env`` (gymnasium-robotics') draw from rlpool's generator seeded with ``words``.

    The kitchen draws from its robot's generator (``KitchenEnv.robot_env``), the others from their own.
    """
    unwrapped = env.unwrapped
    getattr(unwrapped, "robot_env", unwrapped)._np_random = XoshiroGenerator(words)


def _assert_obs(obs: Any, ref: Any, where: str, tol: float) -> None:
    """rlpool's first env's observation (a batch) is the reference's, its dicts (nested too) in sorted order."""
    if not isinstance(ref, dict):  # Adroit: one array
        np.testing.assert_allclose(obs[0], ref, rtol=0, atol=tol, err_msg=where)
        return
    assert list(obs) == sorted(ref), (list(obs), list(ref))
    for key in ref:
        _assert_obs(obs[key], ref[key], f"{where}: {key}", tol)


def _assert_info(info: dict, ref_info: dict, where: str) -> None:
    for key, value in ref_info.items():
        assert info[key][0] == value, f"{where}: info {key} {info[key][0]} != {value}"


def lockstep(
    task_id: str,
    reference_id: str,
    seed: int,
    policy: Any,
    *,
    episodes: int = 2,
    steps: int = 30,
    tol: float = 1e-9,
    flip: int | None = None,
    compare_info: Any = _assert_info,
    after_reset: Any = None,
    **options: Any,
) -> dict[str, float]:
    """Step rlpool's one-env pool of ``task_id`` and gymnasium-robotics' ``reference_id`` side by side.

    Both start each episode from the same draws; ``policy(obs, rng)`` (gymnasium-robotics' latest observation, a
    numpy Generator) gives each action, and both take it as float32. Observations, rewards (within ``tol``),
    end flags and every info entry the reference gives agree at each step. An episode ends after ``steps`` steps
    or when it terminates. ``flip``: the reference takes the negated action at that step (the comparison must then
    fail). ``compare_info(info, ref_info, where)`` checks the info (default: every entry the reference gives,
    equal). ``after_reset(env, ref)`` may change both after each reset (then their observations are not compared
until the first step). Returns counts: steps compared, successes seen, terminations seen, reward summed.
    """
    import rlpool

    env = rlpool.make(task_id, num_envs=1, seed=seed, max_episode_steps=10**6, **options)
    ref = reference(reference_id, **options)
    rng = np.random.default_rng(seed)
    seen = {"steps": 0, "successes": 0, "terminations": 0, "reward": 0.0}
    try:
        for episode in range(episodes):
            obs, info = env.reset()
            use_generator(ref, start_words(env.get_state(0)))
            ref_obs, ref_info = ref.reset()
            where = f"{task_id} seed {seed} episode {episode}"
            _assert_obs(obs, ref_obs, f"{where} reset", tol)
            compare_info(info, ref_info, f"{where} reset")
            if after_reset is not None:
                after_reset(env, ref)
            for t in range(steps):
                a = np.asarray(policy(ref_obs, rng), dtype=np.float32)
                ref_a = -a if flip == seen["steps"] else a
                obs, reward, terminated, truncated, info = env.step(a[None])
                ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = ref.step(ref_a)
                here = f"{where} step {t + 1}"
                _assert_obs(obs, ref_obs, here, tol)
                assert abs(float(reward[0]) - float(ref_reward)) <= tol * max(1.0, abs(float(ref_reward))), here
                assert (bool(terminated[0]), bool(truncated[0])) == (ref_terminated, ref_truncated), here
                compare_info(info, ref_info, here)
                seen["steps"] += 1
                seen["reward"] += float(ref_reward)
                seen["successes"] += int(bool(ref_info.get("is_success", ref_info.get("success", False))))
                if ref_terminated:
                    seen["terminations"] += 1
                    break
    finally:
        env.close()
        ref.close()
    return seen
