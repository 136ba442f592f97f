"""FlatPack-v0 (src/rlpool/envs/jumanji/flat_pack.cc) beside jumanji 1.1.2's FlatPack, step by step, bit for bit.

Whole episodes from the same keys under a policy of mostly legal placements and some illegal ones (which
change nothing but the step count); other numbers of pieces; a state whose action_mask lets a piece go over
another (jumanji trusts the State's mask) put in with ``set_state``; a planted difference that the comparison
catches; and bad state blobs refused naming the field.
"""

from __future__ import annotations

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

TASK = "FlatPack-v0"
BLOCKS, ROWS, COLS = 25, 11, 11
GRID_AT = 8 + 4 * BLOCKS * 9
MASK_AT = GRID_AT + 4 * ROWS * COLS
PLACED_AT = MASK_AT + BLOCKS * 4 * (ROWS - 2) * (COLS - 2)
STEP_COUNT_AT = PLACED_AT + BLOCKS


def ref(**kwargs: Any) -> Reference:
    """jumanji's FlatPack-v0 (``kwargs`` for jumanji.make)."""
    return Reference("FlatPack-v0", kwargs)


def mostly_legal_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per env: a random legal placement, 12% of the time (or when none is legal) any action."""
    actions = []
    for mask in obs["action_mask"]:
        legal = np.argwhere(mask)
        if len(legal) and rng.random() < 0.88:
            actions.append(list(legal[rng.integers(len(legal))]))
        else:
            actions.append([int(rng.integers(n)) for n in mask.shape])
    return np.asarray(actions, np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's FlatPack ``State`` as the env's state bytes: the env's key, then flat_pack.cc's layout."""
    return b"".join([
        np.asarray(env_key, "<u4").tobytes(),
        np.asarray(state.blocks, "<i4").tobytes(),
        np.asarray(state.grid, "<i4").tobytes(),
        np.asarray(state.action_mask, np.uint8).tobytes(),
        np.asarray(state.placed_blocks, np.uint8).tobytes(),
        np.asarray(state.step_count, "<i4").tobytes(),
        np.asarray(state.key, "<u4").tobytes(),
    ])


def some_legal(state: Any, rng: np.random.Generator) -> list[int]:
    """A random legal placement of jumanji's ``state``, or an illegal action where there is none."""
    legal = np.argwhere(np.asarray(state.action_mask))
    return [int(v) for v in legal[rng.integers(len(legal))]] if len(legal) else [0, 0, 0, 0]


def played_state(reference: Reference, seed: int, steps: int) -> Any:
    """jumanji's State after ``steps`` random legal placements from reset(PRNGKey(seed))."""
    rng = np.random.default_rng(seed)
    state, _ = reference.reset(prng_key(seed))
    for _ in range(steps):
        state, _ = reference.step(state, np.asarray(some_legal(state, rng)))
    return state


def test_lockstep_whole_episodes() -> None:
    stats = lockstep(TASK, ref(), seed=0, num_envs=3, steps=100, policy=mostly_legal_policy)
    assert stats.steps >= 250 and stats.episodes >= 9


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def test_the_states_action_mask_decides() -> None:
    """With a mask of all True, a placed piece goes down again over others: jumanji adds the numbers."""
    import jax.numpy as jnp

    reference = ref()
    state = played_state(reference, 3, 6)
    state = state.replace(action_mask=jnp.ones_like(state.action_mask))
    placed = int(np.flatnonzero(np.asarray(state.placed_blocks))[0])
    actions = [[placed, 1, 0, 0], [placed, 2, 4, 4], [placed, 0, 8, 8]]
    assert run_from_state(TASK, reference, state, encode(state), actions) == 3


def test_last_steps_end_the_episode() -> None:
    reference = ref()
    state = played_state(reference, 5, 22)
    actions = [some_legal(state, np.random.default_rng(0)), [0, 0, 0, 0], [1, 3, 8, 8], [2, 2, 2, 2]]
    assert run_from_state(TASK, reference, state, encode(state), actions) == 3


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = played_state(reference, 4, 3)
    rng = np.random.default_rng(0)
    actions = [some_legal(state, rng), some_legal(state, rng)]
    assert run_from_state(TASK, reference, state, encode(state), actions) == 2
    blob = bytearray(encode(state))
    empty = int(np.flatnonzero(np.asarray(state.grid).reshape(-1) == 0)[0])
    blob[GRID_AT + 4 * empty:GRID_AT + 4 * empty + 4] = np.int32(9).tobytes()  # a square filled
    with pytest.raises(Mismatch):
        run_from_state(TASK, reference, state, bytes(blob), actions)


@pytest.mark.parametrize(("offset", "value", "field"), [
    (8 + 4 * 7, 26, "blocks"),
    (GRID_AT + 4 * 3, -1, "grid"),
    (STEP_COUNT_AT, 26, "step_count"),
])
def test_bad_state_fields_are_refused(offset: int, value: int, field: str) -> None:
    good = reset_state(TASK, seed=0)
    check_refused_blobs(TASK, good, {
        field: patched(good, offset, np.int32(value).tobytes()),
        "action_mask": patched(good, MASK_AT + 100, b"\x02"),
        "placed_blocks": patched(good, PLACED_AT + 3, b"\x02"),
        "key": good[:-1],
        "FlatPack": good + b"\0",
    })


def test_bad_options_are_refused() -> None:
    check_refused_options(TASK, {
        "num_row_blocks": dict(num_row_blocks=0),
        "num_col_blocks": dict(num_col_blocks=17),
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = lockstep(TASK, ref(), seed=seed * 1000, num_envs=6, steps=260, policy=mostly_legal_policy)
    assert stats.episodes >= 60


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("row_blocks", "col_blocks"), [(1, 1), (2, 3), (7, 6)])
def test_other_sizes(row_blocks: int, col_blocks: int) -> None:
    from jumanji.environments.packing.flat_pack.generator import RandomFlatPackGenerator

    reference = ref(generator=RandomFlatPackGenerator(num_row_blocks=row_blocks, num_col_blocks=col_blocks))
    blocks = row_blocks * col_blocks
    stats = lockstep(TASK, reference, seed=row_blocks * 10 + col_blocks, num_envs=3, steps=3 * blocks + 10,
                     policy=mostly_legal_policy, num_row_blocks=row_blocks, num_col_blocks=col_blocks,
                     max_episode_steps=blocks)
    assert stats.episodes >= 6
