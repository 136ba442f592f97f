"""GraphColoring-v1 beside jumanji 1.1.2's GraphColoring, bit for bit: whole episodes, states, bad states.

The default lane steps a few envs over whole episodes (legal colors, sometimes any color, which may end an
episode with the -num_nodes penalty) and plays from jumanji states with the last node left and with an
illegal color; a state with one field changed must make the comparison fail. The full lane adds seeds,
steps, other graph sizes and edge probabilities.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

import rlpool  # noqa: E402

TASK = "GraphColoring-v1"

# The engine's time limit flags `truncated` on the step that reaches it, terminating or not (gymnasium's
# TimeLimit does the same), while jumanji's TimeStep on the last node's step is a termination only. An
# episode of n nodes ends by termination on step n at the latest, which is the registered limit (EnvPool's
# 20) for the default size; the comparisons with jumanji's flags run with a limit past the longest episode.
PAST_THE_END = 100_001


def blob_of(state: Any, env_key: tuple[int, int] = (0, 7)) -> bytes:
    """jumanji's GraphColoring ``State`` as the env's state bytes: the env's key, then the State's fields."""
    return jr.state_blob(env_key, (state.adj_matrix, "u1"), (state.colors, "<i4"), (state.current_node_index, "<i4"),
                         (state.action_mask, "u1"), (state.key, "key"))


# Mostly a legal color; one time in 10 any color (an illegal one ends the episode).
sometimes_any_color = jr.sometimes_any(0.1)


def played(ref: jr.Reference, key: Any, steps: int, rng: np.random.Generator) -> Any:
    """jumanji's state after ``steps`` legal colors (random) from ``reset(key)``."""
    state, _ = ref.reset(key)
    for _ in range(steps):
        state, _ = ref.step(state, np.asarray(rng.choice(np.flatnonzero(np.asarray(state.action_mask)))))
    return state


def test_episodes_match_jumanji() -> None:
    stats = jr.lockstep(TASK, jr.Reference(TASK), seed=3, num_envs=4, steps=100, policy=sometimes_any_color,
                        max_episode_steps=PAST_THE_END)
    assert stats.episodes >= 10 and stats.truncations == 0


def test_registered_limit_ends_the_last_node_as_terminated() -> None:
    """With the registered limit, the last node's step is terminated (and, by the limit, truncated)."""
    steps = jr.played_steps(TASK, jr.random_masked_actions, 20, seed=1, num_envs=2)
    for t, _, reward, terminated, truncated, _ in steps:
        assert terminated.all() == (t == 19) and truncated.all() == (t == 19)
        assert (reward < 0).all() == (t == 19)


def test_last_node_and_illegal_colors_match_jumanji() -> None:
    import jax

    ref = jr.Reference(TASK)
    rng = np.random.default_rng(0)
    state = played(ref, jax.random.PRNGKey(8), 19, rng)
    for color in range(20):  # every color for the last node: legal ones count colors, illegal ones -20
        assert jr.run_from_state(TASK, ref, state, blob_of(state), [color], max_episode_steps=PAST_THE_END) == 1
    state = played(ref, jax.random.PRNGKey(9), 7, rng)
    illegal = int(np.flatnonzero(~np.asarray(state.action_mask))[0])
    assert jr.run_from_state(TASK, ref, state, blob_of(state), [illegal], max_episode_steps=PAST_THE_END) == 1


def test_a_planted_difference_is_caught() -> None:
    import jax

    ref = jr.Reference(TASK)
    state = played(ref, jax.random.PRNGKey(10), 5, np.random.default_rng(2))
    actions = [int(np.flatnonzero(np.asarray(state.action_mask))[0])]
    blob = blob_of(state)
    illegal = jr.patched(blob, 8 + 400 + 80 + 4 + actions[0], b"\0")  # the color illegal in our copy: -20 and the end
    jr.check_caught(TASK, ref, state, illegal, actions, "reward", max_episode_steps=PAST_THE_END)
    elsewhere = jr.patched(blob, 8 + 400 + 80, b"\x06")  # the current node is another one: the color lands elsewhere
    jr.check_caught(TASK, ref, state, elsewhere, actions, "colors differs", max_episode_steps=PAST_THE_END)


@pytest.mark.parametrize(("offset", "value", "message"), [
    (8 + 17, 2, "adj_matrix entry is 2"),
    (8 + 400 + 4 * 3, 20, "colors entry is 20"),
    (8 + 400 + 4 * 3, -2, "colors entry is -2"),
    (8 + 480, 20, "current_node_index is 20"),
    (8 + 484 + 19, 3, "action_mask entry is 3"),
])
def test_bad_states_are_refused(offset: int, value: int, message: str) -> None:
    good = jr.reset_state(TASK)
    data = bytes([value]) if offset < 8 + 400 or offset >= 8 + 484 else np.int32(value).tobytes()
    jr.check_refused_blobs(TASK, good, {message: jr.patched(good, offset, data), "ends before its key": good[:-1]})


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="edge_probability"):
        rlpool.make(TASK, num_envs=1, edge_probability=1.0)
    with pytest.raises(ValueError, match="num_nodes"):
        rlpool.make(TASK, num_envs=1, num_nodes=0)


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize(("num_nodes", "p"), [(20, 0.8), (50, 0.5), (1, 0.5), (13, 0.999)])
def test_full_episodes_match_jumanji(num_nodes: int, p: float) -> None:
    from jumanji.environments.logic.graph_coloring.generator import RandomGenerator

    ref = jr.Reference(TASK) if (num_nodes, p) == (20, 0.8) else jr.Reference(
        TASK, {"generator": RandomGenerator(num_nodes=num_nodes, edge_probability=p)})
    seed = 0
    stats = jr.lockstep(TASK, ref, seed=100 * seed, num_envs=8, steps=200, policy=sometimes_any_color,
                        max_episode_steps=PAST_THE_END, num_nodes=num_nodes, edge_probability=p)
    assert stats.episodes > 0


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_last_nodes_match_jumanji() -> None:
    import jax

    ref = jr.Reference(TASK)
    rng = np.random.default_rng(3)
    for k in range(8):
        state = played(ref, jax.random.PRNGKey(300 + k), 19, rng)
        actions = [int(rng.integers(0, 20))]
        assert jr.run_from_state(TASK, ref, state, blob_of(state), actions, max_episode_steps=PAST_THE_END) == 1
