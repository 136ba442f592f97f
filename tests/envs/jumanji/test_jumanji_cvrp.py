"""CVRP-v1 (src/rlpool/envs/jumanji/cvrp.cc) against jumanji 1.1.2's CVRP, step by step and bit for bit.

Whole episodes in lockstep from the same keys (legal moves; a policy that refills at the depot whenever it
may, which makes the longest episodes; one that also picks invalid nodes, which jumanji ends with a
penalty), states built from jumanji's own ``State``, a planted difference that the comparison catches, and bad
state blobs refused by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "CVRP-v1"

# The engine's time limit flags `truncated` on the step that reaches it, terminating or not (gymnasium's
# TimeLimit does the same), while jumanji's TimeStep on a route's last step is a termination only. A route
# that goes back to the depot after every node ends on step 2 * num_nodes, the registered limit (EnvPool's
# 40); the comparisons with jumanji's flags run with a limit past the longest episode.
PAST_THE_END = 1_000_000

_GENERATORS: dict[tuple[int, int, int], Any] = {}


def reference(num_nodes: int = 20, max_capacity: int = 30, max_demand: int = 10) -> jr.Reference:
    """jumanji's CVRP-v1, or its CVRP with the default generator for other sizes."""
    if (num_nodes, max_capacity, max_demand) == (20, 30, 10):
        return jr.Reference(TASK)
    from jumanji.environments.routing.cvrp.generator import UniformGenerator

    sizes = (num_nodes, max_capacity, max_demand)
    # One generator object per size, so that Reference's cache of jitted functions is hit.
    generator = _GENERATORS.setdefault(sizes, UniformGenerator(*sizes))
    return jr.Reference(TASK, {"generator": generator})


def blob(state: Any, env_key: Any = None) -> bytes:
    """jumanji's CVRP ``State`` as cvrp.cc's state bytes, behind an env key (``env_key``, else the State's)."""
    return jr.state_blob(state.key if env_key is None else env_key, (state.coordinates, "<f4"), (state.demands, "<i4"),
                         (state.position, "<i4"), (state.capacity, "<i4"), (state.visited_mask, "u1"),
                         (state.trajectory, "<i4"), (state.num_total_visits, "<i4"), (state.key, "key"))


# Legal moves, except that one time in eight any node (often an invalid one).
sometimes_invalid = jr.sometimes_any(0.125)


def depot_when_allowed(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Back to the depot whenever the mask allows it, else a random legal node: the longest routes."""
    actions = jr.random_masked_actions(obs, rng, action_space)
    for i, mask in enumerate(np.asarray(obs["action_mask"])):
        if mask[0]:
            actions[i] = 0
    return actions


def test_lockstep_with_jumanji() -> None:
    stats = jr.lockstep(TASK, reference(), seed=3, num_envs=3, steps=90, max_episode_steps=PAST_THE_END)
    assert stats.steps >= 240 and stats.episodes >= 6


def test_lockstep_long_routes_and_invalid_actions() -> None:
    stats = jr.lockstep(TASK, reference(), seed=4, num_envs=2, steps=82, policy=depot_when_allowed,
                        max_episode_steps=PAST_THE_END)
    assert stats.episodes == 4  # every route alternates node and depot: 40 steps
    stats = jr.lockstep(TASK, reference(), seed=11, num_envs=3, steps=60, policy=sometimes_invalid,
                        max_episode_steps=PAST_THE_END)
    assert stats.episodes >= 6


def test_other_sizes() -> None:
    for sizes in ((1, 1, 1), (5, 6, 6)):
        stats = jr.lockstep(TASK, reference(*sizes), seed=sizes[0], num_envs=2, steps=30, policy=sometimes_invalid,
                            num_nodes=sizes[0], max_capacity=sizes[1], max_demand=sizes[2],
                            max_episode_steps=PAST_THE_END)
        assert stats.episodes >= 4


def test_registered_limit_ends_a_long_route_as_terminated() -> None:
    """With the registered limit, a 40-step route's last step is terminated, and not truncated before."""
    for t, _, _, terminated, truncated, _ in jr.played_steps(TASK, depot_when_allowed, 40, seed=1, num_envs=2):
        assert terminated.all() == (t == 39) and (t == 39 or not truncated.any())


def test_from_jumanji_states() -> None:
    ref = reference()
    state, rest = jr.legal_walk(ref, 7, 12)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, max_episode_steps=PAST_THE_END) == len(rest)
    # Invalid from a mid-route state: the depot when at it, a visited node, a node beyond the capacity.
    invalid = [0] if int(state.position) == 0 else [int(state.trajectory[1])]
    assert jr.run_from_state(TASK, ref, state, blob(state), invalid, max_episode_steps=PAST_THE_END) == 1
    heavy = state.replace(capacity=np.int32(0))
    node = int(np.flatnonzero(~np.asarray(state.visited_mask))[0])
    assert jr.run_from_state(TASK, ref, heavy, blob(heavy), [node], max_episode_steps=PAST_THE_END) == 1


def test_a_planted_difference_is_caught() -> None:
    ref = reference()
    state, rest = jr.legal_walk(ref, 5, 6)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, max_episode_steps=PAST_THE_END) == len(rest)
    moved = state.replace(coordinates=state.coordinates.at[rest[0], 0].add(1e-6))
    jr.check_caught(TASK, ref, state, blob(moved), rest, "coordinates", max_episode_steps=PAST_THE_END)
    lighter = state.replace(capacity=state.capacity - 1)
    jr.check_caught(TASK, ref, state, blob(lighter), rest, "capacity", max_episode_steps=PAST_THE_END)


def test_state_round_trip_and_bad_blobs() -> None:
    ref = reference()
    state, _ = jr.legal_walk(ref, 2, 5)
    good = blob(state)
    nodes = 21
    demands = 8 + 8 * nodes
    position = demands + 4 * nodes
    visited = position + 8
    trajectory = visited + nodes
    visits = trajectory + 4 * 40
    jr.check_refused_blobs(TASK, good, {
        "coordinates": jr.patched(good, 8, np.float32(-0.5).tobytes()),
        "demands": jr.patched(good, demands + 4, np.int32(11).tobytes()),
        "position": jr.patched(good, position, np.int32(21).tobytes()),
        "capacity": jr.patched(good, position + 4, np.int32(31).tobytes()),
        "visited_mask": jr.patched(good, visited + 3, b"\x07"),
        "trajectory": jr.patched(good, trajectory + 8, np.int32(-1).tobytes()),
        "num_total_visits": jr.patched(good, visits, np.int32(0).tobytes()),
        "key": good[:-4],
        "bytes": good + b"\0",
    })


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_lockstep() -> None:
    ref = reference()
    seed = 0
    jr.lockstep(TASK, ref, seed=100 * seed, num_envs=8, steps=150, max_episode_steps=PAST_THE_END)
    jr.lockstep(TASK, ref, seed=100 * seed + 1, num_envs=8, steps=100, policy=sometimes_invalid,
                max_episode_steps=PAST_THE_END)
    jr.lockstep(TASK, ref, seed=100 * seed + 2, num_envs=4, steps=200, policy=depot_when_allowed,
                max_episode_steps=PAST_THE_END)
    jr.lockstep(TASK, reference(50, 60, 30), seed=9, num_envs=4, steps=300, num_nodes=50, max_capacity=60,
                max_demand=30, max_episode_steps=PAST_THE_END)


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_from_jumanji_states() -> None:
    ref = reference()
    for seed in range(10):
        state, rest = jr.legal_walk(ref, 1000 + seed, seed)
        jr.run_from_state(TASK, ref, state, blob(state), rest, max_episode_steps=PAST_THE_END)
        node = int(np.random.default_rng(seed).integers(21))
        jr.run_from_state(TASK, ref, state, blob(state), [node], max_episode_steps=PAST_THE_END)
