"""CartPole written in Python and run by rlpool's C++ threads at native speed.

Importing this module registers "PyCartPole-v1": gymnasium's CartPole-v1
(and rlpool's built-in C++ one) re-written as two plain Python functions that
numba compiles. It is step-for-step, bit-for-bit identical to the built-in
CartPole-v1 (tests/envs/python/test_python_env.py proves it), resets included: both draw
from the engine's per-env generator the same way.

    python examples/python_cartpole.py                  # a short demo
    rlpool bench CartPole-v1 PyCartPole-v1 --num-envs 16 --import examples/python_cartpole.py
"""

import math

import numpy as np
from gymnasium import spaces

from rlpool import python_env

GRAVITY = 9.8
MASS_CART = 1.0
MASS_POLE = 0.1
TOTAL_MASS = MASS_POLE + MASS_CART
LENGTH = 0.5  # half the pole's length
POLE_MASS_LENGTH = MASS_POLE * LENGTH
FORCE_MAG = 10.0
TAU = 0.02
THETA_THRESHOLD = 12 * 2 * math.pi / 360  # gymnasium's expression, so the same double
X_THRESHOLD = 2.4

HIGH = np.array([X_THRESHOLD * 2, np.inf, THETA_THRESHOLD * 2, np.inf], dtype=np.float32)


@python_env.register(
    "PyCartPole-v1",
    obs=spaces.Box(-HIGH, HIGH, dtype=np.float32),
    action=spaces.Discrete(2),
    state=4,  # x, x_dot, theta, theta_dot as float64, gymnasium's env.unwrapped.state
    options={"sutton_barto_reward": False},
    max_episode_steps=500,
    reward_threshold=475.0,
)
class PyCartPole:
    @staticmethod
    def reset(state, obs, rng):
        for i in range(4):
            state[i] = rng.uniform(-0.05, 0.05)
            obs[i] = state[i]

    @staticmethod
    def step(state, action, obs, params):
        x, x_dot, theta, theta_dot = state[0], state[1], state[2], state[3]
        force = FORCE_MAG if action == 1 else -FORCE_MAG
        costheta = math.cos(theta)
        sintheta = math.sin(theta)
        # gymnasium's formulas, term by term.
        temp = (force + POLE_MASS_LENGTH * (theta_dot * theta_dot) * sintheta) / TOTAL_MASS
        thetaacc = (GRAVITY * sintheta - costheta * temp) / (
            LENGTH * (4.0 / 3.0 - MASS_POLE * (costheta * costheta) / TOTAL_MASS)
        )
        xacc = temp - POLE_MASS_LENGTH * thetaacc * costheta / TOTAL_MASS
        x = x + TAU * x_dot  # euler integration, gymnasium's default
        x_dot = x_dot + TAU * xacc
        theta = theta + TAU * theta_dot
        theta_dot = theta_dot + TAU * thetaacc
        state[0], state[1], state[2], state[3] = x, x_dot, theta, theta_dot
        for i in range(4):
            obs[i] = state[i]
        terminated = x < -X_THRESHOLD or x > X_THRESHOLD or theta < -THETA_THRESHOLD or theta > THETA_THRESHOLD
        if params.sutton_barto_reward:
            return (-1.0 if terminated else 0.0), terminated
        return 1.0, terminated


if __name__ == "__main__":
    import rlpool

    envs = rlpool.make("PyCartPole-v1", num_envs=16, seed=0)
    obs, info = envs.reset()
    returns, finished = np.zeros(16), []
    for _ in range(2000):
        obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
        returns += reward
        done = terminated | truncated
        finished += returns[done].tolist()
        returns[done] = 0
    print(f"{len(finished)} episodes, mean return {np.mean(finished):.1f} (random actions)")
    print(f"compiled in {python_env.task_info('PyCartPole-v1').compile_seconds:.2f} s "
          f"(from the disk cache: {python_env.task_info('PyCartPole-v1').cache_hit})")
    envs.close()
