"""The Craftax tasks through ``rlpool.compat.envpool``: EnvPool 1.2.7's ids, options and config.

EnvPool also names each task ``Craftax/Classic-Symbolic-v1`` (its alias of ``Craftax-Classic-Symbolic-v1``;
full Craftax's ``Craftax/Symbolic-v1`` ... likewise). Its Craftax config has one key set for Classic and full
Craftax, with keys for features rlpool does not have (the map and mob-slot sizes, ``fractal_noise_angles``,
``render_tile_size``, ``initial_state``, ``debug_state``) and keys of the other game (Classic has no
``god_mode`` or ``max_attribute``, full Craftax no mob healths or spawn chances): each is taken at EnvPool's
value for the task, a fact of the task here, and refused by name otherwise. The config is reported in
EnvPool's order, its float options as the float32 values EnvPool holds. As in EnvPool, a pool with
``auto_reset`` (the ``-AutoReset-`` ids) runs in the ``SameStep`` autoreset mode unless the call names another
``autoreset_mode``.

Not EnvPool's: the info has no ``state`` entry (``get_state`` gives the state instead).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import EnvPoolError, FamilyLayout, register_ids, register_layout
from rlpool.envs.craftax.registration import FULL_TASKS, TASKS

_COMMON_FACTS: dict[str, Any] = {
    "max_melee_mobs": 3,
    "max_passive_mobs": 3,
    "max_ranged_mobs": 2,
    "max_mob_projectiles": 3,
    "max_player_projectiles": 3,
    "max_growing_plants": 10,
    "fractal_noise_angles": [[], [], [], []],
    "render_tile_size": 16,
    "initial_state": [],
    "debug_state": False,
}
_FACTS: dict[str, Any] = {"map_size": [64, 64], "num_levels": 1, "god_mode": False, "max_attribute": 5,
                          **_COMMON_FACTS}
"""EnvPool's Craftax-Classic config keys that rlpool's env has no option for, with their only value here."""
_FULL_FACTS: dict[str, Any] = {
    "map_size": [48, 48], "num_levels": 9, **_COMMON_FACTS, "zombie_health": 5, "cow_health": 3,
    "skeleton_health": 3, "spawn_cow_chance": 0.1, "spawn_zombie_base_chance": 0.02,
    "spawn_zombie_night_chance": 0.1, "spawn_skeleton_chance": 0.05,
}
"""The same for full Craftax: EnvPool's defaults of the keys full Craftax's game has no parameter for."""

_ORDER = (
    "map_size", "num_levels", "day_length", "always_diamond", "god_mode", "mob_despawn_distance", "max_attribute",
    "max_melee_mobs", "max_passive_mobs", "max_ranged_mobs", "max_mob_projectiles", "max_player_projectiles",
    "max_growing_plants", "zombie_health", "cow_health", "skeleton_health", "spawn_cow_chance",
    "spawn_zombie_base_chance", "spawn_zombie_night_chance", "spawn_skeleton_chance", "fractal_noise_angles",
    "auto_reset", "render_tile_size", "initial_state", "debug_state",
)
"""EnvPool 1.2.7's Craftax config keys after its pool keys, in its order."""

_FLOAT32 = ("spawn_cow_chance", "spawn_zombie_base_chance", "spawn_zombie_night_chance", "spawn_skeleton_chance")


def _same(value: Any, fact: Any) -> bool:
    if isinstance(fact, bool):
        return isinstance(value, (bool, np.bool_)) and bool(value) == fact
    if isinstance(fact, int):
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and value == fact
    if isinstance(fact, float):
        return (isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
                and np.float32(value) == np.float32(fact))
    try:
        return np.asarray(value, dtype=object).tolist() == fact or (
            fact == [[], [], [], []] and [list(v) for v in value] == fact
        )
    except TypeError:
        return False


class CraftaxLayout(FamilyLayout):
    """EnvPool's face of a Craftax task.

    ``auto_reset``: the task's default of that option; ``facts``: EnvPool's keys without an rlpool option, at
    their one value; ``game``: the game's name in messages.
    """

    def __init__(self, auto_reset: bool, facts: dict[str, Any], game: str) -> None:
        self.auto_reset = auto_reset
        self.facts = facts
        self.game = game

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's keys rlpool lacks, checked against their one value here and dropped; SameStep with auto_reset."""
        opts = dict(opts)
        if opts.get("auto_reset", self.auto_reset) is True and "autoreset_mode" not in opts:
            opts["autoreset_mode"] = "SameStep"
        for key, fact in self.facts.items():
            if key in opts:
                value = opts.pop(key)
                if not _same(value, fact):
                    raise EnvPoolError(f"{key}={value!r}: rlpool's {self.game} has {key} {fact!r} only "
                                       f"(EnvPool's value; rlpool has no option for it)")
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's config: its keys in its order, then rlpool's others."""
        rest = dict(config)
        mode = rest.pop("autoreset_mode")
        head = list(rest)[: list(rest).index("reward_threshold") + 1]
        out = {k: rest.pop(k) for k in head}
        for key in _ORDER:
            value = rest.pop(key) if key in rest else self.facts[key]
            out[key] = float(np.float32(value)) if key in _FLOAT32 else value
        return {**out, **rest, "autoreset_mode": mode}


_LAYOUTS = {
    (full, auto_reset): CraftaxLayout(auto_reset, _FULL_FACTS if full else _FACTS,
                                      "Craftax" if full else "Craftax-Classic")
    for full in (False, True) for auto_reset in (False, True)
}


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    if env_type not in ("CraftaxClassicSymbolic", "CraftaxClassicPixels", "CraftaxSymbolic", "CraftaxPixels"):
        return None
    from rlpool.registry import task

    full = not env_type.startswith("CraftaxClassic")
    return _LAYOUTS[(full, bool(task(task_id).env_defaults.get("auto_reset", False)))]


register_ids({"Craftax/" + task_id.removeprefix("Craftax-"): (task_id, {}) for task_id in (*TASKS, *FULL_TASKS)})
