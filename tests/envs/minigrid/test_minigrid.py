"""Minigrid against minigrid 3.2.0: whole episodes step by step from the same state, generation by chi-square,
the goal's reachability, the faces and bad input.

CI runs a sample; ``RLPOOL_FULL_REFERENCE=1`` runs every id in full.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from minigrid_reference import (
    chi_square_p,
    compare_generation,
    goal_reachable,
    minigrid_env,
    minigrid_starts,
    rlpool_starts,
    run_parity,
)

import rlpool
from rlpool.envs.minigrid import decode_mission, encode_mission
from rlpool.envs.minigrid.state import from_minigrid, unpack

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
# MiniGrid-WFC-*: tests/envs/minigrid/test_minigrid_wfc.py (minigrid cannot make them without the pattern
# images it lacks).
IDS = [t for t in rlpool.list_all_envs() if t.startswith("MiniGrid-") and "-WFC-" not in t]
# One id per env type in CI; all in full.
SAMPLE = sorted({rlpool.make_spec(t).task.env_type: t for t in reversed(IDS)}.values())


def test_task_ids_are_minigrids():
    """rlpool's MiniGrid-* ids are exactly those minigrid 3.2.0 registers in gymnasium's registry on import."""
    import gymnasium
    import minigrid

    assert minigrid.__version__ == "3.2.0"
    registered = {k: spec for k, spec in gymnasium.registry.items() if k.startswith("MiniGrid-")}
    # minigrid's own registrations (rlpool's are in gymnasium's registry as rlpool/<id>, not compared here).
    assert all(str(spec.entry_point).startswith("minigrid.") for spec in registered.values())
    ours = {t for t in rlpool.list_all_envs() if t.startswith("MiniGrid-")}
    assert ours, "rlpool has no MiniGrid ids"
    assert sorted(set(registered) - ours) == [], "minigrid ids rlpool lacks"
    assert sorted(ours - set(registered)) == [], "rlpool ids minigrid does not register"


@pytest.mark.parametrize("task_id", IDS if FULL else SAMPLE)
def test_same_episodes_as_minigrid(task_id):
    totals = run_parity(task_id, episodes=10 if FULL else 3, seed=1, state_every=1 if FULL else 7)
    assert totals["steps"] > 0


@pytest.mark.parametrize("task_id, options", [
    ("MiniGrid-DoorKey-8x8-v0", {"agent_view_size": 5, "max_steps": 90}),
    ("MiniGrid-Empty-8x8-v0", {"agent_view_size": 9, "size": 7}),
    ("MiniGrid-KeyCorridorS3R3-v0", {"obj_type": "box", "agent_view_size": 3}),
    ("MiniGrid-Fetch-8x8-N3-v0", {"numObjs": 6}),
    ("MiniGrid-MemoryS9-v0", {"random_length": True}),
])
def test_same_episodes_with_minigrid_options(task_id, options):
    """minigrid's constructor options, given to both, change both alike."""
    totals = run_parity(task_id, episodes=3, seed=2, state_every=5, **options)
    assert totals["steps"] > 0


def test_doorkey_episodes_reach_the_goal():
    """The parity runs do reach the goal (a reward, a terminal step), not only time out."""
    totals = run_parity("MiniGrid-DoorKey-5x5-v0", episodes=12, seed=3)
    assert totals.get("rewarded", 0) >= 1, totals


@pytest.mark.parametrize("task_id", IDS if FULL else SAMPLE)
def test_generation_matches_minigrid(task_id):
    n = 1000
    ours = rlpool_starts(task_id, n, seed=7)
    theirs = minigrid_starts(task_id, n, seed=7)
    pvalues = compare_generation(ours, theirs, rlpool.make_spec(task_id).task.env_type)
    bad = {k: p for k, p in pvalues.items() if p < 1e-4}
    assert not bad, bad
    ra = np.mean([goal_reachable(s) for s in ours])
    rb = np.mean([goal_reachable(s) for s in theirs])
    # Two proportions of 1000 each: equal within 4 standard errors (exactly equal where both are 0 or 1).
    se = np.sqrt(max(ra * (1 - ra), rb * (1 - rb), 1e-12) * 2 / n)
    assert abs(ra - rb) <= 4 * se, (ra, rb)


def test_dynamic_obstacles_move_like_minigrid():
    """From one state, where the balls go in one step: the same distribution as minigrid's (chi-square)."""
    task_id = "MiniGrid-Dynamic-Obstacles-8x8-v0"
    genv = minigrid_env(task_id)
    genv.reset(seed=5)
    blob = from_minigrid(genv).pack()
    saved = [tuple(o.cur_pos) for o in genv.obstacles]
    theirs = []
    for i in range(1500):
        genv.reset(seed=5)
        genv.np_random = np.random.default_rng(i)
        genv.step(0)
        theirs.append(tuple(tuple(int(v) for v in o.cur_pos) for o in genv.obstacles))
    pool = rlpool.make(task_id, num_envs=1, autoreset_mode="Disabled", seed=0)
    pool.reset()
    ours = []
    for _ in range(1500):
        pool.set_state(0, blob)
        pool.step(np.array([0]))
        pool_state = pool.get_state(0)
        v = unpack(pool_state).vars
        ours.append(tuple(zip(v[::2], v[1::2], strict=True)))
    pool.close()
    for k in range(len(saved)):
        assert chi_square_p([o[k] for o in ours], [o[k] for o in theirs]) > 1e-4, k
    assert len(set(ours)) > 1
    # The balls on the grid are where the variables say.
    last = unpack(pool_state)
    balls = {(x, y) for y, row in enumerate(last.cells) for x, c in enumerate(row) if c[0] == 6}
    assert balls == set(ours[-1])


def test_chi_square_tells_another_layout_apart():
    """The generation test can fail: agent starts moved one cell right (where there is room) are told apart."""
    ours = rlpool_starts("MiniGrid-Empty-Random-6x6-v0", 1000, seed=1)
    theirs = minigrid_starts("MiniGrid-Empty-Random-6x6-v0", 1000, seed=1)
    for s in ours:  # shift every agent one cell right where possible: a different start distribution
        x, y = s.agent_pos
        if x < 3:
            s.agent_pos = (x + 1, y)
    assert compare_generation(ours, theirs)["agent"] < 1e-4


def test_spaces_and_mission():
    envs = rlpool.make("MiniGrid-DoorKey-8x8-v0", num_envs=2)
    space = envs.single_observation_space
    assert set(space.spaces) == {"image", "direction", "mission"}
    assert space["image"].shape == (7, 7, 3) and space["image"].dtype == np.uint8
    assert space["mission"].shape == (96,)
    obs, info = envs.reset()
    assert list(decode_mission(obs["mission"])) == ["use the key to open the door and then get to the goal"] * 2
    assert decode_mission(encode_mission("get to the green goal square")) == "get to the green goal square"
    assert info["agent_pos"].shape == (2, 2)
    envs.close()
    envs = rlpool.make("MiniGrid-Empty-5x5-v0", agent_view_size=5)
    assert envs.single_observation_space["image"].shape == (5, 5, 3)
    envs.close()


def test_max_steps_default_and_option():
    assert rlpool.make_spec("MiniGrid-DoorKey-8x8-v0").config["max_episode_steps"] == 640
    assert rlpool.make_spec("MiniGrid-DoorKey-8x8-v0", size=6).config["max_episode_steps"] == 360
    assert rlpool.make_spec("MiniGrid-DoorKey-8x8-v0", max_steps=50).config["max_episode_steps"] == 50


def test_same_seed_same_levels_whatever_the_threads():
    a = rlpool.make("MiniGrid-DoorKey-8x8-v0", num_envs=8, num_threads=1, seed=3)
    b = rlpool.make("MiniGrid-DoorKey-8x8-v0", num_envs=8, num_threads=2, seed=3)
    oa, _ = a.reset()
    ob, _ = b.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        act = rng.integers(0, 7, 8)
        oa, ra, ta, tra, _ = a.step(act)
        ob, rb, tb, trb, _ = b.step(act)
        np.testing.assert_array_equal(oa["image"], ob["image"])
        np.testing.assert_array_equal(ra, rb)
    assert a.call("get_state") == b.call("get_state")
    a.close()
    b.close()


def test_bad_states_are_refused():
    envs = rlpool.make("MiniGrid-DoorKey-5x5-v0")
    envs.reset()
    good = envs.get_state(0)
    s = unpack(good)
    with pytest.raises(ValueError, match="MGS1"):
        envs.set_state(0, b"nope" + good[4:])
    with pytest.raises(ValueError, match="grid is"):
        envs.set_state(0, unpack(rlpool.make("MiniGrid-DoorKey-6x6-v0").call("get_state")[0]).pack())
    s.agent_dir = 7
    with pytest.raises(ValueError, match="agent_dir"):
        envs.set_state(0, s.pack())
    s = unpack(good)
    s.agent_pos = (0, 0)  # a wall
    with pytest.raises(ValueError, match="stands on a wall"):
        envs.set_state(0, s.pack())
    s = unpack(good)
    s.cells[1][1] = (12, 0, 0, 0, 1, 0, 0, 0)
    with pytest.raises(ValueError, match="object type"):
        envs.set_state(0, s.pack())
    with pytest.raises(ValueError, match="truncated"):
        envs.set_state(0, good[:-3])
    assert envs.get_state(0) == good
    envs.close()


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="agent_view_size"):
        rlpool.make("MiniGrid-Empty-8x8-v0", agent_view_size=4)
    with pytest.raises(ValueError, match="size"):
        rlpool.make("MiniGrid-DoorKey-8x8-v0", size=2)


def test_gymnasium_single_env_and_dm_faces():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("rlpool/MiniGrid-DoorKey-5x5-v0")
    check_env(env.unwrapped, skip_render_check=True)
    env.close()
    dm = rlpool.make_dm("MiniGrid-DoorKey-5x5-v0", num_envs=2)
    ts = dm.reset()
    assert decode_mission(ts.observation.mission)[0] == "use the key to open the door and then get to the goal"
    assert ts.observation.image.shape == (2, 7, 7, 3)
    ts = dm.step(np.array([2, 2]))
    assert ts.discount.tolist() == [1.0, 1.0]
    dm.close()
