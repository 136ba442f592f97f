"""BabyAI: minigrid 3.2.0's BabyAI-* levels, the levels and their instruction language in C++ (``babyai_*.cc``).

Each id is minigrid's, with its constructor options as task options. As in minigrid, ``max_steps`` (when not
given) is set each episode from the instruction: the navigations it needs (2 for a put-next, 1 for any other
action, summed over a sequence) times the maze's area (``room_size ** 2 * num_rows * num_cols``); the static
time limit is the largest such value. Missions are 512-byte arrays (EnvPool's size for BabyAI).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rlpool.envs.minigrid import babyai_state  # noqa: F401  (the levels' variables for from_minigrid)
from rlpool.registry import register


def _bound(navs: int, room_size: int, num_rows: int, num_cols: int) -> Callable[[dict[str, Any]], int]:
    """The largest per-episode max_steps: options override the level's fixed room layout where they exist."""

    def bound(o: dict[str, Any]) -> int:
        return navs * o.get("room_size", room_size) ** 2 * o.get("num_rows", num_rows) * o.get("num_cols", num_cols)

    return bound


def babyai(task_id: str, env_type: str, navs: int, layout: tuple[int, int, int] = (8, 1, 1), **defaults: Any) -> None:
    """Register a BabyAI id; ``navs``: the most navigations an instruction of the level needs; ``layout``: the
    level's default (room_size, num_rows, num_cols), which its options (``defaults``) override."""
    bound = _bound(navs, *layout)

    def prepare(options: dict[str, Any]) -> dict[str, Any]:
        if options["max_steps"] == 0:
            return {"max_steps": bound(options), "per_episode_max_steps": True}
        return {}

    register(task_id, env_type, max_episode_steps=bound(defaults), prepare=prepare,
             episode_steps=lambda o: int(o["max_steps"]), mission_bytes=512, **defaults)


# goto.py
babyai("BabyAI-GoToRedBallGrey-v0", "BabyAIGoToRedBallGrey", 1)
babyai("BabyAI-GoToRedBall-v0", "BabyAIGoToRedBall", 1)
babyai("BabyAI-GoToRedBallNoDists-v0", "BabyAIGoToRedBall", 1, num_dists=0)
babyai("BabyAI-GoToObj-v0", "BabyAIGoToObj", 1)
babyai("BabyAI-GoToObjS4-v0", "BabyAIGoToObj", 1, room_size=4)
babyai("BabyAI-GoToObjS6-v1", "BabyAIGoToObj", 1, room_size=6)
babyai("BabyAI-GoToLocal-v0", "BabyAIGoToLocal", 1)
for _s, _n in ((5, 2), (6, 2), (6, 3), (6, 4), (7, 4), (7, 5), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6), (8, 7)):
    babyai(f"BabyAI-GoToLocalS{_s}N{_n}-v0", "BabyAIGoToLocal", 1, room_size=_s, num_dists=_n)
babyai("BabyAI-GoTo-v0", "BabyAIGoTo", 1, (8, 3, 3))
babyai("BabyAI-GoToOpen-v0", "BabyAIGoTo", 1, (8, 3, 3), doors_open=True)
babyai("BabyAI-GoToObjMaze-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1)
babyai("BabyAI-GoToObjMazeOpen-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1, doors_open=True)
babyai("BabyAI-GoToObjMazeS4R2-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1, room_size=4, num_rows=2, num_cols=2)
for _s in (4, 5, 6, 7):
    babyai(f"BabyAI-GoToObjMazeS{_s}-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1, room_size=_s)
babyai("BabyAI-GoToImpUnlock-v0", "BabyAIGoToImpUnlock", 1, (8, 3, 3))
babyai("BabyAI-GoToRedBlueBall-v0", "BabyAIGoToRedBlueBall", 1)
babyai("BabyAI-GoToDoor-v0", "BabyAIGoToDoor", 1, (7, 3, 3))
babyai("BabyAI-GoToObjDoor-v0", "BabyAIGoToObjDoor", 1, (8, 3, 3))
