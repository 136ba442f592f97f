"""MMST-v0 (src/rlpool/envs/jumanji/mmst.cc, mmst_generation.cc) beside jumanji 1.1.2's MMST, bit for bit.

A multi-agent task: every observation entry has the agent axis first, ``node_types``, ``adj_matrix`` and
``step_count`` repeated on every agent's row (compared as one copy), ``positions`` and ``action_mask`` each
agent's own; one reward, every agent's. The default generator's graphs (random walks, random edges and merges
drawn from JAX's PRNG) from the pool's reset keys; whole episodes under random legal actions, now and then any
node (an invalid choice), with ``info``'s num_connections and ratio_connections beside jumanji's extras (XLA's
reciprocal products and fused adds); states a random policy rarely reaches put in with ``set_state``: agents
on one node (ties broken in the order of the State key's permutation, a finished agent still taking part), an
invalid choice read as a move to an already connected node (JAX's index -1), paths at their end; a planted
difference that the comparison catches; bad state blobs refused naming the field; bad options; a generator
that jumanji would loop in forever refused; other graph sizes in the full lane (a smaller and a larger one,
one whose first merge writes past its edge array, and degree-capped ones whose walks add loops).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

from jumanji_reference import (  # noqa: E402
    Reference,
    agents_obs,
    check_caught,
    check_refused_blobs,
    check_refused_options,
    check_reset_keys,
    check_saved_states,
    flatten,
    lockstep_extras,
    patched,
    prng_key,
    reset_state,
    run_from_state,
    sometimes_any,
    state_blob,
)
from lane import FULL  # noqa: E402

import rlpool  # noqa: E402

TASK = "MMST-v0"
SHARED = ("node_types", "adj_matrix", "step_count")
EXTRAS = ("num_connections", "ratio_connections")
N, A, K, T = 36, 3, 4, 70  # the default num_nodes, num_agents, num_nodes_per_agent, time_limit
# Offsets into the default task's state blob: the env's key, then mmst.cc's fields in order.
NODE_TYPES_AT = 8
ADJ_AT = NODE_TYPES_AT + 4 * N
CONNECTED_AT = ADJ_AT + N * N
INDEX_AT = CONNECTED_AT + 4 * A * T
TO_CONNECT_AT = INDEX_AT + 4 * A * N
EDGES_AT = TO_CONNECT_AT + 4 * A * K
POSITIONS_AT = EDGES_AT + 4 * A * N * N
POSITION_INDEX_AT = POSITIONS_AT + 4 * A
MASK_AT = POSITION_INDEX_AT + 4 * A
FINISHED_AT = MASK_AT + A * N
STEP_COUNT_AT = FINISHED_AT + A


@cache
def ref(num_nodes: int = N, num_edges: int = 72, max_degree: int = 5, num_agents: int = A,
        num_nodes_per_agent: int = K, time_limit: int = T) -> Reference:
    """jumanji's MMST-v0, or an MMST with a SplitRandomGenerator of these options (max_step = time_limit)."""
    if (num_nodes, num_edges, max_degree, num_agents, num_nodes_per_agent, time_limit) == (N, 72, 5, A, K, T):
        return Reference(TASK, {})
    from jumanji.environments.routing.mmst.generator import SplitRandomGenerator

    generator = SplitRandomGenerator(num_nodes=num_nodes, num_edges=num_edges, max_degree=max_degree,
                                     num_agents=num_agents, num_nodes_per_agent=num_nodes_per_agent,
                                     max_step=time_limit)
    return Reference(TASK, {"generator": generator, "time_limit": time_limit})


def encode(state: Any, env_key: Any = (0, 0)) -> bytes:
    """jumanji's MMST ``State`` as the env's state bytes: the env's key, then mmst.cc's layout."""
    return state_blob(env_key, (state.node_types, "<i4"), (state.adj_matrix, "u1"), (state.connected_nodes, "<i4"),
                      (state.connected_nodes_index, "<i4"), (state.nodes_to_connect, "<i4"),
                      (state.node_edges, "<i4"), (state.positions, "<i4"), (state.position_index, "<i4"),
                      (state.action_mask, "u1"), (state.finished_agents, "u1"), (state.step_count, "<i4"),
                      (state.key, "key"))


def with_mask(state: Any) -> Any:
    """``state`` with the action_mask jumanji's make_action_mask gives its node_edges, positions, finished flags."""
    import jax.numpy as jnp
    from jumanji.environments.routing.mmst.utils import make_action_mask

    mask = make_action_mask(len(state.positions), state.node_edges.shape[-1], state.node_edges, state.positions,
                            state.finished_agents)
    return state.replace(action_mask=jnp.asarray(mask))


def played_actions(reference: Reference, state: Any, seed: int, steps: int, first: list[Any] | None = None,
                   p_any: float = 0.0) -> list[list[int]]:
    """Actions from jumanji's ``state`` on: ``first`` (if given), then per agent a random legal node (any node
    with probability ``p_any``, or where none is legal), for up to ``steps`` steps or the episode's end."""
    rng = np.random.default_rng(seed)
    actions: list[list[int]] = []
    mask = np.asarray(state.action_mask)
    n = mask.shape[1]
    for t in range(steps):
        if first is not None and t == 0:
            action = list(first)
        else:
            action = [int(rng.choice(np.flatnonzero(row))) if row.any() and rng.random() >= p_any
                      else int(rng.integers(n)) for row in mask]
        actions.append(action)
        state, ts = reference.step(state, np.asarray(action, np.int32))
        if ts.step_type == 2:
            break
        mask = np.asarray(ts.observation.action_mask)
    return actions


def walked_state(reference: Reference, seed: int, steps: int) -> Any:
    """jumanji's State ``steps`` random legal steps after reset(PRNGKey(seed)) (fewer if the episode ends)."""
    state, _ = reference.reset(prng_key(seed))
    for action in played_actions(reference, state, seed, steps)[:steps]:
        new_state, ts = reference.step(state, np.asarray(action, np.int32))
        if ts.step_type == 2:
            break
        state = new_state
    return state


def test_reset_keys_give_jumanjis_instances() -> None:
    """The generator's graphs, nodes to connect and start nodes: the first and a later reset of 32 envs."""
    check_reset_keys(TASK, ref(), 32, seed=500, shared=SHARED)


def test_lockstep_whole_episodes() -> None:
    stats, seen = lockstep_extras(TASK, ref(), EXTRAS, seed=0, num_envs=4, steps=160, policy=sometimes_any(0.1),
                                  shared=SHARED)
    assert stats.steps >= 600 and stats.episodes >= 6
    assert max(seen["num_connections"]) >= 6 and max(seen["ratio_connections"]) > 0.5


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_agents_on_one_node(seed: int) -> None:
    """Every agent on agent 0's node, all picking one neighbour: the State key's permutation decides who gets
    it, the others' ties (-2) score 0; with seed 4 agent 0 has finished and still takes part in the ties."""
    import jax

    reference = ref()
    state = walked_state(reference, seed, 3)
    here = int(state.positions[0])
    state = state.replace(positions=np.full(A, here, np.int32), key=jax.random.PRNGKey(seed * 11))
    if seed == 4:
        state = state.replace(finished_agents=np.array([True, False, False]))
    state = with_mask(state)
    target = int(np.flatnonzero(np.asarray(state.node_edges[1, here]) >= 0)[0])
    actions = played_actions(reference, state, seed, 12, first=[target] * A)
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == len(actions)


def test_invalid_choice_onto_a_connected_last_node() -> None:
    """A node without an edge is an invalid choice (-1, reward -2), unless the agent has connected the last
    node: JAX reads connected_nodes_index[agent, -1] there, making it a move to a traversed node (-3, -1)."""
    reference = ref()
    state = walked_state(reference, 5, 2)
    index = np.asarray(state.connected_nodes_index).copy()
    index[1, N - 1] = N - 1
    state = state.replace(connected_nodes_index=index)
    edges = np.asarray(state.node_edges)
    dead = [int(np.flatnonzero(edges[i, int(state.positions[i])] < 0)[0]) for i in range(A)]
    actions = played_actions(reference, state, 5, 8, first=dead, p_any=0.3)
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == len(actions)


def test_paths_at_their_end() -> None:
    """Two steps before the time limit with every path full: the writes past connected_nodes' end are dropped
    (as JAX drops them); the last step is a termination."""
    reference = ref()
    state = walked_state(reference, 6, 10)
    state = state.replace(step_count=np.int32(T - 2), position_index=np.full(A, T - 1, np.int32))
    actions = played_actions(reference, state, 6, 3)
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 2


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = walked_state(reference, 8, 4)
    actions = played_actions(reference, state, 8, 3)
    assert run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 3
    types = np.asarray(state.node_types).copy()
    types[int(np.flatnonzero(types < 0)[0])] = 2
    check_caught(TASK, reference, state, encode(state.replace(node_types=types)), actions, match="node_types",
                 shared=SHARED)
    # An edge agent 1's node_edges lacks: its action_mask tells after the first step.
    edges = np.asarray(state.node_edges).copy()
    edges[1] = np.where(edges[1] >= 0, -1, edges[1])
    check_caught(TASK, reference, state, encode(state.replace(node_edges=edges)), actions, match="action_mask",
                 shared=SHARED)


def test_bad_state_blobs_are_refused() -> None:
    good = reset_state(TASK, seed=0)
    i32 = np.int32
    check_refused_blobs(TASK, good, {
        "node_types": patched(good, NODE_TYPES_AT + 4 * 5, i32(3).tobytes()),
        "adj_matrix": patched(good, ADJ_AT + 7, b"\x02"),
        "connected_nodes": patched(good, CONNECTED_AT + 4 * 3, i32(N).tobytes()),
        "connected_nodes_index": patched(good, INDEX_AT, i32(-2).tobytes()),
        "nodes_to_connect": patched(good, TO_CONNECT_AT + 4, i32(N).tobytes()),
        "node_edges": patched(good, EDGES_AT + 4 * 100, i32(-5).tobytes()),
        "positions": patched(good, POSITIONS_AT + 4, i32(-1).tobytes()),
        "position_index": patched(good, POSITION_INDEX_AT, i32(-1).tobytes()),
        "action_mask": patched(good, MASK_AT + 2, b"\x07"),
        "finished_agents": patched(good, FINISHED_AT + 1, b"\x02"),
        "step_count": patched(good, STEP_COUNT_AT, i32(-3).tobytes()),
        "key": good[:-1],
        "MMST state has": good + b"\0",
    })


def test_bad_options_are_refused() -> None:
    check_refused_options(TASK, {
        "num_nodes": dict(num_nodes=1),
        "80%": dict(num_nodes_per_agent=10),
        "num_agents": dict(num_agents=0),
        "num_edges": dict(num_edges=34),
        "num_edges.*630": dict(num_edges=631),
        "max_degree": dict(max_degree=-1),
        "time_limit": dict(time_limit=0),
    })


def test_a_generator_that_never_ends_is_refused() -> None:
    """Ten nodes of degree at most 2 cannot hold 22 edges: jumanji's while loop would run forever."""
    pool = rlpool.make(TASK, num_envs=1, num_nodes=10, num_edges=45, max_degree=1, num_agents=1,
                       num_nodes_per_agent=1)
    try:
        with pytest.raises(RuntimeError, match="max_degree = 1"):
            pool.reset()
    finally:
        pool.close()


@pytest.mark.skipif(not FULL, reason="full lane")
def test_degree_capped_graphs() -> None:
    """max_degree 1: the random walks' edges fail at nodes of degree 2, the walk goes on from an unvisited
    node, and a walk back onto it adds a loop (a, a). Each reset key's graph is jumanji's, or (where every
    unvisited node is past max_degree, and jumanji's while loop runs forever) a RuntimeError."""
    options = dict(num_nodes=12, num_edges=11, max_degree=1, num_agents=2, num_nodes_per_agent=2, time_limit=20)
    reference = ref(**options)
    same = loops = 0
    for seed in range(60):
        pool = rlpool.make(TASK, num_envs=1, seed=seed, **options)
        try:
            obs, _ = pool.reset()
        except RuntimeError as error:
            assert "loops forever" in str(error)
            continue
        finally:
            pool.close()
        _, ts = reference.reset(prng_key(seed))
        ours = agents_obs(obs, 0, SHARED)
        for name, value in flatten(ts.observation).items():
            assert np.array_equal(ours[name], value), (seed, name)
        same += 1
        loops += int(np.trace(np.asarray(ts.observation.adj_matrix)) > 0)
    assert same >= 50 and loops >= 10


@pytest.mark.skipif(not FULL, reason="full lane")
def test_lockstep_full() -> None:
    stats, _ = lockstep_extras(TASK, ref(), EXTRAS, seed=1000, num_envs=8, steps=300, policy=sometimes_any(0.2),
                               shared=SHARED)
    assert stats.episodes >= 30


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("options", [
    # smaller: 2 agents, a sparse graph of degree at most 4
    dict(num_nodes=12, num_edges=20, max_degree=3, num_agents=2, num_nodes_per_agent=3, time_limit=30),
    # larger: 5 agents (the extras' sums over 5 rows), 6 nodes each
    dict(num_nodes=80, num_edges=200, max_degree=6, num_agents=5, num_nodes_per_agent=6, time_limit=120),
    # num_nodes - 1 edges: the first merge has none to add, its connecting edge lands past the edge array
    dict(num_nodes=36, num_edges=35, max_degree=5, num_agents=3, num_nodes_per_agent=4, time_limit=70),
])
def test_other_sizes(options: dict[str, int]) -> None:
    stats, _ = lockstep_extras(TASK, ref(**options), EXTRAS, seed=options["num_nodes"], num_envs=4,
                               steps=3 * options["time_limit"], policy=sometimes_any(0.2), shared=SHARED,
                               max_episode_steps=options["time_limit"], **options)
    assert stats.episodes >= 8
