"""The Procgen games through ``rlpool.compat.envpool``: EnvPool 1.2.5's frames, options and config.

EnvPool gives (3, 64, 64) frames by default (``channel_first``), takes ``env_name`` and an int
``distribution_mode``, reports its config keys in its order (no ``reward_threshold``) and gives
``prev_level_complete`` as int32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool import registry
from rlpool.compat.envpool.layouts import FamilyLayout, register_layout
from rlpool.envs.procgen.registration import DISTRIBUTION_MODES

# EnvPool's Procgen config after the pool keys (it has no reward_threshold), distribution_mode an int.
_PROCGEN_ORDER = (
    "env_name", "channel_first", "num_levels", "start_level", "use_sequential_levels", "center_agent",
    "use_backgrounds", "use_monochrome_assets", "restrict_themes", "use_generated_assets", "paint_vel_info",
    "use_easy_jump", "distribution_mode",
)


class ProcgenLayout(FamilyLayout):
    """EnvPool's Procgen: (3, 64, 64) frames by default (``channel_first``), its config keys and int32 info.

    One per make() call (``channel_first`` is an option of that call).
    """

    info_dtypes = {"prev_level_complete": np.int32}  # noqa: RUF012 - read-only class default
    xla_ok = False  # np.moveaxis of traced arrays

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.game = registry.task(task_id).env_defaults["_game"]
        self.channel_first = True

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """Take ``channel_first``, check ``env_name`` and ``use_easy_jump``, name an int ``distribution_mode``."""
        opts = dict(opts)
        channel_first = opts.pop("channel_first", True)
        if not isinstance(channel_first, (bool, np.bool_)):
            raise TypeError(f"channel_first must be a bool, got {channel_first!r}")
        self.channel_first = bool(channel_first)
        env_name = opts.pop("env_name", self.game)
        if env_name != self.game:
            raise ValueError(f"env_name of {self.task_id} is {self.game!r}; make that game's task instead of "
                             f"{env_name!r}")
        if opts.pop("use_easy_jump", False):
            raise ValueError("use_easy_jump=True is not supported (procgen's Python interface does not offer it)")
        mode = opts.get("distribution_mode")
        if mode is not None and not isinstance(mode, str):
            if isinstance(mode, (bool, np.bool_)) or int(mode) not in DISTRIBUTION_MODES:
                raise ValueError(f"distribution_mode must be one of {sorted(DISTRIBUTION_MODES)}, got {mode!r}")
            opts["distribution_mode"] = DISTRIBUTION_MODES[int(mode)]
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's Procgen config, in its order (``distribution_mode`` an int)."""
        env = dict(config)
        env.pop("reward_threshold")
        modes = {name: number for number, name in DISTRIBUTION_MODES.items()}
        env.update(env_name=self.game, channel_first=self.channel_first, use_easy_jump=False,
                   distribution_mode=modes[env["distribution_mode"]])
        ordered = {k: env[k] for k in env if k not in _PROCGEN_ORDER and k != "autoreset_mode"}
        ordered.update({k: env[k] for k in _PROCGEN_ORDER})
        ordered["autoreset_mode"] = env["autoreset_mode"]
        return ordered

    def observation_space(self, space: Any) -> Any:
        """(3, 64, 64) frames with ``channel_first``, else rlpool's."""
        if not self.channel_first:
            return space
        from gymnasium import spaces

        return spaces.Box(0, 255, (space.shape[2], *space.shape[:2]), np.uint8)

    def obs(self, obs: Any) -> Any:
        """The frames channel first where asked."""
        return np.ascontiguousarray(np.moveaxis(obs, -1, -3)) if self.channel_first else obs


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return ProcgenLayout(task_id) if env_type == "Procgen" else None
