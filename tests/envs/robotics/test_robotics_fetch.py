"""Fetch tasks against gymnasium-robotics 1.4.2's own Fetch envs (the reference), step by step.

rlpool's env and the reference start from the same draws (``robotics_reference.use_generator``: the
reference's ``np_random`` is replaced by a copy of rlpool's generator, seeded from rlpool's saved state),
then take the same float32 actions, some outside [-1, 1] to test the clip. Both run the same libmujoco on
the same model file with the same calls, so positions agree to the last bit; the velocities in the
observation are a Jacobian times qvel, summed in another order than numpy's, so everything is compared
within 1e-9. EnvPool's ``-v1`` ids run the current (``-v4``) envs, as in EnvPool.

The default run covers one id per task (sparse and dense, both versions among them) for two episodes;
``RLPOOL_FULL_REFERENCE=1`` runs all 16 ids.
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

FETCH_IDS = [t for t in list_all_envs() if task(t).env_type.startswith("Fetch")]
SAMPLE = ["FetchReach-v4", "FetchPushDense-v4", "FetchSlide-v1", "FetchPickAndPlace-v4"]


def gymnasium_id(task_id: str) -> str:
    return task(task_id).gymnasium_id or task_id


def random_actions(obs: dict, rng: np.random.Generator) -> np.ndarray:
    """The gripper driven towards the goal, plus noise uniform in [-0.6, 0.6]; many entries are clipped.

    FetchReach reaches its goals so (successes and zero rewards are compared too).
    """
    towards = np.clip(20 * (obs["desired_goal"] - obs["observation"][:3]), -1.2, 1.2)
    return np.append(towards, 0.0) + rng.uniform(-0.6, 0.6, size=4)


def lockstep(task_id: str, seed: int, **kwargs: Any) -> dict[str, int]:
    return robotics_reference.lockstep(task_id, gymnasium_id(task_id), seed, random_actions, **kwargs)


@pytest.mark.parametrize("task_id", FETCH_IDS if FULL else SAMPLE)
def test_same_trajectories_as_gymnasium_robotics(task_id: str) -> None:
    seen = lockstep(task_id, seed=3)
    assert seen["steps"] == 60
    if task(task_id).env_type == "FetchReach":
        assert seen["successes"] > 5


def test_the_comparison_can_fail() -> None:
    with pytest.raises(AssertionError):
        lockstep("FetchPickAndPlace-v4", seed=1, episodes=1, steps=5, flip=2)


def test_all_sixteen_ids() -> None:
    """EnvPool's 16 Fetch ids: sparse and Dense, -v1 (as -v4) and -v4, of the four tasks."""
    assert len(FETCH_IDS) == 16
    for t in FETCH_IDS:
        assert task(t).max_episode_steps == 50
        assert task(t).env_defaults["reward_type"] == ("dense" if "Dense" in t else "sparse")


@pytest.mark.parametrize("task_id", SAMPLE)
def test_spaces_match_gymnasium_robotics(task_id: str) -> None:
    spec = assert_spaces_like_reference(task_id, gymnasium_id(task_id))
    assert spec.reward_threshold is None


@pytest.mark.parametrize("task_id", ["FetchPush-v4", "FetchReachDense-v4"])
def test_compute_reward_matches_for_batches(task_id: str) -> None:
    """``compute_reward`` on a batch of goals (as HER relabels) is gymnasium-robotics' and the step's reward."""
    env = rlpool.make(task_id, num_envs=3, seed=0)
    ref = reference(gymnasium_id(task_id))
    obs, _ = env.reset()
    rewards = []
    achieved, desired = [], []
    for _ in range(5):
        obs, reward, _, _, info = env.step(np.random.default_rng(0).uniform(-1, 1, (3, 4)).astype(np.float32))
        np.testing.assert_array_equal(env.compute_reward(obs["achieved_goal"], obs["desired_goal"], info), reward)
        rewards.append(reward)
        achieved.append(obs["achieved_goal"])
        desired.append(obs["desired_goal"])
    ag, dg = np.array(achieved), np.array(desired)
    relabelled = dg + np.random.default_rng(1).normal(0, 0.05, dg.shape)
    ours = env.compute_reward(ag, relabelled, {})
    theirs = ref.unwrapped.compute_reward(ag, relabelled, {})
    assert ours.shape == (5, 3) and ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    (called,) = env.call("compute_reward", ag[0], dg[0], {})[:1]
    np.testing.assert_array_equal(called, rewards[0])
    assert env.compute_terminated(ag, dg, {}).shape == (5, 3)
    env.close()
    ref.close()


def test_state_round_trip_continues_exactly() -> None:
    """A state saved mid-episode (PickAndPlace: the mocap follows the gripper's pose of the last step) continues
    bit for bit, in another env too."""
    a = rlpool.make("FetchPickAndPlace-v4", num_envs=1, seed=5)
    b = rlpool.make("FetchPickAndPlace-v4", num_envs=1, seed=9)
    a.reset()
    b.reset()
    actions = np.random.default_rng(2).uniform(-1, 1, (12, 1, 4)).astype(np.float32)
    for act in actions[:6]:
        a.step(act)
    b.set_state(0, a.get_state(0))
    for act in actions[6:]:
        oa = a.step(act)[0]
        ob = b.step(act)[0]
        for key in oa:
            np.testing.assert_array_equal(oa[key], ob[key])
    with pytest.raises(ValueError, match="FetchPickAndPlace"):
        rlpool.make("FetchPush-v4", num_envs=1).set_state(0, a.get_state(0))


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="reward_type"):
        rlpool.make_spec("FetchReach-v4", reward_type="shaped")
    with pytest.raises(ValueError, match="obj_range"):
        rlpool.make_spec("FetchPush-v4", obj_range=0.01)
