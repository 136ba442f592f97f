"""The Minigrid and BabyAI tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's option names and obs.

EnvPool names some options in snake case where minigrid (and rlpool) use minigrid's own names, takes
pairs (``agent_start_pos``, ``agent_room``) where rlpool takes two ints, gives ``direction`` as int32 (its
spec a per-player ``[-1]`` entry) and the observation's keys sorted, as gymnasium's ``Dict`` sorts them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import FamilyLayout, is_sequence, register_layout

# EnvPool's names of Minigrid options whose rlpool name is minigrid's own.
_MINIGRID_RENAMES = {"num_objs": "numObjs", "min_num_rooms": "minNumRooms", "max_num_rooms": "maxNumRooms",
                     "max_room_size": "maxRoomSize"}
# EnvPool's pair options -> rlpool's two int options ((-1, -1): None, a random start).
_MINIGRID_PAIRS = {"agent_start_pos": ("agent_start_x", "agent_start_y"),
                   "agent_room": ("agent_room_i", "agent_room_j")}


class MinigridLayout(FamilyLayout):
    """EnvPool's Minigrid and BabyAI: its option names, and ``direction`` as int32."""

    casts: dict[str, Any] = {"direction": np.int32}  # noqa: RUF012 - read-only class default

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's option names and pairs as rlpool's."""
        opts = dict(opts)
        for old, new in _MINIGRID_RENAMES.items():
            if old in opts:
                opts[new] = opts.pop(old)
        for pair, (a, b) in _MINIGRID_PAIRS.items():
            if pair in opts:
                value = opts.pop(pair)
                if not is_sequence(value) or len(value) != 2:
                    raise TypeError(f"{pair} must be a pair of ints, got {value!r}")
                opts[a], opts[b] = (int(v) for v in value)
        return opts

    def obs(self, obs: Any) -> Any:
        """The observation dict with EnvPool's dtypes (``direction`` int32), its keys sorted."""
        return {k: obs[k].astype(self.casts[k]) if k in self.casts else obs[k] for k in sorted(obs)}

    def observation_space(self, space: Any) -> Any:
        """The ``Dict`` of rlpool, its keys sorted."""
        from gymnasium import spaces

        return spaces.Dict(dict(space.spaces))  # a plain dict: gymnasium sorts its keys

    def obs_keys(self, rlpool_spec: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The task's own keys, sorted."""
        return tuple(sorted((a.name, tuple(a.shape)) for a in rlpool_spec.arrays.obs))

    def obs_entry_spec(self, key: str, spec: Any) -> Any:
        """``direction``: int32, a per-player ``[-1]`` entry."""
        if key in self.casts:
            spec.dtype, spec.shape = np.dtype(self.casts[key]), [-1]
        return spec


_LAYOUT = MinigridLayout()


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _LAYOUT if env_type.startswith(("MiniGrid", "BabyAI")) else None
