"""What CleanRL's ``ppo_atari_envpool.py`` and ``pqn_atari_envpool.py`` do with their envs, without the networks.

Run as a script by ``tests/compat/test_cleanrl_gym023.py`` under gym 0.23 with ``import envpool``
answered by ``rlpool.compat.envpool_legacy``. The env lines follow those scripts (vwxyzjn/cleanrl,
cleanrl/ppo_atari_envpool.py and cleanrl/pqn_atari_envpool.py): ``envpool.make(env_id, env_type="gym",
num_envs=..., episodic_life=True, reward_clip=True[, seed=...])``, the three attribute assignments, their
``RecordEpisodeStatistics(gym.Wrapper)`` (ppo's probes ``info["lives"]`` at construction and ends episodes
on ``lives == 0``; pqn's on ``info["terminated"]``), the ``isinstance(envs.action_space,
gym.spaces.Discrete)`` assert, ``envs.single_action_space.n`` / ``.shape``,
``envs.single_observation_space.shape``, ``envs.reset()`` as the observation, the 4-tuple ``step`` and
``info["lives"]``/``info["r"]``/``info["l"]``. Random actions stand in for the policies. Prints a JSON summary.
"""

from __future__ import annotations

import json
import sys

import envpool
import gym
import numpy as np


class EpisodeStats(gym.Wrapper):
    """What both scripts' ``RecordEpisodeStatistics`` share: per-env returns and lengths in ``info["r"]``/``["l"]``."""

    def __init__(self, env):
        super().__init__(env)
        self.num_envs = getattr(env, "num_envs", 1)

    def reset(self, **kwargs):
        obs = super().reset(**kwargs)
        self.ret = np.zeros(self.num_envs, dtype=np.float32)
        self.len = np.zeros(self.num_envs, dtype=np.int32)
        self.out_ret = np.zeros(self.num_envs, dtype=np.float32)
        self.out_len = np.zeros(self.num_envs, dtype=np.int32)
        return obs

    def step(self, action):
        obs, reward, done, info = super().step(action)
        self.ret += info["reward"]
        self.len += 1
        self.out_ret[:] = self.ret
        self.out_len[:] = self.len
        ended = self.ended(done, info)
        self.ret *= 1 - ended
        self.len *= 1 - ended
        info["r"], info["l"] = self.out_ret, self.out_len
        return obs, reward, done, info


class PPOEpisodeStats(EpisodeStats):
    """ppo_atari_envpool.py's: probes ``info["lives"]`` once; ends on lives == 0 when the game has lives."""

    def __init__(self, env):
        super().__init__(env)
        env.reset()
        first = env.step(np.zeros(self.num_envs, dtype=int))[-1]
        self.has_lives = bool(first["lives"].sum() > 0)

    def ended(self, done, info):
        return (info["lives"] == 0) if self.has_lives else done


class PQNEpisodeStats(EpisodeStats):
    """pqn_atari_envpool.py's: episodes end on ``info["terminated"]``."""

    def ended(self, done, info):
        return info["terminated"]


def run(script: str, env_id: str, num_envs: int, num_steps: int, iterations: int, seed: int) -> dict:
    kwargs = {"seed": seed} if script == "pqn" else {}
    envs = envpool.make(env_id, env_type="gym", num_envs=num_envs, episodic_life=True, reward_clip=True, **kwargs)
    envs.num_envs = num_envs
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    envs = (PPOEpisodeStats if script == "ppo" else PQNEpisodeStats)(envs)
    assert isinstance(envs.action_space, gym.spaces.Discrete), "only discrete action space is supported"
    obs_buf = np.zeros((num_steps, num_envs) + envs.single_observation_space.shape, dtype=np.float32)
    act_buf = np.zeros((num_steps, num_envs) + envs.single_action_space.shape, dtype=np.float32)
    rng = np.random.default_rng(seed)
    next_obs = np.asarray(envs.reset(), dtype=np.float32)
    steps, life_ends, game_ends, returns = 0, 0, 0, []
    for _ in range(iterations):
        for step in range(num_steps):
            obs_buf[step] = next_obs
            action = rng.integers(0, envs.single_action_space.n, num_envs)
            act_buf[step] = action
            next_obs, reward, done, info = envs.step(action)
            next_obs = np.asarray(next_obs, dtype=np.float32)
            assert reward.shape == (num_envs,) and set(np.unique(reward)) <= {-1.0, 0.0, 1.0}  # reward_clip
            steps += num_envs
            for idx, d in enumerate(done):
                life_ends += bool(d)
                if d and info["lives"][idx] == 0:
                    game_ends += 1
                    returns.append(float(info["r"][idx]))
    envs.close()
    return {
        "script": script, "steps": steps, "life_ends": life_ends, "game_ends": game_ends, "returns": returns,
        "obs_shape": list(envs.single_observation_space.shape), "n": int(envs.single_action_space.n),
        "gym": gym.__version__, "is_gym_env": isinstance(envs.unwrapped, gym.Env),
        "obs_space": type(envs.observation_space).__module__,
        # The spec's spaces too (TorchRL converts spec.action_space as a gym space).
        "spec_spaces": [type(envs.unwrapped.spec.observation_space).__module__,
                        type(envs.unwrapped.spec.action_space).__module__,
                        type(envpool.make_spec(env_id).action_space).__module__],
    }


if __name__ == "__main__":
    script, env_id, num_envs, num_steps, iterations = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    print(json.dumps(run(script, env_id, num_envs, num_steps, iterations, seed=1)))
