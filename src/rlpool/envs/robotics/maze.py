"""PointMaze's mazes: the ``maze_map`` option, and the MuJoCo model gymnasium-robotics builds for a maze.

gymnasium-robotics (``envs/maze/maze_v4.py``, ``Maze.make_maze``) writes a model per maze at run time: its
``point/point.xml`` with a box per wall cell and a ``target`` site appended to the world body. rlpool builds
the same XML text from the installed package's ``point.xml``, keeps it in its cache under a name made of its
hash, and hands the C++ env that file and the maze's layout. The named maps are gymnasium-robotics' own
(``envs/maze/maps.py``, read from the installed package).

A layout is written as rows joined by ``/``, cells by spaces: ``"1 1 1 1/1 r g 1/1 1 1 1"``. Cells are 1
(wall), 0 (empty), ``r`` (where the ball may start), ``g`` (where the goal may be) and ``c`` (either).
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import cache
from typing import Any

from rlpool.cache import cache_root, write_atomically
from rlpool.envs.robotics import assets_dir

MAZE_SIZE_SCALING = 1.0
"""Size of a cell (m): PointMazeEnv fixes it at 1."""
MAZE_HEIGHT = 0.4
"""Height of the walls (m): PointMazeEnv fixes it at 0.4."""
CELLS = ("1", "0", "r", "g", "c")
MAX_CELLS = 10_000
"""Largest maze (rows x columns) rlpool builds a model of."""

_lock = threading.Lock()


@cache
def named_maps(task_id: str = "PointMaze") -> dict[str, list[list[Any]]]:
    """gymnasium-robotics' maps by name (``"U_MAZE"``, ``"LARGE_MAZE_DIVERSE_GR"``, ...), from its ``maps.py``.

    The file is loaded on its own: importing it as ``gymnasium_robotics.envs.maze.maps`` would run
    gymnasium_robotics' ``__init__`` (it registers every env and imports PettingZoo).
    """
    path = assets_dir(task_id).parent / "maze" / "maps.py"
    spec = importlib.util.spec_from_file_location("_rlpool_gymnasium_robotics_maps", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {
        name: value
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, list) and value and all(isinstance(r, list) for r in value)
    }


def rows_of(maze_map: Any) -> str:
    """The layout string of ``maze_map``, a list of rows as gymnasium-robotics takes it.

    A ValueError names what is wrong with it.
    """
    if isinstance(maze_map, str) or not isinstance(maze_map, (list, tuple)) or not maze_map:
        raise ValueError(f"maze_map must be a non-empty list of rows (lists of cells), got {maze_map!r}")
    rows = []
    width = None
    for i, row in enumerate(maze_map):
        if not isinstance(row, (list, tuple)) or not row:
            raise ValueError(f"maze_map row {i} must be a non-empty list of cells, got {row!r}")
        if width is not None and len(row) != width:
            raise ValueError(f"maze_map rows must have the same length: row 0 has {width} cells, row {i} {len(row)}")
        width = len(row)
        cells = []
        for j, cell in enumerate(row):
            text = str(cell) if isinstance(cell, (int, str)) and not isinstance(cell, bool) else None
            if text not in CELLS:
                raise ValueError(
                    f"maze_map[{i}][{j}] is {cell!r}; a cell is 1 (wall), 0 (empty), 'r' (reset), 'g' (goal) or "
                    "'c' (either)"
                )
            cells.append(text)
        rows.append(" ".join(cells))
    if len(rows) * (width or 0) > MAX_CELLS:
        raise ValueError(f"maze_map has {len(rows)} x {width} cells; rlpool builds mazes of up to {MAX_CELLS} cells")
    return "/".join(rows)


def layout(maze_map: str, task_id: str = "PointMaze") -> str:
    """The layout string of a ``maze_map`` option value: a map's name (``"U_MAZE"``) or a layout string."""
    if "/" not in maze_map and " " not in maze_map:
        maps = named_maps(task_id)
        if maze_map not in maps:
            raise ValueError(
                f"maze_map {maze_map!r} is not one of gymnasium-robotics' maps ({', '.join(sorted(maps))}) nor a "
                "layout (rows joined by '/', cells by spaces)"
            )
        return rows_of(maps[maze_map])
    return rows_of([row.split(" ") for row in maze_map.split("/")])


def encode(options: dict[str, Any]) -> dict[str, Any]:
    """``maze_map`` given as a list of rows (gymnasium-robotics' form) written as its layout string."""
    value = options.get("maze_map")
    if value is not None and not isinstance(value, str):
        options = {**options, "maze_map": rows_of(value)}
    return options


def maze_xml(rows: str, task_id: str = "PointMaze") -> str:
    """Path of the model of the maze ``rows`` (a layout string), written to rlpool's cache on first use.

    The text is what gymnasium-robotics' ``Maze.make_maze`` writes: the same elements and attributes, numbers
    formatted as its f-strings format them.
    """
    tree = ET.parse(assets_dir(task_id) / "point" / "point.xml")
    worldbody = tree.find(".//worldbody")
    assert worldbody is not None
    grid = [row.split(" ") for row in rows.split("/")]
    scale, height = MAZE_SIZE_SCALING, MAZE_HEIGHT
    x_center = len(grid[0]) / 2 * scale
    y_center = len(grid) / 2 * scale
    for i, row in enumerate(grid):
        for j, cell in enumerate(row):
            if cell != "1":
                continue
            x = (j + 0.5) * scale - x_center
            y = y_center - (i + 0.5) * scale
            ET.SubElement(
                worldbody,
                "geom",
                name=f"block_{i}_{j}",
                pos=f"{x} {y} {height / 2 * scale}",
                size=f"{0.5 * scale} {0.5 * scale} {height / 2 * scale}",
                type="box",
                material="",
                contype="1",
                conaffinity="1",
                rgba="0.7 0.5 0.3 1.0",
            )
    ET.SubElement(
        worldbody, "site", name="target", pos=f"0 0 {height / 2 * scale}", size=f"{0.2 * scale}",
        rgba="1 0 0 0.7", type="sphere",
    )
    text = ET.tostring(tree.getroot(), encoding="unicode")
    path = cache_root() / "robotics" / f"point_maze-{hashlib.sha256(text.encode()).hexdigest()[:20]}.xml"
    with _lock:
        if not path.is_file():
            write_atomically(path, text.encode())
    return str(path)


def preparer(task_id: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The ``prepare`` of a PointMaze task: its hidden options, the maze's model file and its layout."""

    def prepare(config: dict[str, Any]) -> dict[str, Any]:
        rows = layout(config["maze_map"], task_id)
        return {"_xml_file": maze_xml(rows, task_id), "_maze_layout": rows}

    return prepare
