"""highway-env 1.12.1 as the reference of rlpool's highway family, driven from rlpool's random draws.

Every draw of an rlpool highway env's episode comes from the env's own generator, whose four words at the
episode's start begin its saved state (``src/rlpool/envs/highway/highway_env.h``). ``use_words`` puts a Python
copy of that generator (``xoshiro.XoshiroGenerator``) in place of a highway-env env's ``np_random`` (which its
road shares: ``Road(np_random=self.np_random)`` at reset), so that highway-env's own reset and steps draw
exactly the numbers rlpool's env draws. ``reference_config`` turns rlpool's options (highway-env's config keys,
``observation_*``/``action_*`` for the nested dicts) into highway-env's config dict.

``run_pair`` steps both sides through one whole episode with the same actions and returns the largest
differences; ``EpisodeMismatch`` (an AssertionError) names the first value that differs beyond the tolerance.
``assert_runs_equal`` and ``assert_restore_replays`` hold the thread-count and get_state/set_state replay
checks that the family's test files share.
"""

from __future__ import annotations

import struct
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xoshiro import XoshiroGenerator

MAGIC = b"rlpool-highway-v1"

# rlpool's options that have no highway-env config key (the viewer's, and HighwayEnvFast's class behaviour).
_NOT_CONFIG = {"screen_width", "screen_height", "centering_position_x", "centering_position_y", "scaling",
               "other_vehicles_check_collisions"}


def import_highway_env() -> Any:
    """highway_env (a skip naming the package where it is missing; conftest.py fails that skip in CI)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pytest.importorskip("highway_env", reason="highway-env==1.12.1 is the highway family's reference")


def parse_state(state: bytes) -> tuple[bytes, tuple[int, int, int, int], int, bytes]:
    """(config key, start words, steps, action bytes) of a highway env state."""
    assert state.startswith(MAGIC), state[:40]
    pos = len(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, pos)
    pos += 4
    key = state[pos:pos + key_size]
    pos += key_size
    words = struct.unpack_from("<4Q", state, pos)
    pos += 32
    (steps,) = struct.unpack_from("<Q", state, pos)
    pos += 8
    return key, words, steps, state[pos:]


def with_words(state: bytes, words: tuple[int, int, int, int]) -> bytes:
    """The state of a fresh episode (no steps taken) that starts from generator ``words``."""
    key, _, _, _ = parse_state(state)
    return MAGIC + struct.pack("<I", len(key)) + key + struct.pack("<4Q", *words) + struct.pack("<Q", 0)


def words_from(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """Four generator words drawn from a numpy Generator."""
    return tuple(int(w) for w in rng.integers(0, 2**64, size=4, dtype=np.uint64))  # type: ignore[return-value]


def reference_config(options: dict[str, Any]) -> dict[str, Any]:
    """highway-env's config (a delta on the class's defaults) for rlpool ``options``.

    ``observation_type``/``action_type`` must be given whenever another observation/action option is (the
    dict replaces highway-env's whole default one). List values are passed as they are.
    """
    config: dict[str, Any] = {}
    observation: dict[str, Any] = {}
    action: dict[str, Any] = {}
    for name, value in options.items():
        if name in _NOT_CONFIG:
            continue
        if name.startswith("observation_"):
            observation[name[len("observation_"):]] = value
        elif name.startswith("action_"):
            action[name[len("action_"):]] = value
        elif name in ("reward_speed_low", "reward_speed_high"):
            low, high = options.get("reward_speed_low", 20.0), options.get("reward_speed_high", 30.0)
            config["reward_speed_range"] = [low, high]
        elif name == "initial_lane_id":
            config[name] = None if value == -1 else value
        elif name == "other_vehicles_type" and "." not in value:  # rlpool also takes the bare class name
            config[name] = f"highway_env.vehicle.behavior.{value}"
        else:
            config[name] = value
    for part, key, inner in ((observation, "observation", "observation_config"), (action, "action", "action_config")):
        if not part:
            continue
        assert "type" in part, f"give {key}_type with the other {key}_* options: {part}"
        if part["type"].startswith("MultiAgent"):
            agent = {k: v for k, v in part.items() if k != "type"}
            agent["type"] = agent.pop("config_type")
            config[key] = {"type": part["type"], inner: agent}
        else:
            config[key] = part
    return config


def reference(highway_env_id: str, options: dict[str, Any] | None = None) -> Any:
    """highway-env's env of ``highway_env_id`` configured as rlpool's ``options`` make it (unwrapped)."""
    import_highway_env()
    import gymnasium as gym

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gym.make(highway_env_id, config=reference_config(options or {}), disable_env_checker=True)
    return env.unwrapped


def use_words(env: Any, words: tuple[int, int, int, int]) -> None:
    """Make highway-env's env draw what an rlpool env started from ``words`` draws (from its next reset on)."""
    env._np_random = XoshiroGenerator(words)


class EpisodeMismatch(AssertionError):
    """rlpool and highway-env differ beyond the tolerance: the message names the step and the value."""


def _as_array(obs: Any) -> Any:
    if isinstance(obs, dict):
        return {k: np.asarray(v) for k, v in obs.items()}
    if isinstance(obs, tuple):
        first = obs[0]
        if isinstance(first, dict):
            return {k: np.stack([np.asarray(o[k]) for o in obs]) for k in first}
        return np.stack([np.asarray(o) for o in obs])
    return np.asarray(obs)


REWARD = "rewards/"
"""highway-env's ``info["rewards"][name]`` is rlpool's ``info[name]`` (rlpool's info keys are flat)."""


def _flat_info(info: dict[str, Any]) -> dict[str, Any]:
    """highway-env's info with its nested rewards dict's entries as keys ``rewards/<name>``."""
    out = {k: v for k, v in info.items() if k != "rewards"}
    for k, v in info.get("rewards", {}).items():
        out[REWARD + k] = v
    return out


class Comparator:
    """Compares rlpool's results with highway-env's, keeping the largest absolute difference seen."""

    def __init__(self, tol: float, label: str) -> None:
        self.tol = tol
        self.label = label
        self.max_error = 0.0
        self.values = 0

    def close(self, what: str, ours: Any, theirs: Any) -> None:
        a = np.asarray(ours, dtype=np.float64)
        b = np.asarray(theirs, dtype=np.float64)
        if a.shape != b.shape:
            raise EpisodeMismatch(f"{self.label}: {what} has shape {a.shape}, highway-env's {b.shape}")
        same_nan = np.isnan(a) & np.isnan(b)
        if (np.isnan(a) != np.isnan(b)).any():
            raise EpisodeMismatch(f"{self.label}: {what} NaN where highway-env has none:\n{a}\n{b}")
        diff = np.where(same_nan, 0.0, np.abs(a - b))
        error = float(diff.max()) if diff.size else 0.0
        self.values += int(a.size)
        self.max_error = max(self.max_error, error)
        if not error <= self.tol:
            where = np.unravel_index(int(np.argmax(diff)), diff.shape) if diff.ndim else ()
            raise EpisodeMismatch(f"{self.label}: {what} differs by {error:.3g} at {where}: rlpool {a[where]!r}, "
                                  f"highway-env {b[where]!r}")

    def equal(self, what: str, ours: Any, theirs: Any) -> None:
        if not np.array_equal(np.asarray(ours), np.asarray(theirs)):
            raise EpisodeMismatch(f"{self.label}: {what} is {ours!r}, highway-env's {theirs!r}")


def compare_step(cmp: Comparator, step: int, rl: tuple, ref: tuple, agents: int, after_reset: bool) -> None:
    """One step's (or the reset's) results of env 0 against highway-env's."""
    rl_obs, rl_reward, rl_term, rl_trunc, rl_info = rl
    ref_obs, ref_reward, ref_term, ref_trunc, ref_info = ref
    where = "reset" if after_reset else f"step {step}"
    ref_obs = _as_array(ref_obs)
    if isinstance(rl_obs, dict):
        for k in rl_obs:
            cmp.close(f"{where} obs[{k!r}]", rl_obs[k][0], ref_obs[k])
    else:
        cmp.close(f"{where} obs", rl_obs[0], ref_obs)
    if not after_reset:
        cmp.close(f"{where} reward", rl_reward[0], np.broadcast_to(np.asarray(ref_reward, np.float64),
                                                                   np.shape(rl_reward[0])))
        cmp.equal(f"{where} terminated", rl_term[0], np.broadcast_to(np.asarray(ref_term), np.shape(rl_term[0])))
        cmp.equal(f"{where} truncated", rl_trunc[0], np.broadcast_to(np.asarray(ref_trunc), np.shape(rl_trunc[0])))
    ref_flat = _flat_info(ref_info)
    for key, value in ref_flat.items():
        if key == "action" and after_reset:
            continue  # highway-env's reset info samples the action space with a generator of its own
        if key == "speed" or key.startswith(REWARD):
            name = key.removeprefix(REWARD)
            cmp.close(f"{where} info[{name!r}]", rl_info[name][0], value)
        elif key == "crashed":
            cmp.equal(f"{where} info['crashed']", rl_info["crashed"][0], bool(value))
        elif key == "action":
            theirs = np.asarray(value, dtype=np.float64)
            cmp.close(f"{where} info['action']", rl_info["action"][0], theirs.reshape(np.shape(rl_info["action"][0])))


def run_pair(env: Any, ref: Any, policy: Callable[[int], Any], label: str, tol: float = 1e-5,
             max_steps: int = 10_000) -> Comparator:
    """One whole episode of rlpool env 0 (num_envs=1, just made) and highway-env's ``ref`` from the same draws.

    rlpool's env resets first; highway-env then starts from the words of that reset. ``policy(step)`` gives the
    action (as rlpool takes it; highway-env gets it per agent for a multi-agent env). Returns the comparator
    (max_error, values compared); raises EpisodeMismatch at the first difference beyond ``tol``.
    """
    cmp = Comparator(tol, label)
    agents = env.spec.arrays.num_agents if hasattr(env.spec, "arrays") else 0
    rl_obs, rl_info = env.reset()
    _, words, _, _ = parse_state(env.get_state(0))
    use_words(ref, words)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, ref_info = ref.reset()
    compare_step(cmp, 0, (rl_obs, None, None, None, rl_info), (ref_obs, None, None, None, ref_info), agents, True)
    for step in range(1, max_steps + 1):
        action = policy(step)
        batch = np.asarray(action)[None]
        rl = env.step(batch)
        ref_action = tuple(np.asarray(action)) if agents else action
        if agents and np.asarray(action).ndim == 1 and np.issubdtype(np.asarray(action).dtype, np.integer):
            ref_action = tuple(int(a) for a in action)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref_result = ref.step(ref_action)
        compare_step(cmp, step, rl, ref_result, agents, False)
        if bool(np.all(np.asarray(rl[2][0]) | np.asarray(rl[3][0]))):
            return cmp
    return cmp


def assert_runs_equal(runs: list[list[tuple]]) -> None:
    """Assert that two runs of a test's ``_trajectory`` (lists of per-step tuples of arrays) match exactly."""
    for k, (a, b) in enumerate(zip(*runs, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), f"step {k}"


def assert_restore_replays(env: Any, trajectory: Callable[[Any, np.ndarray], list[tuple]], later: np.ndarray) -> None:
    """Save env 0's state, step ``later`` (no episode may end before its last step), restore that state into
    envs 0 and 1, step ``later`` again and assert env 0 replays its first run exactly, env 1 matches env 0 at
    every step, and both end with equal states. ``trajectory`` is the test's own ``_trajectory``; its tuples
    hold (obs, reward, terminated, truncated, ...) arrays indexed by env."""
    saved = env.get_state(0)
    first = trajectory(env, later)
    assert not any(t[2][0] or t[3][0] for t in first[:-1])  # a reset would draw from the pool's generator
    env.set_state(0, saved)
    env.set_state(1, saved)
    second = trajectory(env, later)
    for k, (a, b) in enumerate(zip(first, second, strict=True)):
        assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True)), f"step {k}"
        assert all(np.array_equal(y[0], y[1]) for y in b), f"step {k}"
    assert env.get_state(0) == env.get_state(1)
