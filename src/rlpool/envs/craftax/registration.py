"""Craftax-Classic's task ids, EnvPool 1.2.7's (``envpool.craftax``), which are craftax 1.6.1's names.

``*-AutoReset-v1`` ids use craftax's ``EnvironmentAutoReset`` keys (the env option ``auto_reset``) and run in
the ``SameStep`` autoreset mode by default, as EnvPool's ``SAME_STEP``; the plain ids in ``NextStep``, rlpool's
default and EnvPool's ``NEXT_STEP``. The time limit is EnvPool's, 10,000 steps, which is also
craftax's ``max_timesteps`` (its game ends there too). EnvPool's other spelling, ``Craftax/Classic-Symbolic-v1``,
is registered for the EnvPool layer (``envpool.py``).

The pixel observation and ``render`` need craftax's textures: ``prepare`` builds the texture file once from
craftax's pinned wheel (``textures.py``) and hands the env its path, for the Pixels ids always and for the
Symbolic ids only where frames are drawn (``render_mode``).
"""

from __future__ import annotations

from typing import Any

from rlpool.registry import register

MAX_EPISODE_STEPS = 10000
"""EnvPool's ``max_episode_steps`` of the Classic ids (craftax's ``EnvParams.max_timesteps``)."""

TASKS: dict[str, tuple[str, bool]] = {
    "Craftax-Classic-Symbolic-v1": ("CraftaxClassicSymbolic", False),
    "Craftax-Classic-Symbolic-AutoReset-v1": ("CraftaxClassicSymbolic", True),
    "Craftax-Classic-Pixels-v1": ("CraftaxClassicPixels", False),
    "Craftax-Classic-Pixels-AutoReset-v1": ("CraftaxClassicPixels", True),
}
"""Task id -> (env type, auto_reset)."""


def _textures(options: dict[str, Any]) -> dict[str, Any]:
    """The texture file's path, where the env draws pixels (its observation, or frames for ``render``)."""
    from rlpool.envs.craftax import textures

    return {"_textures_file": str(textures.classic_textures_file())}


def _textures_when_rendering(options: dict[str, Any]) -> dict[str, Any]:
    return _textures(options) if options.get("_render") else {}


for _task_id, (_env_type, _auto_reset) in TASKS.items():
    register(
        _task_id,
        _env_type,
        max_episode_steps=MAX_EPISODE_STEPS,
        prepare=_textures if _env_type == "CraftaxClassicPixels" else _textures_when_rendering,
        autoreset_mode="SameStep" if _auto_reset else None,
        auto_reset=_auto_reset,
    )
