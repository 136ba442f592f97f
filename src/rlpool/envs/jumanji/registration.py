"""Jumanji's task ids, EnvPool 1.2.7's (``envpool.jumanji``), which are jumanji 1.1.2's registered names.

Each id is jumanji's environment with its default generator; the time limits are EnvPool's, which are
jumanji's own (its ``time_limit``, or the most steps an episode can take where the game has none). EnvPool's
other spelling, ``Jumanji/<id>``, and its ``Connector-v2`` are registered for the EnvPool layer
(``envpool.py``).
"""

from __future__ import annotations

from typing import Any

from rlpool.envs.jumanji import pac_man_data, sokoban_data, sudoku_data
from rlpool.registry import register

TASKS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "SlidingTilePuzzle-v0": ("JumanjiSlidingTilePuzzle", 500, {}),
    "Minesweeper-v0": ("JumanjiMinesweeper", 90, {}),
    "Sudoku-v0": ("JumanjiSudoku", 81, {"prepare": sudoku_data.prepare}),
    "Sudoku-very-easy-v0": ("JumanjiSudoku", 81, {"sudoku_database": "very-easy", "prepare": sudoku_data.prepare}),
    "GraphColoring-v1": ("JumanjiGraphColoring", 20, {}),
    "Snake-v1": ("JumanjiSnake", 4000, {}),
    "RubiksCube-v0": ("JumanjiRubiksCube", 200, {}),
    "RubiksCube-partly-scrambled-v0": ("JumanjiRubiksCube", 20, {"num_scrambles_on_reset": 7, "time_limit": 20}),
    "Game2048-v1": ("JumanjiGame2048", 1000, {}),
    "TSP-v1": ("JumanjiTSP", 20, {}),
    "CVRP-v1": ("JumanjiCVRP", 40, {}),
    "MultiCVRP-v0": ("JumanjiMultiCVRP", 40, {}),
    "Knapsack-v1": ("JumanjiKnapsack", 50, {}),
    "BinPack-v2": ("JumanjiBinPack", 20, {}),
    "JobShop-v0": ("JumanjiJobShop", 1000, {}),
    "Maze-v0": ("JumanjiMaze", 100, {}),
    "Tetris-v0": ("JumanjiTetris", 400, {}),
    "FlatPack-v0": ("JumanjiFlatPack", 25, {}),
    "PacMan-v1": ("JumanjiPacMan", 1000, {"prepare": pac_man_data.prepare}),
    "SearchAndRescue-v0": ("JumanjiSearchAndRescue", 400, {}),
    "LevelBasedForaging-v0": ("JumanjiLevelBasedForaging", 100, {}),
    "RobotWarehouse-v0": ("JumanjiRobotWarehouse", 500, {}),
    "Cleaner-v0": ("JumanjiCleaner", 100, {}),
    "Connector-v3": ("JumanjiConnector", 50, {}),
    "MMST-v0": ("JumanjiMMST", 70, {}),
    "Sokoban-v0": ("JumanjiSokoban", 120, {"prepare": sokoban_data.prepare}),
}
"""Task id -> (env type, max_episode_steps, the env type's options that make it this task)."""

for _task_id, (_env_type, _steps, _options) in TASKS.items():
    register(_task_id, _env_type, max_episode_steps=_steps, **_options)
