"""Minesweeper-v0 beside jumanji 1.1.2's Minesweeper, bit for bit: whole episodes, states, bad states.

The default lane steps a few envs over whole episodes (random unexplored squares, and some explored ones, which
end an episode) and plays from a board with one safe square left (the solved ending a random policy rarely
reaches); the full lane adds seeds, steps, other board sizes and many near-solved boards. A state with one
field changed must make the comparison fail.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

import rlpool  # noqa: E402

TASK = "Minesweeper-v0"

# The engine's time limit flags `truncated` on the step that reaches it, terminating or not (gymnasium's
# TimeLimit does the same), while jumanji's TimeStep on the step that solves the board is a termination only.
# The registered limit (EnvPool's 90) is the step that solves a default board at the latest; the comparisons
# with jumanji's flags run with a limit past the longest episode.
PAST_THE_END = 100_001


def blob_of(state: Any, env_key: tuple[int, int] = (0, 7)) -> bytes:
    """jumanji's Minesweeper ``State`` as the env's state bytes: the env's key, then the State's fields."""
    return jr.state_blob(env_key, (state.board, "<i4"), (state.step_count, "<i4"), (state.flat_mine_locations, "<i4"),
                         (state.key, "key"))


# Mostly a random unexplored square; one time in 20 any square (an explored one ends the episode).
sometimes_explored = jr.sometimes_any(0.05)


def near_solved(ref: jr.Reference, key: Any, left: int, rng: np.random.Generator) -> tuple[Any, list[list[int]]]:
    """A state from ``reset(key)`` with every safe square explored but ``left`` of them; the safe ones left first."""
    import jax.numpy as jnp

    state, _ = ref.reset(key)
    rows, cols = state.board.shape
    mines = set(np.asarray(state.flat_mine_locations).tolist())
    safe = [i for i in range(rows * cols) if i not in mines]
    hidden = set(rng.choice(safe, size=left, replace=False).tolist())
    mined = np.zeros(rows * cols, np.int32)
    mined[list(mines)] = 1
    padded = np.pad(mined.reshape(rows, cols), 1)
    counts = np.array([[padded[r:r + 3, c:c + 3].sum() - padded[r + 1, c + 1] for c in range(cols)]
                       for r in range(rows)], np.int32)
    board = np.full((rows, cols), -1, np.int32)
    for i in safe:
        if i not in hidden:
            board[divmod(i, cols)] = counts[divmod(i, cols)]
    state = state.replace(board=jnp.asarray(board), step_count=jnp.asarray(len(safe) - left, jnp.int32))
    actions = [list(divmod(int(i), cols)) for i in sorted(hidden)]
    return state, actions


def test_episodes_match_jumanji() -> None:
    stats = jr.lockstep(TASK, jr.Reference(TASK), seed=3, num_envs=4, steps=120, policy=sometimes_explored,
                        max_episode_steps=PAST_THE_END)
    assert stats.episodes >= 8 and stats.steps >= 4 * 120 - stats.episodes
    assert stats.truncations == 0


def test_solving_the_board_matches_jumanji() -> None:
    import jax

    ref = jr.Reference(TASK)
    rng = np.random.default_rng(0)
    state, actions = near_solved(ref, jax.random.PRNGKey(11), 3, rng)
    assert jr.run_from_state(TASK, ref, state, blob_of(state), actions, max_episode_steps=PAST_THE_END) == 3
    state, actions = near_solved(ref, jax.random.PRNGKey(12), 2, rng)
    # an explored square first: jumanji's invalid action, the end of the episode
    explored = np.argwhere(np.asarray(state.board) >= 0)[0].tolist()
    assert jr.run_from_state(TASK, ref, state, blob_of(state), [explored, *actions],
                             max_episode_steps=PAST_THE_END) == 1


def test_registered_limit_ends_a_solved_board_as_terminated() -> None:
    """With the registered limit, the step that solves a default board (the 90th) is terminated and truncated."""
    pool = rlpool.make(TASK, num_envs=1, seed=4)
    try:
        pool.reset()
        mines = set(np.frombuffer(pool.get_state(0)[8 + 404:8 + 444], "<i4").tolist())
        safe = [i for i in range(100) if i not in mines]
        for t, square in enumerate(safe):
            _, reward, terminated, truncated, _ = pool.step(np.asarray([divmod(square, 10)]))
            assert reward[0] == 1.0 and terminated[0] == (t == 89) and truncated[0] == (t == 89)
    finally:
        pool.close()


def test_a_planted_difference_is_caught() -> None:
    import jax

    ref = jr.Reference(TASK)
    state, actions = near_solved(ref, jax.random.PRNGKey(5), 2, np.random.default_rng(1))
    blob = blob_of(state)
    step_count_at = 8 + 100 * 4
    jr.check_caught(TASK, ref, state, jr.patched(blob, step_count_at, bytes([blob[step_count_at] + 1])), actions,
                    "step_count")
    moved = state.replace(flat_mine_locations=(state.flat_mine_locations + 1) % 100)
    jr.check_caught(TASK, ref, state, blob_of(moved), actions)


@pytest.mark.parametrize(("field", "offset", "value", "message"), [
    ("board", 8 + 4 * 17, 9, "board square is 9"),
    ("board", 8, -2, "board square is -2"),
    ("step_count", 8 + 400, -1, "step_count is -1"),
    ("mines", 8 + 404, 100, "flat_mine_locations entry is 100"),
    ("mines", 8 + 408, None, "twice"),
])
def test_bad_states_are_refused(field: str, offset: int, value: int | None, message: str) -> None:
    good = jr.reset_state(TASK)
    # value None: the second mine on the first one's square
    data = good[offset - 4:offset] if value is None else np.int32(value).tobytes()
    jr.check_refused_blobs(TASK, good, {message: jr.patched(good, offset, data), "ends before its key": good[:-4]})


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="num_mines"):
        rlpool.make(TASK, num_envs=1, num_mines=100)
    with pytest.raises(ValueError, match="num_rows"):
        rlpool.make(TASK, num_envs=1, num_rows=1)


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("rows", "cols", "mines"), [(10, 10, 10), (4, 7, 5), (16, 16, 40), (3, 3, 0)])
def test_full_episodes_match_jumanji(rows: int, cols: int, mines: int) -> None:
    from jumanji.environments.logic.minesweeper.generator import UniformSamplingGenerator

    ref = jr.Reference(TASK, {"generator": UniformSamplingGenerator(num_rows=rows, num_cols=cols, num_mines=mines)})
    seed = 0
    stats = jr.lockstep(TASK, ref, seed=100 * seed, num_envs=8, steps=300, policy=sometimes_explored,
                        max_episode_steps=PAST_THE_END, num_rows=rows, num_cols=cols, num_mines=mines)
    assert stats.episodes > 0


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_near_solved_boards_match_jumanji() -> None:
    import jax

    ref = jr.Reference(TASK)
    rng = np.random.default_rng(2)
    for k in range(12):
        state, actions = near_solved(ref, jax.random.PRNGKey(1000 + k), int(rng.integers(1, 6)), rng)
        rng.shuffle(actions)
        steps = jr.run_from_state(TASK, ref, state, blob_of(state), actions, max_episode_steps=PAST_THE_END)
        assert steps == len(actions)
