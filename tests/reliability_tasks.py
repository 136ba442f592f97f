"""Which task ids the reliability tests (fuzz, leaks, soak, signals) exercise, and their actions.

Every registered C++ env type is covered by one task id (the first registered
id of that type, sorted), so a family merged later is picked up with no edit
here. ``EXTRA_TASKS`` adds ids worth covering on top of that; ``ACTION_RANGES``
keeps the actions of tasks whose cost depends on the action small.
``RLPOOL_RELIABILITY_TASKS=Id1,Id2`` overrides the list (e.g. for a long run on
one family).
"""

from __future__ import annotations

import atexit
import os
import shutil
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import rlpool
from rlpool.registry import task

# Ids worth covering besides one per env type (variants with other options or limits).
EXTRA_TASKS: list[str] = ["CartPole-v0"]

# Discrete tasks whose action is a cost: sample actions from this [low, high] instead of the whole space.
ACTION_RANGES: dict[str, tuple[int, int]] = {"BusyWork-v0": (0, 300)}



def wfc_pattern() -> str:
    """A small maze PNG for the MiniGrid-WFC-* tasks, drawn into a temporary folder (minigrid ships none).

    White corridors between black walls, 9 x 7 pixels, written with zlib alone (no image library needed).
    """
    rows = ["#########", "#...#...#", "#.#.#.#.#", "#.#...#.#", "#.#####.#", "#.......#", "#########"]
    raw = b"".join(b"\0" + bytes(v for c in r for v in ((0, 0, 0) if c == "#" else (255, 255, 255))) for r in rows)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    folder = Path(tempfile.mkdtemp(prefix="rlpool-wfc-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "maze.png"
    path.write_bytes(png)
    return str(path)


# Env options for the reliability tests (short episodes hit autoreset often).
TASK_OPTIONS: dict[str, dict[str, Any]] = {
    "BusyWork-v0": {"episode_length": 7},
    "Sokoban-v0": {"generator": "toy"},  # its default Boxoban levels are not on this machine
}
_WFC_PATTERN = wfc_pattern()
TASK_OPTIONS.update({t: {"pattern_path": _WFC_PATTERN} for t in rlpool.list_all_envs()
                     if t.startswith("MiniGrid-WFC-")})
# The robotics tasks with fewer MuJoCo steps per env step (their code paths are the same): Fetch's setup and
# the hand's resets run 10 x n_substeps steps, the kitchen's steps 40 of a large model.
TASK_OPTIONS.update({t: {"n_substeps": 4} for t in rlpool.list_all_envs()
                     if task(t).env_type.startswith(("Fetch", "HandReach", "HandManipulate"))})
TASK_OPTIONS.update({t: {"frame_skip": 4} for t in rlpool.list_all_envs() if task(t).env_type == "FrankaKitchen"})

# Tests that don't choose the time limit themselves (soak) cut episodes longer than this
# (Pong's games, DMC's 1000-step episodes) to SHORT_EPISODE steps, so that a short run
# still goes through autoreset several times.
LONG_EPISODE = 200
SHORT_EPISODE = 100

# Env types (by name prefix) whose steps cost a millisecond or so (DMC's many substeps of large
# models, CarRacing's frame, Procgen's and Craftax's rendered frames, ViZDoom's engines, highway-env's traffic,
# MyoSuite's muscle models): the soak runs them for fewer steps.
HEAVY_ENV_TYPE_PREFIXES: tuple[str, ...] = (
    "Dmc", "CarRacing", "Procgen", "Vizdoom", "Fetch", "HandReach", "HandManipulate", "AdroitHand", "FrankaKitchen",
    "MetaWorld",
    # highway-env's scenarios: 5-15 simulation frames of up to 50 IDM vehicles per step.
    "HighwayEnv", "MergeEnv", "MergeGenericEnv", "RoundaboutEnv", "RoundaboutGenericEnv", "IntersectionEnv",
    "ContinuousIntersectionEnv", "MultiAgentIntersectionEnv", "TwoWayEnv", "UTurnEnv", "ExitEnv", "ParkingEnv",
    "RacetrackEnv", "LaneKeepingEnv",
    "CraftaxPixels", "CraftaxClassicPixels", "MyoSuite",
)

# Env types whose every env starts a process of its own (ViZDoom's engine: about a second per pool on
# 2 cores): the tests that make hundreds of pools (fuzz, make/close cycles) leave them out; their pools'
# processes and threads are checked by their own tests (tests/envs/vizdoom/test_vizdoom_processes.py).
PROCESS_ENV_TYPES: frozenset[str] = frozenset({"Vizdoom"})

# The task that stands for its env type (default: the first id alphabetically).
# Quadruped: Walk, not Escape, whose heightfield and 20 rangefinders make it the suite's
# slowest quadruped task (Escape still runs in tests/envs/dmc/test_dmc.py).
# MetaWorld: PickPlace, one task in every env. A benchmark set's pool (MT10) runs a different task in each
# env, which the fuzz test's one-env twins (env i against a pool of one seeded seed + i) cannot stand for;
# tests/envs/metaworld checks those pools' determinism and saved states.
REPRESENTATIVE: dict[str, str] = {"Atari": "Pong-v5", "DmcQuadruped": "QuadrupedWalk-v1",
                                  "MetaWorld": "MetaWorld/PickPlace-v3"}


def pool_options(task_id: str) -> dict[str, Any]:
    """Pool options for tests that don't choose the time limit: long episodes cut short."""
    if task(task_id).max_episode_steps > LONG_EPISODE:
        return {"max_episode_steps": SHORT_EPISODE}
    return {}


def is_heavy(task_id: str) -> bool:
    """Whether a step of ``task_id`` costs a physics engine's time (tens of microseconds or more)."""
    return task(task_id).env_type.startswith(HEAVY_ENV_TYPE_PREFIXES)


def reliability_tasks() -> list[str]:
    """One task id per registered env type, plus ``EXTRA_TASKS`` that are registered."""
    override = os.environ.get("RLPOOL_RELIABILITY_TASKS")
    registered = rlpool.list_all_envs()
    if override:
        ids = [t.strip() for t in override.split(",") if t.strip()]
        unknown = sorted(set(ids) - set(registered))
        if unknown:
            raise ValueError(f"RLPOOL_RELIABILITY_TASKS names unknown task ids {unknown}")
        return ids
    by_type: dict[str, str] = {}
    for task_id in registered:
        by_type.setdefault(task(task_id).env_type, task_id)
    for env_type, task_id in REPRESENTATIVE.items():
        if env_type in by_type and task_id in registered:
            by_type[env_type] = task_id
    chosen = sorted(by_type.values())
    return chosen + [t for t in EXTRA_TASKS if t in registered and t not in chosen]


def many_pools_tasks() -> list[str]:
    """``reliability_tasks()`` without the env types that start a process per env (PROCESS_ENV_TYPES).

    An explicit ``RLPOOL_RELIABILITY_TASKS`` list is kept whole.
    """
    if os.environ.get("RLPOOL_RELIABILITY_TASKS"):
        return reliability_tasks()
    return [t for t in reliability_tasks() if task(t).env_type not in PROCESS_ENV_TYPES]


def is_discrete(space: Any) -> bool:
    """Whether a single-env action space takes one integer per env."""
    return hasattr(space, "n")


def sample_actions(rng: np.random.Generator, task_id: str, space: Any, n: int) -> np.ndarray:
    """``n`` valid actions for ``task_id``: int64 for Discrete spaces (and one per agent for a MultiDiscrete),
    float32 inside a Box."""
    if isinstance(space, gymnasium.spaces.MultiDiscrete):
        return rng.integers(0, space.nvec, size=(n, *space.shape), dtype=np.int64)
    if is_discrete(space):
        low, high = ACTION_RANGES.get(task_id, (int(space.start), int(space.start + space.n - 1)))
        return rng.integers(low, high + 1, size=n, dtype=np.int64)
    low = np.where(np.isfinite(space.low), space.low, -1.0)
    high = np.where(np.isfinite(space.high), space.high, 1.0)
    return rng.uniform(low, high, size=(n, *space.shape)).astype(np.float32)


def action_table(rng: np.random.Generator, task_id: str, space: Any, num_envs: int, steps: int) -> np.ndarray:
    """Actions indexed ``[env, k]``: env i's k-th action, whatever order the steps run in."""
    flat = sample_actions(rng, task_id, space, num_envs * steps)
    return flat.reshape(num_envs, steps, *flat.shape[1:])
