"""Minigrid: minigrid 3.2.0's MiniGrid-* tasks, the env logic in C++ (``*.cc`` here, on ``minigrid_env.h``).

Each id is minigrid's, with its constructor options as task options. ``max_steps`` 0 means minigrid's
default for the env (a formula of its other options, resolved here); ``max_episode_steps`` defaults to
``max_steps``, and the env truncates at ``max_steps`` itself as minigrid does. Importing this module
registers the BabyAI-* ids too (``babyai_registration.py``); the family's page text is ``docs.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rlpool.envs.minigrid import (
    babyai_registration,  # noqa: F401  (the BabyAI-* ids)
    wfc,
)
from rlpool.registry import register

Formula = Callable[[dict[str, Any]], int]

# minigrid's default max_steps per env type (its __init__), from the options.
MAX_STEPS: dict[str, Formula] = {
    "MiniGridEmpty": lambda o: 4 * o["size"] ** 2,
    "MiniGridDoorKey": lambda o: 10 * o["size"] ** 2,
    "MiniGridUnlock": lambda o: 8 * 6**2,
    "MiniGridUnlockPickup": lambda o: 8 * 6**2,
    "MiniGridBlockedUnlockPickup": lambda o: 16 * 6**2,
    "MiniGridKeyCorridor": lambda o: 30 * o["room_size"] ** 2,
    "MiniGridCrossing": lambda o: 4 * o["size"] ** 2,
    "MiniGridLavaGap": lambda o: 4 * o["size"] ** 2,
    "MiniGridDistShift": lambda o: 4 * o["width"] * o["height"],
    "MiniGridFourRooms": lambda o: 100,
    "MiniGridDynamicObstacles": lambda o: 4 * o["size"] ** 2,
    "MiniGridFetch": lambda o: 5 * o["size"] ** 2,
    "MiniGridGoToDoor": lambda o: 4 * o["size"] ** 2,
    "MiniGridGoToObject": lambda o: 5 * o["size"] ** 2,
    "MiniGridPutNear": lambda o: 5 * o["size"],
    "MiniGridMemory": lambda o: 5 * o["size"] ** 2,
    "MiniGridRedBlueDoors": lambda o: 20 * o["size"] ** 2,
    "MiniGridLockedRoom": lambda o: 10 * o["size"],
    "MiniGridPlayground": lambda o: 100,
    "MiniGridMultiRoom": lambda o: o["maxNumRooms"] * 20,
    "MiniGridObstructedMaze1Dlhb": lambda o: 4 * o["num_rooms_visited"] * 6**2,
    "MiniGridObstructedMazeFull": lambda o: 4 * o["num_rooms_visited"] * 6**2,
    "MiniGridObstructedMazeFullV1": lambda o: 4 * o["num_rooms_visited"] * 6**2,
    "MiniGridWFC": lambda o: 20 * o["size"],
}


def _prepare(env_type: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    formula = MAX_STEPS[env_type]

    def prepare(options: dict[str, Any]) -> dict[str, Any]:
        return {"max_steps": formula(options)} if options["max_steps"] == 0 else {}

    return prepare


def _episode_steps(options: dict[str, Any]) -> int:
    return int(options["max_steps"])


def minigrid(task_id: str, env_type: str, max_steps: int, **defaults: Any) -> None:
    """Register a Minigrid id: ``max_steps`` is minigrid's default for these options (the static limit)."""
    register(task_id, env_type, max_episode_steps=max_steps, prepare=_prepare(env_type),
             episode_steps=_episode_steps, **defaults)


for _size in (5, 6, 8, 16):
    minigrid(f"MiniGrid-Empty-{_size}x{_size}-v0", "MiniGridEmpty", 4 * _size**2, size=_size)
for _size in (5, 6):
    minigrid(f"MiniGrid-Empty-Random-{_size}x{_size}-v0", "MiniGridEmpty", 4 * _size**2, size=_size,
             agent_start_x=-1, agent_start_y=-1)
for _size in (5, 6, 8, 16):
    minigrid(f"MiniGrid-DoorKey-{_size}x{_size}-v0", "MiniGridDoorKey", 10 * _size**2, size=_size)
minigrid("MiniGrid-Unlock-v0", "MiniGridUnlock", 8 * 6**2)
minigrid("MiniGrid-UnlockPickup-v0", "MiniGridUnlockPickup", 8 * 6**2)
minigrid("MiniGrid-BlockedUnlockPickup-v0", "MiniGridBlockedUnlockPickup", 16 * 6**2)
for _s, _r in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3)):
    minigrid(f"MiniGrid-KeyCorridorS{_s}R{_r}-v0", "MiniGridKeyCorridor", 30 * _s**2, room_size=_s, num_rows=_r)
for _s, _n in ((9, 1), (9, 2), (9, 3), (11, 5)):
    minigrid(f"MiniGrid-LavaCrossingS{_s}N{_n}-v0", "MiniGridCrossing", 4 * _s**2, size=_s, num_crossings=_n)
for _s, _n in ((9, 1), (9, 2), (9, 3), (11, 5)):
    minigrid(f"MiniGrid-SimpleCrossingS{_s}N{_n}-v0", "MiniGridCrossing", 4 * _s**2, size=_s, num_crossings=_n,
             obstacle_type="wall")
for _s in (5, 6, 7):
    minigrid(f"MiniGrid-LavaGapS{_s}-v0", "MiniGridLavaGap", 4 * _s**2, size=_s)
minigrid("MiniGrid-DistShift1-v0", "MiniGridDistShift", 4 * 9 * 7, strip2_row=2)
minigrid("MiniGrid-DistShift2-v0", "MiniGridDistShift", 4 * 9 * 7, strip2_row=5)
minigrid("MiniGrid-FourRooms-v0", "MiniGridFourRooms", 100)
for _s, _n in ((5, 2), (6, 3), (8, 4), (16, 8)):
    minigrid(f"MiniGrid-Dynamic-Obstacles-{_s}x{_s}-v0", "MiniGridDynamicObstacles", 4 * _s**2, size=_s,
             n_obstacles=_n)
for _s, _n in ((5, 2), (6, 3)):
    minigrid(f"MiniGrid-Dynamic-Obstacles-Random-{_s}x{_s}-v0", "MiniGridDynamicObstacles", 4 * _s**2, size=_s,
             n_obstacles=_n, agent_start_x=-1, agent_start_y=-1)
for _s, _n in ((5, 2), (6, 2), (8, 3)):
    minigrid(f"MiniGrid-Fetch-{_s}x{_s}-N{_n}-v0", "MiniGridFetch", 5 * _s**2, size=_s, numObjs=_n)
for _s in (5, 6, 8):
    minigrid(f"MiniGrid-GoToDoor-{_s}x{_s}-v0", "MiniGridGoToDoor", 4 * _s**2, size=_s)
for _s in (6, 8):
    minigrid(f"MiniGrid-GoToObject-{_s}x{_s}-N2-v0", "MiniGridGoToObject", 5 * _s**2, size=_s, numObjs=2)
minigrid("MiniGrid-PutNear-6x6-N2-v0", "MiniGridPutNear", 5 * 6, size=6, numObjs=2)
minigrid("MiniGrid-PutNear-8x8-N3-v0", "MiniGridPutNear", 5 * 8, size=8, numObjs=3)
for _s, _random in ((17, True), (13, True), (13, False), (11, False), (9, False), (7, False)):
    minigrid(f"MiniGrid-MemoryS{_s}{'Random' if _random else ''}-v0", "MiniGridMemory", 5 * _s**2, size=_s,
             random_length=_random)
for _s in (6, 8):
    minigrid(f"MiniGrid-RedBlueDoors-{_s}x{_s}-v0", "MiniGridRedBlueDoors", 20 * _s**2, size=_s)
minigrid("MiniGrid-LockedRoom-v0", "MiniGridLockedRoom", 10 * 19)
minigrid("MiniGrid-Playground-v0", "MiniGridPlayground", 100)
minigrid("MiniGrid-MultiRoom-N2-S4-v0", "MiniGridMultiRoom", 2 * 20, minNumRooms=2, maxNumRooms=2, maxRoomSize=4)
# minigrid's legacy id: six rooms, despite its name.
minigrid("MiniGrid-MultiRoom-N4-S5-v0", "MiniGridMultiRoom", 6 * 20, minNumRooms=6, maxNumRooms=6, maxRoomSize=5)
minigrid("MiniGrid-MultiRoom-N4-S5-v1", "MiniGridMultiRoom", 4 * 20, minNumRooms=4, maxNumRooms=4, maxRoomSize=5)
minigrid("MiniGrid-MultiRoom-N6-v0", "MiniGridMultiRoom", 6 * 20, minNumRooms=6, maxNumRooms=6)
minigrid("MiniGrid-ObstructedMaze-1Dl-v0", "MiniGridObstructedMaze1Dlhb", 4 * 2 * 36, key_in_box=False, blocked=False)
minigrid("MiniGrid-ObstructedMaze-1Dlh-v0", "MiniGridObstructedMaze1Dlhb", 4 * 2 * 36, key_in_box=True, blocked=False)
minigrid("MiniGrid-ObstructedMaze-1Dlhb-v0", "MiniGridObstructedMaze1Dlhb", 4 * 2 * 36)
for _name, _kib, _blocked, _q, _visited, _room in (
    ("2Dl", False, False, 1, 4, (2, 1)),
    ("2Dlh", True, False, 1, 4, (2, 1)),
    ("2Dlhb", True, True, 1, 4, (2, 1)),
    ("1Q", True, True, 1, 5, (1, 1)),
    ("2Q", True, True, 2, 11, (2, 1)),
    ("Full", True, True, 4, 25, (1, 1)),
):
    for _version, _type in (("v0", "MiniGridObstructedMazeFull"), ("v1", "MiniGridObstructedMazeFullV1")):
        if _version == "v1" and _name in ("2Dl", "2Dlh"):
            continue  # minigrid registers v1 of 2Dlhb, 1Q, 2Q and Full only
        minigrid(f"MiniGrid-ObstructedMaze-{_name}-{_version}", _type, 4 * _visited * 36, key_in_box=_kib,
                 blocked=_blocked, num_quarters=_q, num_rooms_visited=_visited, agent_room_i=_room[0],
                 agent_room_j=_room[1])



def _wfc_prepare(preset: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """max_steps' default and the preset's pattern image (``rlpool.envs.minigrid.wfc``)."""
    max_steps = _prepare("MiniGridWFC")

    def prepare(options: dict[str, Any]) -> dict[str, Any]:
        return {**max_steps(options), **wfc.prepare(preset, options)}

    return prepare


# minigrid's default WFC presets; their images are the user's to supply (see wfc.py).
for _name, _preset in wfc.PRESETS.items():
    register(f"MiniGrid-WFC-{_name}-v0", "MiniGridWFC", max_episode_steps=20 * 25, prepare=_wfc_prepare(_name),
             episode_steps=_episode_steps, pattern_width=_preset.pattern_width, output_periodic=_preset.periodic,
             input_periodic=_preset.periodic)
