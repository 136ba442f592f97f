"""rlpool in a few lines: sync stepping, async send/recv, and the dm_env API."""

import numpy as np

import rlpool

# Sync mode: 8 CartPoles stepped together; results come back in env-id order.
envs = rlpool.make("CartPole-v1", num_envs=8, seed=0)
obs, info = envs.reset()
episode_return = np.zeros(8)
for _ in range(1000):
    obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
    episode_return += reward
    done = terminated | truncated
    for env_id in np.flatnonzero(done):
        print(f"env {env_id} finished with return {episode_return[env_id]:.0f}")
    episode_return[done] = 0  # NextStep autoreset: the next step of a done env is its reset
envs.close()

# Async mode: 8 envs, results in batches of 4 as soon as any 4 envs finish a step.
envs = rlpool.make("Pendulum-v1", num_envs=8, batch_size=4, seed=0)
envs.async_reset()
for _ in range(100):
    obs, reward, terminated, truncated, info = envs.recv()
    actions = np.random.uniform(-2, 2, size=(4, 1)).astype(np.float32)
    envs.send(actions, info["env_id"])
envs.close()

# dm_env: TimeStep batches with step_type and discount.
env = rlpool.make_dm("MountainCar-v0", num_envs=2)
timestep = env.reset()
timestep = env.step(np.array([2, 2]))
print(timestep.step_type, timestep.discount, timestep.observation.obs.shape)
env.close()
