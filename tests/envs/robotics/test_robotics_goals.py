"""The goal tasks' batched methods as HER uses them, and the family without gymnasium-robotics installed.

Hindsight relabelling calls ``compute_reward`` on large batches of (achieved, desired) pairs: here 4096 goals
relabelled from other steps' achieved goals, against gymnasium-robotics' own ``compute_reward`` (on the whole
batch where its version is vectorised, one goal at a time where it is not: the Pen's, which sets the wrong
axis of a batch, and the kitchen's, which loops over its tasks).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from lane import FULL
from robotics_reference import reference

import rlpool
from rlpool.registry import task

BATCH = 4096


def goals_of(task_id: str, steps: int = 64) -> tuple[dict, dict]:
    """A (achieved_goal, desired_goal) batch of BATCH pairs: achieved goals of a short run, desired goals taken
    from other steps (HER's "future" relabelling) plus some near the achieved ones."""
    env = rlpool.make(task_id, num_envs=BATCH // steps, seed=0)
    obs, _ = env.reset()
    space = env.single_action_space
    rng = np.random.default_rng(0)
    achieved = []
    for _ in range(steps):
        obs = env.step(rng.uniform(-1, 1, (env.num_envs, *space.shape)).astype(space.dtype))[0]
        achieved.append(obs["achieved_goal"])
    env.close()

    def stack(parts: list) -> object:
        if isinstance(parts[0], dict):
            return {k: stack([p[k] for p in parts]) for k in parts[0]}
        return np.concatenate(parts)

    ag = stack(achieved)
    order = rng.permutation(BATCH)

    def relabel(x: object) -> object:
        if isinstance(x, dict):
            return {k: relabel(v) for k, v in x.items()}
        near = x + rng.normal(0, 0.005, x.shape)
        return np.where(rng.random((BATCH, 1)) < 0.5, x[order], near)

    return ag, relabel(ag)


@pytest.mark.parametrize(
    "task_id",
    ["FetchPush-v4", "FetchReachDense-v4", "HandReach-v3", "HandManipulateBlock-v1", "HandManipulateEggRotateDense-v1",
     "PointMaze_UMaze-v3", "PointMaze_OpenDense-v3"] if FULL else ["FetchPush-v4", "HandManipulateBlock-v1",
                                                                    "PointMaze_OpenDense-v3"],
)
def test_her_batch_matches_the_reference(task_id: str) -> None:
    ag, dg = goals_of(task_id)
    env = rlpool.make(task_id, num_envs=1)
    ours = env.compute_reward(ag, dg, {})
    theirs = reference(task(task_id).gymnasium_id or task_id).unwrapped.compute_reward(ag, dg, {})
    assert ours.shape == (BATCH,) and ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=0)
    if "Dense" not in task_id:
        assert 0 < np.count_nonzero(ours == ours.max()) < BATCH, "reached and missed goals both in the batch"
    env.close()


@pytest.mark.parametrize("task_id", ["HandManipulatePen-v1", "HandManipulatePenRotateDense-v1"][: 2 if FULL else 1])
def test_her_batch_of_the_pen_matches_goal_by_goal(task_id: str) -> None:
    ag, dg = goals_of(task_id)
    ours = rlpool.make_spec(task_id).task_methods["compute_reward"](ag, dg, {})
    ref = reference(task_id).unwrapped
    theirs = np.array([ref.compute_reward(a, d, {}) for a, d in zip(ag[:512], dg[:512], strict=True)])
    np.testing.assert_allclose(ours[:512], theirs, rtol=1e-12, atol=0)


def test_her_batch_of_the_kitchen_matches_goal_by_goal() -> None:
    ag, dg = goals_of("FrankaKitchen-v1", steps=8)
    mask = np.random.default_rng(3).random((BATCH, 7)) < 0.7
    ours = rlpool.make_spec("FrankaKitchen-v1").task_methods["compute_reward"](ag, dg, {"tasks_to_complete": mask})
    ref = reference("FrankaKitchen-v1").unwrapped
    names = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet", "microwave", "kettle")
    theirs = []
    for i in range(512):
        ref.tasks_to_complete = {n for n, m in zip(names, mask[i], strict=True) if m}
        theirs.append(ref.compute_reward({k: v[i] for k, v in ag.items()}, {k: v[i] for k, v in dg.items()}, {}))
    np.testing.assert_array_equal(ours[:512], theirs)
    assert ours.max() > 0


def test_without_gymnasium_robotics_the_ids_stay_and_making_one_says_what_to_install() -> None:
    code = textwrap.dedent("""
        import importlib.machinery, sys

        class Absent:
            def find_spec(self, name, path=None, target=None):
                if name == "gymnasium_robotics" or name.startswith("gymnasium_robotics."):
                    return importlib.machinery.ModuleSpec(name, None)  # found nowhere: no files
                return None

        sys.meta_path.insert(0, Absent())
        import rlpool
        assert "FetchReach-v4" in rlpool.list_all_envs() and "FrankaKitchen-v1" in rlpool.list_all_envs()
        for task_id in ("FetchReach-v4", "PointMaze_UMaze-v3", "FrankaKitchen-v1"):
            try:
                rlpool.make(task_id)
            except ImportError as e:
                assert "pip install '.[robotics]'" in str(e) and task_id in str(e), e
            else:
                raise AssertionError(task_id + " was made")
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
