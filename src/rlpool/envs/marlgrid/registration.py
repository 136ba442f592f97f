"""MARLGrid's ids, as EnvPool 1.2.7's ``envpool.marlgrid`` registers them (its options, its 100-step limit).

EnvPool's ``max_episode_steps`` is also the horizon of its reward decay; here that is the env option
``max_steps`` (default 100), and the pool's ``max_episode_steps`` defaults to it. The ids keep EnvPool's
sizes, which are not always their names': ``MarlGrid-1AgentCluttered15x15-v0`` is an 11 x 11 grid there.
"""

from __future__ import annotations

from typing import Any

from rlpool.registry import register


def _steps(options: dict[str, Any]) -> int:
    return int(options["max_steps"])


def _marlgrid(task_id: str, **options: Any) -> None:
    register(task_id, "MarlGrid", max_episode_steps=100, episode_steps=_steps, **options)


def _clutter(grid_size: int, density: float) -> int:
    return int(density * (grid_size - 2) * (grid_size - 2))


_marlgrid("MarlGrid-1AgentCluttered15x15-v0", n_agents=1, env_name="cluttered", grid_size=11, view_size=5,
          n_clutter=30)
_marlgrid("MarlGrid-3AgentCluttered11x11-v0", n_agents=3, env_name="cluttered", grid_size=11, view_size=7,
          n_clutter=_clutter(11, 0.15))
_marlgrid("MarlGrid-3AgentCluttered15x15-v0", n_agents=3, env_name="cluttered", grid_size=15, view_size=7,
          n_clutter=_clutter(15, 0.15))
for _n in (2, 3, 4):
    _marlgrid(f"MarlGrid-{_n}AgentEmpty9x9-v0", n_agents=_n, env_name="empty", grid_size=9, view_size=7)
_marlgrid("Goalcycle-demo-solo-v0", n_agents=1, env_name="goalcycle", grid_size=13, view_size=7, view_offset=1,
          n_clutter=_clutter(13, 0.1), n_bonus_tiles=3, reward_decay=False)
