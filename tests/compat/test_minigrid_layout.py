"""Minigrid through rlpool.compat.envpool against EnvPool 1.2.5: ids, spaces, keys, dtypes, limits, mission_id."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from reliability_tasks import TASK_OPTIONS

import rlpool
import rlpool.compat.envpool as compat
from rlpool.envs.minigrid import decode_mission

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    envpool = pytest.importorskip("envpool")

ENVPOOL_IDS = [t for t in envpool.list_all_envs() if t.startswith("MiniGrid-")]


def test_every_envpool_minigrid_id_is_there():
    assert set(ENVPOOL_IDS) <= set(rlpool.list_all_envs())


@pytest.mark.parametrize("task_id", sorted(ENVPOOL_IDS))
def test_layout_like_envpool(task_id):
    # The WFC ids get a pattern image (TASK_OPTIONS: one drawn by the tests; minigrid ships none).
    ours = compat.make_gymnasium(task_id, num_envs=4, seed=3, **TASK_OPTIONS.get(task_id, {}))
    theirs = envpool.make_gymnasium(task_id, num_envs=4, seed=3)
    try:
        assert ours.spec.config.max_episode_steps == theirs.spec.config.max_episode_steps
        assert ours.observation_space == theirs.observation_space
        assert ours.action_space == theirs.action_space
        oa, ia = ours.reset()
        ob, ib = theirs.reset()
        assert {k: (v.shape, v.dtype) for k, v in oa.items()} == {k: (v.shape, v.dtype) for k, v in ob.items()}
        assert list(ia) == list(ib)
        for k in ("agent_pos", "mission_id", "elapsed_step"):
            assert ia[k].dtype == ib[k].dtype and ia[k].shape == ib[k].shape, k
        act = np.zeros(4, dtype=np.int64)
        _, ra, ta, tra, _ = ours.step(act)
        _, rb, tb, trb, _ = theirs.step(act)
        assert ra.dtype == rb.dtype and ta.dtype == tb.dtype and tra.dtype == trb.dtype
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("task_id", ["MiniGrid-Fetch-8x8-N3-v0", "MiniGrid-GoToDoor-8x8-v0",
                                     "MiniGrid-GoToObject-8x8-N2-v0", "MiniGrid-PutNear-6x6-N2-v0",
                                     "MiniGrid-UnlockPickup-v0", "MiniGrid-BlockedUnlockPickup-v0",
                                     "MiniGrid-KeyCorridorS3R1-v0", "MiniGrid-DoorKey-5x5-v0"])
def test_mission_id_like_envpool(task_id):
    """The same mission text gets the same info["mission_id"] as in EnvPool (pairs seen in 200 resets of each)."""
    pairs = []
    for make in (compat.make_gymnasium, envpool.make_gymnasium):
        env = make(task_id, num_envs=200, seed=0)
        obs, info = env.reset()
        pairs.append(dict(zip(decode_mission(obs["mission"]), info["mission_id"].tolist(), strict=True)))
        env.close()
    common = set(pairs[0]) & set(pairs[1])
    assert common
    assert {m: pairs[0][m] for m in common} == {m: pairs[1][m] for m in common}


def test_envpool_option_names():
    """EnvPool's option names reach the same options: agent_start_pos pairs, num_objs, min/max_num_rooms."""
    env = compat.make_gymnasium("MiniGrid-Empty-8x8-v0", agent_start_pos=(3, 2), agent_start_dir=1)
    obs, info = env.reset()
    assert info["agent_pos"][0].tolist() == [3, 2] and obs["direction"][0] == 1
    env.close()
    assert compat.make_spec("MiniGrid-Fetch-8x8-N3-v0", num_objs=5).config.numObjs == 5
    assert compat.make_spec("MiniGrid-MultiRoom-N6-v0", min_num_rooms=2, max_num_rooms=3).config.maxNumRooms == 3
    with pytest.raises(TypeError, match="agent_start_pos"):
        compat.make_spec("MiniGrid-Empty-8x8-v0", agent_start_pos=3)
