"""Initial states and goals of rlpool's robotics tasks against gymnasium-robotics', as distributions.

The step-by-step tests give both sides the same draws (rlpool's generator in the reference), which checks
that each draw is used as gymnasium-robotics uses it. This checks the other half: that rlpool's generator,
seeded as rlpool seeds it, gives the same distributions as gymnasium-robotics with its own numpy generator.
For each task, 500 resets on each side; every varying element of the first observation (achieved and
desired goal, observation) is compared with a two-sample Kolmogorov-Smirnov test, Bonferroni-corrected
(family-wise level 0.001). The power check: the same test must tell rlpool's sample from gymnasium-robotics'
with one element shifted by half its standard deviation.

The default run takes one Fetch task and one maze; ``RLPOOL_FULL_REFERENCE=1`` one task per family and kind
of reset (Fetch with an object in the air, the hand reaching and manipulating, Adroit's four, the maze with
goal cells, the kitchen).
"""

from __future__ import annotations

import numpy as np
import pytest
from lane import FULL
from robotics_reference import reference
from scipy import stats

import rlpool
from rlpool.registry import task

RESETS = 500
LEVEL = 0.001
SAMPLE = ["FetchPickAndPlace-v4", "PointMaze_Medium_Diverse_GR-v3"]
EVERY_FAMILY = SAMPLE + [
    "FetchReach-v4", "HandReach-v3", "HandManipulateBlockRotateParallel-v1", "HandManipulatePen-v1",
    "AdroitHandDoor-v1", "AdroitHandHammer-v1", "AdroitHandPen-v1", "AdroitHandRelocate-v1", "FrankaKitchen-v1",
]


def flat(obs: object) -> np.ndarray:
    """One row per env: every array of a (nested) dict observation, in key order."""
    if isinstance(obs, dict):
        return np.concatenate([flat(obs[k]) for k in sorted(obs)], axis=-1)
    array = np.asarray(obs, dtype=np.float64)
    return array.reshape(array.shape[0], -1) if array.ndim > 1 else array.reshape(-1, 1)


def rlpool_resets(task_id: str) -> np.ndarray:
    rows = []
    env = rlpool.make(task_id, num_envs=100, seed=0)
    for seed in range(RESETS // 100):
        obs, _ = env.reset(seed=1000 + 100 * seed)  # env i of the pool takes seed + i
        rows.append(flat(obs))
    env.close()
    return np.concatenate(rows)


def batched(obs: object) -> object:
    """A single env's observation as a batch of one."""
    return {k: batched(v) for k, v in obs.items()} if isinstance(obs, dict) else np.asarray(obs)[None]


def reference_resets(task_id: str) -> np.ndarray:
    ref = reference(task(task_id).gymnasium_id or task_id)
    rows = [flat(batched(ref.reset(seed=seed)[0])) for seed in range(RESETS)]
    ref.close()
    return np.concatenate(rows)


def smallest_p(ours: np.ndarray, theirs: np.ndarray) -> tuple[float, int]:
    """The smallest KS p-value over the elements that vary, and how many were compared."""
    varying = [j for j in range(ours.shape[1]) if np.ptp(theirs[:, j]) > 1e-12 or np.ptp(ours[:, j]) > 1e-12]
    p = min((stats.ks_2samp(ours[:, j], theirs[:, j]).pvalue for j in varying), default=1.0)
    return p, len(varying)


@pytest.mark.parametrize("task_id", EVERY_FAMILY if FULL else SAMPLE)
def test_initial_states_and_goals_are_distributed_as_gymnasium_robotics(task_id: str) -> None:
    ours, theirs = rlpool_resets(task_id), reference_resets(task_id)
    assert ours.shape == theirs.shape
    p, n = smallest_p(ours, theirs)
    assert n > 0
    assert p > LEVEL / n, f"{task_id}: an element's distribution differs (KS p = {p:.2e} over {n} elements)"
    # Power: half a standard deviation's shift of the element that varies most is found.
    j = int(np.argmax(theirs.std(axis=0)))
    shifted = theirs.copy()
    shifted[:, j] += 0.5 * theirs[:, j].std()
    p_shifted, _ = smallest_p(ours, shifted)
    assert p_shifted < LEVEL / n, f"{task_id}: a shifted distribution went unnoticed (p = {p_shifted:.2e})"
