"""Knapsack-v1 (src/rlpool/envs/jumanji/knapsack.cc) against jumanji 1.1.2's Knapsack, bit for bit.

Whole episodes in lockstep from the same keys (legal moves, and a policy that also picks packed or too heavy
items, which jumanji ends), a bag large enough for every item (the episode ends when all are packed), states
built from jumanji's own ``State``, a planted difference that the comparison catches, and bad state blobs
refused by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "Knapsack-v1"

# The engine's time limit flags `truncated` on the step that reaches it, terminating or not (gymnasium's
# TimeLimit does the same), while jumanji's TimeStep on the step that packs the last item is a termination
# only. Packing every item takes num_items steps, the registered limit (EnvPool's 50); the comparisons where
# that can happen run with a limit past the longest episode.
PAST_THE_END = 1_000_000

_GENERATORS: dict[tuple[int, float], Any] = {}


def reference(num_items: int = 50, total_budget: float = 12.5) -> jr.Reference:
    """jumanji's Knapsack-v1, or its Knapsack with the default generator for other sizes."""
    if (num_items, total_budget) == (50, 12.5):
        return jr.Reference(TASK)
    from jumanji.environments.packing.knapsack.generator import RandomGenerator

    # One generator object per size, so that Reference's cache of jitted functions is hit.
    generator = _GENERATORS.setdefault((num_items, total_budget), RandomGenerator(num_items, total_budget))
    return jr.Reference(TASK, {"generator": generator})


def blob(state: Any, env_key: Any = None) -> bytes:
    """jumanji's Knapsack ``State`` as knapsack.cc's state bytes, behind an env key (``env_key``, else the State's)."""
    return jr.state_blob(state.key if env_key is None else env_key, (state.weights, "<f4"), (state.values, "<f4"),
                         (state.packed_items, "u1"), (state.remaining_budget, "<f4"), (state.key, "key"))


def sometimes_invalid(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Legal moves, except that one time in six an illegal item (packed or too heavy) where there is one."""
    actions = jr.random_masked_actions(obs, rng, action_space)
    for i, mask in enumerate(np.asarray(obs["action_mask"])):
        illegal = np.flatnonzero(~mask)
        if len(illegal) and rng.random() < 1 / 6:
            actions[i] = rng.choice(illegal)
    return actions


def test_lockstep_with_jumanji() -> None:
    stats = jr.lockstep(TASK, reference(), seed=3, num_envs=3, steps=80)
    assert stats.steps >= 220 and stats.episodes >= 6


def test_lockstep_with_invalid_actions() -> None:
    stats = jr.lockstep(TASK, reference(), seed=11, num_envs=3, steps=60, policy=sometimes_invalid)
    assert stats.episodes >= 9


def test_every_item_fits() -> None:
    """A bag that holds every item: episodes of num_items steps, ended when the last item is packed."""
    stats = jr.lockstep(TASK, reference(8, 100.0), seed=2, num_envs=2, steps=26, num_items=8, total_budget=100.0,
                        max_episode_steps=PAST_THE_END)
    assert stats.episodes == 6


def test_registered_limit() -> None:
    """With the registered limit of 50 steps a bag of every item ends terminated, and not truncated before."""
    for t, _, _, terminated, truncated, _ in jr.played_steps(TASK, jr.random_masked_actions, 50, seed=1, num_envs=2,
                                                             total_budget=1000.0):
        assert terminated.all() == (t == 49) and (t == 49 or not truncated.any())


def test_from_jumanji_states() -> None:
    ref = reference()
    state, rest = jr.legal_walk(ref, 7, 10)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest) == len(rest)
    # Invalid: a packed item, an item heavier than the budget left, and any item once the bag is full.
    packed = int(np.flatnonzero(np.asarray(state.packed_items))[0])
    assert jr.run_from_state(TASK, ref, state, blob(state), [packed]) == 1
    tight = state.replace(remaining_budget=np.float32(0.01))
    heavy = int(np.argmax(np.where(np.asarray(state.packed_items), -1.0, np.asarray(state.weights))))
    assert jr.run_from_state(TASK, ref, tight, blob(tight), [heavy]) == 1
    # A budget exactly the item's weight: it fits, and the budget left is 0.
    exact = state.replace(remaining_budget=state.weights[heavy])
    assert jr.run_from_state(TASK, ref, exact, blob(exact), [heavy, packed]) == 1


def test_a_planted_difference_is_caught() -> None:
    ref = reference()
    state, rest = jr.legal_walk(ref, 5, 6)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest) == len(rest)
    richer = state.replace(values=state.values.at[rest[0]].add(1e-6))
    jr.check_caught(TASK, ref, state, blob(richer), rest, "values")
    poorer = state.replace(remaining_budget=state.remaining_budget - np.float32(0.5))
    jr.check_caught(TASK, ref, state, blob(poorer), rest, "action_mask|terminated")


def test_state_round_trip_and_bad_blobs() -> None:
    ref = reference()
    state, _ = jr.legal_walk(ref, 2, 5)
    good = blob(state)
    n = 50
    packed = 8 + 8 * n
    budget = packed + n
    jr.check_refused_blobs(TASK, good, {
        "weights": jr.patched(good, 8 + 4, np.float32(1.5).tobytes()),
        "values": jr.patched(good, 8 + 4 * n, np.float32(np.inf).tobytes()),
        "packed_items": jr.patched(good, packed + 1, b"\xff"),
        "remaining_budget": jr.patched(good, budget, np.float32(-1.0).tobytes()),
        "key": good[:-8],
        "bytes": good + b"\0",
    })


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_lockstep() -> None:
    ref = reference()
    seed = 0
    jr.lockstep(TASK, ref, seed=100 * seed, num_envs=8, steps=150)
    jr.lockstep(TASK, ref, seed=100 * seed + 1, num_envs=8, steps=100, policy=sometimes_invalid)
    jr.lockstep(TASK, reference(50, 40.0), seed=9, num_envs=4, steps=300, total_budget=40.0,
                max_episode_steps=PAST_THE_END)
    jr.lockstep(TASK, reference(3, 0.3), seed=10, num_envs=4, steps=100, policy=sometimes_invalid, num_items=3,
                total_budget=0.3)


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_from_jumanji_states() -> None:
    ref = reference()
    for seed in range(10):
        state, rest = jr.legal_walk(ref, 1000 + seed, seed)
        jr.run_from_state(TASK, ref, state, blob(state), rest)
        item = int(np.random.default_rng(seed).integers(50))
        jr.run_from_state(TASK, ref, state, blob(state), [item])
