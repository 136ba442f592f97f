"""A key-and-door grid world written in Python, run by rlpool's C++ threads.

Importing this module registers "KeyDoorGrid-v0". Each episode places some
walls, a key and a door at random on a 9x9 grid; the agent (4 moves, which
slip to a random direction with probability ``slip``) must fetch the key,
then reach the door. It shows what a Python-written env can declare: a dict
state, a dict observation mixing Box, Discrete and MultiBinary entries, an
info entry, int and float options, random numbers in both functions, and a
``render`` that draws the grid (``render_mode="rgb_array"``).

    python examples/python_gridworld.py
"""

import numpy as np
from gymnasium import spaces

from rlpool import python_env

SIZE = 9
MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]], dtype=np.int64)  # up, right, down, left
STEP_REWARD = -0.01
KEY_REWARD = 0.5
DOOR_REWARD = 1.0
CELL = 16  # pixels a cell in rendered frames
# Colours of the frame: floor, wall, key, door (locked), door (open: the agent has the key), agent.
COLOURS = np.array(
    [[40, 40, 40], [128, 128, 128], [240, 200, 40], [140, 80, 30], [60, 180, 75], [230, 50, 50]], dtype=np.uint8
)


def _free_cell(state, rng):
    """A random cell with no wall, key, door or agent (rejection sampling)."""
    while True:
        r = rng.integers(SIZE)
        c = rng.integers(SIZE)
        if state.grid[r, c] == 0:
            return r, c


def _observe(state, obs, info):
    r, c = state.agent[0], state.agent[1]
    target = state.door if state.has_key[0] else state.key
    obs.agent[0], obs.agent[1] = r, c
    obs.target[0], obs.target[1] = target[0], target[1]
    obs.has_key[()] = state.has_key[0]
    for dr in range(3):
        for dc in range(3):
            rr, cc = r + dr - 1, c + dc - 1
            outside = rr < 0 or rr >= SIZE or cc < 0 or cc >= SIZE
            obs.walls[dr, dc] = outside or state.grid[rr, cc] == 1
    info.distance[()] = abs(r - target[0]) + abs(c - target[1])


@python_env.register(
    "KeyDoorGrid-v0",
    obs=spaces.Dict(
        {
            "agent": spaces.Box(0, SIZE - 1, (2,), np.int32),
            "target": spaces.Box(0, SIZE - 1, (2,), np.int32),  # the key, then the door
            "has_key": spaces.Discrete(2),
            "walls": spaces.MultiBinary((3, 3)),  # walls around the agent (the border counts)
        }
    ),
    action=spaces.Discrete(4),
    info={"distance": spaces.Box(0, 2 * (SIZE - 1), (), np.int32)},  # Manhattan distance to the target
    state={
        "grid": np.zeros((SIZE, SIZE), np.uint8),  # 1 wall, 2 key, 3 door
        "agent": np.zeros(2, np.int64),
        "key": np.zeros(2, np.int64),
        "door": np.zeros(2, np.int64),
        "has_key": np.zeros(1, np.int64),
    },
    options={"num_walls": 10, "slip": 0.1},
    max_episode_steps=200,
    render_size=(SIZE * CELL, SIZE * CELL),  # (width, height) of the frames render draws
    render_fps=8,
)
class KeyDoorGrid:
    @staticmethod
    def reset(state, obs, info, rng, params):
        if params.num_walls < 0 or params.num_walls > SIZE * SIZE // 2:
            raise ValueError("num_walls must be between 0 and 40")
        state.grid[:, :] = 0
        for _ in range(params.num_walls):
            r, c = _free_cell(state, rng)
            state.grid[r, c] = 1
        state.key[0], state.key[1] = _free_cell(state, rng)
        state.grid[state.key[0], state.key[1]] = 2
        state.door[0], state.door[1] = _free_cell(state, rng)
        state.grid[state.door[0], state.door[1]] = 3
        state.agent[0], state.agent[1] = _free_cell(state, rng)
        state.has_key[0] = 0
        _observe(state, obs, info)

    @staticmethod
    def step(state, action, obs, info, rng, params):
        move = action
        if rng.random() < params.slip:
            move = rng.integers(4)
        r = state.agent[0] + MOVES[move, 0]
        c = state.agent[1] + MOVES[move, 1]
        if 0 <= r < SIZE and 0 <= c < SIZE and state.grid[r, c] != 1:
            state.agent[0], state.agent[1] = r, c
        reward = STEP_REWARD
        terminated = False
        cell = state.grid[state.agent[0], state.agent[1]]
        if cell == 2 and state.has_key[0] == 0:
            state.has_key[0] = 1
            state.grid[state.agent[0], state.agent[1]] = 0
            reward += KEY_REWARD
        elif cell == 3 and state.has_key[0] == 1:
            reward += DOOR_REWARD
            terminated = True
        _observe(state, obs, info)
        return reward, terminated

    @staticmethod
    def render(state, frame):
        """The grid, CELL pixels a cell, with a one-pixel floor-coloured gap; the agent a smaller square."""
        for r in range(SIZE):
            for c in range(SIZE):
                kind = state.grid[r, c]
                if kind == 3 and state.has_key[0] == 1:
                    kind = 4
                frame[r * CELL + 1 : (r + 1) * CELL, c * CELL + 1 : (c + 1) * CELL, :] = COLOURS[kind]
        r, c = state.agent[0], state.agent[1]
        frame[r * CELL + 4 : (r + 1) * CELL - 3, c * CELL + 4 : (c + 1) * CELL - 3, :] = COLOURS[5]


if __name__ == "__main__":
    import rlpool

    envs = rlpool.make("KeyDoorGrid-v0", num_envs=32, seed=0, slip=0.2, render_mode="rgb_array")
    obs, info = envs.reset()
    print({k: v[0].tolist() for k, v in obs.items()}, "distance", info["distance"][0])
    print("frame of env 0:", envs.render().shape)
    returns, finished = np.zeros(32), []
    for _ in range(5000):
        obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
        returns += reward
        done = terminated | truncated
        finished += returns[done].tolist()
        returns[done] = 0
    print(f"{len(finished)} episodes, mean return {np.mean(finished):.2f} (random actions)")
    envs.close()
