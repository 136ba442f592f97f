"""The Atari games through ``rlpool.compat.envpool``: EnvPool 1.2.5's Atari config and specs, and its ids.

EnvPool reads only the top 210 rows of the games with taller screens, and its frame skip goes on past a
lost life (``episodic_life``) and shows its own frame where a game ends inside it: the layout turns on
the env options that do the same (``crop_210``, ``envpool_frame_skip``). EnvPool's config has no
``reward_threshold`` and names the game as ``task``, in its own order; its spec bounds ``terminated``
to {0, 1}. ``TicTacToe3d-v5`` is EnvPool's spelling of ``TicTacToe3D-v5``.
"""

from __future__ import annotations

import os
from typing import Any

from rlpool.compat.envpool.layouts import FamilyLayout, register_ids, register_layout

# EnvPool's Atari config: no reward_threshold, the game as `task` (rlpool resolves it to `rom_path`).
_ATARI_ORDER = (
    "stack_num", "frame_skip", "noop_max", "zero_discount_on_life_loss", "episodic_life", "reward_clip",
    "use_fire_reset", "img_height", "img_width", "task", "mode", "difficulty", "full_action_space",
    "repeat_action_probability", "use_inter_area_resize", "gray_scale",
)


class AtariLayout(FamilyLayout):
    """EnvPool's Atari: its frame handling as option defaults, its config, ``terminated``'s bounds."""

    info_bounds = {"terminated": (0, 1)}  # noqa: RUF012 - EnvPool's spec: a DiscreteArray of 2 values
    defaults = {"crop_210": True, "envpool_frame_skip": True}  # noqa: RUF012 - read-only class default

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's Atari config: the game as ``task``, no ``reward_threshold`` nor rlpool's own options."""
        env = dict(config)
        env["task"] = os.path.splitext(os.path.basename(env.pop("rom_path")))[0]
        env.pop("reward_threshold")
        for own in self.defaults:  # rlpool's own options (set above): not in EnvPool's config
            env.pop(own, None)
        head = [k for k in env if k not in _ATARI_ORDER and k != "autoreset_mode"]
        ordered = {k: env[k] for k in head}
        ordered.update({k: env[k] for k in _ATARI_ORDER if k in env})
        ordered["autoreset_mode"] = env["autoreset_mode"]
        return ordered


_LAYOUT = AtariLayout()


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _LAYOUT if env_type == "Atari" else None


register_ids({"TicTacToe3d-v5": ("TicTacToe3D-v5", {})})
