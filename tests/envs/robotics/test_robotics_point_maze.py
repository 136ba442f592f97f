"""PointMaze tasks against gymnasium-robotics 1.4.2's own PointMazeEnv (the reference), step by step.

Both start each episode from the same draws (``robotics_reference.use_generator``) and take the same float32
actions from a policy that steers the ball at its goal, so goals are reached: sparse rewards of 1, successes,
terminations (``continuing_task=False``) and new goals drawn inside a step (``reset_target=True``) are all
compared. Both run the same libmujoco on the same generated model, so observations agree bit for bit; dense
rewards (``exp(-d)``) within 1e-12, numpy's exp and C's rounding their last bit apart.

The default run covers one id per maze size and the options; ``RLPOOL_FULL_REFERENCE=1`` runs all 20 ids.
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

MAZE_IDS = [t for t in list_all_envs() if task(t).env_type == "PointMaze"]
SAMPLE = ["PointMaze_UMaze-v3", "PointMaze_OpenDense-v3", "PointMaze_Medium_Diverse_GR-v3", "PointMaze_LargeDense-v3"]
TOL = 1e-12


def steer(obs: dict, rng: np.random.Generator) -> np.ndarray:
    """Towards the goal, damped, with some noise; entries beyond [-1, 1] are clipped by the env."""
    ball, velocity = obs["achieved_goal"], obs["observation"][2:]
    return 1.5 * (obs["desired_goal"] - ball) - 0.3 * velocity + rng.uniform(-0.4, 0.4, size=2)


def lockstep(task_id: str, seed: int, **kwargs: Any) -> dict[str, int]:
    return robotics_reference.lockstep(task_id, task_id, seed, steer, tol=TOL, **kwargs)


@pytest.mark.parametrize("task_id", MAZE_IDS if FULL else SAMPLE)
def test_same_trajectories_as_gymnasium_robotics(task_id: str) -> None:
    seen = lockstep(task_id, seed=4, steps=150)
    assert seen["steps"] == 300


def test_goals_are_reached_and_move() -> None:
    """reset_target: a reached goal is drawn anew inside the step (the draws of both sides stay in step)."""
    seen = lockstep("PointMaze_Open_Diverse_G-v3", seed=2, episodes=1, steps=300, reset_target=True)
    assert seen["successes"] >= 3


def test_terminates_at_the_goal_when_not_continuing() -> None:
    seen = lockstep("PointMaze_UMazeDense-v3", seed=1, episodes=3, steps=300, continuing_task=False)
    assert seen["terminations"] == 3


def test_a_maze_of_ones_own() -> None:
    """maze_map as a list of rows with start, goal and either cells, as gymnasium-robotics takes it."""
    maze = [[1, 1, 1, 1, 1], [1, "r", 0, "c", 1], [1, 1, 0, 1, 1], [1, "g", 0, "c", 1], [1, 1, 1, 1, 1]]
    seen = lockstep("PointMaze_UMaze-v3", seed=7, episodes=3, steps=120, maze_map=maze)
    assert seen["steps"] > 100
    assert rlpool.make_spec("PointMaze_UMaze-v3", maze_map=maze).config["maze_map"] == (
        "1 1 1 1 1/1 r 0 c 1/1 1 0 1 1/1 g 0 c 1/1 1 1 1 1"
    )


def test_the_comparison_can_fail() -> None:
    with pytest.raises(AssertionError):
        lockstep("PointMaze_UMaze-v3", seed=1, episodes=1, steps=5, flip=2)


def test_twenty_ids() -> None:
    assert len(MAZE_IDS) == 20


@pytest.mark.parametrize("task_id", ["PointMaze_UMaze-v3", "PointMaze_Large_Diverse_GRDense-v3"])
def test_spaces_match_gymnasium_robotics(task_id: str) -> None:
    assert_spaces_like_reference(task_id)


@pytest.mark.parametrize("reward_type", ["sparse", "dense"])
def test_compute_reward_matches_for_batches(reward_type: str) -> None:
    env = rlpool.make("PointMaze_Open-v3", num_envs=2, seed=0, reward_type=reward_type, continuing_task=False)
    ref = reference("PointMaze_Open-v3", reward_type=reward_type, continuing_task=False)
    rng = np.random.default_rng(0)
    achieved = rng.uniform(-2, 2, (6, 2, 2))
    desired = achieved + rng.normal(0, 0.4, achieved.shape)
    ours = env.compute_reward(achieved, desired, {})
    np.testing.assert_allclose(ours, ref.unwrapped.compute_reward(achieved, desired, {}), rtol=TOL)
    assert ours.shape == (6, 2)
    # gymnasium-robotics' compute_terminated takes one goal at a time (a batch gets one norm of it all).
    ended = env.compute_terminated(achieved, desired, {})
    for i in np.ndindex(6, 2):
        assert ended[i] == ref.unwrapped.compute_terminated(achieved[i], desired[i], {})
    env.close()
    ref.close()


@pytest.mark.parametrize(
    ("maze_map", "match"),
    [
        ("NO_SUCH_MAZE", "gymnasium-robotics' maps"),
        ([[1, 1], [1, 2]], r"maze_map\[1\]\[1\]"),
        ([[1, 1, 1], [1, 0]], "same length"),
        ([[1, 1, 1], [1, "g", 1], [1, 1, 1]], "start"),
        ([], "non-empty"),
    ],
)
def test_bad_mazes_are_refused(maze_map: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        rlpool.make_spec("PointMaze_UMaze-v3", maze_map=maze_map)


def test_state_round_trip_continues_exactly() -> None:
    """Goals drawn inside steps come from the env's own generator, which the state carries."""
    a = rlpool.make("PointMaze_Open_Diverse_G-v3", num_envs=1, seed=5, reset_target=True)
    b = rlpool.make("PointMaze_Open_Diverse_G-v3", num_envs=1, seed=6, reset_target=True)
    obs, _ = a.reset()
    b.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs = a.step(steer({k: v[0] for k, v in obs.items()}, rng)[None].astype(np.float32))[0]
    b.set_state(0, a.get_state(0))
    for _ in range(150):
        act = steer({k: v[0] for k, v in obs.items()}, rng)[None].astype(np.float32)
        obs = a.step(act)[0]
        other = b.step(act)[0]
        for key in obs:
            np.testing.assert_array_equal(obs[key], other[key])
