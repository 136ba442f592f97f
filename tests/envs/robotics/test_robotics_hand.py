"""Shadow Hand tasks against gymnasium-robotics 1.4.2's own hand envs (the reference), step by step.

Both start each episode from the same draws (``robotics_reference.use_generator``), including the
manipulation resets that gymnasium-robotics draws again when the object falls off the palm while it settles,
and take the same float32 actions (uniform in [-1.3, 1.3]: a quarter of the entries clipped). Both run the
same libmujoco on the same model file, so everything agrees within 1e-9. Resets of the manipulation tasks
carry MuJoCo's warm start over from the last episode (no ``mj_resetData``), as gymnasium-robotics' do; two
episodes in a row check that too. EnvPool's ``-v0`` ids run the current envs, as in EnvPool.

Rewards and successes of reached goals are checked through ``compute_reward`` against gymnasium-robotics'
on goals near each other; the default run steps one id per env type and reward; ``RLPOOL_FULL_REFERENCE=1``
all 112.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import robotics_reference
from lane import FULL
from robotics_reference import assert_spaces_like_reference, reference

import rlpool
from rlpool.registry import list_all_envs, task

HAND_IDS = [t for t in list_all_envs() if task(t).env_type.startswith("Hand")]
SAMPLE = [
    "HandReach-v3",
    "HandReachDense-v0",
    "HandManipulateBlockRotateParallel_BooleanTouchSensors-v1",
    "HandManipulateEggDense-v1",
    "HandManipulatePenRotate_ContinuousTouchSensorsDense-v0",
]


def gymnasium_id(task_id: str) -> str:
    return task(task_id).gymnasium_id or task_id


def random_actions(obs: dict, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-1.3, 1.3, size=20)


def lockstep(task_id: str, seed: int, **kwargs: Any) -> dict[str, int]:
    return robotics_reference.lockstep(task_id, gymnasium_id(task_id), seed, random_actions, **kwargs)


@pytest.mark.parametrize("task_id", HAND_IDS if FULL else SAMPLE)
def test_same_trajectories_as_gymnasium_robotics(task_id: str) -> None:
    assert lockstep(task_id, seed=3, steps=20)["steps"] == 40


def test_the_comparison_can_fail() -> None:
    with pytest.raises(AssertionError):
        lockstep("HandManipulateBlock-v1", seed=1, episodes=1, steps=5, flip=2)


def test_every_id() -> None:
    """EnvPool's 112 hand ids: HandReach, and 27 manipulation variants, sparse and Dense, -v0 (as the current
    version) and the current one."""
    assert len(HAND_IDS) == 112
    for t in HAND_IDS:
        assert task(t).max_episode_steps == (50 if t.startswith("HandReach") else 100)


@pytest.mark.parametrize(
    "task_id", ["HandReach-v3", "HandManipulateBlockRotateZ-v1", "HandManipulateEgg_BooleanTouchSensors-v1"]
)
def test_spaces_match_gymnasium_robotics(task_id: str) -> None:
    assert_spaces_like_reference(task_id)


@pytest.mark.parametrize(
    "task_id",
    ["HandReach-v3", "HandManipulateBlock-v1", "HandManipulateBlockRotateZDense-v1", "HandManipulatePen-v1",
     "HandManipulatePenDense-v1", "HandManipulateEggRotate-v1"],
)
def test_compute_reward_matches_for_batches(task_id: str) -> None:
    """Goals near the achieved ones (so that some are reached), one at a time against gymnasium-robotics (its
    batched Pen reward sets the wrong axis), and the step's own reward."""
    env = rlpool.make(task_id, num_envs=2, seed=0)
    ref = reference(task_id).unwrapped
    obs, _ = env.reset()
    obs, reward, _, _, info = env.step(np.zeros((2, 20), np.float32))
    np.testing.assert_array_equal(env.compute_reward(obs["achieved_goal"], obs["desired_goal"], info), reward)
    rng = np.random.default_rng(0)
    achieved = np.repeat(obs["achieved_goal"], 20, axis=0)
    desired = achieved + rng.normal(0, 0.01, achieved.shape) * rng.uniform(0, 2, (len(achieved), 1))
    ours = env.compute_reward(achieved, desired, {})
    theirs = np.array([ref.compute_reward(a, d, {}) for a, d in zip(achieved, desired, strict=True)])
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    if "Dense" not in task_id:
        assert 0 < np.count_nonzero(ours == 0) < len(ours), "some goals reached, some not"
    env.close()


def test_touch_observations() -> None:
    """The 92 touch sensors: read as they are, as 0/1, or as log(x + 1) (an option of the touch tasks)."""
    readings = {}
    for get in ("sensordata", "boolean", "log"):
        env = rlpool.make("HandManipulateBlock_ContinuousTouchSensors-v1", num_envs=1, seed=2, touch_get_obs=get)
        env.reset()
        for _ in range(5):
            obs = env.step(np.full((1, 20), 0.8, np.float32))[0]
        readings[get] = obs["observation"][0, 61:]
        env.close()
    raw = readings["sensordata"]
    assert raw.shape == (92,) and (raw > 0).any()
    np.testing.assert_array_equal(readings["boolean"], (raw > 0).astype(float))
    np.testing.assert_allclose(readings["log"], np.log(raw + 1.0))


def test_state_round_trip_continues_exactly() -> None:
    a = rlpool.make("HandManipulateEgg-v1", num_envs=1, seed=5)
    b = rlpool.make("HandManipulateEgg-v1", num_envs=1, seed=6)
    a.reset()
    b.reset()
    actions = np.random.default_rng(2).uniform(-1, 1, (10, 1, 20)).astype(np.float32)
    for act in actions[:4]:
        a.step(act)
    b.set_state(0, a.get_state(0))
    for act in actions[4:]:
        oa, ob = a.step(act)[0], b.step(act)[0]
        for key in oa:
            np.testing.assert_array_equal(oa[key], ob[key])


@pytest.mark.parametrize(
    ("option", "value"),
    [("target_rotation", "spin"), ("target_position", "near"), ("touch_get_obs", "on"), ("reward_type", "x")],
)
def test_bad_options_are_refused(option: str, value: str) -> None:
    with pytest.raises(ValueError, match=option):
        rlpool.make_spec("HandManipulateBlock-v1", **{option: value})
