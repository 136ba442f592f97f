"""rlpool's Craftax-Classic pixel tasks against craftax 1.6.1's pixel envs (jitted, CPU), step by step.

The same comparison as ``test_craftax_classic.py`` (keys, actions, flags, info, saved states; see
``craftax_reference.py``) with craftax's 63 x 63 x 3 float32 frames (``render_craftax_pixels`` / 255),
compared bit for bit: day and night (a short ``day_length``), the night noise drawn from the state's key,
sleep, mobs. Where the pixel ids are not registered the tests skip, saying so.
"""

from __future__ import annotations

import numpy as np
import pytest
from craftax_reference import Reference, lockstep, random_actions, synced
from lane import FULL

import rlpool

PIXELS = "Craftax-Classic-Pixels-v1"
AUTO = "Craftax-Classic-Pixels-AutoReset-v1"
NIGHTS = {"day_length": 40, "spawn_zombie_night_chance": 0.5}
ENVS, STEPS = (4, 400) if FULL else (2, 120)

pytestmark = pytest.mark.skipif(
    PIXELS not in rlpool.list_all_envs(), reason=f"{PIXELS} is not registered: rlpool has no Classic pixel renderer"
)


@pytest.fixture(scope="module")
def ref():
    """One craftax pixel env child for the file (its first use builds craftax's texture cache)."""
    with Reference(PIXELS) as reference:
        yield reference


def test_pixel_spaces_are_envpools() -> None:
    for task_id in (PIXELS, AUTO):
        space = rlpool.make_spec(task_id).observation_space
        assert space.shape == (63, 63, 3) and space.dtype == np.float32


@pytest.mark.parametrize("task_id", [PIXELS, AUTO])
def test_pixel_runs_equal_craftax(ref: Reference, task_id: str) -> None:
    ref.use(PIXELS, **NIGHTS)
    stats = lockstep(task_id, ref, seed=3, num_envs=ENVS, steps=STEPS, **NIGHTS)
    assert stats.steps == ENVS * STEPS


def test_pixel_steps_from_craftax_states(ref: Reference) -> None:
    ref.use(PIXELS, **NIGHTS)
    actions = random_actions(7, STEPS, 1)[:, 0]
    run = ref.rollout(7, actions)
    assert synced(PIXELS, run, actions, ref.achievements, **NIGHTS) > 0
