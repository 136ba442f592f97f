"""Maze-v0 (src/rlpool/envs/jumanji/maze.cc) beside jumanji 1.1.2's Maze, step by step, bit for bit.

Whole episodes from the same keys under a policy that mostly walks the shortest path to the target, else
wanders, now and then making a move a wall blocks (a no-op); other maze sizes and time limits; states a random
policy never reaches (an agent walled in, an action_mask that lets the agent off the maze, the last step
before the time limit) put in with ``set_state``; a planted difference that the comparison catches; and bad
state blobs refused naming the field.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

from jumanji_reference import (  # noqa: E402
    Mismatch,
    Reference,
    check_refused_blobs,
    check_refused_options,
    check_saved_states,
    lockstep,
    patched,
    prng_key,
    reset_state,
    run_from_state,
)
from lane import FULL  # noqa: E402

TASK = "Maze-v0"
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
CELLS = 100  # the default maze's 10 x 10 squares
# Offsets into the default maze's state blob: the env's key, walls, then the int32 fields.
AGENT_ROW_AT = 8 + CELLS
TARGET_ROW_AT = AGENT_ROW_AT + 8
STEP_COUNT_AT = AGENT_ROW_AT + 16
MASK_AT = AGENT_ROW_AT + 20


def ref(**kwargs: Any) -> Reference:
    """jumanji's Maze-v0 (``kwargs`` for jumanji.make)."""
    return Reference("Maze-v0", kwargs)


def first_move(walls: np.ndarray, start: tuple[int, int], goal: tuple[int, int]) -> int | None:
    """The first move of a shortest path from ``start`` to ``goal`` around the walls (breadth first)."""
    rows, cols = walls.shape
    first: dict[tuple[int, int], int | None] = {start: None}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == goal:
            return first[square]
        for a, (dr, dc) in enumerate(MOVES):
            nxt = (square[0] + dr, square[1] + dc)
            if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and not walls[nxt] and nxt not in first:
                first[nxt] = a if first[square] is None else first[square]
                queue.append(nxt)
    return None


def seek_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per env: 50% a step along the shortest path, 42% a random legal move, 8% any move (a wall: a no-op)."""
    actions = []
    for i, mask in enumerate(obs["action_mask"]):
        u = rng.random()
        legal = np.flatnonzero(mask)
        if u < 0.5:
            agent = (int(obs["agent_position"]["row"][i]), int(obs["agent_position"]["col"][i]))
            target = (int(obs["target_position"]["row"][i]), int(obs["target_position"]["col"][i]))
            move = first_move(np.asarray(obs["walls"][i], bool), agent, target)
            if move is not None:
                actions.append(move)
                continue
        if u < 0.92 and len(legal):
            actions.append(int(rng.choice(legal)))
        else:
            actions.append(int(rng.integers(4)))
    return np.asarray(actions, np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's Maze ``State`` as the env's state bytes: the env's key, then maze.cc's layout."""
    return b"".join([
        np.asarray(env_key, "<u4").tobytes(),
        np.asarray(state.walls, np.uint8).tobytes(),
        np.asarray([state.agent_position.row, state.agent_position.col, state.target_position.row,
                    state.target_position.col, state.step_count], "<i4").tobytes(),
        np.asarray(state.action_mask, np.uint8).tobytes(),
        np.asarray(state.key, "<u4").tobytes(),
    ])


def handmade_state(reference: Reference, walls: np.ndarray, agent: tuple[int, int], target: tuple[int, int],
                   step_count: int = 0, action_mask: np.ndarray | None = None) -> Any:
    """A jumanji State with these walls and squares, the action_mask jumanji computes unless given."""
    import jax.numpy as jnp
    from jumanji.environments.routing.maze.types import Position

    env = reference.env
    state, _ = reference.reset(prng_key(1))
    walls = jnp.asarray(walls, bool)
    agent_position = Position(jnp.int32(agent[0]), jnp.int32(agent[1]))
    if action_mask is None:
        action_mask = env._compute_action_mask(walls, agent_position)
    return state.replace(walls=walls, agent_position=agent_position,
                         target_position=Position(jnp.int32(target[0]), jnp.int32(target[1])),
                         step_count=jnp.int32(step_count), action_mask=jnp.asarray(action_mask, bool))


def test_lockstep_whole_episodes() -> None:
    stats = lockstep(TASK, ref(), seed=0, num_envs=4, steps=300, policy=seek_policy)
    assert stats.steps >= 1000 and stats.episodes >= 20
    assert stats.truncations < stats.episodes  # targets reached, not only time limits


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def test_walled_in_agent_ends_the_episode() -> None:
    """A move onto a square from which no move is legal: a termination, reward 0."""
    reference = ref()
    walls = np.ones((10, 10), bool)
    walls[0, 1] = False  # the agent stands on a wall square, so it cannot step back
    state = handmade_state(reference, walls, (0, 0), (5, 5))
    assert run_from_state(TASK, reference, state, encode(state), [2, 0, 1, 1]) == 3


def test_time_limit_is_a_termination() -> None:
    """Three blocked moves (no-ops) from step 97: the third ends the episode at jumanji's time_limit (100)."""
    reference = ref()
    for seed in range(11, 40):
        state, _ = reference.reset(prng_key(seed))
        blocked = [a for a in range(4) if not bool(state.action_mask[a])]
        if blocked:
            break
    state = state.replace(step_count=state.step_count + 97)
    assert run_from_state(TASK, reference, state, encode(state), [blocked[0]] * 5) == 3


def test_an_action_mask_that_leaves_the_maze() -> None:
    """jumanji moves wherever the State's action_mask allows, off the maze too, and comes back."""
    reference = ref()
    walls = np.zeros((10, 10), bool)
    state = handmade_state(reference, walls, (0, 9), (9, 0), action_mask=np.ones(4, bool))
    assert run_from_state(TASK, reference, state, encode(state), [0, 2, 2, 1, 3, 3]) == 6
    state = handmade_state(reference, walls, (9, 0), (0, 0), action_mask=np.ones(4, bool))
    assert run_from_state(TASK, reference, state, encode(state), [3, 1, 2, 0]) == 4


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state, _ = reference.reset(prng_key(5))
    walls = np.asarray(state.walls)
    agent = (int(state.agent_position.row), int(state.agent_position.col))
    target = (int(state.target_position.row), int(state.target_position.col))
    actions, probe = [], agent
    while probe != target:
        move = first_move(walls, probe, target)
        actions.append(move)
        probe = (probe[0] + MOVES[move][0], probe[1] + MOVES[move][1])
    assert run_from_state(TASK, reference, state, encode(state), actions) == len(actions)
    blob = bytearray(encode(state))
    blob[TARGET_ROW_AT:TARGET_ROW_AT + 4] = np.int32((target[0] + 1) % 10).tobytes()
    with pytest.raises(Mismatch):
        run_from_state(TASK, reference, state, bytes(blob), actions)


@pytest.mark.parametrize(("offset", "value", "field"), [
    (AGENT_ROW_AT, 11, "agent_position.row"),
    (AGENT_ROW_AT + 4, -2, "agent_position.col"),
    (TARGET_ROW_AT, -1, "target_position.row"),
    (TARGET_ROW_AT + 4, 10, "target_position.col"),
    (STEP_COUNT_AT, -1, "step_count"),
])
def test_bad_state_fields_are_refused(offset: int, value: int, field: str) -> None:
    good = reset_state(TASK, seed=0)
    check_refused_blobs(TASK, good, {
        field: patched(good, offset, np.int32(value).tobytes()),
        "walls": patched(good, 8 + 17, b"\x02"),
        "action_mask": patched(good, MASK_AT + 2, b"\x02"),
        "key": good[:-1],
        "Maze": good + b"\0",
    })


def test_bad_options_are_refused() -> None:
    check_refused_options(TASK, {
        "num_rows": dict(num_rows=1),
        "time_limit": dict(time_limit=-1),
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = lockstep(TASK, ref(), seed=seed * 1000, num_envs=8, steps=400, policy=seek_policy)
    assert stats.episodes >= 20


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("rows", "cols", "time_limit"), [(2, 2, 0), (16, 5, 40), (25, 24, 0)])
def test_other_sizes(rows: int, cols: int, time_limit: int) -> None:
    from jumanji.environments.routing.maze.generator import RandomGenerator

    reference = ref(generator=RandomGenerator(num_rows=rows, num_cols=cols), time_limit=time_limit or None)
    stats = lockstep(TASK, reference, seed=rows * 100 + cols, num_envs=4, steps=300, policy=seek_policy,
                     num_rows=rows, num_cols=cols, time_limit=time_limit, max_episode_steps=10**6)
    assert stats.episodes >= 4
