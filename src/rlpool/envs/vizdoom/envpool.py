"""The ViZDoom tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's reward, info, action spec and config.

EnvPool's ViZDoom rewards game-variable changes (its ``reward_config``) and gives 16 info entries; the
env does both itself when asked (``use_reward_config``, ``envpool_info``), which the layout does. EnvPool
declares the combined action a float64 and shows the dict options in its config as float32 values in
sorted dicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import FamilyLayout, register_layout
from rlpool.envs.vizdoom.registration import decode_options

# EnvPool's ViZDoom config after the pool keys (it has no reward_threshold).
_VIZDOOM_ORDER = (
    "img_height", "img_width", "stack_num", "frame_skip", "lmp_save_dir", "episodic_life", "force_speed",
    "use_combined_action", "use_inter_area_resize", "weapon_duration", "reward_config",
    "selected_weapon_reward_config", "delta_button_config", "cfg_path", "wad_path", "vzd_path", "iwad_path",
    "game_args", "map_id",
)


class VizdoomLayout(FamilyLayout):
    """EnvPool's ViZDoom: its reward from game-variable changes, its 16 info entries, its config.

    The env does EnvPool's reward (``use_reward_config``) and info (``envpool_info``) itself; the
    config shows the dict options as EnvPool does (float32 values in sorted dicts).
    """

    discrete_action_dtype = np.float64  # EnvPool declares the combined action a float64 in [0, n - 1]

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """The env's EnvPool reward and info turned on (a caller may still turn them off)."""
        return {"use_reward_config": True, "envpool_info": True, **opts}

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's ViZDoom config: dict options decoded, rlpool's own switches left out, in its order."""
        env = decode_options(config)
        for key in ("reward_threshold", "use_reward_config", "envpool_info"):
            env.pop(key, None)
        ordered = {k: env[k] for k in env if k not in _VIZDOOM_ORDER and k != "autoreset_mode"}
        ordered.update({k: env[k] for k in _VIZDOOM_ORDER})
        ordered["autoreset_mode"] = env["autoreset_mode"]
        return ordered


_LAYOUT = VizdoomLayout()


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _LAYOUT if env_type == "Vizdoom" else None
