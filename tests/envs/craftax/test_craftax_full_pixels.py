"""rlpool's full Craftax pixel tasks (``Craftax-Pixels-v1`` ...) against craftax 1.6.1's pixel envs and EnvPool.

The same comparison as ``test_craftax_full.py`` (keys, actions, flags, info, saved states; see
``craftax_reference.py``) with craftax's 130 x 110 x 3 float32 frames (the pixel renderer's frame / 255),
compared bit for bit: day and night (a short ``day_length``), the night noise drawn from the state's key,
sleep, mobs, god mode's floors, and reset frames, which are ``reset_env``'s (XLA compiles that program's
daylight blend with other roundings than ``step_env``'s). craftax's pixel env generates a reset's world from the
reset key itself (the symbolic env from ``split(key)[1]``), so a seed gives another world than the symbolic
ids'. craftax's pixel programs take minutes to compile the first time: the comparison with craftax runs in the
full lane (``RLPOOL_FULL_REFERENCE=1``); the default one compares with EnvPool 1.2.7 (whose reset frames are
drawn as a step's: 1 ulp off in places) and checks spaces and frames.
Where craftax's textures cannot be had the tests skip, saying so.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from craftax_reference import Reference, lockstep, random_actions, synced
from lane import FULL
from test_craftax_full import compare_with_envpool, envpool_run

import rlpool

PIXELS = "Craftax-Pixels-v1"
AUTO = "Craftax-Pixels-AutoReset-v1"
NIGHTS = {"day_length": 40}


def _textures_missing() -> str | None:
    try:
        from rlpool.envs.craftax import textures

        textures.full_textures_file()
    except Exception as e:  # no wheel, no network: the pixel ids cannot be made here
        return f"craftax's textures cannot be had here: {e}"
    return None


pytestmark = pytest.mark.skipif(_textures_missing() is not None, reason=str(_textures_missing()))


@pytest.fixture(scope="module")
def ref():
    """One craftax pixel env child for the file (its first use builds craftax's texture cache)."""
    with Reference(PIXELS) as reference:
        yield reference


@pytest.mark.parametrize("task_id", [PIXELS, AUTO])
def test_pixel_spaces_and_render(task_id: str) -> None:
    envs = rlpool.make(task_id, num_envs=2, seed=3, render_mode="rgb_array")
    assert envs.single_observation_space.shape == (130, 110, 3)
    assert envs.single_observation_space.dtype == np.float32
    assert envs.single_action_space.n == 43
    obs, _ = envs.reset()
    assert obs.shape == (2, 130, 110, 3) and obs.dtype == np.float32 and 0 <= obs.min() and obs.max() <= 1
    for a in random_actions(3, 10, 2, 43):
        obs, *_ = envs.step(a)
    frame = np.asarray(envs.render())[0]
    assert frame.shape == (130, 110, 3) and frame.dtype == np.uint8
    assert np.abs(frame - obs[0] * 255).max() <= 0.5  # the frame is the observation * 255, rounded
    envs.close()


def test_symbolic_renders_the_pixel_frame() -> None:
    """A symbolic env's frame is the pixel env's frame of the same state (the worlds of a seed differ)."""
    pixels = rlpool.make(PIXELS, num_envs=1, seed=5)
    symbolic = rlpool.make("Craftax-Symbolic-v1", num_envs=1, seed=5, render_mode="rgb_array")
    pixels.reset()
    symbolic.reset()
    pixels.set_state(0, symbolic.get_state(0))
    obs, *_ = pixels.step(np.zeros(1, np.int64))
    symbolic.step(np.zeros(1, np.int64))
    assert np.abs(np.asarray(symbolic.render())[0] - obs[0] * 255).max() <= 0.5
    pixels.close()
    symbolic.close()


@pytest.mark.parametrize("task_id", [PIXELS, AUTO] if FULL else [AUTO])
def test_same_as_envpool(task_id: str, tmp_path: Path) -> None:
    """EnvPool's observations, rewards and flags, bit for bit, across time limits, except reset frames: EnvPool
    1.2.7 draws them as a step's, rlpool as craftax's reset_env, which differ by 1 ulp in some values of the map's
    red and green channels (``assert_envpool_obs``); every reset frame, the first ones and those after time
    limits, differs there."""
    n, steps, limit = (2, 400 if FULL else 60, 25)
    ref = envpool_run(task_id, n, 7, steps, limit, tmp_path / "envpool.npz")
    ended, reset_frames, differing = compare_with_envpool(task_id, ref, limit)
    assert ended >= n and reset_frames > n and differing == reset_frames


NIGHT_GOD = {"day_length": 40, "god_mode": True}
"""Nights, and every floor (god mode's DESCEND), without deaths: no reset within the run."""


@pytest.mark.skipif(not FULL, reason="craftax's pixel programs take minutes to compile: full lane only")
@pytest.mark.parametrize("task_id", [PIXELS, AUTO])
def test_pixel_runs_equal_craftax(ref: Reference, task_id: str) -> None:
    """Whole runs from craftax's reset states (put in with ``set_state``: see the reset's test below)."""
    ref.use(PIXELS, **NIGHT_GOD)
    starts = [ref.rollout(3 + i, np.zeros(0, np.int64)).state[0].tobytes() for i in range(2)]
    stats = lockstep(task_id, ref, seed=3, num_envs=2, steps=300, start=starts, **NIGHT_GOD)
    assert stats.steps == 600


@pytest.mark.skipif(not FULL, reason="craftax's pixel programs take minutes to compile: full lane only")
@pytest.mark.parametrize(("task_id", "mode"), [(PIXELS, "NextStep"), (AUTO, "SameStep")])
def test_pixel_resets_equal_craftax(ref: Reference, task_id: str, mode: str) -> None:
    """reset_env's frames (XLA rounds their daylight blend otherwise than a step's): the first resets and the
    resets after time limits, bit for bit."""
    ref.use(PIXELS, **NIGHTS)
    stats = lockstep(task_id, ref, seed=3, num_envs=3, steps=24, max_episode_steps=7, autoreset_mode=mode, **NIGHTS)
    assert stats.episodes_ended >= 9


@pytest.mark.skipif(not FULL, reason="craftax's pixel programs take minutes to compile: full lane only")
def test_a_reset_frame_is_not_a_steps(ref: Reference) -> None:
    """craftax's get_obs of a new world (a step's roundings) is not its reset_env frame, which rlpool's reset
    gives: a reset frame drawn as a step's (as EnvPool 1.2.7 draws it) fails the reset comparison above."""
    ref.use(PIXELS, **NIGHTS)
    reset = ref.rollout(3, np.zeros(0, np.int64))
    as_step = ref.rollout(3, np.zeros(0, np.int64), start=reset.state[0].tobytes())
    env = rlpool.make(PIXELS, num_envs=1, seed=3, **NIGHTS)
    obs, _ = env.reset()
    env.close()
    np.testing.assert_array_equal(obs[0].view(np.uint32), reset.obs[0].view(np.uint32))
    ulps = np.abs(obs[0].view(np.int32).astype(np.int64) - as_step.obs[0].view(np.int32))
    assert ulps.max() == 1 and (ulps > 0).mean() > 0.05


@pytest.mark.skipif(not FULL, reason="craftax's pixel programs take minutes to compile: full lane only")
def test_pixel_steps_from_craftax_states(ref: Reference) -> None:
    ref.use(PIXELS, **NIGHTS)
    actions = random_actions(7, 200, 1, 43)[:, 0]
    run = ref.rollout(7, actions)
    assert synced(PIXELS, run, actions, ref.achievements, **NIGHTS) > 0
