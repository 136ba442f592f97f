"""rlpool's MyoSuite tasks as a family: every id through the faces, saved states, determinism, bad input.

The step-by-step comparison with myosuite 2.11.6 is test_myosuite_parity.py; the package (wheel, unpacking,
registration) is test_myosuite_package.py.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from lane import FULL

import rlpool
from rlpool import registry
from rlpool.envs import myosuite
from rlpool.envs.myosuite.tasks import TASKS

HORIZONS = {t.id: t.horizon for t in TASKS}
IDS = sorted(t for t in rlpool.list_all_envs() if t in HORIZONS)
"""The myosuite ids rlpool registers (without their ``MyoSuite/`` spellings)."""
_FIRST_OF_CLASS = {t.cls: t.id for t in reversed(TASKS) if t.id in IDS}
SAMPLE = sorted(_FIRST_OF_CLASS.values()) + [
    "myoSarcHandPoseRandom-v0", "myoFatiFingerReachRandom-v0", "myoReafHandReachRandom-v0"]
"""The default lane's ids: one of each class and one of each variant."""
FULL_SAMPLE = sorted(set(SAMPLE) | set(IDS[::6]))
"""The full lane's: those and every sixth id (the parity test steps every id over its rotation)."""


@pytest.mark.parametrize("task_id", FULL_SAMPLE if FULL else SAMPLE)
def test_every_id_steps_through_every_face(task_id: str) -> None:
    env = rlpool.make(task_id, num_envs=2, seed=0)
    spec = rlpool.make_spec(task_id)
    assert spec.max_episode_steps == HORIZONS[task_id]
    obs, info = env.reset()
    n = env.single_observation_space.shape[0]
    assert obs.shape == (2, n) and obs.dtype == np.float32
    assert env.single_action_space.dtype == np.float32
    assert not info["solved"].any() or info["solved"].dtype == np.bool_
    rng = np.random.default_rng(0)
    ended = np.zeros(2, bool)
    for _ in range(5):
        obs, reward, terminated, truncated, info = env.step(
            rng.uniform(-1, 1, (2, *env.single_action_space.shape)).astype(np.float32))
        assert np.all(np.isfinite(obs)) and np.all(np.isfinite(reward))
        # The reward is myosuite's dense reward, which the info holds with its terms (a step that resets an
        # env whose episode ended has reward 0 and the new episode's first terms).
        assert {k for k in info if k.startswith("rwd_")} >= {"rwd_dense", "rwd_sparse"}
        np.testing.assert_array_equal(reward[~ended], info["rwd_dense"][~ended])
        ended = terminated | truncated
    env.close()
    dm = rlpool.make_dm(f"MyoSuite/{task_id}", num_envs=1, seed=0)
    assert dm.reset().observation.obs.shape == (1, n)
    dm.close()


@pytest.mark.parametrize("task_id", ["myoHandPoseRandom-v0", "myoFatiElbowPose1D6MExoRandom-v0"])
def test_same_seed_same_trajectories_whatever_the_threads(task_id: str) -> None:
    def run(**kwargs: object) -> list[np.ndarray]:
        env = rlpool.make(task_id, num_envs=6, seed=7, max_episode_steps=15, **kwargs)
        rng = np.random.default_rng(0)
        out = [env.reset()[0]]
        for _ in range(40):
            obs, reward, *_ = env.step(rng.uniform(-1, 1, (6, *env.single_action_space.shape)).astype(np.float32))
            out += [obs, reward]
        env.close()
        return out

    one = run(num_threads=1)
    for a, b in zip(one, run(num_threads=3), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("task_id", ["myoFatiHandPoseRandom-v0", "myoElbowPose1D6MExoRandom-v0",
                                     "myoFingerReachRandom-v0", "myoFatiChallengeDieReorientP2-v0",
                                     "myoLegRoughTerrainWalk-v0", "MyoHandAppleRandom-v0"])
def test_a_saved_state_continues_exactly(task_id: str) -> None:
    """The simulation, the drawn targets and weights and the fatigue state are all saved.

    (A later reset draws from the pool's generator, which is the pool's, not the env's.)
    """
    env = rlpool.make(task_id, num_envs=1, seed=3, max_episode_steps=1000)
    env.reset()
    shape = (30, 1, *env.single_action_space.shape)
    actions = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    for a in actions[:10]:
        env.step(a)
    state = env.get_state(0)
    first = [env.step(a) for a in actions[10:]]
    other = rlpool.make(task_id, num_envs=1, seed=99, max_episode_steps=1000)
    other.reset()
    other.set_state(0, state)
    again = [other.step(a) for a in actions[10:]]
    for x, y in zip(first, again, strict=True):
        np.testing.assert_array_equal(x[0], y[0])
        np.testing.assert_array_equal(x[1], y[1])
        if x[2][0] or x[3][0]:  # the next step starts an episode from the pool's generator
            break
    env.close()
    other.close()


def test_bad_input_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="myoHandPoseRandm-v0"):
        rlpool.make("myoHandPoseRandom-v0", num_envs=1, task_name="myoHandPoseRandm-v0")
    with pytest.raises(ValueError, match="myoReafFingerPoseRandom-v0"):  # reafferentation is a hand variant only
        rlpool.make("myoHandPoseRandom-v0", num_envs=1, task_name="myoReafFingerPoseRandom-v0")
    env = rlpool.make("myoFingerPoseRandom-v0", num_envs=1, seed=0)
    env.reset()
    other = rlpool.make("myoSarcFingerPoseRandom-v0", num_envs=1, seed=0)
    other.reset()
    with pytest.raises(ValueError, match="myoSarcFingerPoseRandom-v0"):
        env.set_state(0, other.get_state(0))
    state = env.get_state(0)
    with pytest.raises(ValueError, match="shorter"):
        env.set_state(0, state[:-5])
    with pytest.raises(ValueError, match="not a MyoSuite env state"):
        env.set_state(0, b"x" + state)
    nan = bytearray(state)
    nan[-8:] = np.float64(np.nan).tobytes()
    with pytest.raises(ValueError, match="finite"):
        env.set_state(0, bytes(nan))
    env.step(np.zeros((1, 5), np.float32))
    env.close()
    other.close()


def test_a_variant_changes_the_muscles() -> None:
    """Sarcopenia halves the muscles' force, fatigue tires them, reafferentation moves EIP's control to EPL."""
    def episode(task_id: str) -> np.ndarray:
        env = rlpool.make(task_id, num_envs=1, seed=1)
        env.reset()
        obs = None
        for _ in range(60):
            obs, *_ = env.step(np.full((1, *env.single_action_space.shape), 0.8, np.float32))
        env.close()
        return obs[0]

    base = episode("myoHandPoseFixed-v0")
    # Fatigue builds up slowly (a few percent of a muscle's force in the first seconds).
    for variant, least in (("myoSarcHandPoseFixed-v0", 1e-2), ("myoFatiHandPoseFixed-v0", 1e-5),
                           ("myoReafHandPoseFixed-v0", 1e-2)):
        assert np.max(np.abs(episode(variant) - base)) > least, variant


def _assets_with(tmp_path: Path, damage: Callable[[Path], None]) -> Path:
    """A copy of the unpacked models' folder (links to its parts, real copies of the data files), damaged."""
    real = myosuite.assets_dir()
    copy = tmp_path / "assets"
    assets = copy / "myosuite" / "envs" / "myo" / "assets"
    assets.mkdir(parents=True)
    (copy / "myosuite" / "simhive").symlink_to(real / "myosuite" / "simhive")
    for part in (real / "myosuite" / "envs" / "myo" / "assets").iterdir():
        if part.name != "leg":
            (assets / part.name).symlink_to(part)
    shutil.copytree(real / "myosuite" / "envs" / "myo" / "assets" / "leg", assets / "leg")
    data = Path("myosuite", "envs", "myo", "myodm", "data")
    shutil.copytree(real / data, copy / data)
    shutil.copytree(real / "rlpool-data", copy / "rlpool-data")
    damage(copy)
    return copy


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-16])


DAMAGES = [
    ("MyoHandAppleLift-v0",
     lambda c: _truncate(c / "myosuite/envs/myo/myodm/data/MyoHand_apple_lift/robot.npy"), "robot.npy"),
    ("MyoHandAppleLift-v0",
     lambda c: (c / "myosuite/envs/myo/myodm/data/MyoHand_apple_lift/time.npy").unlink(), "time.npy"),
    ("myoHandReorient100-v0", lambda c: _truncate(c / "rlpool-data/sar/Geometries100EnvV0-box.npy"), "box.npy"),
    ("myoChallengeOslRunFixed-v0",
     lambda c: (c / "myosuite/envs/myo/assets/leg/sample_gait_cycle.csv").write_text("a,b\n1,x\n"),
     "sample_gait_cycle.csv"),
]
"""(task, how its copied data is damaged, the file the error must name); the default lane takes the first."""


@pytest.mark.parametrize(("task_id", "damage", "message"), DAMAGES if FULL else DAMAGES[:1])
def test_a_damaged_data_file_is_refused_by_name(tmp_path: Path, task_id: str, damage: Callable[[Path], None],
                                                message: str) -> None:
    """The data files the tasks read besides their models (MyoDM's motions, the SAR tables, RunTrack's gait
    cycle): a missing, truncated or garbled one is a ValueError naming the file, never a crash. The same copy
    undamaged makes the task."""
    for damaged in (False, True):
        assets = _assets_with(tmp_path / str(damaged), damage if damaged else lambda c: None)
        task = f"Copied{tmp_path.name}{damaged}-v0"
        registry.register(task, "MyoSuite", max_episode_steps=10, task_name=task_id, _assets=str(assets))
        try:
            if not damaged:
                rlpool.make(task, num_envs=1).reset()
                continue
            with pytest.raises(ValueError, match=re.escape(message)):
                rlpool.make(task, num_envs=1).reset()
        finally:
            del registry._TASKS[task]
