"""Tetris-v0 (src/rlpool/envs/jumanji/tetris.cc) beside jumanji 1.1.2's Tetris, step by step, bit for bit.

Whole episodes from the same keys under a random policy (short games, some illegal actions, which jumanji
still plays before it ends the episode) and a greedy one (long games that clear lines, up to the time limit);
other grid sizes; states a random policy rarely reaches (four lines cleared at once, the last step before the
time limit, a piece dropped where the top is blocked) put in with ``set_state``; a planted difference that
the comparison catches; and bad state blobs refused naming the field.
"""

from __future__ import annotations

from functools import cache
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

import rlpool  # noqa: E402

TASK = "Tetris-v0"
ROWS, COLS = 10, 10
GRID_BYTES = 4 * (ROWS + 3) * (COLS + 3)
PIECE_AT = 8 + GRID_BYTES
MASK_AT = PIECE_AT + 4
STEP_COUNT_AT = MASK_AT + 4 * COLS


def ref(**kwargs: Any) -> Reference:
    """jumanji's Tetris-v0 (``kwargs`` for jumanji.make)."""
    return Reference("Tetris-v0", kwargs)


@cache
def tetrominoes() -> np.ndarray:
    """jumanji's TETROMINOES_LIST: (7 pieces, 4 rotations, 4, 4)."""
    from jumanji.environments.packing.tetris.constants import TETROMINOES_LIST

    return np.asarray(TETROMINOES_LIST, np.int32)


def piece_index(tetromino: np.ndarray) -> int:
    """Which piece an observation's (rotation 0) tetromino is."""
    return next(i for i, rotations in enumerate(tetrominoes()) if np.array_equal(rotations[0], tetromino))


def drop(grid: np.ndarray, piece: np.ndarray, x: int) -> np.ndarray | None:
    """The grid after dropping ``piece`` (4 x 4) at column ``x`` as far as it goes, full lines cleared."""
    rows, cols = grid.shape
    cells = np.argwhere(piece)
    if (cells[:, 1] + x >= cols).any():
        return None
    y = -1
    while all(r + y + 1 < rows and not grid[r + y + 1, c + x] for r, c in cells):
        y += 1
    if y < 0:
        return None
    out = grid.copy()
    out[cells[:, 0] + y, cells[:, 1] + x] = 1
    kept = out[~out.all(axis=1)]
    return np.vstack([np.zeros((rows - len(kept), cols), out.dtype), kept])


def score(before: np.ndarray, after: np.ndarray) -> float:
    """A placement's worth: lines cleared, minus the stack's height, holes and bumpiness."""
    lines = (before.sum() + 4 - after.sum()) // after.shape[1]
    filled = after.any(axis=0)
    heights = np.where(filled, after.shape[0] - np.argmax(after, axis=0), 0)
    holes = sum(int((~after[after.shape[0] - h:, c].astype(bool)).sum()) for c, h in enumerate(heights))
    return 0.76 * lines - 0.51 * heights.sum() - 0.36 * holes - 0.18 * np.abs(np.diff(heights)).sum()


def greedy(random_share: float = 0.08, any_share: float = 0.01) -> Any:
    """A policy, per env: mostly the legal action whose drop scores best, else a random legal one
    (``random_share`` of the time) or any action (``any_share``)."""

    def policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
        actions = []
        for grid, tetromino, mask in zip(obs["grid"], obs["tetromino"], obs["action_mask"], strict=True):
            legal = np.argwhere(mask)
            u = rng.random()
            if u < any_share or len(legal) == 0:
                actions.append([int(rng.integers(4)), int(rng.integers(mask.shape[1]))])
                continue
            if u < any_share + random_share:
                actions.append(list(legal[rng.integers(len(legal))]))
                continue
            rotations = tetrominoes()[piece_index(tetromino)]
            best, best_score = list(legal[0]), -np.inf
            for rot, x in legal:
                after = drop(grid, rotations[rot], int(x))
                if after is not None and (s := score(grid, after)) > best_score:
                    best, best_score = [int(rot), int(x)], s
            actions.append(best)
        return np.asarray(actions, np.int64)

    return policy


greedy_policy = greedy()


def random_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per env: a random legal action, 3% any action."""
    actions = []
    for mask in obs["action_mask"]:
        legal = np.argwhere(mask)
        if len(legal) and rng.random() < 0.97:
            actions.append(list(legal[rng.integers(len(legal))]))
        else:
            actions.append([int(rng.integers(4)), int(rng.integers(mask.shape[1]))])
    return np.asarray(actions, np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's Tetris ``State`` as the env's state bytes: the env's key, then tetris.cc's layout."""
    return b"".join([
        np.asarray(env_key, "<u4").tobytes(),
        np.asarray(state.grid_padded, "<i4").tobytes(),
        np.asarray(state.tetromino_index, "<i4").tobytes(),
        np.asarray(state.action_mask, np.uint8).tobytes(),
        np.asarray(state.step_count, "<i4").tobytes(),
        np.asarray(state.key, "<u4").tobytes(),
    ])


def handmade_state(reference: Reference, grid: np.ndarray, piece: int, step_count: int = 0, seed: int = 1) -> Any:
    """A jumanji State with this padded grid and piece, and the action_mask jumanji computes for them."""
    import jax.numpy as jnp

    state, _ = reference.reset(prng_key(seed))
    grid = jnp.asarray(grid, jnp.int32)
    mask = reference.env._calculate_action_mask(jnp.clip(grid, max=1), piece)
    return state.replace(grid_padded=grid, tetromino_index=jnp.int32(piece), action_mask=mask,
                         step_count=jnp.int32(step_count))


def test_lockstep_random_episodes() -> None:
    stats = lockstep(TASK, ref(), seed=0, num_envs=4, steps=150, policy=random_policy)
    assert stats.steps >= 500 and stats.episodes >= 20


def rewards_of(seed: int, num_envs: int, steps: int, policy: Any) -> np.ndarray:
    """The rewards of the pool's run that ``lockstep(seed=seed, ...)`` compares (the same actions)."""
    pool = rlpool.make(TASK, num_envs=num_envs, seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    try:
        obs, _ = pool.reset()
        for _ in range(steps):
            obs, reward, *_ = pool.step(policy(obs, rng, pool.action_space))
            rewards.append(reward)
    finally:
        pool.close()
    return np.asarray(rewards)


def test_lockstep_greedy_clears_lines() -> None:
    stats = lockstep(TASK, ref(), seed=1, num_envs=2, steps=120, policy=greedy_policy)
    assert stats.steps >= 200
    assert (rewards_of(1, 2, 120, greedy_policy) > 0).sum() >= 3  # lines cleared on the steps compared


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def four_lines_grid() -> np.ndarray:
    """The padded grid with its bottom four rows full but for column 0, in several colours."""
    grid = np.zeros((ROWS + 3, COLS + 3), np.int32)
    grid[ROWS - 4:ROWS, 1:COLS] = np.arange(1, 5)[:, None]
    grid[ROWS - 5, 3:6] = 5
    return grid


def test_four_lines_at_once() -> None:
    """The vertical I piece down column 0 clears four lines: 1200."""
    reference = ref()
    state = handmade_state(reference, four_lines_grid(), piece=0)
    assert run_from_state(TASK, reference, state, encode(state), [[0, 0], [1, 0], [0, 4]]) >= 2


def test_time_limit_is_a_termination() -> None:
    reference = ref()
    state = handmade_state(reference, four_lines_grid(), piece=3, step_count=398)
    assert run_from_state(TASK, reference, state, encode(state), [[0, 0], [0, 4], [0, 6]]) == 2


def assert_states_follow(reference: Reference, state: Any, actions: list[list[int]]) -> None:
    """After each action, get_state is jumanji's next State (its colours and padding included)."""
    pool = rlpool.make(TASK, num_envs=1, seed=0)
    try:
        pool.reset()
        pool.set_state(0, encode(state))
        for action in actions:
            pool.step(np.asarray([action]))
            state, ts = reference.step(state, np.asarray(action))
            assert pool.get_state(0) == encode(state)
            if int(ts.step_type) == 2:
                break
    finally:
        pool.close()


def test_a_blocked_top_drops_the_piece_to_the_bottom() -> None:
    """An illegal action where the top is filled: jumanji's y_position is -1, which lands the piece at the
    bottom (dynamic_update_slice counts it from the end, then clamps it), one square in the padding row."""
    reference = ref()
    grid = np.zeros((ROWS + 3, COLS + 3), np.int32)
    grid[0:3, 7] = 6
    state = handmade_state(reference, grid, piece=4)
    assert not bool(state.action_mask[0, 6])
    assert run_from_state(TASK, reference, state, encode(state), [[0, 6]]) == 1
    assert_states_follow(reference, state, [[0, 6]])
    after, _ = reference.step(state, np.asarray([0, 6]))
    assert int(after.grid_padded[ROWS, 7]) == 7 and int(after.grid_padded[ROWS - 1, 6]) == 7


def test_hidden_state_follows_jumanjis() -> None:
    """Colours, the padding and the key after greedy steps from a busy grid, four lines cleared first."""
    reference = ref()
    state = handmade_state(reference, four_lines_grid(), piece=0, seed=4)
    rng = np.random.default_rng(0)
    actions, probe = [[0, 0]], reference.step(state, np.asarray([0, 0]))[0]
    assert float(reference.step(state, np.asarray([0, 0]))[1].reward) == 1200.0
    for _ in range(40):
        obs = {"grid": np.asarray(probe.grid_padded[:ROWS, :COLS]).clip(max=1)[None],
               "tetromino": np.asarray(probe.new_tetromino)[None], "action_mask": np.asarray(probe.action_mask)[None]}
        action = [int(v) for v in greedy_policy(obs, rng, None)[0]]
        actions.append(action)
        probe, ts = reference.step(probe, np.asarray(action))
        if int(ts.step_type) == 2:
            break
    assert_states_follow(reference, state, actions)


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = handmade_state(reference, four_lines_grid(), piece=0)
    actions = [[0, 0], [1, 2], [0, 5]]
    assert run_from_state(TASK, reference, state, encode(state), actions) >= 2
    blob = bytearray(encode(state))
    at = 8 + 4 * ((ROWS - 1) * (COLS + 3) + 4)  # a filled square of the bottom row emptied
    blob[at:at + 4] = np.int32(0).tobytes()
    with pytest.raises(Mismatch):
        run_from_state(TASK, reference, state, bytes(blob), actions)


@pytest.mark.parametrize(("offset", "value", "field"), [
    (8 + 4 * 20, -1, "grid_padded"),
    (PIECE_AT, 7, "tetromino_index"),
    (STEP_COUNT_AT, 401, "step_count"),
])
def test_bad_state_fields_are_refused(offset: int, value: int, field: str) -> None:
    good = reset_state(TASK, seed=0)
    check_refused_blobs(TASK, good, {
        field: patched(good, offset, np.int32(value).tobytes()),
        "action_mask": patched(good, MASK_AT + 5, b"\x03"),
        "key": good[:-1],
        "Tetris": good + b"\0",
    })


def test_bad_options_are_refused() -> None:
    check_refused_options(TASK, {
        "num_rows": dict(num_rows=3),
        "num_cols": dict(num_cols=3),
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_random_full(seed: int) -> None:
    stats = lockstep(TASK, ref(), seed=seed * 1000, num_envs=8, steps=400, policy=random_policy)
    assert stats.episodes >= 40


@pytest.mark.skipif(not FULL, reason="full lane")
def test_lockstep_greedy_to_the_time_limit() -> None:
    stats = lockstep(TASK, ref(), seed=77, num_envs=4, steps=410, policy=greedy(0.02, 0.0))
    assert stats.truncations >= 1  # an episode that lasted the 400 steps


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("rows", "cols", "time_limit"), [(4, 4, 400), (20, 10, 150)])
def test_other_sizes(rows: int, cols: int, time_limit: int) -> None:
    reference = ref(num_rows=rows, num_cols=cols, time_limit=time_limit)
    for policy in (random_policy, greedy_policy):
        stats = lockstep(TASK, reference, seed=rows * 100 + cols, num_envs=3, steps=160, policy=policy,
                         num_rows=rows, num_cols=cols, time_limit=time_limit, max_episode_steps=time_limit)
        assert stats.episodes >= 2
