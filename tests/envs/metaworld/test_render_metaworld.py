"""MetaWorld frames: libmujoco's renderer in OSMesa, against metaworld's own frames on the same MuJoCo.

The reference is metaworld 3.1.1 on rlpool's MuJoCo (3.17.0) in its virtualenv, drawing ``rgb_array`` with
gymnasium's MujocoRenderer through the same off-screen OpenGL (``MUJOCO_GL=osmesa``), from the same state
(the same draws), so the frames are expected to be equal pixel for pixel; ``MAX_DIFFERENT`` only allows for
a driver that rasterises an edge differently. The default run draws three tasks, ``RLPOOL_FULL_REFERENCE=1``
every task.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest
from lane import FULL, osmesa_missing, require
from metaworld_reference import PROJECT_MUJOCO, Reference, envpool_id, start_words

import rlpool
from rlpool.envs.metaworld.benchmarks import ALL_TASKS

MAX_DIFFERENT = 0.001
SIZE = 120
SAMPLE = ["pick-place-v3", "door-open-v3", "basketball-v3"]


@pytest.fixture(autouse=True)
def _gl() -> None:
    require(osmesa_missing())


def reference_frame(ref: Reference) -> np.ndarray:
    answer = ref.call("render")
    return np.frombuffer(base64.b64decode(answer["rgb"]), np.uint8).reshape(answer["shape"])


def assert_same_frame(ours: np.ndarray, ref: np.ndarray, where: str) -> None:
    assert ours.shape == ref.shape and ours.dtype == ref.dtype == np.uint8, (where, ours.shape, ref.shape)
    different = float((ours != ref).any(axis=-1).mean())
    assert different <= MAX_DIFFERENT, f"{where}: {different:.2%} of the pixels differ from the reference"
    assert ours.std() > 1.0, f"{where}: a blank frame"


@pytest.mark.parametrize("task", ALL_TASKS if FULL else SAMPLE)
def test_frames_equal_metaworlds(task: str) -> None:
    env = rlpool.make(envpool_id(task), num_envs=1, seed=3, render_mode="rgb_array", render_width=SIZE,
                      render_height=SIZE)
    env.reset()
    with Reference(task, render=True, mujoco=PROJECT_MUJOCO, size=(SIZE, SIZE)) as ref:
        ref.reset(start_words(env.get_state(0)))
        assert_same_frame(env.render()[0], reference_frame(ref), f"{task} after reset")
        for a in np.random.default_rng(0).uniform(-1, 1, (3, 1, 4)).astype(np.float32):
            env.step(a)
            ref.step(a[0])
        assert_same_frame(env.render()[0], reference_frame(ref), f"{task} after 3 steps")
    env.close()


def test_pixel_observations_are_the_frames() -> None:
    env = rlpool.make("MetaWorld/Reach-v3", num_envs=2, seed=0, from_pixels=True, render_width=64,
                      render_height=48, render_mode="rgb_array")
    obs, _ = env.reset()
    pixels = obs["pixels"] if isinstance(obs, dict) else obs
    assert pixels.shape == (2, 3, 48, 64) and pixels.dtype == np.uint8
    np.testing.assert_array_equal(pixels.transpose(0, 2, 3, 1), env.render(env_ids=[0, 1]))
    env.close()
