"""Game2048-v1 (src/rlpool/envs/jumanji/game_2048.cc) beside jumanji 1.1.2's Game2048, step by step, bit for bit.

Whole episodes from the same keys under a policy that mostly moves legally and now and then makes an
illegal move (which leaves the board as it is and adds no tile); the ``highest_tile`` info against jumanji's
extras; other board sizes; boards with high tiles a random policy rarely makes, put in with ``set_state``;
a planted difference that the comparison catches; and bad state blobs refused naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "Game2048-v1"


def ref(**kwargs: Any) -> jr.Reference:
    """jumanji's Game2048-v1 (``board_size`` another size where given)."""
    return jr.Reference("Game2048-v1", kwargs)


def mostly_legal(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per env: a uniform legal move, 10% of the time any move (illegal ones included)."""
    actions = []
    for mask in obs["action_mask"]:
        legal = np.flatnonzero(mask)
        if rng.random() < 0.1 or len(legal) == 0:
            actions.append(int(rng.integers(4)))
        else:
            actions.append(int(rng.choice(legal)))
    return np.asarray(actions, np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's Game2048 ``State`` as the env's state bytes: the env's key, then game_2048.cc's layout."""
    return jr.state_blob(env_key, (state.board, "<i4"), (state.step_count, "<i4"), (state.action_mask, "u1"),
                         (state.score, "<f4"), (state.key, "key"))


def board_state(reference: jr.Reference, board: list[list[int]], seed: int = 0) -> Any:
    """jumanji's State with ``board``, its action mask, and the key of ``reset(PRNGKey(seed))``."""
    import jax.numpy as jnp

    state, _ = reference.reset(jr.prng_key(seed))
    b = jnp.asarray(board, jnp.int32)
    return state.replace(board=b, action_mask=reference.env._get_action_mask(b), step_count=jnp.int32(500),
                         score=jnp.float32(123456.0))


def test_lockstep_whole_episodes() -> None:
    stats = jr.lockstep(TASK, ref(), seed=0, num_envs=4, steps=400, policy=mostly_legal)
    assert stats.steps >= 1000 and stats.episodes >= 4


def test_highest_tile_is_jumanjis_extra() -> None:
    """The info entry ``highest_tile`` is the TimeStep's extras["highest_tile"] (int32), over whole episodes."""
    stats, seen = jr.lockstep_extras(TASK, ref(), ["highest_tile"], seed=21, num_envs=1, steps=600,
                                     policy=mostly_legal)
    assert stats.episodes >= 2 and len(set(seen["highest_tile"])) >= 4


@pytest.mark.parametrize("board_size", [3] if not FULL else [2, 3, 6])
def test_other_board_sizes(board_size: int) -> None:
    stats = jr.lockstep(TASK, ref(board_size=board_size), seed=board_size, num_envs=2, steps=300,
                        policy=mostly_legal, board_size=board_size)
    assert stats.steps >= 500 and (board_size > 3 or stats.episodes >= 2)


def test_saved_state_is_jumanjis_state() -> None:
    jr.check_saved_states(TASK, ref(), encode, seed=8)


HIGH_TILES = [[15, 15, 14, 13], [1, 2, 3, 12], [4, 5, 6, 11], [8, 8, 9, 10]]


def test_high_tiles_merge() -> None:
    """Tiles of 2 ** 15 merge into 2 ** 16 (reward 65536), from a board played on until it ends."""
    reference = ref()
    state = board_state(reference, HIGH_TILES)
    rng = np.random.default_rng(2)
    actions = [3, 3, 1] + [int(a) for a in rng.integers(4, size=300)]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions) >= 3


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = board_state(reference, HIGH_TILES)
    actions = [3, 0, 1, 2] * 5
    assert jr.run_from_state(TASK, reference, state, encode(state), actions) >= 5
    changed = jr.patched(encode(state), 8 + 4 * 5, b"\x03")  # the board's (1, 1) tile 2 ** 3 instead of 2 ** 2
    jr.check_caught(TASK, reference, state, changed, actions)


@pytest.mark.parametrize(("offset", "value", "field"), [(8 + 4 * 3, 18, "board"), (8 + 4 * 15, -1, "board"),
                                                        (8 + 64, -1, "step_count")])
def test_bad_state_fields_are_refused(offset: int, value: int, field: str) -> None:
    good = jr.reset_state(TASK)
    jr.check_refused_blobs(TASK, good, {
        field: jr.patched(good, offset, np.int32(value).tobytes()),
        "action_mask": jr.patched(good, 8 + 68 + 2, b"\x07"),
        "score": jr.patched(good, 8 + 72, np.float32(np.nan).tobytes()),
        "key": good[:-1],
    })


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = jr.lockstep(TASK, ref(), seed=seed * 100, num_envs=8, steps=400, policy=mostly_legal)
    assert stats.episodes >= 8


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", range(3))
def test_random_high_boards_play_on(seed: int) -> None:
    """Random boards of exponents 0..16 (many merges of big tiles at once), played on to their end."""
    reference = ref()
    rng = np.random.default_rng(seed)
    board = rng.integers(0, 17, size=(4, 4))
    board[rng.random((4, 4)) < 0.3] = 0
    state = board_state(reference, board.tolist(), seed)
    actions = [int(a) for a in rng.integers(4, size=500)]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions) >= 1
