"""A script written for EnvPool, in the shape of CleanRL's PPO-with-EnvPool scripts, run on rlpool.

The only rlpool-specific line is the import: ``import rlpool.compat.envpool as envpool``.
``--reference`` runs the same code on EnvPool itself (``import envpool``), ``--api legacy``
runs the older 4-tuple shape (EnvPool with gym < 0.26, what CleanRL's scripts were first
written for) on ``rlpool.compat.envpool_legacy``.

The agent acts at random: this shows the loop (rollout storage, episode statistics
over ``step`` or ``send``/``recv``, the advantage pass), not the learning; for that
see ppo_cartpole.py / ppo_atari.py. ``run()`` returns what the loop saw of the API
(types, keys, shapes, dtypes) so tests can compare rlpool with EnvPool.

    python examples/cleanrl_envpool_style.py --env-id CartPole-v1 --env-type gym
    python examples/cleanrl_envpool_style.py --env-id Pong-v5 --num-envs 8 --batch-size 4
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections import deque
from typing import Any

import gymnasium
import numpy as np


def signature(x: Any) -> Any:
    """What an API value looks like: types, dict keys, array shapes and dtypes (not values).

    The ``r``/``l`` entries RecordEpisodeStatistics adds to ``info`` are left out.
    """
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.str, x.shape)
    if isinstance(x, dict):
        return ("dict", tuple((k, signature(v)) for k, v in x.items() if k not in ("r", "l")))
    if isinstance(x, tuple):
        return (type(x).__name__, tuple(signature(v) for v in x))
    return type(x).__name__


class RecordEpisodeStatistics:
    """CleanRL's EnvPool episode tracker, over ``step`` and ``send``/``recv``.

    Counts returns and lengths per env (by ``info["env_id"]``, so async batches work).
    Atari reports the unclipped reward in ``info["reward"]`` and the real game over in
    ``info["terminated"]`` (a life lost under ``episodic_life`` ends only the "episode"
    the agent sees), and ``info["lives"]``; classic control has none of these.
    EnvPool 1.x autoresets on the step after an episode ends: that row is a reset, not a
    transition, so it is not counted.
    """

    def __init__(self, env: Any, legacy: bool = False, deque_size: int = 100) -> None:
        self.env = env
        self.legacy = legacy
        self.num_envs = env.num_envs
        self.recent_returns: deque[float] = deque(maxlen=deque_size)
        self.recent_lengths: deque[int] = deque(maxlen=deque_size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def _start(self) -> None:
        n = self.num_envs
        self.episode_returns = np.zeros(n, dtype=np.float64)
        self.episode_lengths = np.zeros(n, dtype=np.int64)
        self.returned_episode_returns = np.zeros(n, dtype=np.float64)
        self.returned_episode_lengths = np.zeros(n, dtype=np.int64)
        self.lives = np.zeros(n, dtype=np.int32)
        self.resetting = np.zeros(n, dtype=bool)

    def reset(self, **kwargs: Any) -> Any:
        result = self.env.reset(**kwargs)
        self._start()
        return result

    def async_reset(self) -> None:
        self.env.async_reset()
        self._start()
        self.resetting[:] = True  # the first results are the resets

    def step(self, action: Any) -> Any:
        return self._track(self.env.step(action))

    def send(self, action: Any, env_id: Any = None) -> None:
        self.env.send(action, env_id)

    def recv(self) -> Any:
        return self._track(self.env.recv())

    def _track(self, result: tuple) -> tuple:
        if self.legacy:
            obs, reward, done, info = result
            terminated = done & ~info["TimeLimit.truncated"]
            truncated = info["TimeLimit.truncated"]
        else:
            obs, reward, terminated, truncated, info = result
        env_id = info["env_id"]
        counted = ~self.resetting[env_id]
        raw_reward = info.get("reward", reward)
        self.episode_returns[env_id] += raw_reward * counted
        self.episode_lengths[env_id] += counted
        ended = terminated | truncated
        game_over = (info["terminated"].astype(bool) | truncated) if "terminated" in info else ended
        if "lives" in info:
            self.lives[env_id] = info["lives"]
        for row in np.flatnonzero(game_over):
            i = env_id[row]
            self.recent_returns.append(float(self.episode_returns[i]))
            self.recent_lengths.append(int(self.episode_lengths[i]))
        self.returned_episode_returns[env_id] = self.episode_returns[env_id]
        self.returned_episode_lengths[env_id] = self.episode_lengths[env_id]
        self.episode_returns[env_id] *= ~game_over
        self.episode_lengths[env_id] *= ~game_over
        self.resetting[env_id] = ended
        info["r"] = self.returned_episode_returns[env_id]
        info["l"] = self.returned_episode_lengths[env_id]
        return result


def cleanrl_attributes(envs: Any, num_envs: int) -> None:
    """What CleanRL's scripts do after ``envpool.make``.

    EnvPool 1.x already has these, read-only (assigning raises AttributeError); rlpool's
    pools take the assignment, as older EnvPool did.
    """
    try:
        envs.num_envs = num_envs
        envs.single_action_space = envs.action_space
        envs.single_observation_space = envs.observation_space
    except AttributeError:
        pass
    assert envs.num_envs == num_envs
    assert envs.single_action_space == envs.action_space
    assert envs.single_observation_space == envs.observation_space


def run(
    envpool: Any,
    env_id: str = "CartPole-v1",
    env_type: str = "gym",
    num_envs: int = 8,
    batch_size: int | None = None,
    num_steps: int = 64,
    total_timesteps: int = 4096,
    seed: int = 1,
    legacy: bool = False,
    **env_kwargs: Any,
) -> dict[str, Any]:
    """Run the loop; returns the API signatures seen and the episode statistics."""
    rng = np.random.default_rng(seed)
    seen: dict[str, set] = {"reset": set(), "step": set(), "recv": set()}
    autoreset_rows_ok = True
    extra = {} if batch_size is None else {"batch_size": batch_size}
    envs = envpool.make(env_id, env_type=env_type, num_envs=num_envs, seed=seed, **extra, **env_kwargs)
    cleanrl_attributes(envs, num_envs)
    envs = RecordEpisodeStatistics(envs, legacy=legacy)
    assert isinstance(envs.single_action_space, gymnasium.spaces.Discrete), "only discrete action space is supported"
    n_actions = int(envs.single_action_space.n)
    obs_space = envs.single_observation_space
    start = time.perf_counter()

    if batch_size is None:  # sync: CleanRL's ppo_*_envpool.py
        obs = np.zeros((num_steps, num_envs) + obs_space.shape, dtype=obs_space.dtype)
        actions = np.zeros((num_steps, num_envs), dtype=np.int64)
        rewards = np.zeros((num_steps, num_envs), dtype=np.float32)
        dones = np.zeros((num_steps, num_envs), dtype=np.float32)
        values = np.zeros((num_steps, num_envs), dtype=np.float32)
        reset_result = envs.reset()
        seen["reset"].add(signature(reset_result))
        next_obs = reset_result if legacy and not isinstance(reset_result, tuple) else reset_result[0]
        next_done = np.zeros(num_envs, dtype=np.float32)
        prev_done = np.zeros(num_envs, dtype=bool)
        for _update in range(max(1, total_timesteps // (num_steps * num_envs))):
            for step in range(num_steps):
                obs[step] = next_obs
                dones[step] = next_done
                action = rng.integers(0, n_actions, size=num_envs)  # int64, as torch's sample() gives
                actions[step] = action
                result = envs.step(action)
                seen["step"].add(signature(result))
                if legacy:
                    next_obs, reward, done, info = result
                else:
                    next_obs, reward, terminated, truncated, info = result
                    done = terminated | truncated
                # The step after an episode ends is the reset: reward 0, counter 0, not done.
                if prev_done.any():
                    rows = prev_done
                    autoreset_rows_ok &= bool(
                        (reward[rows] == 0).all() and (info["elapsed_step"][rows] == 0).all() and not done[rows].any()
                    )
                prev_done = np.asarray(done, dtype=bool)
                rewards[step] = reward
                next_done = done.astype(np.float32)
            # GAE with a zero critic: the shape of the advantage pass, not learning.
            advantages = np.zeros_like(rewards)
            lastgaelam = np.zeros(num_envs, dtype=np.float32)
            for t in reversed(range(num_steps)):
                nextnonterminal = 1.0 - (next_done if t == num_steps - 1 else dones[t + 1])
                nextvalues = np.zeros(num_envs, dtype=np.float32) if t == num_steps - 1 else values[t + 1]
                delta = rewards[t] + 0.99 * nextvalues * nextnonterminal - values[t]
                lastgaelam = delta + 0.99 * 0.95 * nextnonterminal * lastgaelam
                advantages[t] = lastgaelam
    else:  # async: CleanRL's ppo_*_envpool_async_*.py, send/recv in batches
        envs.async_reset()
        prev_done = np.zeros(num_envs, dtype=bool)
        for _ in range(total_timesteps // batch_size):
            result = envs.recv()
            seen["recv"].add(signature(result))
            info = result[-1]
            env_id = info["env_id"]
            done = result[2] if legacy else result[2] | result[3]
            was_done = prev_done[env_id]
            if was_done.any():
                reward, elapsed = result[1][was_done], info["elapsed_step"][was_done]
                autoreset_rows_ok &= bool((reward == 0).all() and (elapsed == 0).all())
            prev_done[env_id] = done
            action = rng.integers(0, n_actions, size=env_id.shape[0]).astype(np.int32)
            envs.send(action, env_id)
        envs.recv()  # collect the batch still in flight
    seconds = time.perf_counter() - start
    out = {
        "signatures": seen,
        "observation_space": envs.observation_space,
        "action_space": envs.action_space,
        "config_keys": list(envs.config),
        "spec_num_envs": envs.spec.config.num_envs,
        "autoreset_rows_ok": autoreset_rows_ok,
        "episodes": len(envs.recent_returns),
        "mean_return": float(np.mean(envs.recent_returns)) if envs.recent_returns else float("nan"),
        "mean_length": float(np.mean(envs.recent_lengths)) if envs.recent_lengths else float("nan"),
        "lengths": list(envs.recent_lengths),
        "seconds": seconds,
    }
    envs.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env-id", default="CartPole-v1")
    parser.add_argument("--env-type", default="gym", choices=["gym", "gymnasium"])
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=None, help="< num-envs: the async send/recv loop")
    parser.add_argument("--total-timesteps", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", action="store_true", help="run on EnvPool itself")
    parser.add_argument("--api", default="1.x", choices=["1.x", "legacy"])
    args = parser.parse_args()
    if args.reference:
        module = "envpool"
    else:
        module = "rlpool.compat.envpool_legacy" if args.api == "legacy" else "rlpool.compat.envpool"
    envpool = importlib.import_module(module)
    result = run(
        envpool,
        args.env_id,
        args.env_type,
        args.num_envs,
        args.batch_size,
        total_timesteps=args.total_timesteps,
        seed=args.seed,
        legacy=args.api == "legacy",
    )
    print(
        f"{module}: {args.total_timesteps} steps in {result['seconds']:.2f} s, {result['episodes']} episodes, "
        f"mean return {result['mean_return']:.1f}, mean length {result['mean_length']:.1f}"
    )


if __name__ == "__main__":
    main()
