"""The hand-written reference text of the Minigrid family, BabyAI included (``docs/envs/minigrid.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s
(MiniGrid-*) and ``babyai_registration.py``'s (BabyAI-*).
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

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
         actions: tuple[str, ...] = _ACTIONS) -> EnvDoc:
    return EnvDoc(title=title, env_types=env_types, summary=summary, reward=reward, starting_state=start,
                  termination=f"{end} {_TRUNC}", actions=(Part(actions),), observation_text=_OBS,
                  version_history=("`v0`: minigrid 3.2.0's env (ObstructedMaze and MultiRoom also have minigrid's "
                                   "`v1` ids).",))


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/minigrid.md (see ``rlpool.tools.docgen``)."""
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
ships those images (minigrid/envs/wfc/patterns/ is in neither its wheel nor its sdist, 3.2.0 included; only its
source repository has them), nor does rlpool. Supply one: the option `pattern_path` (a PNG; pixels whose red
value is 0 are walls), or `RLPOOL_MINIGRID_WFC_PATTERNS` naming a folder that holds minigrid's pattern files by
their minigrid names (`SimpleMaze.png`, `ScaledMaze.png`, `Fabric.png`, `Blackdots.png`, `Angular.png`,
`Hogs.png`); the installed minigrid's own `patterns` folder is read too (minigrid installed from its source, or
a release that ships them). Without one, making a pool raises a ValueError naming the minigrid it looked in
and saying how to supply one (the spec and this page need none). The generator is minigrid's algorithm in C++
(patterns with rotations and reflections, overlap adjacency, the solver with minigrid's heuristics and
backtracking, the largest connected area, start and goal), tested against minigrid's WFCEnv on images drawn by
the tests, also through `rlpool.compat.envpool`. EnvPool's ids of these names run without an image because they
are another generator: small bitmaps of EnvPool's own compiled into its library and a simpler solver of its own
(every input read as periodic, no heuristic options), neither minigrid's images nor its WFCConfig; their levels
are not minigrid's.
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
                 "`RLPOOL_MINIGRID_WFC_PATTERNS` (a folder of minigrid's pattern files). EnvPool's ids of these "
                 "names draw from EnvPool's own bitmaps and generator, not minigrid's.",
                 "The largest connected free area of the level (with `ensure_connected`); the agent and the goal "
                 "on two distinct free cells at random, the agent facing a random direction.",
                 "Terminates on the goal."),
        ) + _babyai_envs(),
    )


def _babyai_envs() -> tuple[EnvDoc, ...]:
    """The BabyAI levels' ``EnvDoc`` entries (their ids are ``babyai_registration.py``'s)."""
    end = ("Terminates when the verifier of the instruction succeeds (rewarded) or, for a strict (`debug`/`strict`) "
           "instruction, fails (reward 0).")
    common = (" BabyAI: the mission is the instruction's sentence (minigrid's `surface()`), 512 bytes; the "
              "verifier's progress is part of the state; `info['mission_id']` is -1 as in EnvPool; `max_steps` 0 "
              "sets it per episode from the instruction (navigations needed x maze area).")
    return (
        _env("BabyAI GoTo", ("BabyAIGoToRedBallGrey", "BabyAIGoToRedBall", "BabyAIGoToObj", "BabyAIGoToLocal",
                             "BabyAIGoTo", "BabyAIGoToImpUnlock", "BabyAIGoToRedBlueBall", "BabyAIGoToDoor",
                             "BabyAIGoToObjDoor"),
             "Go to (face) the described object: one room (`room_size`, `num_dists` distractors) or a maze of "
             "`num_rows` x `num_cols` rooms (`doors_open`)." + common,
             "Objects and the agent at random (all objects reachable where minigrid checks it).", end),
        _env("BabyAI Open", ("BabyAIOpen", "BabyAIOpenRedDoor", "BabyAIOpenDoor", "BabyAIOpenTwoDoors",
                             "BabyAIOpenDoorsOrder"),
             "Open the described door(s), by colour or location (`select_by`), one or two in order." + common,
             "Doors of the agent's room (or the maze) with drawn colours; the agent at random.", end),
        _env("BabyAI Pickup and PutNext", ("BabyAIPickup", "BabyAIUnblockPickup", "BabyAIPickupDist",
                                           "BabyAIPickupAbove", "BabyAIPutNextLocal", "BabyAIPutNext"),
             "Pick up the described object, or put one object next to another (`start_carrying`: the first is "
             "carried at the start)." + common,
             "Objects and the agent at random.", end),
        _env("BabyAI Unlock and others", ("BabyAIUnlock", "BabyAIUnlockLocal", "BabyAIKeyInBox", "BabyAIUnlockPickup",
                                          "BabyAIBlockedUnlockPickup", "BabyAIUnlockToUnlock", "BabyAIActionObjDoor",
                                          "BabyAIFindObj", "BabyAIKeyCorridor", "BabyAIOneRoom",
                                          "BabyAIMoveTwoAcross"),
             "Locked doors whose key is elsewhere (maybe in a box or behind a ball), finding objects in other "
             "rooms, and moving two objects across rooms." + common,
             "minigrid's layouts of each level, colours and positions drawn.", end),
        _env("BabyAI LevelGen (GoToSeq, PickupLoc, Synth*, MiniBossLevel, BossLevel*)", ("BabyAILevelGen",),
             "Random instructions of the whole language: go to / pick up / open / put next, joined by `and`, "
             "`then` and `after you` (`action_kinds`, `instr_kinds`), descriptions with colours and locations "
             "(`locations`), a locked room (`locked_room_prob`), `unblocking` and `implicit_unlock` as in "
             "minigrid's LevelGen." + common,
             "A maze of rooms connected by doors, `num_dists` distractors, the agent outside the locked room.", end),
    )
