"""TSP-v1 (src/rlpool/envs/jumanji/tsp.cc) against jumanji 1.1.2's TSP, step by step and bit for bit.

Whole episodes in lockstep from the same keys (legal moves, and a policy that also revisits cities, which
jumanji ends with a penalty), states built from jumanji's own ``State`` (the last step of a tour, a finished
tour stepped again), a planted difference that the comparison catches, and bad state blobs refused by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "TSP-v1"

# The engine's time limit flags `truncated` on the step that reaches it, terminating or not (gymnasium's
# TimeLimit does the same), while jumanji's TimeStep on a tour's last step is a termination only. A tour of
# n cities ends by termination on step n, which is the registered limit (EnvPool's 20) for the default
# size; the comparisons with jumanji's flags run with a limit one step past the longest episode.
PAST_THE_END = 100_001


def reference(num_cities: int = 20) -> jr.Reference:
    """jumanji's TSP-v1, or its TSP with the default generator for ``num_cities`` cities."""
    if num_cities == 20:
        return jr.Reference(TASK)
    from jumanji.environments.routing.tsp.generator import UniformGenerator

    return jr.Reference(TASK, {"generator": _generator(UniformGenerator, num_cities)})


_GENERATORS: dict[tuple[Any, int], Any] = {}


def _generator(cls: Any, num_cities: int) -> Any:
    # One generator object per size, so that Reference's cache of jitted functions is hit.
    return _GENERATORS.setdefault((cls, num_cities), cls(num_cities=num_cities))


def blob(state: Any, env_key: Any = None) -> bytes:
    """jumanji's TSP ``State`` as tsp.cc's state bytes, behind an env key (``env_key``, else the State's)."""
    return jr.state_blob(state.key if env_key is None else env_key, (state.coordinates, "<f4"), (state.position, "<i4"),
                         (state.visited_mask, "u1"), (state.trajectory, "<i4"), (state.num_visited, "<i4"),
                         (state.key, "key"))


# Legal moves, except that one time in eight any city (often a visited one: an invalid action).
sometimes_revisit = jr.sometimes_any(0.125)


def test_lockstep_with_jumanji() -> None:
    stats = jr.lockstep(TASK, reference(), seed=3, num_envs=3, steps=70, max_episode_steps=PAST_THE_END)
    assert stats.steps >= 180 and stats.episodes >= 9


def test_lockstep_with_invalid_actions() -> None:
    stats = jr.lockstep(TASK, reference(), seed=11, num_envs=3, steps=60, policy=sometimes_revisit,
                        max_episode_steps=PAST_THE_END)
    assert stats.episodes >= 9


def test_registered_limit_ends_a_tour_as_terminated() -> None:
    """With the registered limit, a whole tour's last step is terminated, and not truncated before."""
    for t, _, _, terminated, truncated, _ in jr.played_steps(TASK, jr.random_masked_actions, 20, seed=1, num_envs=2):
        assert terminated.all() == (t == 19) and (t == 19 or not truncated.any())


def test_other_sizes() -> None:
    for n in (1, 5):
        stats = jr.lockstep(TASK, reference(n), seed=n, num_envs=2, steps=4 * n + 4, num_cities=n,
                            max_episode_steps=PAST_THE_END)
        assert stats.episodes >= 4


def _tour(ref: jr.Reference, seed: int, visits: int) -> tuple[Any, list[int]]:
    """jumanji's state after ``visits`` random cities from reset(PRNGKey(seed)), and the cities left."""
    state, _ = ref.reset(jr.prng_key(seed))
    order = [int(c) for c in np.random.default_rng(seed).permutation(ref.env.num_cities)]
    for city in order[:visits]:
        state, _ = ref.step(state, np.int32(city))
    return state, order[visits:]


def test_from_jumanji_states() -> None:
    ref = reference()
    state, rest = _tour(ref, 7, 19)  # the tour's last step closes it
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, max_episode_steps=PAST_THE_END) == 1
    state, _ = _tour(ref, 8, 20)  # a finished tour stepped again: every action is invalid
    assert jr.run_from_state(TASK, ref, state, blob(state), [4], max_episode_steps=PAST_THE_END) == 1
    state, rest = _tour(ref, 9, 6)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, max_episode_steps=PAST_THE_END) == 14


def test_a_planted_difference_is_caught() -> None:
    ref = reference()
    state, rest = _tour(ref, 5, 10)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, max_episode_steps=PAST_THE_END) == 10
    moved = state.replace(coordinates=state.coordinates.at[rest[0], 1].add(1e-6))
    jr.check_caught(TASK, ref, state, blob(moved), rest, "coordinates", max_episode_steps=PAST_THE_END)
    elsewhere = state.replace(position=np.int32(rest[1]))
    jr.check_caught(TASK, ref, state, blob(elsewhere), rest, "reward", max_episode_steps=PAST_THE_END)


def test_state_round_trip_and_bad_blobs() -> None:
    ref = reference()
    state, _ = _tour(ref, 2, 4)
    good = blob(state)
    n = 20
    at = 8 + 8 * n  # where position starts
    jr.check_refused_blobs(TASK, good, {
        "coordinates": jr.patched(good, 8, np.float32(np.nan).tobytes()),
        "position": jr.patched(good, at, np.int32(n).tobytes()),
        "visited_mask": jr.patched(good, at + 4, b"\x02"),
        "trajectory": jr.patched(good, at + 4 + n, np.int32(-2).tobytes()),
        "num_visited": jr.patched(good, at + 4 + 5 * n, np.int32(n + 1).tobytes()),
        "key": good[:-1],
        "bytes": good + b"\0",
    })


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_lockstep() -> None:
    ref = reference()
    seed = 0
    jr.lockstep(TASK, ref, seed=100 * seed, num_envs=8, steps=150, max_episode_steps=PAST_THE_END)
    jr.lockstep(TASK, ref, seed=100 * seed + 1, num_envs=8, steps=100, policy=sometimes_revisit,
                max_episode_steps=PAST_THE_END)
    jr.lockstep(TASK, reference(50), seed=9, num_envs=4, steps=200, num_cities=50, max_episode_steps=PAST_THE_END)


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_from_jumanji_states() -> None:
    ref = reference()
    for seed in range(12):
        state, rest = _tour(ref, 1000 + seed, seed % 21)
        actions = rest if seed % 3 else [int(np.random.default_rng(seed).integers(20))] + rest
        jr.run_from_state(TASK, ref, state, blob(state), actions, max_episode_steps=PAST_THE_END)
