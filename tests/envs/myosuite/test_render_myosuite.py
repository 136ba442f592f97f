"""rlpool's MyoSuite frames against myosuite 2.11.6's own (``render_offscreen``), pixel for pixel.

myosuite draws with ``mujoco.Renderer``'s free camera and the muscles' actuation shown; rlpool's env draws the
same scene (OSMesa on both sides). The reference is myosuite's code on rlpool's MuJoCo, from the same draws
and the same actions (``myosuite_reference.py``).

Where a task draws new terrain at each reset (the rough-terrain walk), myosuite's frames keep showing the
terrain its renderer first uploaded: nothing in myosuite sends the new heightfield to its offscreen
renderer (``SimScene.upload_height_field`` is never called). rlpool's frames show the terrain the simulation
has; the comparison takes such a task's first episode only, and checks that its next one shows new ground.

The full lane only (``RLPOOL_FULL_REFERENCE=1``): a frame's first draw through OSMesa costs seconds, and the
default lane is at its time limit.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest
from lane import FULL, osmesa_missing, require
from myosuite_reference import Reference, start_words

import rlpool

SIZE = (160, 120)
TASKS = ["myoHandPoseRandom-v0", "myoLegRoughTerrainWalk-v0", "myoChallengeBaodingP1-v1"]


def _frame(answer: dict) -> np.ndarray:
    return np.frombuffer(base64.b64decode(answer["rgb"]), np.uint8).reshape(answer["shape"])


@pytest.mark.parametrize("task_id", TASKS if FULL else [])
def test_frames_equal_myosuites(task_id: str) -> None:
    require(osmesa_missing())
    env = rlpool.make(task_id, num_envs=1, seed=4, render_mode="rgb_array", render_width=SIZE[0],
                      render_height=SIZE[1])
    rng = np.random.default_rng(0)
    new_terrain = "Terrain" in task_id
    with Reference(task_id, render=True, size=SIZE) as ref:
        frames = []
        for episode in range(2):
            env.reset()
            ref.reset(start_words(env.get_state(0)))
            for t in range(4):
                ours = np.asarray(env.render())[0]
                theirs = _frame(ref.call("render"))
                if episode == 0 or not new_terrain:
                    np.testing.assert_array_equal(ours, theirs, err_msg=f"{task_id} {episode} {t}")
                else:  # myosuite's stale terrain against rlpool's new one
                    assert np.any(ours != theirs), (task_id, episode, t)
                frames.append(ours)
                action = rng.uniform(-1, 1, (1, *env.single_action_space.shape)).astype(np.float32)
                env.step(action)
                ref.step(action[0])
    env.close()
    # The comparison can fail: the frames change as the task moves.
    assert any(np.any(a != b) for a, b in zip(frames[:-1], frames[1:], strict=True))
