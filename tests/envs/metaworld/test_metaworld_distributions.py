"""Initial states of rlpool's MetaWorld tasks against metaworld 3.1.1's, as distributions.

The step-by-step tests give both sides the same draws (rlpool's generator in the reference), which checks
that each draw is used as metaworld uses it. This checks the other half: that rlpool's generator, seeded as
rlpool seeds it, gives the same distributions as metaworld with its own numpy generator. For each task, 500
resets on each side, the goal observed; the object's position and the goal in the first observation are
compared with a two-sample Kolmogorov-Smirnov test per varying element, Bonferroni-corrected (family-wise
level 0.001). The power check: the same test must tell rlpool's sample from metaworld's with one element
shifted by half its standard deviation. The reference runs on rlpool's MuJoCo (the resets' hand settling is
then the same; the drawn positions do not depend on the MuJoCo version).

The default run takes two tasks; ``RLPOOL_FULL_REFERENCE=1`` those and half of the others, the other half the
next day (about 7 s a task).
"""

from __future__ import annotations

import numpy as np
import pytest
from lane import FULL, todays_slice
from metaworld_reference import PROJECT_MUJOCO, Reference, envpool_id
from scipy import stats

import rlpool
from rlpool.envs.metaworld.benchmarks import ALL_TASKS

RESETS = 500
LEVEL = 0.001
SAMPLE = ["pick-place-v3", "door-open-v3"]
FULL_RUN = SAMPLE + todays_slice([t for t in ALL_TASKS if t not in SAMPLE], 2)
COLUMNS = np.r_[4:7, 36:39]
"""The first object's position and the goal."""


def rlpool_resets(task: str) -> np.ndarray:
    rows = []
    env = rlpool.make(envpool_id(task), num_envs=100, seed=0, partially_observable=False)
    for seed in range(RESETS // 100):
        obs, _ = env.reset(seed=1000 + 100 * seed)  # env i of the pool takes seed + i
        rows.append(obs[:, COLUMNS])
    env.close()
    return np.concatenate(rows)


def reference_resets(task: str) -> np.ndarray:
    with Reference(task, partially_observable=False, mujoco=PROJECT_MUJOCO) as ref:
        obs = np.asarray(ref.call("resets", n=RESETS, seed=12345)["obs"])
    return obs[:, COLUMNS]


def differ(a: np.ndarray, b: np.ndarray) -> list[int]:
    """The varying columns whose KS test rejects equality at the corrected level."""
    varying = [j for j in range(a.shape[1]) if np.ptp(a[:, j]) > 1e-9 or np.ptp(b[:, j]) > 1e-9]
    level = LEVEL / max(1, len(varying))
    return [j for j in varying if stats.ks_2samp(a[:, j], b[:, j]).pvalue < level]


@pytest.mark.parametrize("task", FULL_RUN if FULL else SAMPLE)
def test_reset_distributions_equal_metaworlds(task: str) -> None:
    ours, theirs = rlpool_resets(task), reference_resets(task)
    assert ours.shape == theirs.shape
    assert differ(ours, theirs) == [], task
    # Constant elements are the same constants.
    for j in range(ours.shape[1]):
        if np.ptp(ours[:, j]) <= 1e-9 and np.ptp(theirs[:, j]) <= 1e-9:
            assert abs(ours[0, j] - theirs[0, j]) <= 1e-6, (task, j)
    # Power: a shift of half a standard deviation in one varying element is found.
    j = next(j for j in range(ours.shape[1]) if np.ptp(ours[:, j]) > 1e-9)
    shifted = ours.copy()
    shifted[:, j] += 0.5 * np.std(ours[:, j])
    assert j in differ(shifted, theirs), task
