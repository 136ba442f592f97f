"""Craftax's task ids, EnvPool 1.2.7's (``envpool.craftax``), which are craftax 1.6.1's names.

Craftax-Classic (``Craftax-Classic-*``) and full Craftax (``Craftax-Symbolic-*``, ``Craftax-Pixels-*``).
``*-AutoReset-v1`` ids use craftax's ``EnvironmentAutoReset`` keys (the env option ``auto_reset``) and run in
the ``SameStep`` autoreset mode by default, as EnvPool's ``SAME_STEP``; the plain ids in ``NextStep``, rlpool's
default and EnvPool's ``NEXT_STEP``. The time limits are EnvPool's, 10,000 steps for Classic and 100,000 for
full Craftax, which are also craftax's ``max_timesteps`` (its game ends there too). EnvPool's other spelling,
``Craftax/Classic-Symbolic-v1`` or ``Craftax/Symbolic-v1``, is registered for the EnvPool layer (``envpool.py``).

The pixel observation and ``render`` need craftax's textures: ``prepare`` builds the texture file once from
craftax's pinned wheel (``textures.py``) and hands the env its path, for the Pixels ids always and for the
Symbolic ids only where frames are drawn (``render_mode``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rlpool.registry import register

MAX_EPISODE_STEPS = 10000
"""EnvPool's ``max_episode_steps`` of the Classic ids (craftax's ``EnvParams.max_timesteps``)."""
FULL_MAX_EPISODE_STEPS = 100000
"""EnvPool's ``max_episode_steps`` of the full Craftax ids (craftax's ``EnvParams.max_timesteps``)."""

TASKS: dict[str, tuple[str, bool]] = {
    "Craftax-Classic-Symbolic-v1": ("CraftaxClassicSymbolic", False),
    "Craftax-Classic-Symbolic-AutoReset-v1": ("CraftaxClassicSymbolic", True),
    "Craftax-Classic-Pixels-v1": ("CraftaxClassicPixels", False),
    "Craftax-Classic-Pixels-AutoReset-v1": ("CraftaxClassicPixels", True),
}
"""Craftax-Classic's task id -> (env type, auto_reset)."""
FULL_TASKS: dict[str, tuple[str, bool]] = {
    "Craftax-Symbolic-v1": ("CraftaxSymbolic", False),
    "Craftax-Symbolic-AutoReset-v1": ("CraftaxSymbolic", True),
    "Craftax-Pixels-v1": ("CraftaxPixels", False),
    "Craftax-Pixels-AutoReset-v1": ("CraftaxPixels", True),
}
"""Full Craftax's task id -> (env type, auto_reset)."""


def _classic_textures(options: dict[str, Any]) -> dict[str, Any]:
    """Craftax-Classic's texture file's path, where the env draws pixels (its observation, or frames)."""
    from rlpool.envs.craftax import textures

    return {"_textures_file": str(textures.classic_textures_file())}


def _full_textures(options: dict[str, Any]) -> dict[str, Any]:
    """Full Craftax's texture file's path, where the env draws pixels (its observation, or frames)."""
    from rlpool.envs.craftax import textures

    return {"_textures_file": str(textures.full_textures_file())}


def _when_rendering(textures: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def prepare(options: dict[str, Any]) -> dict[str, Any]:
        return textures(options) if options.get("_render") else {}

    return prepare


for _tasks, _steps, _textures in ((TASKS, MAX_EPISODE_STEPS, _classic_textures),
                                  (FULL_TASKS, FULL_MAX_EPISODE_STEPS, _full_textures)):
    for _task_id, (_env_type, _auto_reset) in _tasks.items():
        register(
            _task_id,
            _env_type,
            max_episode_steps=_steps,
            prepare=_textures if _env_type.endswith("Pixels") else _when_rendering(_textures),
            autoreset_mode="SameStep" if _auto_reset else None,
            auto_reset=_auto_reset,
        )
