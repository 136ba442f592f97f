"""The Minigrid state blob (``get_state`` / ``set_state``), built from minigrid or read back.

Layout (little-endian, version 1; see ``minigrid_env.h``)::

    b"MGS1"
    u8 width, u8 height
    width * height cells, row-major (y * width + x), 8 bytes each:
        type, colour, state, id, contents type, contents colour, contents state, contents id
    carrying: 8 bytes, the same (type 1 "empty" = nothing)
    i32 agent_x, agent_y, agent_dir, step_count, max_steps
    u16 n, n bytes of the mission (UTF-8)
    u16 m, m x i32: the env's own variables (``ENV_VARS``)

type / colour / state are minigrid's ``OBJECT_TO_IDX`` / ``COLOR_TO_IDX`` / door state (0 open,
1 closed, 2 locked). ``id`` tells objects apart (1-255, 0 none): ``from_minigrid`` numbers minigrid's
objects by identity.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MAGIC = b"MGS1"
EMPTY = (1, 0, 0, 0, 1, 0, 0, 0)

_TYPE = {"key": 5, "ball": 6, "box": 7}
_COLOR = {"red": 0, "green": 1, "blue": 2, "purple": 3, "yellow": 4, "grey": 5}
VarsFn = Callable[[Any, Callable[[Any], int]], list[int]]
# Per minigrid env class name: its own variables as int32s, in the order the C++ env's vars() has them.
# Called as fn(unwrapped_env, ids): ids(obj) is the id an object has in the blob.
ENV_VARS: dict[str, VarsFn] = {}


def env_vars(*cls_names: str) -> Callable[[VarsFn], VarsFn]:
    """Decorator: register the variables of the minigrid classes ``cls_names`` (see ``ENV_VARS``)."""

    def deco(fn: VarsFn) -> VarsFn:
        for name in cls_names:
            ENV_VARS[name] = fn
        return fn

    return deco


@env_vars("UnlockPickupEnv", "BlockedUnlockPickupEnv", "KeyCorridorEnv", "ObstructedMaze_1Dlhb", "ObstructedMaze_Full",
          "ObstructedMaze_Full_V1")
def _target(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [ids(env.obj)]


@env_vars("FetchEnv")
def _fetch(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [_TYPE[env.targetType], _COLOR[env.targetColor]]


@env_vars("DynamicObstaclesEnv")
def _obstacles(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [int(v) for ob in env.obstacles for v in ob.cur_pos]


def _find(env: Any, obj: Any) -> list[int]:
    """Where ``obj`` (that very object) is on the grid."""
    for y in range(env.grid.height):
        for x in range(env.grid.width):
            if env.grid.get(x, y) is obj:
                return [x, y]
    raise ValueError(f"{obj} is not on the grid")


@env_vars("GoToDoorEnv", "GoToObjectEnv")
def _target_pos(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [int(v) for v in env.target_pos]


@env_vars("PutNearEnv")
def _put_near(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [_TYPE[env.move_type], _COLOR[env.moveColor], *(int(v) for v in env.target_pos)]


@env_vars("MemoryEnv")
def _memory(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [int(v) for v in (*env.success_pos, *env.failure_pos)]


@env_vars("RedBlueDoorEnv")
def _red_blue(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [*_find(env, env.red_door), *_find(env, env.blue_door)]


@env_vars("UnlockEnv")
def _door(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return [int(v) for v in env.door.cur_pos]


@dataclass
class MinigridState:
    """A decoded state blob: ``cells[y][x]`` and ``carrying`` are 8-tuples as in the layout."""

    width: int
    height: int
    cells: list[list[tuple[int, ...]]]
    carrying: tuple[int, ...]
    agent_pos: tuple[int, int]
    agent_dir: int
    step_count: int
    max_steps: int
    mission: str
    vars: list[int] = field(default_factory=list)

    def pack(self) -> bytes:
        """The blob ``set_state`` takes."""
        out = bytearray(MAGIC)
        out += struct.pack("<BB", self.width, self.height)
        for row in self.cells:
            for cell in row:
                out += bytes(cell)
        out += bytes(self.carrying)
        out += struct.pack("<5i", *self.agent_pos, self.agent_dir, self.step_count, self.max_steps)
        mission = self.mission.encode("utf-8")
        out += struct.pack("<H", len(mission)) + mission
        out += struct.pack("<H", len(self.vars)) + struct.pack(f"<{len(self.vars)}i", *self.vars)
        return bytes(out)


def unpack(blob: bytes) -> MinigridState:
    """Decode a blob from ``get_state``."""
    if blob[:4] != MAGIC:
        raise ValueError("not a Minigrid state blob (MGS1)")
    w, h = blob[4], blob[5]
    pos = 6
    cells = []
    for _ in range(h):
        row = []
        for _ in range(w):
            row.append(tuple(blob[pos : pos + 8]))
            pos += 8
        cells.append(row)
    carrying = tuple(blob[pos : pos + 8])
    pos += 8
    ax, ay, d, steps, max_steps = struct.unpack_from("<5i", blob, pos)
    pos += 20
    (n,) = struct.unpack_from("<H", blob, pos)
    mission = blob[pos + 2 : pos + 2 + n].decode("utf-8")
    pos += 2 + n
    (m,) = struct.unpack_from("<H", blob, pos)
    values = list(struct.unpack_from(f"<{m}i", blob, pos + 2))
    return MinigridState(w, h, cells, carrying, (ax, ay), d, steps, max_steps, mission, values)


class ObjectIds:
    """Numbers minigrid objects by identity (1, 2, ...), as the C++ envs give ids.

    Pass one to ``from_minigrid`` for every state of an episode to keep each object's number.
    """

    def __init__(self) -> None:
        self.ids: dict[int, tuple[Any, int]] = {}  # id(obj) -> (obj, number); obj kept so id() is not reused

    def __call__(self, obj: Any) -> int:
        """The id of ``obj`` (0 for nothing or an object without identity)."""
        if obj is None or obj.type not in ("key", "ball", "box", "door"):
            return 0
        if id(obj) not in self.ids:
            self.ids[id(obj)] = (obj, len(self.ids) % 255 + 1)
        return self.ids[id(obj)][1]


def _cell(obj: Any, ids: ObjectIds) -> tuple[int, ...]:
    if obj is None:
        return EMPTY
    t, c, s = (int(v) for v in obj.encode())
    inner = EMPTY[:4]
    if obj.type == "box" and obj.contains is not None:
        it, ic, ist = (int(v) for v in obj.contains.encode())
        inner = (it, ic, ist, ids(obj.contains))
    return (t, c, s, ids(obj), *inner)


def from_minigrid(env: Any, ids: ObjectIds | None = None) -> MinigridState:
    """The state of a live minigrid env (``env.unwrapped`` taken here), to ``pack()`` for ``set_state``."""
    u = env.unwrapped
    ids = ObjectIds() if ids is None else ids
    cells = [[_cell(u.grid.get(x, y), ids) for x in range(u.grid.width)] for y in range(u.grid.height)]
    carrying = _cell(u.carrying, ids)
    ax, ay = (int(v) for v in u.agent_pos)
    fn = ENV_VARS.get(type(u).__name__)
    values = [int(v) for v in fn(u, ids)] if fn is not None else []
    return MinigridState(u.grid.width, u.grid.height, cells, carrying, (ax, ay), int(u.agent_dir),
                         int(u.step_count), int(u.max_steps), str(u.mission), values)
