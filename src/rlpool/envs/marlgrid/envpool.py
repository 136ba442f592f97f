"""The MARLGrid tasks through ``rlpool.compat.envpool``: EnvPool 1.2.7's names of the per-player info.

EnvPool 1.2.7 gives each player's ``id`` (its index in its env, bounded by ``max_num_players``), ``done``,
``active``, ``pos`` (in ``[-1, grid_size]``) and ``dir`` (0-3) under ``info["players"]``; rlpool's env has
them as ``agent_done``, ``agent_active``, ``agent_pos`` and ``agent_dir`` with the agent axis first.
"""

from __future__ import annotations

from typing import Any

from rlpool.compat.envpool.layouts import FamilyLayout, register_layout


class MarlGridLayout(FamilyLayout):
    """EnvPool 1.2.7's MARLGrid: its per-player info names, order and bounds."""

    player_id_key = "players.id"
    info_fields = {"players.done": "agent_done", "players.active": "agent_active",  # noqa: RUF012 - read-only
                   "players.pos": "agent_pos", "players.dir": "agent_dir"}
    info_order = ("players.done", "players.active", "players.pos", "players.dir")
    info_bounds = {"players.pos": lambda config: (-1, config["grid_size"]),  # noqa: RUF012 - read-only
                   "players.dir": (0, 3)}


_LAYOUT = MarlGridLayout()


@register_layout
def _marlgrid_layout(task_id: str, env_type: str) -> Any:
    return _LAYOUT if env_type == "MarlGrid" else None
