"""highway-env's multi-agent intersection through ``rlpool.compat.envpool``: EnvPool 1.2.7's option and layout.

EnvPool 1.2.7's IntersectionMultiAgent-v0/-v1/-v2 take ``terminate_on_any_crash`` (True for -v0, False for
-v1/-v2): True ends the episode at any player's crash, as rlpool's env does without its option
``multi_agent_wrapper`` (highway-env's plain multi-agent env); False lets each player finish on its own, as
with ``multi_agent_wrapper=True`` (highway-env's MultiAgentWrapper). ``config`` reports it under EnvPool's
name. EnvPool declares one player's observation as ``players.obs`` (a field of the dm ``State``'s
``players``), and gives each player's ``speed`` and ``crashed`` under ``info["players"]``: rlpool's env has
those per env (the first vehicle's), so they stay per-env entries until it has per-agent ones
(``agents_speed``/``agents_crashed``, which this layout would show as EnvPool's).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import FamilyLayout, register_layout

_OPTION = "terminate_on_any_crash"


class MultiAgentIntersectionLayout(FamilyLayout):
    """EnvPool 1.2.7's IntersectionMultiAgent ids: ``terminate_on_any_crash`` and ``players.obs``."""

    player_obs_key = "players.obs"
    state_terminated = True
    info_fields = {"players.speed": "agents_speed", "players.crashed": "agents_crashed"}  # noqa: RUF012
    info_dtypes = {"players.speed": np.float32}  # noqa: RUF012 - read-only class default

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's ``terminate_on_any_crash`` as rlpool's ``multi_agent_wrapper`` (its negation)."""
        if _OPTION not in opts:
            return opts
        opts = dict(opts)
        value = opts.pop(_OPTION)
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{_OPTION} must be a bool, got {value!r}")
        if "multi_agent_wrapper" in opts and bool(opts["multi_agent_wrapper"]) == bool(value):
            raise ValueError(f"{_OPTION}={value!r} contradicts multi_agent_wrapper={opts['multi_agent_wrapper']!r}")
        opts["multi_agent_wrapper"] = not value
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """``multi_agent_wrapper`` under EnvPool's name, ``terminate_on_any_crash`` (its negation)."""
        return {(_OPTION if k == "multi_agent_wrapper" else k): (not v if k == "multi_agent_wrapper" else v)
                for k, v in config.items()}


_LAYOUT = MultiAgentIntersectionLayout()


@register_layout
def _highway_layout(task_id: str, env_type: str) -> Any:
    return _LAYOUT if env_type == "MultiAgentIntersectionEnv" else None
