"""Gymnasium-Robotics frames: libmujoco's renderer in OSMesa, against gymnasium-robotics' own frames.

Both draw with the same library through the same off-screen OpenGL (``MUJOCO_GL=osmesa``, set in conftest),
from the same state (the same draws: ``robotics_reference.use_generator``), so the frames are expected to be
equal pixel for pixel; ``MAX_DIFFERENT`` only allows for a driver that rasterises an edge differently. The
goal markers (Fetch's target, the hand's target object and fingertip targets, the maze's target) and the touch
sensors' colours are drawn as gymnasium-robotics draws them, but without its side effect: its render moves the
model's markers and runs ``mj_forward``, which changes the next step of FetchPickAndPlace (its mocap follows
the gripper's pose as the last step left it). So each reference frame is taken after the steps, and rlpool's
trajectory is checked to be the same with and without frames. The default run draws five env types' frames,
``RLPOOL_FULL_REFERENCE=1`` all fourteen.
"""

from __future__ import annotations

import numpy as np
import pytest
from lane import FULL, osmesa_missing, require
from robotics_reference import reference, start_words, use_generator

import rlpool
from rlpool.registry import task

MAX_DIFFERENT = 0.001
SIZE = (160, 120)
ONE_PER_ENV_TYPE = [
    "FetchReach-v4", "FetchPush-v1", "FetchSlide-v4", "FetchPickAndPlace-v4", "HandReach-v3",
    "HandManipulateBlockRotateXYZ_ContinuousTouchSensors-v1", "HandManipulateEgg-v1",
    "HandManipulatePen_BooleanTouchSensors-v1", "AdroitHandDoor-v1", "AdroitHandHammer-v1", "AdroitHandPen-v1",
    "AdroitHandRelocate-v1", "PointMaze_Medium_Diverse_GR-v3", "FrankaKitchen-v1",
]
SAMPLE = ["FetchPickAndPlace-v4", "HandReach-v3", "HandManipulatePen_BooleanTouchSensors-v1", "AdroitHandRelocate-v1",
          "PointMaze_Medium_Diverse_GR-v3"]


@pytest.fixture(autouse=True)
def _gl() -> None:
    require(osmesa_missing())


def assert_same_frame(ours: np.ndarray, ref: np.ndarray, where: str) -> None:
    assert ours.shape == ref.shape and ours.dtype == ref.dtype == np.uint8, (where, ours.shape, ref.shape)
    different = float((ours != ref).any(axis=-1).mean())
    assert different <= MAX_DIFFERENT, f"{where}: {different:.2%} of the pixels differ from the reference"
    assert ours.std() > 1.0, f"{where}: a blank frame"


@pytest.mark.parametrize("task_id", ONE_PER_ENV_TYPE if FULL else SAMPLE)
def test_frames_equal_gymnasium_robotics(task_id: str) -> None:
    width, height = SIZE
    env = rlpool.make(task_id, num_envs=1, seed=3, render_mode="rgb_array", render_width=width, render_height=height)
    ref = reference(task(task_id).gymnasium_id or task_id, render_mode="rgb_array", width=width, height=height)
    env.reset()
    use_generator(ref, start_words(env.get_state(0)))
    ref.reset()
    assert_same_frame(env.render()[0], ref.render(), f"{task_id} after reset")
    actions = np.random.default_rng(0).uniform(-1, 1, (3, *env.single_action_space.shape))
    for a in actions.astype(env.single_action_space.dtype):
        env.step(a[None])
        ref.step(a)
    assert_same_frame(env.render()[0], ref.render(), f"{task_id} after 3 steps")
    env.close()
    ref.close()


def test_frames_leave_the_trajectory_alone() -> None:
    """FetchPickAndPlace reads the gripper's pose as the last step left it: drawing must not refresh it."""
    actions = np.random.default_rng(1).uniform(-1, 1, (8, 1, 4)).astype(np.float32)
    runs = []
    for mode in (None, "rgb_array"):
        env = rlpool.make("FetchPickAndPlace-v4", num_envs=1, seed=2, render_mode=mode, render_width=64,
                          render_height=48)
        env.reset()
        trajectory = []
        for a in actions:
            if mode:
                env.render()
            trajectory.append(env.step(a)[0]["observation"].copy())
        runs.append(np.array(trajectory))
        env.close()
    np.testing.assert_array_equal(runs[0], runs[1])


def test_pixel_observations_are_the_frames() -> None:
    env = rlpool.make("FetchPush-v4", num_envs=2, seed=0, from_pixels=True, render_width=64, render_height=48,
                      render_mode="rgb_array")
    obs, _ = env.reset()
    assert list(obs) == ["pixels"]  # a dict observation's pixels, as the DeepMind Control Suite's
    assert obs["pixels"].shape == (2, 3, 48, 64) and obs["pixels"].dtype == np.uint8
    np.testing.assert_array_equal(obs["pixels"].transpose(0, 2, 3, 1), env.render(env_ids=[0, 1]))
    obs, reward, *_ = env.step(np.zeros((2, 4), np.float32))
    np.testing.assert_array_equal(obs["pixels"].transpose(0, 2, 3, 1), env.render(env_ids=[0, 1]))
    assert reward.shape == (2,)
    env.close()


def test_touch_visualisation_is_checked() -> None:
    with pytest.raises(ValueError, match="touch_visualisation"):
        rlpool.make_spec("HandManipulateBlock_BooleanTouchSensors-v1", touch_visualisation="sometimes")
