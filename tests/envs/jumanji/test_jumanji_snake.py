"""Snake-v1 (src/rlpool/envs/jumanji/snake.cc) beside jumanji 1.1.2's Snake, step by step, bit for bit.

Whole episodes from the same keys under a policy that chases the fruit, wanders and now and then makes an
illegal move (so that episodes end both ways and the head leaves the board); states a random policy rarely
reaches (a board one fruit short of full, the last step before the time limit) put in with ``set_state``;
a planted difference that the comparison catches; and bad state blobs refused naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "Snake-v1"
MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])


def ref() -> jr.Reference:
    """jumanji's Snake-v1."""
    return jr.Reference("Snake-v1")


def chase_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per env: mostly a legal move towards the fruit, else a random legal move, 4% of the time any move."""
    actions = []
    for grid, mask in zip(obs["grid"], obs["action_mask"], strict=True):
        legal = np.flatnonzero(mask)
        u = rng.random()
        if u < 0.04 or len(legal) == 0:
            actions.append(int(rng.integers(4)))
            continue
        head = np.argwhere(grid[..., 1] > 0)
        fruit = np.argwhere(grid[..., 3] > 0)
        if u < 0.8 and len(head) and len(fruit):
            dist = [np.abs(head[0] + MOVES[a] - fruit[0]).sum() for a in legal]
            actions.append(int(legal[int(np.argmin(dist))]))
        else:
            actions.append(int(rng.choice(legal)))
    return np.asarray(actions, np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's Snake ``State`` as the env's state bytes: the env's key, then snake.cc's layout."""
    scalars = [state.head_position.row, state.head_position.col, state.fruit_position.row, state.fruit_position.col,
               state.length, state.step_count]
    return jr.state_blob(env_key, (state.body_state, "<i4"), (scalars, "<i4"), (state.action_mask, "u1"),
                         (state.key, "key"))


def serpentine(rows: int, cols: int) -> list[tuple[int, int]]:
    """Every square of the board, row by row, each row the other way than the one before."""
    return [(r, c if r % 2 == 0 else cols - 1 - c) for r in range(rows) for c in range(cols)]


def long_snake_state(reference: jr.Reference, length: int, step_count: int = 100, seed: int = 3) -> Any:
    """A jumanji State with a snake of ``length`` along the serpentine path, the fruit on the next square."""
    import jax.numpy as jnp
    from jumanji.environments.routing.snake.types import Position

    env = reference.env
    state, _ = reference.reset(jr.prng_key(seed))
    path = serpentine(env.num_rows, env.num_cols)
    body_state = np.zeros((env.num_rows, env.num_cols), np.int32)
    for i, (r, c) in enumerate(path[:length]):
        body_state[r, c] = i + 1
    head = Position(jnp.int32(path[length - 1][0]), jnp.int32(path[length - 1][1]))
    fruit = Position(jnp.int32(path[length][0]), jnp.int32(path[length][1]))
    body_state = jnp.asarray(body_state)
    return state.replace(
        body=body_state > 0, body_state=body_state, tail=body_state == 1, head_position=head,
        fruit_position=fruit, length=jnp.int32(length), step_count=jnp.int32(step_count),
        action_mask=env._get_action_mask(head, body_state))


def move_towards(src: tuple[int, int], dst: tuple[int, int]) -> int:
    """The action that takes the head from ``src`` to the neighbouring square ``dst``."""
    return [tuple(m) for m in MOVES].index((dst[0] - src[0], dst[1] - src[1]))


def test_lockstep_whole_episodes() -> None:
    stats = jr.lockstep(TASK, ref(), seed=0, num_envs=4, steps=400, policy=chase_policy)
    assert stats.steps >= 1000 and stats.episodes >= 4


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    jr.check_saved_states(TASK, ref(), encode, seed=7)


def test_board_filled_by_the_last_fruit() -> None:
    """The last fruit fills the board: a termination, the new fruit drawn with every p zero."""
    reference = ref()
    state = long_snake_state(reference, 143)
    path = serpentine(12, 12)
    action = move_towards(path[142], path[143])
    assert jr.run_from_state(TASK, reference, state, encode(state), [action]) == 1


def test_time_limit_is_a_termination() -> None:
    reference = ref()
    state, _ = reference.reset(jr.prng_key(11))
    state = state.replace(step_count=state.step_count + 3998)
    legal = int(np.flatnonzero(np.asarray(state.action_mask))[0])
    assert jr.run_from_state(TASK, reference, state, encode(state), [legal] * 5) == 2


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = long_snake_state(reference, 40)
    path = serpentine(12, 12)
    actions = [move_towards(path[39], path[40]), 2, 3, 3, 0]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions) >= 2
    blob = encode(state)
    fruit_col_at = 8 + 4 * 144 + 12
    moved = jr.patched(blob, fruit_col_at, bytes([(blob[fruit_col_at] + 1) % 12]))  # the fruit one square along
    jr.check_caught(TASK, reference, state, moved, actions)


@pytest.mark.parametrize(("offset", "value", "field"), [
    (8 + 4 * 5, 145, "body_state"),
    (8 + 4 * 144, 13, "head_position.row"),
    (8 + 4 * 144 + 12, -1, "fruit_position.col"),
    (8 + 4 * 144 + 16, 0, "length"),
    (8 + 4 * 144 + 20, 4001, "step_count"),
])
def test_bad_state_fields_are_refused(offset: int, value: int, field: str) -> None:
    good = jr.reset_state(TASK)
    mask_at = 8 + 4 * 144 + 24
    jr.check_refused_blobs(TASK, good, {
        field: jr.patched(good, offset, np.int32(value).tobytes()),
        "action_mask": jr.patched(good, mask_at, b"\x02"),
        "key": good[:-1],
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = jr.lockstep(TASK, ref(), seed=seed * 1000, num_envs=8, steps=500, policy=chase_policy)
    assert stats.episodes >= 8


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("length", [20, 140])
def test_long_snakes_play_on(length: int) -> None:
    """From long snakes, a random walk over the legal moves (and an illegal one at the end)."""
    reference = ref()
    state = long_snake_state(reference, length, seed=length)
    rng = np.random.default_rng(length)
    actions, probe = [], state
    for _ in range(200):
        legal = np.flatnonzero(np.asarray(probe.action_mask))
        action = int(rng.choice(legal)) if len(legal) else 0
        actions.append(action)
        probe, ts = reference.step(probe, np.asarray(action))
        if int(ts.step_type) == 2:
            break
    assert jr.run_from_state(TASK, reference, state, encode(state), actions) == len(actions)
