"""Minigrid: minigrid 3.2.0's MiniGrid-* tasks, the env logic in C++ (``*.cc`` here, on ``minigrid_env.h``).

Each id is minigrid's, with its constructor options as task options. ``max_steps`` 0 means minigrid's
default for the env (a formula of its other options, resolved here); ``max_episode_steps`` defaults to
``max_steps``, and the env truncates at ``max_steps`` itself as minigrid does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rlpool.envs.minigrid import wfc
from rlpool.registry import register

if TYPE_CHECKING:
    from rlpool.tools.docpage import FamilyDoc

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


_ACTIONS = ("turn left", "turn right", "move forward", "pick up the object in front",
            "drop the carried object in front",
            "toggle (open/close a door, unlock it with a key of its colour, open a box)", "done")
_OBS = """
A dict, as minigrid's: `image` (`agent_view_size` × `agent_view_size` × 3, uint8) is the agent's partial view,
indexed `[column, row, channel]` with the agent in the middle of the bottom row looking up; each cell is
minigrid's `(object, colour, state)` encoding (object 0 unseen, 1 empty, 2 wall, 3 floor, 4 door, 5 key,
6 ball, 7 box, 8 goal, 9 lava; colour 0 red, 1 green, 2 blue, 3 purple, 4 yellow, 5 grey; a door's state 0
open, 1 closed, 2 locked). Walls and closed doors hide what lies behind them unless the env sees through
walls; the agent's own cell shows what it carries. `direction` is 0 right, 1 down, 2 left, 3 up. `mission` is
the mission text as UTF-8 bytes, zero-padded to `mission_bytes` (`rlpool.envs.minigrid.decode_mission` turns
it back into text). `info["agent_pos"]` is the agent's cell (x, y); `info["mission_id"]` is EnvPool's index of
the mission (0 where EnvPool gives none).
"""
_REWARD = "`1 - 0.9 * step_count / max_steps` on success, else 0."
_TRUNC = "Truncated when `step_count` reaches `max_steps`."


def _env(title: str, env_types: tuple[str, ...], summary: str, start: str, end: str, *, reward: str = _REWARD,
         actions: tuple[str, ...] = _ACTIONS) -> Any:
    from rlpool.tools.docpage import EnvDoc, Part

    return EnvDoc(title=title, env_types=env_types, summary=summary, reward=reward, starting_state=start,
                  termination=f"{end} {_TRUNC}", actions=(Part(actions),), observation_text=_OBS,
                  version_history=("`v0`: minigrid 3.2.0's env (ObstructedMaze and MultiRoom also have minigrid's "
                                   "`v1` ids).",))


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/minigrid.md (see ``rlpool.tools.docgen``)."""
    from rlpool.tools.docpage import FamilyDoc

    return FamilyDoc(
        name="minigrid",
        title="Minigrid",
        intro="""
minigrid 3.2.0's grid worlds (Chevalier-Boisvert et al.), the env logic in C++: the same ids, constructor
options, objects, partial view, step rules, missions and rewards. Tested against minigrid itself: from the same
state copied in, the same actions give the same observations, rewards and flags over whole episodes (and the
same whole state after every step); generated levels have minigrid's distributions (chi-square over 1000
resets) and the same share of levels whose goal is reachable. Levels come from rlpool's own generator, so the
same seed does not give minigrid's level. `max_steps` 0 means minigrid's default for the options; the
episode's time limit defaults to it. `get_state`/`set_state` carry the grid (door states and box contents
included), agent, carrying, step count, `max_steps`, mission and the env's own variables
(`rlpool.envs.minigrid.state` builds one from a live minigrid env). With `render_mode="rgb_array"` every id
(BabyAI's too) draws minigrid's `render()` frame in C++: the whole grid at 32 pixels a cell, the cells the agent
sees highlighted, bitwise equal to minigrid's (`render_fps` 10).

`MiniGrid-WFC-*` learn their levels by Wave Function Collapse from a pattern image, and no minigrid release
ships those images (minigrid/envs/wfc/patterns/ is in neither its wheel nor its sdist), nor does rlpool. Supply
one: the option `pattern_path` (a PNG; pixels whose red value is 0 are walls), or `RLPOOL_MINIGRID_WFC_PATTERNS`
naming a folder that holds minigrid's pattern files by their minigrid names (`SimpleMaze.png`,
`ScaledMaze.png`, `Fabric.png`, `Blackdots.png`, `Angular.png`, `Hogs.png`); the installed minigrid's own
`patterns` folder is read too, should a release ship it. Without one, `make` raises a ValueError saying so
(the spec and this page need none). The generator is minigrid's algorithm in C++ (patterns with rotations and
reflections, overlap adjacency, the solver with minigrid's heuristics and backtracking, the largest connected
area, start and goal), tested against minigrid's WFCEnv on images drawn by the tests.
""",
        envs=(
            _env("Empty", ("MiniGridEmpty",), "An empty room; get to the green goal in the bottom-right corner.",
                 "The agent at `agent_start_x`, `agent_start_y` facing `agent_start_dir`; -1, -1: a random cell "
                 "and direction.", "Terminates on the goal."),
            _env("DoorKey", ("MiniGridDoorKey",), "Pick up the key, unlock the door in the wall and reach the goal.",
                 "A wall at a random column with a locked yellow door; agent and key at random on its left.",
                 "Terminates on the goal."),
            _env("Unlock, UnlockPickup, BlockedUnlockPickup",
                 ("MiniGridUnlock", "MiniGridUnlockPickup", "MiniGridBlockedUnlockPickup"),
                 "Two rooms and a locked door: open it (Unlock), or also pick up the box behind it (UnlockPickup; "
                 "in BlockedUnlockPickup a ball blocks the door).",
                 "The agent and the key in the left room, not facing an object.",
                 "Terminates on success: toggling the door open (Unlock), picking up the box."),
            _env("KeyCorridor", ("MiniGridKeyCorridor",),
                 "A corridor of rooms; find the key, unlock the room with the object and pick it up.",
                 "The agent in the middle corridor; all rooms connected by doors.",
                 "Terminates when the object is picked up."),
            _env("Crossing and LavaGap", ("MiniGridCrossing", "MiniGridLavaGap"),
                 "Rivers of lava (or walls) with openings between the agent and the goal.",
                 "The agent in the top-left corner facing right, the goal bottom-right.",
                 "Terminates on the goal or in lava."),
            _env("DistShift", ("MiniGridDistShift",), "Two strips of lava between the agent and the goal.",
                 "The agent at its start option; the second strip's row is `strip2_row`.",
                 "Terminates on the goal or in lava."),
            _env("FourRooms", ("MiniGridFourRooms",), "Four rooms joined by gaps; reach the goal.",
                 "Agent and goal at random (or at `agent_pos_*` / `goal_pos_*`).", "Terminates on the goal."),
            _env("DynamicObstacles", ("MiniGridDynamicObstacles",),
                 "Balls move at random each step; reach the goal without walking into anything.",
                 "The agent at its start option; `n_obstacles` balls at random.",
                 "Terminates on the goal, or with reward -1 on moving forward into anything but the goal.",
                 reward="`1 - 0.9 * step_count / max_steps` on the goal, -1 on a collision, else 0.",
                 actions=_ACTIONS[:3]),
            _env("Fetch", ("MiniGridFetch",), "Pick up the key or ball the mission names.",
                 "`numObjs` keys and balls at random; the agent at random.",
                 "Terminates on picking up any object (rewarded only for the right one)."),
            _env("GoToDoor and GoToObject", ("MiniGridGoToDoor", "MiniGridGoToObject"),
                 "Stand next to the door (or object) the mission names and say done.",
                 "Doors on the walls of a room of random size (or objects at random); the agent at random.",
                 "Terminates on `done` (rewarded next to the target) or `toggle`."),
            _env("PutNear", ("MiniGridPutNear",), "Put the named object next to the other named object.",
                 "`numObjs` objects apart from each other; the agent at random.",
                 "Terminates on picking up a wrong object or on any drop (rewarded next to the target)."),
            _env("Memory", ("MiniGridMemory",),
                 "Remember the object in the start room and go to the matching one at the hallway's end.",
                 "The agent in the hallway; `random_length` draws the hallway's length.",
                 "Terminates next to either object at the end (rewarded at the matching one)."),
            _env("RedBlueDoors", ("MiniGridRedBlueDoors",), "Open the red door, then the blue one.",
                 "The agent at random in the room between the doors.",
                 "Terminates when the blue door opens (rewarded if the red one was open)."),
            _env("LockedRoom", ("MiniGridLockedRoom",),
                 "Get the key from the room the mission names, unlock the locked room and reach its goal.",
                 "Six rooms off a corridor, one locked; the agent in the corridor.", "Terminates on the goal."),
            _env("Playground", ("MiniGridPlayground",), "Nine rooms with doors and twelve objects; no mission.",
                 "The agent at random.", "Never terminates.", reward="Always 0."),
            _env("MultiRoom", ("MiniGridMultiRoom",), "A chain of rooms joined by doors; reach the goal in the last.",
                 "`minNumRooms`-`maxNumRooms` rooms; the agent in the first.", "Terminates on the goal."),
            _env("ObstructedMaze", ("MiniGridObstructedMaze1Dlhb", "MiniGridObstructedMazeFull",
                                    "MiniGridObstructedMazeFullV1"),
                 "Find the blue ball behind locked doors; keys may be in boxes (`key_in_box`), doors blocked by "
                 "balls (`blocked`). `v1` places each side room's keys after both of its doors (in `v0` a blocking "
                 "ball may cover a key).",
                 "The agent in `agent_room_*`.", "Terminates when the blue ball is picked up."),
            _env("WFC", ("MiniGridWFC",),
                 "A level made by Wave Function Collapse from a pattern image (minigrid's WFCConfig options); "
                 "reach the goal. No minigrid release ships the presets' images: supply one with `pattern_path` or "
                 "`RLPOOL_MINIGRID_WFC_PATTERNS` (a folder of minigrid's pattern files).",
                 "The largest connected free area of the level (with `ensure_connected`); the agent and the goal "
                 "on two distinct free cells at random, the agent facing a random direction.",
                 "Terminates on the goal."),
        ) + babyai_registration.reference_envs(),
    )


from rlpool.envs.minigrid import babyai_registration  # noqa: E402,F401  (the BabyAI-* ids)
