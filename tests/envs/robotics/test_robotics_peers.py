"""The Gymnasium-Robotics tasks' gymnasium peers in ``rlpool bench``: gymnasium-robotics' own envs.

``rlpool.envs.robotics.peers`` makes the bench import gymnasium-robotics for these tasks' gymnasium ids and
fixes its joint helpers, which fail on MuJoCo 3.17 (the module's text): here the bench finds a gymnasium id
for each kind of task, the helpers work, and gymnasium-robotics' FetchPush steps through the bench's
``gym-sync`` runner and, in worker processes, its ``gym-async`` one.
"""

from __future__ import annotations

import importlib.util

import pytest
from lane import require

from rlpool.tools import bench

if importlib.util.find_spec("gymnasium_robotics") is None:
    require(
        "gymnasium-robotics is not installed: pip install 'gymnasium-robotics==1.4.2' (rlpool's robotics extra) "
        "(the models and the peers)"
    )

from rlpool.envs.robotics import peers  # noqa: E402

# rlpool's id -> gymnasium-robotics' (EnvPool's older ids run the current envs)
GYM_IDS = {
    "FetchPush-v4": "FetchPush-v4",
    "FetchReach-v1": "FetchReach-v4",
    "HandManipulateBlock-v0": "HandManipulateBlock-v1",
    "HandReach-v3": "HandReach-v3",
    "AdroitHandDoor-v1": "AdroitHandDoor-v1",
    "PointMaze_UMaze-v3": "PointMaze_UMaze-v3",
    "FrankaKitchen-v1": "FrankaKitchen-v1",
}


def test_bench_imports_gymnasium_robotics_for_the_tasks_gym_peers():
    plugins = bench.gym_plugins()
    for prefix in ("Fetch", "Hand", "Adroit", "PointMaze", "FrankaKitchen"):
        assert plugins[prefix] == "gymnasium_robotics"
    for task, gym_id in GYM_IDS.items():
        assert bench.gym_task_id(task) == gym_id
        for peer in ("gym-sync", "gym-async"):
            bench.check_peer(peer, task)


def test_joint_helpers_work_once_the_peers_are_imported():
    assert not peers.joint_helpers_broken()
    assert peers.use_gymnasium_robotics()  # again: nothing more to do


@pytest.mark.parametrize("peer", ["gym-sync", "gym-async"])
def test_gymnasium_robotics_fetch_push_steps_through_the_bench(peer):
    m = bench.measure(peer, "FetchPush-v4", 2, steps=4, warmup=1)
    assert m.steps == 4 and m.steps_per_sec > 0


def test_workers_started_afresh_make_gymnasium_robotics_envs_through_this_module(monkeypatch):
    """A ``spawn`` worker imports gymnasium-robotics unpatched; routed through the peers module, it patches first.

    (The bench routes every id so only where the default start method is not ``fork``.)
    """
    import gymnasium

    spec = gymnasium.spec("FetchPush-v4")
    entry_point = spec.entry_point
    if isinstance(entry_point, peers.WorkerEntryPoint):
        entry_point = entry_point.entry_point
    monkeypatch.setattr(spec, "entry_point", peers.WorkerEntryPoint(entry_point))
    env = gymnasium.make_vec("FetchPush-v4", 1, vectorization_mode="async", vector_kwargs={"context": "spawn"})
    try:
        env.reset(seed=0)
        env.step(env.action_space.sample())
    finally:
        env.close()
