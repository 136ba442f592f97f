"""MultiCVRP-v0 (src/rlpool/envs/jumanji/multi_cvrp.cc) against jumanji 1.1.2's MultiCVRP, step by step, bit for bit.

Whole episodes in lockstep from the same keys (random legal moves, which reach the step limit and its worst-case
reward; customers first, which serve every customer; sometimes any node, which sends vehicles to the depot), the
other vehicle counts and sizes of the default generator, states built from jumanji's own ``State``, a planted
difference that the comparison catches, and bad state blobs refused by name.

The observation's dtypes are jumanji's, int16 fields (``nodes.demands``, ``vehicles.capacities``) included.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "MultiCVRP-v0"
SHARED = ("nodes.coordinates", "nodes.demands", "windows.start", "windows.end", "coeffs.early", "coeffs.late")
"""The fields jumanji gives once for all vehicles, repeated on every vehicle's row in rlpool."""


@cache
def reference(num_customers: int = 20, num_vehicles: int = 2) -> jr.Reference:
    """jumanji's MultiCVRP-v0 (other sizes: its default generator with them)."""
    if (num_customers, num_vehicles) == (20, 2):
        ref = jr.Reference(TASK)
    else:
        from jumanji.environments.routing.multi_cvrp.generator import UniformRandomGenerator

        ref = jr.Reference(TASK, {"generator": UniformRandomGenerator(num_customers, num_vehicles)})
    return ref


def blob(state: Any, env_key: Any = None) -> bytes:
    """jumanji's MultiCVRP ``State`` as multi_cvrp.cc's state bytes, behind an env key (``env_key``, else the
    State's)."""
    v = state.vehicles
    return jr.state_blob(state.key if env_key is None else env_key, (state.nodes.coordinates, "<f4"),
                         (state.nodes.demands, "<i2"), (state.windows.start, "<f4"), (state.windows.end, "<f4"),
                         (state.coeffs.early, "<f4"), (state.coeffs.late, "<f4"), (v.local_times, "<f4"),
                         (v.capacities, "<i2"), (v.positions, "<i2"), (v.distances, "<f4"),
                         (v.time_penalties, "<f4"), (state.order, "<i2"), (state.step_count, "<i2"),
                         (state.action_mask, "u1"), (state.key, "key"))


def customers_first(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Each vehicle: a random customer its mask allows, the depot only when none is: routes that serve all."""
    masks = np.asarray(obs["action_mask"])
    actions = np.zeros(masks.shape[:2], np.int64)
    for i, env_masks in enumerate(masks):
        for v, mask in enumerate(env_masks):
            customers = np.flatnonzero(mask[1:]) + 1
            actions[i, v] = int(rng.choice(customers)) if len(customers) else 0
    return actions


sometimes_any = jr.sometimes_any(0.2)


def mostly_depot(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Random legal moves, but each vehicle to the depot 85 times in 100: routes that reach the step limit."""
    actions = jr.random_masked_actions(obs, rng, action_space)
    actions[rng.random(actions.shape) < 0.85] = 0
    return actions


def walk(ref: jr.Reference, seed: int, steps: int) -> tuple[Any, list[np.ndarray]]:
    """jumanji's state after up to ``steps`` joint moves of ``customers_first`` from reset(PRNGKey(seed)), and
    its moves on from there to the episode's end."""
    state, ts = ref.reset(jr.prng_key(seed))
    rng = np.random.default_rng(seed)
    moves: list[np.ndarray] = []
    start = state
    while True:
        obs = {"action_mask": np.asarray(ts.observation.action_mask)[None]}
        action = customers_first(obs, rng, None)[0]
        moves.append(action)
        state, ts = ref.step(state, action)
        if len(moves) == steps:
            start = state
        if bool(ts.step_type == 2):
            break
    if len(moves) < steps:  # the episode ended first: from its start
        return start, moves
    return start, moves[steps:]


def test_lockstep_with_jumanji() -> None:
    stats = jr.lockstep(TASK, reference(), seed=3, num_envs=3, steps=90, shared=SHARED)
    assert stats.steps >= 240 and stats.episodes >= 6


def test_lockstep_served_routes_and_any_nodes() -> None:
    stats = jr.lockstep(TASK, reference(), seed=4, num_envs=3, steps=60, policy=customers_first, shared=SHARED)
    assert stats.episodes >= 6
    stats = jr.lockstep(TASK, reference(), seed=11, num_envs=3, steps=60, policy=sometimes_any, shared=SHARED)
    assert stats.episodes >= 3


def test_lockstep_step_limit() -> None:
    """Routes that pass 2 * num_customers steps: jumanji's worst-case reward on the last step, a termination
    (the engine's limit, EnvPool's 40, comes on the same step and sets truncated too)."""
    stats = jr.lockstep(TASK, reference(), seed=8, num_envs=3, steps=84, policy=mostly_depot, shared=SHARED)
    assert stats.episodes >= 4 and stats.truncations >= 4


def test_other_sizes() -> None:
    for customers, vehicles in ((6, 3), (20, 3)):
        stats = jr.lockstep(TASK, reference(customers, vehicles), seed=customers, num_envs=2, steps=30,
                            policy=sometimes_any, shared=SHARED, num_customers=customers, num_vehicles=vehicles)
        assert stats.episodes >= 2


def test_saved_states_are_jumanjis() -> None:
    jr.check_saved_states(TASK, reference(), lambda state, env_key: blob(state, env_key), seed=21)


def test_reset_keys_give_jumanjis_instances() -> None:
    """The first observation of env i of a pool seeded s is jumanji's reset(PRNGKey(s + i)), the second
    reset's split's (the family test's check, with the shared fields taken once; 1,000 envs in the full
    lane)."""
    jr.check_reset_keys(TASK, reference(), 1000 if FULL else 24, 123, SHARED)


def test_saved_state_plays_on_the_same() -> None:
    """A state copied into another env of the pool plays on as the original, per vehicle."""
    jr.check_copied_state_plays_on(TASK, warmup=3, steps=8)


def test_from_jumanji_states() -> None:
    ref = reference()
    state, rest = walk(ref, 7, 5)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, shared=SHARED) == len(rest)
    # Both vehicles on the same customer (the first keeps it), and a node without demand (the depot instead).
    node = int(np.flatnonzero(np.asarray(state.action_mask)[0, 1:])[0]) + 1
    served = int(np.flatnonzero(np.asarray(state.nodes.demands)[1:] == 0)[0]) + 1
    actions = [np.array([node, node]), np.array([served, 0])]
    assert jr.run_from_state(TASK, ref, state, blob(state), actions, shared=SHARED) == 2
    # One step before the step limit: the worst-case reward of what is left.
    late = state.replace(step_count=np.int16(40))
    assert jr.run_from_state(TASK, ref, late, blob(late), [np.array([node, 0])], shared=SHARED) == 1


def test_a_planted_difference_is_caught() -> None:
    ref = reference()
    state, rest = walk(ref, 5, 4)
    assert jr.run_from_state(TASK, ref, state, blob(state), rest, shared=SHARED) == len(rest)
    moved = state.replace(nodes=state.nodes.replace(coordinates=state.nodes.coordinates.at[rest[0][0], 0].add(1e-5)))
    jr.check_caught(TASK, ref, state, blob(moved), rest, "reward|coordinates|local_times", shared=SHARED)
    later = state.replace(vehicles=state.vehicles.replace(local_times=state.vehicles.local_times + 1))
    jr.check_caught(TASK, ref, state, blob(later), rest, "local_times", shared=SHARED)


def test_state_round_trip_and_bad_blobs() -> None:
    ref = reference()
    state, _ = walk(ref, 2, 5)
    good = blob(state)
    nodes, vehicles = 21, 2
    demands = 8 + 8 * nodes
    start = demands + 2 * nodes
    early = start + 8 * nodes
    local_times = early + 8 * nodes
    capacities = local_times + 4 * vehicles
    positions = capacities + 2 * vehicles
    distances = positions + 2 * vehicles
    order = distances + 8 * vehicles
    step_count = order + 2 * vehicles * 40
    mask = step_count + 2
    jr.check_refused_blobs(TASK, good, {
        "nodes.coordinates": jr.patched(good, 8, np.float32(10.5).tobytes()),
        "nodes.demands": jr.patched(good, demands + 2, np.int16(-1).tobytes()),
        "windows.start": jr.patched(good, start, np.float32(np.nan).tobytes()),
        "coeffs.late": jr.patched(good, early + 4 * nodes, np.float32(1.5).tobytes()),
        "vehicles.local_times": jr.patched(good, local_times, np.float32(-1).tobytes()),
        "vehicles.capacities": jr.patched(good, capacities, np.int16(61).tobytes()),
        "vehicles.positions": jr.patched(good, positions + 2, np.int16(21).tobytes()),
        "vehicles.time_penalties": jr.patched(good, distances + 4 * vehicles + 4, np.float32(-0.5).tobytes()),
        "order": jr.patched(good, order, np.int16(-3).tobytes()),
        "step_count": jr.patched(good, step_count, np.int16(0).tobytes()),
        "action_mask": jr.patched(good, mask + 1, b"\x02"),
        "key": good[:-4],
        "bytes": good + b"\0",
    })


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_lockstep() -> None:
    ref = reference()
    seed = 0
    jr.lockstep(TASK, ref, seed=100 * seed, num_envs=4, steps=100, shared=SHARED)
    jr.lockstep(TASK, ref, seed=100 * seed + 1, num_envs=4, steps=75, policy=customers_first, shared=SHARED)
    jr.lockstep(TASK, ref, seed=100 * seed + 2, num_envs=4, steps=75, policy=sometimes_any, shared=SHARED)
    jr.lockstep(TASK, ref, seed=100 * seed + 3, num_envs=4, steps=60, policy=mostly_depot, shared=SHARED)
    for customers, vehicles in ((6, 2), (50, 4), (150, 5)):
        for policy in (customers_first, mostly_depot):
            # The pool's time limit as the registration sets it for 20 customers: jumanji's own step limit.
            jr.lockstep(TASK, reference(customers, vehicles), seed=customers + vehicles, num_envs=2,
                        steps=2 * customers + 5, policy=policy, shared=SHARED, num_customers=customers,
                        num_vehicles=vehicles, max_episode_steps=2 * customers)


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_from_jumanji_states() -> None:
    ref = reference()
    for seed in range(8):
        state, rest = walk(ref, 1000 + seed, seed)
        jr.run_from_state(TASK, ref, state, blob(state), rest, shared=SHARED)
        late = state.replace(step_count=np.int16(40))
        action = np.random.default_rng(seed).integers(21, size=2)
        jr.run_from_state(TASK, ref, late, blob(late), [action], shared=SHARED)
