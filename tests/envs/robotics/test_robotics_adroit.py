"""Adroit tasks against gymnasium-robotics 1.4.2's own Adroit envs (the reference), step by step.

Both start each episode from the same draws (``robotics_reference.use_generator``): the door, the nail board,
the pen's target or the ball and its target placed alike, in each env's own view of the model. Both run the
same libmujoco on the same model with the same actuator gains, under the same float32 actions (a quarter of
the entries clipped), so observations and success agree bit for bit and rewards within 1e-9 (sums taken in
another order). The dense rewards are gymnasium-robotics 1.4.2's (which changed them in 1.2.1 without a new
version, and EnvPool follows). All 8 ids run in the default lane: they are quick.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import robotics_reference
from robotics_reference import assert_spaces_like_reference

import rlpool
from rlpool.registry import list_all_envs, task

ADROIT_IDS = [t for t in list_all_envs() if task(t).env_type.startswith("AdroitHand")]


def random_actions(obs: Any, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-1.3, 1.3, size=30)


def lockstep(task_id: str, seed: int, **kwargs: Any) -> dict[str, int]:
    size = rlpool.make_spec(task_id).action_space.shape[0]
    return robotics_reference.lockstep(
        task_id, task_id, seed, lambda obs, rng: random_actions(obs, rng)[:size], **kwargs
    )


@pytest.mark.parametrize("task_id", ADROIT_IDS)
def test_same_trajectories_as_gymnasium_robotics(task_id: str) -> None:
    assert lockstep(task_id, seed=3, steps=25)["steps"] == 50


def test_the_comparison_can_fail() -> None:
    with pytest.raises(AssertionError):
        lockstep("AdroitHandRelocate-v1", seed=1, episodes=1, steps=5, flip=2)


def test_eight_ids() -> None:
    assert len(ADROIT_IDS) == 8


@pytest.mark.parametrize("task_id", ADROIT_IDS[::2])
def test_spaces_match_gymnasium_robotics(task_id: str) -> None:
    assert assert_spaces_like_reference(task_id).max_episode_steps == 200


def test_each_env_moves_its_own_model() -> None:
    """The door of each env is where that env's draws put it: resets of one env leave the others' alone."""
    env = rlpool.make("AdroitHandDoor-v1", num_envs=3, seed=0)
    obs, _ = env.reset()
    handles = obs[:, 30:33].copy()
    assert len({tuple(h) for h in np.round(handles, 9)}) == 3
    single = rlpool.make("AdroitHandDoor-v1", num_envs=1, seed=0)
    np.testing.assert_array_equal(single.reset()[0][0], obs[0])
    env.close()
    single.close()


def test_state_round_trip_continues_exactly() -> None:
    """A state carries the env's moved model parts (here the pen's target) and the pen's lengths."""
    a = rlpool.make("AdroitHandPen-v1", num_envs=1, seed=5)
    b = rlpool.make("AdroitHandPen-v1", num_envs=1, seed=6)
    a.reset()
    b.reset()
    actions = np.random.default_rng(2).uniform(-1, 1, (10, 1, 24)).astype(np.float32)
    for act in actions[:4]:
        a.step(act)
    b.set_state(0, a.get_state(0))
    for act in actions[4:]:
        oa, ra = a.step(act)[:2]
        ob, rb = b.step(act)[:2]
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ra, rb)
