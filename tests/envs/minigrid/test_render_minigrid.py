"""Rendering of Minigrid and BabyAI against minigrid's own ``rgb_array`` frames.

rlpool draws minigrid's ``get_frame(highlight=True, tile_size=32)`` in C++ (``minigrid_render.cc``: its tiles
supersampled 3 x 3 with numpy's float32/float64 arithmetic), so frames are compared bitwise: sample tasks are
stepped in lockstep with minigrid from the same state with the same actions, a laid-out grid shows every
object in every colour and state under the agent's four directions, and one id per env type renders its
first frame.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from minigrid_reference import minigrid_env, policy
from render_reference import assert_frames_equal

import rlpool
from rlpool.envs.minigrid.state import ObjectIds, from_minigrid

pytest.importorskip("minigrid")
from minigrid.core.world_object import Ball, Box, Door, Floor, Goal, Key, Lava, Wall  # noqa: E402

COLORS = ("red", "green", "blue", "purple", "yellow", "grey")
# Walls, locked / closed / open doors, keys, boxes (a key inside), balls, goals, lava, views through doors.
LOCKSTEP = ["MiniGrid-DoorKey-8x8-v0", "MiniGrid-LavaCrossingS9N2-v0", "MiniGrid-ObstructedMaze-1Dlhb-v0",
            "MiniGrid-KeyCorridorS3R3-v0", "MiniGrid-Dynamic-Obstacles-6x6-v0", "MiniGrid-DistShift2-v0",
            "MiniGrid-MultiRoom-N4-S5-v0", "BabyAI-UnlockPickup-v0", "BabyAI-KeyInBox-v0", "BabyAI-GoToLocal-v0"]
# MiniGrid-WFC-*: rendered in tests/envs/minigrid/test_minigrid_wfc.py, from a pattern image both are given.
IDS = [t for t in rlpool.list_all_envs() if t.startswith(("MiniGrid-", "BabyAI-")) and "-WFC-" not in t]
ONE_PER_TYPE = sorted({rlpool.make_spec(t).task.env_type: t for t in reversed(IDS)}.values())


def quiet(fn, *args, **kwargs):
    """minigrid's BabyAI prints every rejected level."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args, **kwargs)


def pair(task_id: str, **options):
    genv = minigrid_env(task_id, render_mode="rgb_array", **options)
    pool = rlpool.make(task_id, num_envs=1, render_mode="rgb_array", autoreset_mode="Disabled",
                       max_episode_steps=1 << 30, **options)
    return genv, pool


def copy_state(genv, pool, ids: ObjectIds) -> None:
    pool.set_state(0, from_minigrid(genv, ids).pack())


def check(genv, pool, where: str) -> None:
    assert_frames_equal(pool.render()[0], genv.render(), where)


@pytest.mark.parametrize(("task_id", "options"), [(t, {}) for t in LOCKSTEP] + [
    ("MiniGrid-DoorKey-8x8-v0", {"agent_view_size": 3}), ("MiniGrid-LockedRoom-v0", {"agent_view_size": 9})])
def test_frames_equal_minigrid_in_lockstep(task_id, options):
    genv, pool = pair(task_id, **options)
    rng = np.random.default_rng(5)
    try:
        assert pool.metadata["render_fps"] == genv.metadata["render_fps"]
        for episode in range(2):
            quiet(genv.reset, seed=100 + episode)
            if hasattr(genv, "obstacles"):
                genv.obstacles = []  # their moves are random draws: frozen (as in the parity tests)
            pool.reset()
            ids = ObjectIds()
            copy_state(genv, pool, ids)
            check(genv, pool, f"{task_id} episode {episode} start")
            for step in range(30):
                action = policy(genv, rng)
                _, _, term, trunc, _ = genv.step(action)
                pool.step(np.array([action]))
                check(genv, pool, f"{task_id} episode {episode} step {step} action {action}")
                if term or trunc:
                    break
    finally:
        pool.close()


def lay_out(genv) -> list[tuple[int, int]]:
    """Every object kind in every colour and state in the room; returns the cells the agent stands on."""
    grid = genv.grid
    objs = []
    for c in COLORS:
        objs += [Key(c), Ball(c), Box(c, Key("red")), Door(c, is_open=True), Door(c), Door(c, is_locked=True),
                 Floor(c), Wall(c)]
    objs += [Goal(), Lava()]
    inside = [(x, y) for y in range(1, grid.height - 1) for x in range(1, grid.width - 1)]
    for (x, y), obj in zip(inside[: len(objs)], objs, strict=True):
        grid.set(x, y, obj)
    # What the agent can stand on: an open door, floors, the goal, lava and an empty cell.
    overlap = [pos for pos, obj in zip(inside[: len(objs)], objs, strict=True) if obj.can_overlap()]
    return overlap[:3] + overlap[-2:] + [inside[len(objs)]]


@pytest.mark.parametrize("task_id", ["MiniGrid-Empty-16x16-v0", "MiniGrid-FourRooms-v0"])
def test_every_object_colour_state_and_direction(task_id):
    """Empty sees through walls (its whole view highlighted); FourRooms is 19 x 19 and does not."""
    genv, pool = pair(task_id)
    try:
        genv.reset(seed=0)
        pool.reset()
        genv.grid.wall_rect(0, 0, genv.width, genv.height)
        stands = lay_out(genv)
        genv.carrying = Key("purple")  # carried objects are not drawn
        for pos in stands:
            for d in range(4):
                genv.agent_pos, genv.agent_dir = pos, d
                copy_state(genv, pool, ObjectIds())
                check(genv, pool, f"{task_id} agent at {pos} dir {d}")
    finally:
        pool.close()


def test_a_wrong_colour_is_seen():
    """The comparison can fail: a key's colour changed in rlpool's copy changes its frame."""
    genv, pool = pair("MiniGrid-DoorKey-5x5-v0")
    try:
        genv.reset(seed=1)
        pool.reset()
        x, y = next((x, y) for y in range(1, 4) for x in range(1, 4)
                    if genv.grid.get(x, y) is None and (x, y) != tuple(genv.agent_pos))
        genv.grid.set(x, y, Key("yellow"))
        state = from_minigrid(genv)
        copy_state(genv, pool, ObjectIds())
        check(genv, pool, "DoorKey-5x5")
        state.cells[y][x] = (5, 1, *state.cells[y][x][2:])  # a green key
        pool.set_state(0, state.pack())
        assert not np.array_equal(pool.render()[0], genv.render())
    finally:
        pool.close()


@pytest.mark.parametrize("task_id", ONE_PER_TYPE)
def test_every_env_type_renders_its_first_frame(task_id):
    genv, pool = pair(task_id)
    try:
        quiet(genv.reset, seed=3)
        pool.reset()
        copy_state(genv, pool, ObjectIds())
        assert pool.render().shape == (1, genv.height * 32, genv.width * 32, 3)
        check(genv, pool, task_id)
    finally:
        pool.close()
