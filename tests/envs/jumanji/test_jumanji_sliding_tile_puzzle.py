"""SlidingTilePuzzle-v0 beside jumanji 1.1.2's SlidingTilePuzzle, bit for bit: episodes, extras, states.

The default lane steps a few envs over whole episodes (random moves, off-board ones included; a short
``time_limit`` so that jumanji's limit, a termination, comes often), compares the extras entry
``prop_correctly_placed`` with jumanji's, and plays boards a few moves from solved back to solved (the
ending a random policy rarely reaches); a state with one field changed must make the comparison fail. The
full lane adds seeds, steps, the default time limit and other board sizes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

import rlpool  # noqa: E402

TASK = "SlidingTilePuzzle-v0"

# The engine's time limit flags `truncated` on the step that reaches it, terminating or not (gymnasium's
# TimeLimit does the same), while jumanji's TimeStep at its own time_limit is a termination only. The
# registered limit (EnvPool's 500) is jumanji's time_limit; the comparisons with jumanji's flags run with
# a limit past the longest episode, so that the env's own termination is what they see.
PAST_THE_END = 100_001
MOVES = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # up, right, down, left: the actions


def reference(grid_size: int = 5, num_random_moves: int = 200, time_limit: int = 500) -> jr.Reference:
    """jumanji's SlidingTilePuzzle-v0, with another generator or time limit where asked."""
    from jumanji.environments.logic.sliding_tile_puzzle.generator import RandomWalkGenerator

    kwargs: dict[str, Any] = {} if time_limit == 500 else {"time_limit": time_limit}
    if (grid_size, num_random_moves) != (5, 200):
        kwargs["generator"] = RandomWalkGenerator(grid_size=grid_size, num_random_moves=num_random_moves)
    return jr.Reference(TASK, kwargs)


def blob_of(state: Any, env_key: tuple[int, int] = (0, 7)) -> bytes:
    """jumanji's SlidingTilePuzzle ``State`` as the env's state bytes: the env's key, then the State's fields."""
    return jr.state_blob(env_key, (state.puzzle, "<i4"), (state.empty_tile_position, "<i4"), (state.key, "key"),
                         (state.step_count, "<i4"))


def any_move(obs: Any, rng: np.random.Generator, space: Any) -> np.ndarray:
    """Any of the four moves, uniformly (a move off the board changes nothing)."""
    return rng.integers(0, 4, size=len(obs["puzzle"]))


def near_solved(ref: jr.Reference, key: Any, moves: int, rng: np.random.Generator) -> tuple[Any, list[int]]:
    """A state from ``reset(key)`` whose board is ``moves`` random moves from solved; the moves back.

    No move undoes the one before, so that fewer than 12 moves never lead back to the solved board (the
    shortest cycle of moves that puts every tile back has 12).
    """
    import jax.numpy as jnp

    state, _ = ref.reset(key)
    g = state.puzzle.shape[0]
    puzzle = np.append(np.arange(1, g * g), 0).reshape(g, g).astype(np.int32)
    r = c = g - 1
    back = []
    for _ in range(moves):
        legal = [m for m, (dr, dc) in enumerate(MOVES)
                 if 0 <= r + dr < g and 0 <= c + dc < g and not (back and m == back[0])]
        m = int(rng.choice(legal))
        puzzle[r, c], puzzle[r + MOVES[m][0], c + MOVES[m][1]] = puzzle[r + MOVES[m][0], c + MOVES[m][1]], 0
        r, c = r + MOVES[m][0], c + MOVES[m][1]
        back.insert(0, (m + 2) % 4)
    state = state.replace(puzzle=jnp.asarray(puzzle), empty_tile_position=jnp.asarray([r, c], jnp.int32),
                          step_count=jnp.asarray(int(rng.integers(0, 400)), jnp.int32))
    return state, back


def test_episodes_match_jumanji() -> None:
    stats = jr.lockstep(TASK, reference(time_limit=40), seed=3, num_envs=4, steps=130, policy=any_move,
                        max_episode_steps=PAST_THE_END, time_limit=40)
    assert stats.episodes >= 12 and stats.truncations == 0


def test_extras_match_jumanji() -> None:
    """The info entry prop_correctly_placed is jumanji's timestep.extras entry, float32 for float32."""
    stats, seen = jr.lockstep_extras(TASK, reference(time_limit=30), ["prop_correctly_placed"], seed=11, num_envs=2,
                                     steps=29, policy=any_move, max_episode_steps=PAST_THE_END, time_limit=30)
    assert stats.steps == 58 and len(set(seen["prop_correctly_placed"])) > 3


def test_registered_limit_ends_the_episode_as_terminated() -> None:
    """With the registered limit, step 500 is jumanji's termination (and, by the limit, truncated)."""
    for t, obs, _, terminated, truncated, _ in jr.played_steps(TASK, any_move, 500, seed=2, num_envs=1):
        if terminated[0] and t < 499:  # solved by chance: not with this seed
            pytest.fail(f"solved at step {t}")
        if t == 499:
            assert terminated[0] and truncated[0] and obs["step_count"][0] == 500


def test_solving_matches_jumanji() -> None:
    import jax

    ref = reference()
    rng = np.random.default_rng(0)
    for k, moves in enumerate([1, 2, 5]):
        state, back = near_solved(ref, jax.random.PRNGKey(30 + k), moves, rng)
        assert jr.run_from_state(TASK, ref, state, blob_of(state), back, max_episode_steps=PAST_THE_END) == len(back)
        for move in back:  # the last move solves the board: a termination, its tiles newly in place rewarded
            state, ts = ref.step(state, np.asarray(move))
        assert int(ts.step_type) == 2 and float(ts.reward) > 0 and float(ts.extras["prop_correctly_placed"]) == 1


def test_a_planted_difference_is_caught() -> None:
    import jax

    ref = reference()
    state, back = near_solved(ref, jax.random.PRNGKey(7), 3, np.random.default_rng(1))
    blob = blob_of(state)
    later = jr.patched(blob, len(blob) - 4, np.int32(int(state.step_count) + 1).tobytes())
    jr.check_caught(TASK, ref, state, later, back, "step_count", max_episode_steps=PAST_THE_END)
    swapped = jr.patched(blob, 8, blob[12:16] + blob[8:12])  # two tiles swapped
    jr.check_caught(TASK, ref, state, swapped, back, "puzzle", max_episode_steps=PAST_THE_END)


@pytest.mark.parametrize(("offset", "value", "message"), [
    (8 + 4 * 3, 25, "puzzle tile is 25"),
    (8 + 100, 5, "empty_tile_position row is 5"),
    (8 + 104, -1, "empty_tile_position column is -1"),
    (8 + 116, -1, "step_count is -1"),
])
def test_bad_states_are_refused(offset: int, value: int, message: str) -> None:
    good = jr.reset_state(TASK)
    jr.check_refused_blobs(TASK, good, {message: jr.patched(good, offset, np.int32(value).tobytes()),
                                        "ends before its step_count": good[:-1]})


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="grid_size"):
        rlpool.make(TASK, num_envs=1, grid_size=1)
    with pytest.raises(ValueError, match="time_limit"):
        rlpool.make(TASK, num_envs=1, time_limit=0)


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("grid_size", "num_random_moves", "time_limit"), [
    (5, 200, 500), (4, 0, 30), (2, 7, 25), (8, 1000, 100),
])
def test_full_episodes_match_jumanji(grid_size: int, num_random_moves: int, time_limit: int) -> None:
    ref = reference(grid_size, num_random_moves, time_limit)
    seed = 0
    stats = jr.lockstep(TASK, ref, seed=100 * seed, num_envs=4, steps=max(time_limit + 20, 120), policy=any_move,
                        max_episode_steps=PAST_THE_END, grid_size=grid_size, num_random_moves=num_random_moves,
                        time_limit=time_limit)
    assert stats.episodes > 0


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_near_solved_boards_match_jumanji() -> None:
    import jax

    ref = reference()
    rng = np.random.default_rng(2)
    for k in range(10):
        state, back = near_solved(ref, jax.random.PRNGKey(1000 + k), int(rng.integers(1, 12)), rng)
        steps = jr.run_from_state(TASK, ref, state, blob_of(state), back, max_episode_steps=PAST_THE_END)
        assert 1 <= steps <= len(back)
