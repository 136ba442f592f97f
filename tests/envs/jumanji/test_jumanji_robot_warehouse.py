"""RobotWarehouse-v0 (src/rlpool/envs/jumanji/robot_warehouse.cc) beside jumanji 1.1.2's RobotWarehouse, step by
step, bit for bit.

Whole episodes from the same keys under random legal actions (robots turn, drive, pick shelves up and drop them,
and collide, which ends an episode) and the time limit; other warehouse sizes; states a random policy rarely
reaches put in with ``set_state`` (a robot delivering a requested shelf to each goal, so that the request queue
draws a new shelf from the State's key; a forward the action_mask refuses; a robot run into another); a planted
difference that the comparison catches; and bad state blobs refused naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "RobotWarehouse-v0"
SHARED = ("step_count",)
H, W, A, S, Q = 20, 10, 4, 80, 8  # the default warehouse: its height, width, robots, shelves, request queue
GRID_AT = 8
AGENTS_AT = GRID_AT + 4 * 2 * H * W
SHELVES_AT = AGENTS_AT + 4 * 4 * A
REQUESTED_AT = SHELVES_AT + 8 * S
QUEUE_AT = REQUESTED_AT + S
STEP_COUNT_AT = QUEUE_AT + 4 * Q
MASK_AT = STEP_COUNT_AT + 4
FORWARD, LEFT, RIGHT, TOGGLE = 1, 2, 3, 4


def ref(**kwargs: Any) -> jr.Reference:
    """jumanji's RobotWarehouse-v0 (``kwargs`` for jumanji.make)."""
    return jr.Reference("RobotWarehouse-v0", kwargs)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's RobotWarehouse ``State`` as the env's state bytes: the env's key, then the .cc's layout."""
    ag, sh = state.agents, state.shelves
    return jr.state_blob(env_key, (state.grid, "<i4"), (ag.position.x, "<i4"), (ag.position.y, "<i4"),
                         (ag.direction, "<i4"), (ag.is_carrying, "<i4"), (sh.position.x, "<i4"),
                         (sh.position.y, "<i4"), (sh.is_requested, "u1"), (state.request_queue, "<i4"),
                         (state.step_count, "<i4"), (state.action_mask, "u1"), (state.key, "key"))


def drive_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Random legal actions, forward twice as often as the others (so robots get around and meet)."""
    masks = np.asarray(obs["action_mask"])
    p = np.asarray([1, 4, 1, 1, 2], float)
    actions = np.zeros(masks.shape[:2], np.int64)
    for i in range(masks.shape[0]):
        for a in range(masks.shape[1]):
            w = p * masks[i, a]
            actions[i, a] = rng.choice(5, p=w / w.sum())
    return actions


def place(reference: jr.Reference, state: Any, robots: dict[int, tuple[int, int, int, int]],
          shelves: dict[int, tuple[int, int]]) -> Any:
    """jumanji's ``state`` with robot i at ``(x, y, direction, is_carrying)`` and shelf j at ``(x, y)`` (the grid
    moved along, the action_mask recomputed)."""
    import jax.numpy as jnp
    from jumanji.environments.routing.robot_warehouse import utils

    grid = np.asarray(state.grid).copy()
    ag, sh = state.agents, state.shelves
    ax, ay = np.asarray(ag.position.x).copy(), np.asarray(ag.position.y).copy()
    direction, carrying = np.asarray(ag.direction).copy(), np.asarray(ag.is_carrying).copy()
    sx, sy = np.asarray(sh.position.x).copy(), np.asarray(sh.position.y).copy()
    for i, (x, y, d, c) in robots.items():
        grid[1, ax[i], ay[i]] = 0
        ax[i], ay[i], direction[i], carrying[i] = x, y, d, c
    for i in robots:
        grid[1, ax[i], ay[i]] = i + 1
    for j, (x, y) in shelves.items():
        grid[0, sx[j], sy[j]] = 0
        sx[j], sy[j] = x, y
    for j in shelves:
        grid[0, sx[j], sy[j]] = j + 1
    agents = ag._replace(position=ag.position._replace(x=jnp.asarray(ax), y=jnp.asarray(ay)),
                         direction=jnp.asarray(direction), is_carrying=jnp.asarray(carrying))
    shelves_ = sh._replace(position=sh.position._replace(x=jnp.asarray(sx), y=jnp.asarray(sy)))
    grid = jnp.asarray(grid)
    return state.replace(grid=grid, agents=agents, shelves=shelves_,
                         action_mask=utils.compute_action_mask(grid, agents))


def delivery_state(reference: jr.Reference, seed: int = 4, step_count: int = 0) -> Any:
    """Robots 0 and 1 just above the two goals, facing down, each carrying a requested shelf; robots 2, 3 away."""
    state, _ = reference.reset(jr.prng_key(seed))
    queue = np.asarray(state.request_queue)
    robots = {0: (H - 2, W // 2 - 1, 2, 1), 1: (H - 2, W // 2, 2, 1), 2: (0, 0, 1, 0), 3: (0, W - 1, 2, 0)}
    state = place(reference, state, robots, {int(queue[0]): (H - 2, W // 2 - 1), int(queue[1]): (H - 2, W // 2)})
    return state.replace(step_count=np.int32(step_count))


def test_lockstep_whole_episodes() -> None:
    stats = jr.lockstep(TASK, ref(), seed=0, num_envs=4, steps=150, policy=drive_policy, shared=SHARED)
    assert stats.steps >= 500 and stats.episodes >= 5  # collisions


def test_random_actions() -> None:
    """Any action, refused ones too (a no-op in jumanji)."""
    stats = jr.lockstep(TASK, ref(), seed=31, num_envs=3, steps=150, policy=jr.sometimes_any(1.0), shared=SHARED)
    assert stats.steps >= 300


def test_reset_keys() -> None:
    jr.check_reset_keys(TASK, ref(), 50, 123, SHARED)


@pytest.mark.skipif(not FULL, reason="full lane")
def test_reset_keys_full() -> None:
    jr.check_reset_keys(TASK, ref(), 1000, 1234, SHARED)


def test_saved_state_is_jumanjis_state() -> None:
    jr.check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def test_deliveries_draw_new_requests() -> None:
    """Both goals get a requested shelf in one step: reward 2, two new requests drawn from the State's key; the
    robots then toggle (on a highway: they keep the shelves), back up and drop them off the highway."""
    reference = ref()
    state = delivery_state(reference)
    actions = [[FORWARD, FORWARD, FORWARD, FORWARD], [TOGGLE, TOGGLE, 0, 0], [LEFT, RIGHT, RIGHT, LEFT],
               [FORWARD, FORWARD, TOGGLE, 0], [FORWARD, FORWARD, FORWARD, FORWARD], [0, 0, 0, 0]]
    actions += np.random.default_rng(0).integers(0, 5, (40, A)).tolist()
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) >= 6


def test_collision_and_time_limit() -> None:
    """Two robots driving into one square end the episode (a termination); so does step_count reaching 500."""
    reference = ref()
    state, _ = reference.reset(jr.prng_key(2))
    state = place(reference, state, {0: (0, 1, 1, 0), 1: (0, 3, 3, 0), 2: (5, 0, 2, 0), 3: (9, 9, 0, 0)}, {})
    assert jr.run_from_state(TASK, reference, state, encode(state), [[FORWARD, FORWARD, 0, 0]] * 3,
                             shared=SHARED) == 1
    state = delivery_state(reference, step_count=498)
    assert jr.run_from_state(TASK, reference, state, encode(state), [[FORWARD] * A] * 4, shared=SHARED) == 2


def test_a_refused_forward_is_a_noop() -> None:
    """A robot carrying a shelf may not drive onto another shelf: the action_mask refuses it, the step is a no-op
    (and so is a forward the State's mask refuses where the way is free)."""
    reference = ref()
    state, _ = reference.reset(jr.prng_key(3))
    shelf_x, shelf_y = int(state.shelves.position.x[0]), int(state.shelves.position.y[0])
    state = place(reference, state, {0: (shelf_x, shelf_y, 1, 1)}, {})
    assert not bool(state.action_mask[0, FORWARD])
    actions = [[FORWARD, 0, 0, 0], [LEFT, 0, 0, 0], [LEFT, 0, 0, 0], [FORWARD, 0, 0, 0], [0, 0, 0, 0]]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == len(actions)
    mask = np.asarray(state.action_mask).copy()
    mask[1, FORWARD] = False
    state = state.replace(action_mask=mask)
    assert jr.run_from_state(TASK, reference, state, encode(state), [[0, FORWARD, 0, 0]] * 2, shared=SHARED) == 2


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = delivery_state(reference)
    actions = [[FORWARD] * A, [0] * A]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 2
    blob = jr.patched(encode(state), len(encode(state)) - 4, b"\x01\x00\x00\x00")  # another State key
    jr.check_caught(TASK, reference, state, blob, actions, match="agents_view", shared=SHARED)
    blob = jr.patched(encode(state), AGENTS_AT + 4 * 3 * A, np.int32(0).tobytes())  # robot 0 not carrying
    jr.check_caught(TASK, reference, state, blob, actions, shared=SHARED)


def test_saved_state_plays_on_the_same() -> None:
    """A state saved mid-episode and put into another env plays on exactly as the original (the family test's
    check, with per-agent rewards and flags)."""
    jr.check_copied_state_plays_on(TASK, warmup=5, steps=30)


def test_bad_state_blobs_are_refused() -> None:
    good = jr.reset_state(TASK)
    queue = np.frombuffer(good[QUEUE_AT:QUEUE_AT + 4 * Q], "<i4")
    bad = {
        r"grid \(shelves\)": jr.patched(good, GRID_AT, np.int32(S + 1).tobytes()),
        r"grid \(agents\)": jr.patched(good, GRID_AT + 4 * H * W, np.int32(A + 1).tobytes()),
        "agents.position.x": jr.patched(good, AGENTS_AT, np.int32(H).tobytes()),
        "agents.position.y": jr.patched(good, AGENTS_AT + 4 * A, np.int32(-1).tobytes()),
        "agents.direction": jr.patched(good, AGENTS_AT + 8 * A, np.int32(4).tobytes()),
        "agents.is_carrying": jr.patched(good, AGENTS_AT + 12 * A, np.int32(2).tobytes()),
        "shelves.position.x": jr.patched(good, SHELVES_AT, np.int32(-1).tobytes()),
        "shelves.position.y": jr.patched(good, SHELVES_AT + 4 * S, np.int32(W).tobytes()),
        "shelves.is_requested": jr.patched(good, REQUESTED_AT, b"\x02"),
        "request_queue is": jr.patched(good, QUEUE_AT, np.int32(S).tobytes()),
        "request_queue repeats": jr.patched(good, QUEUE_AT, np.int32(queue[1]).tobytes()),
        "step_count": jr.patched(good, STEP_COUNT_AT, np.int32(-1).tobytes()),
        "action_mask": jr.patched(good, MASK_AT, b"\x03"),
        "key": good[:-1],
        "RobotWarehouse": good + b"\0",
    }
    jr.check_refused_blobs(TASK, good, bad)


def test_bad_options_are_refused() -> None:
    jr.check_refused_options(TASK, {
        "shelf_columns": dict(shelf_columns=2),
        "sensor_range": dict(sensor_range=0),
        "shelves": dict(shelf_rows=1, shelf_columns=1, column_height=3),
        "request_queue_size": dict(request_queue_size=80),
    })


def _options_reference(shelf_rows: int, shelf_columns: int, column_height: int, num_agents: int,
                       sensor_range: int, request_queue_size: int) -> tuple[jr.Reference, dict[str, Any]]:
    from jumanji.environments.routing.robot_warehouse.generator import RandomGenerator

    options = dict(shelf_rows=shelf_rows, shelf_columns=shelf_columns, column_height=column_height,
                   num_agents=num_agents, sensor_range=sensor_range, request_queue_size=request_queue_size)
    return ref(generator=RandomGenerator(**options), time_limit=60), dict(options, time_limit=60)


def test_other_sizes() -> None:
    """A small warehouse, crowded, with a wider sensor range, a short time limit."""
    reference, options = _options_reference(1, 3, 3, 6, 2, 2)
    stats = jr.lockstep(TASK, reference, seed=9, num_envs=3, steps=120, policy=drive_policy, shared=SHARED,
                        max_episode_steps=60, **options)
    assert stats.episodes >= 3


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = jr.lockstep(TASK, ref(), seed=seed * 1000, num_envs=8, steps=500, policy=drive_policy, shared=SHARED)
    assert stats.episodes >= 8


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("sizes", [(1, 3, 4, 2, 1, 4), (3, 5, 2, 8, 3, 10)])
def test_other_sizes_full(sizes: tuple[int, int, int, int, int, int]) -> None:
    reference, options = _options_reference(*sizes)
    stats = jr.lockstep(TASK, reference, seed=sum(sizes), num_envs=4, steps=130, policy=drive_policy,
                        shared=SHARED, max_episode_steps=60, **options)
    assert stats.episodes >= 4


@pytest.mark.skipif(not FULL, reason="full lane")
def test_deliveries_full() -> None:
    """Many delivery states (new requests drawn over and over), random actions after them."""
    reference = ref()
    rng = np.random.default_rng(11)
    steps = 0
    for seed in range(10):
        state = delivery_state(reference, seed=seed, step_count=int(rng.integers(0, 400)))
        actions = [[FORWARD] * A] + rng.integers(0, 5, (30, A)).tolist()
        steps += jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED)
    assert steps >= 60
