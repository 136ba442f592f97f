"""LevelBasedForaging-v0 (src/rlpool/envs/jumanji/level_based_foraging.cc) beside jumanji 1.1.2's
LevelBasedForaging, step by step, bit for bit.

Whole episodes from the same keys under a policy that walks the agents to the food and loads it (so that
food is eaten and episodes end both by termination and by the time limit), with random and illegal moves
mixed in (agents bump into walls, food and each other); jumanji's grid observer, other sizes, penalties and
unnormalised rewards; states a random policy rarely reaches put in with ``set_state`` (a food one loader
short, agents colliding, the last step before the time limit); a planted difference that the comparison
catches; and bad state blobs refused naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "LevelBasedForaging-v0"
SHARED = ("step_count",)
EXTRAS = ("percent_eaten",)
# (row, col) steps of the actions noop, up, down, left, right, load.
MOVES = np.array([[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1], [0, 0]])
A, F = 2, 2  # the default generator's agents and food
# Offsets into the default task's state blob: the env's key, then the agents' and the food's fields.
AGENT_POS_AT = 8 + 4 * A
AGENT_LEVEL_AT = AGENT_POS_AT + 8 * A
LOADING_AT = AGENT_LEVEL_AT + 4 * A
FOOD_ID_AT = LOADING_AT + A
FOOD_POS_AT = FOOD_ID_AT + 4 * F
FOOD_LEVEL_AT = FOOD_POS_AT + 8 * F
EATEN_AT = FOOD_LEVEL_AT + 4 * F
STEP_COUNT_AT = EATEN_AT + F


def ref(**kwargs: Any) -> jr.Reference:
    """jumanji's LevelBasedForaging-v0 (``kwargs`` for jumanji.make)."""
    return jr.Reference("LevelBasedForaging-v0", kwargs)


def forage_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per agent: load when it may (80%), else mostly a step towards the nearest visible food, sometimes a
    random legal action, 5% any action (an illegal move is a no-op in jumanji)."""
    views, masks = np.asarray(obs["agents_view"]), np.asarray(obs["action_mask"])
    num_envs, agents = masks.shape[:2]
    actions = np.zeros((num_envs, agents), np.int64)
    grid = views.ndim == 5
    for i in range(num_envs):
        for a in range(agents):
            mask, u = masks[i, a], rng.random()
            legal = np.flatnonzero(mask)
            if u < 0.05:
                actions[i, a] = rng.integers(6)
            elif mask[5] and u < 0.85:
                actions[i, a] = 5
            elif u < 0.75 and not grid:
                row = views[i, a]
                me = row[3 * (len(row) // 3 - agents):][:2]
                foods = [row[3 * f:3 * f + 2] for f in range(len(row) // 3 - agents) if row[3 * f + 2] > 0]
                if foods:
                    target = min(foods, key=lambda p: np.abs(p - me).sum())
                    dist = [np.abs(me + MOVES[m] - target).sum() for m in range(1, 5)]
                    actions[i, a] = 1 + int(np.argmin(dist))
                else:
                    actions[i, a] = rng.choice(legal)
            else:
                actions[i, a] = rng.choice(legal)
    return actions


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's LevelBasedForaging ``State`` as the env's state bytes: the env's key, then the .cc's layout."""
    ag, fd = state.agents, state.food_items
    return jr.state_blob(env_key, (ag.id, "<i4"), (ag.position, "<i4"), (ag.level, "<i4"), (ag.loading, "u1"),
                         (fd.id, "<i4"), (fd.position, "<i4"), (fd.level, "<i4"), (fd.eaten, "u1"),
                         (state.step_count, "<i4"), (state.key, "key"))


def made_state(reference: jr.Reference, agents: list[tuple[int, int, int]], food: list[tuple[int, int, int]],
               step_count: int = 0, eaten: list[bool] | None = None, seed: int = 1) -> Any:
    """A jumanji State with agents and food ``(row, col, level)`` (as many as the env has)."""
    import jax.numpy as jnp

    state, _ = reference.reset(jr.prng_key(seed))
    ag = state.agents.replace(position=jnp.asarray([p[:2] for p in agents], jnp.int32),
                              level=jnp.asarray([p[2] for p in agents], jnp.int32))
    fd = state.food_items.replace(position=jnp.asarray([p[:2] for p in food], jnp.int32),
                                  level=jnp.asarray([p[2] for p in food], jnp.int32),
                                  eaten=jnp.asarray(eaten or [False] * len(food), bool))
    return state.replace(agents=ag, food_items=fd, step_count=jnp.int32(step_count))


def test_lockstep_whole_episodes() -> None:
    stats, seen = jr.lockstep_extras(TASK, ref(), EXTRAS, seed=0, num_envs=4, steps=250, policy=forage_policy,
                                     shared=SHARED)
    assert stats.steps >= 900 and stats.episodes >= 8
    assert 0 < stats.truncations < stats.episodes  # food eaten, and time limits
    assert max(seen["percent_eaten"]) == 100.0


def test_random_actions() -> None:
    stats = jr.lockstep(TASK, ref(), seed=77, num_envs=3, steps=120, policy=jr.sometimes_any(0.3), shared=SHARED)
    assert stats.steps >= 300


def test_reset_keys() -> None:
    jr.check_reset_keys(TASK, ref(), 50, 123, SHARED)


@pytest.mark.skipif(not FULL, reason="full lane")
def test_reset_keys_full() -> None:
    jr.check_reset_keys(TASK, ref(), 1000, 1234, SHARED)


def test_saved_state_is_jumanjis_state() -> None:
    jr.check_saved_states(TASK, ref(), encode, seed=7, num_envs=3)


def test_loaders_one_short_then_enough() -> None:
    """Two agents next to a level-3 food: one loading alone (short), then both (eaten, reward split by level);
    an agent walking into another's target square collides and both stay."""
    reference = ref()
    state = made_state(reference, [(3, 2, 1), (3, 4, 2)], [(3, 3, 3), (6, 6, 3)])
    actions = [[5, 0], [0, 5], [5, 5], [4, 3], [2, 2], [4, 4], [2, 2], [1, 1]]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == len(actions)
    state = made_state(reference, [(2, 2, 1), (2, 4, 1)], [(5, 5, 2), (5, 1, 2)])
    actions = [[4, 3], [4, 3], [2, 0], [0, 1]]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == len(actions)


def test_last_food_and_the_time_limit() -> None:
    """Eating the last food ends the episode (a termination); at step_count 99 the next step truncates."""
    reference = ref()
    state = made_state(reference, [(3, 2, 2), (3, 4, 2)], [(3, 3, 4), (6, 6, 4)], eaten=[False, True])
    assert jr.run_from_state(TASK, reference, state, encode(state), [[5, 5], [0, 0]], shared=SHARED) == 1
    state = made_state(reference, [(3, 2, 2), (3, 4, 2)], [(3, 3, 4), (6, 6, 4)], step_count=98)
    assert jr.run_from_state(TASK, reference, state, encode(state), [[1, 1]] * 3, shared=SHARED) == 2


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = made_state(reference, [(3, 2, 2), (3, 4, 2)], [(3, 3, 4), (6, 6, 4)])
    actions = [[5, 5], [2, 2]]
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 2
    blob = jr.patched(encode(state), FOOD_LEVEL_AT, np.int32(5).tobytes())  # too heavy for the two of them
    jr.check_caught(TASK, reference, state, blob, actions, shared=SHARED)
    blob = jr.patched(encode(state), AGENT_POS_AT, np.asarray([4, 2], "<i4").tobytes())  # not next to the food
    jr.check_caught(TASK, reference, state, blob, actions, match="agents_view", shared=SHARED)


def test_saved_state_plays_on_the_same() -> None:
    """A state saved mid-episode and put into another env plays on exactly as the original (the family test's
    check, with per-agent rewards and flags)."""
    jr.check_copied_state_plays_on(TASK, warmup=5, steps=30)


def test_bad_state_blobs_are_refused() -> None:
    good = jr.reset_state(TASK)
    bad = {
        "agents.id": jr.patched(good, 8, np.int32(1).tobytes()),
        "agents.position": jr.patched(good, AGENT_POS_AT + 4, np.int32(8).tobytes()),
        "agents.level": jr.patched(good, AGENT_LEVEL_AT, np.int32(-1).tobytes()),
        "agents.loading": jr.patched(good, LOADING_AT, b"\x02"),
        "food_items.id": jr.patched(good, FOOD_ID_AT + 4, np.int32(0).tobytes()),
        "food_items.position": jr.patched(good, FOOD_POS_AT, np.int32(-1).tobytes()),
        "food_items.level": jr.patched(good, FOOD_LEVEL_AT, np.int32(-3).tobytes()),
        "food_items.eaten": jr.patched(good, EATEN_AT + 1, b"\x07"),
        "step_count": jr.patched(good, STEP_COUNT_AT, np.int32(-1).tobytes()),
        "key": good[:-1],
        "LevelBasedForaging": good + b"\0",
    }
    jr.check_refused_blobs(TASK, good, bad)


def test_bad_options_are_refused() -> None:
    jr.check_refused_options(TASK, {
        "grid_size": dict(grid_size=4),
        "fov": dict(fov=9),
        "num_food": dict(grid_size=6, fov=6, num_food=3),
    })


def _options_reference(grid_size: int, fov: int, num_agents: int, num_food: int, max_agent_level: int,
                       force_coop: bool, **env: Any) -> tuple[jr.Reference, dict[str, Any]]:
    from jumanji.environments.routing.lbf.generator import RandomGenerator

    generator = RandomGenerator(grid_size=grid_size, fov=fov, num_agents=num_agents, num_food=num_food,
                                max_agent_level=max_agent_level, force_coop=force_coop)
    options = dict(grid_size=grid_size, fov=fov, num_agents=num_agents, num_food=num_food,
                   max_agent_level=max_agent_level, force_coop=force_coop, **env)
    return ref(generator=generator, **env), options


def test_grid_observation_and_other_options() -> None:
    reference, options = _options_reference(7, 2, 3, 2, 3, False, grid_observation=True, penalty=0.25,
                                             time_limit=60)
    stats = jr.lockstep(TASK, reference, seed=3, num_envs=3, steps=130, policy=forage_policy, shared=SHARED,
                        max_episode_steps=60, **options)
    assert stats.episodes >= 3


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats, _ = jr.lockstep_extras(TASK, ref(), EXTRAS, seed=seed * 1000, num_envs=8, steps=300,
                                  policy=forage_policy, shared=SHARED)
    assert stats.episodes >= 20


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("sizes", "env"), [
    ((10, 3, 4, 3, 2, True), {}),
    ((12, 12, 3, 4, 4, False), {"normalize_reward": False, "penalty": 0.5}),
    ((6, 1, 1, 1, 5, False), {"grid_observation": True}),
    ((9, 4, 5, 2, 2, True), {"grid_observation": True, "penalty": 1.0, "time_limit": 40}),
])
def test_other_options(sizes: tuple[int, int, int, int, int, bool], env: dict[str, Any]) -> None:
    reference, options = _options_reference(*sizes, **env)
    stats, _ = jr.lockstep_extras(TASK, reference, EXTRAS, seed=sum(sizes), num_envs=4, steps=300,
                                  policy=forage_policy, shared=SHARED,
                                  max_episode_steps=env.get("time_limit", 100), **options)
    assert stats.episodes >= 4


@pytest.mark.skipif(not FULL, reason="full lane")
def test_random_states_full() -> None:
    """States a random policy rarely reaches: agents packed around the food, levels and eaten flags drawn."""
    reference = ref()
    rng = np.random.default_rng(5)
    steps = 0
    for _ in range(15):
        squares = rng.choice(36, 4, replace=False)
        spots = [(1 + s // 6, 1 + s % 6) for s in squares]
        agents = [(*spots[0], int(rng.integers(1, 4))), (*spots[1], int(rng.integers(1, 4)))]
        food = [(*spots[2], int(rng.integers(1, 6))), (*spots[3], int(rng.integers(1, 6)))]
        state = made_state(reference, agents, food, step_count=int(rng.integers(0, 99)),
                           eaten=[bool(rng.random() < 0.3), False])
        actions = rng.integers(0, 6, (30, 2)).tolist()
        steps += jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED)
    assert steps >= 75
