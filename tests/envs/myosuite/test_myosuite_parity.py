"""rlpool's MyoSuite tasks step by step against myosuite 2.11.6, in reference virtualenvs of their own.

Two references (``myosuite_reference.py``), both myosuite 2.11.6's own code in a child Python:
- on rlpool's MuJoCo (myosuite installed without its pins): whole episodes from the same draws (rlpool's
  generator copied into myosuite's ``np_random``), with uniform actions in [-1.2, 1.2] (myosuite clips none),
  must agree at every step -- observations, reward, every reward term, solved, time, termination and
  truncation -- within 1e-9: the port is myosuite's arithmetic on the same simulator (numpy's float32 exp and
  pairwise sums included).
- on the MuJoCo myosuite pins (3.3.0): the reference's simulation state is put into rlpool's env before every
  step, and one step of each is compared with bounds (docs/envs/myosuite.md says by how much the versions
  differ).

Which ids: ``SAMPLE`` holds every base id (one of the ten ASL hand poses, one MyoDM id per kind of reference)
and one variant per class and muscle condition (sarcopenia, fatigue, reafferentation), a Random one where there
is one. The default run steps three ids for a short episode; ``RLPOOL_FULL_REFERENCE=1`` (CI) runs the sample
and one slice of the other registered ids for an episode each (up to 300 steps: the walking tasks' 1,000-step
horizon is cut; random actions end most episodes sooner) -- ``ROTATION`` slices, the slice picked by the day,
so that every id is compared over ``ROTATION`` days of CI -- plus the pinned MuJoCo's synced steps and the
reset distributions of four ids.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from lane import FULL, todays_slice
from myosuite_reference import Reference, lockstep, start_words, synced
from scipy import stats

import rlpool
from rlpool.envs.myosuite.registration import registered_tasks

ROTATION = 16
"""The full lane compares the ids outside SAMPLE in this many slices, one a day."""


def _key(task_id: str, cls: str) -> tuple[str, ...]:
    """What the sample takes one id of: each base id of its own (but one MyoDM id per kind of reference: a
    motion, a fixed or a random target; and one of the ten ASL hand poses); a variant per class and condition."""
    m = re.match(r"myo(Sarc|Fati|Reaf)", task_id)
    if m is not None:
        return cls, m.group(1)
    if cls == "myodm_v0:TrackEnv":
        return cls, next((k for k in ("Fixed", "Random") if task_id.endswith(f"{k}-v0")), "motion")
    if re.fullmatch(r"myoHandPose\dFixed-v0", task_id):
        return cls, "ASL"
    return (task_id,)


def _sample() -> tuple[list[str], list[str]]:
    """(the sample, a Random id where a key has one; the rest)."""
    seen: set[tuple[str, ...]] = set()
    sample, rest = [], []
    for task in sorted(registered_tasks(), key=lambda t: ("Random" not in t.id, t.id)):
        key = _key(task.id, task.cls)
        (rest if key in seen else sample).append(task.id)
        seen.add(key)
    return sample, rest


SAMPLE, REST = _sample()
HORIZON = {t.id: t.horizon for t in registered_tasks()}
TODAY = todays_slice(REST, ROTATION)
DEFAULT = ["myoHandPoseRandom-v0", "motorFingerReachRandom-v0", "myoFatiElbowPose1D6MExoRandom-v0"]
"""The default lane's ids: a short episode each."""


@pytest.mark.parametrize("task_id", SAMPLE + TODAY if FULL else DEFAULT)
def test_whole_episodes_equal_myosuite_on_the_same_mujoco(task_id: str) -> None:
    if FULL:
        worst, _ = lockstep(task_id, steps=min(HORIZON[task_id], 300), seed=1)
    else:
        worst, _ = lockstep(task_id, steps=25, seed=1)
    assert worst <= 1e-9, (task_id, worst)


PINNED_SAMPLE = ["motorFingerReachRandom-v0", "myoHandPoseRandom-v0", "myoFatiHandReachRandom-v0"]


@pytest.mark.parametrize("task_id", PINNED_SAMPLE if FULL else [])
def test_steps_from_the_same_state_near_myosuite_on_its_pinned_mujoco(task_id: str) -> None:
    _, worst_obs, worst_reward, close_rewards = synced(task_id, steps=100, seed=3)
    # One step from 3.3.0's state: measured up to 0.054 in an observation (the hand's joint velocities
    # times dt) and 0.008 in a reward; the motor-driven finger agrees exactly.
    assert worst_obs <= 0.1, (task_id, worst_obs)
    assert worst_reward <= 0.05 and close_rewards >= 0.9, (task_id, worst_reward, close_rewards)


def test_the_comparison_fails_where_the_draws_or_actions_differ() -> None:
    """Power: other draws give another reset; another action gives another step."""
    env = rlpool.make("myoHandPoseRandom-v0", num_envs=1, seed=0)
    obs, _ = env.reset()
    words = start_words(env.get_state(0))
    with Reference("myoHandPoseRandom-v0") as ref:
        other = ref.reset(tuple(w ^ 0x9E3779B97F4A7C15 for w in words))
        assert np.max(np.abs(obs[0] - np.asarray(other["obs"]))) > 1e-2
        same = ref.reset(words)
        np.testing.assert_array_equal(obs[0], same["obs"])
        action = np.full((1, 39), 0.5, np.float32)
        obs, *_ = env.step(action)
        action[0, 7] = 0.5001
        want = ref.step(action[0])
        assert 0 < np.max(np.abs(obs[0] - np.asarray(want["obs"]))) < 1e-2
    env.close()


RESETS = 500
LEVEL = 0.001
DISTRIBUTION_SAMPLE = ["myoHandPoseRandom-v0", "myoHandReachRandom-v0", "myoElbowPose1D6MExoRandom-v0",
                       "motorFingerReachRandom-v0"]


def _rlpool_resets(task_id: str) -> np.ndarray:
    env = rlpool.make(task_id, num_envs=100, seed=0)
    rows = [env.reset(seed=1000 + 100 * k)[0] for k in range(RESETS // 100)]  # env i takes seed + i
    env.close()
    return np.concatenate(rows).astype(np.float64)


def _differ(a: np.ndarray, b: np.ndarray) -> list[int]:
    """The varying columns whose two-sample KS test rejects equality at the Bonferroni-corrected level."""
    varying = [j for j in range(a.shape[1]) if np.ptp(a[:, j]) > 1e-9 or np.ptp(b[:, j]) > 1e-9]
    level = LEVEL / max(1, len(varying))
    return [j for j in varying if stats.ks_2samp(a[:, j], b[:, j]).pvalue < level]


@pytest.mark.parametrize("task_id", DISTRIBUTION_SAMPLE if FULL else DISTRIBUTION_SAMPLE[:1])
def test_reset_distributions_equal_myosuites(task_id: str) -> None:
    """rlpool's generator, seeded as rlpool seeds it, against myosuite with its own numpy generator: the first
    observation (joints, targets, the carried weight's effect) over 500 resets each, column by column; the
    power check shifts one varying column by half its standard deviation."""
    ours = _rlpool_resets(task_id)
    with Reference(task_id) as ref:
        theirs = np.asarray(ref.call("resets", n=RESETS, seed=12345)["obs"], dtype=np.float64)
    assert ours.shape == theirs.shape
    assert _differ(ours, theirs) == [], task_id
    for j in range(ours.shape[1]):
        if np.ptp(ours[:, j]) <= 1e-9 and np.ptp(theirs[:, j]) <= 1e-9:
            assert ours[0, j] == theirs[0, j], (task_id, j)
    j = next(j for j in range(ours.shape[1]) if np.ptp(ours[:, j]) > 1e-9)
    shifted = ours.copy()
    shifted[:, j] += 0.5 * np.std(ours[:, j])
    assert j in _differ(shifted, theirs), task_id
