"""The options every pool takes (EnvPool's names and defaults), and the checks of option values.

The registry, the spec and the backends share these checks: ints in range, env ids, seeds, and env
options against the type of their default.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool import _rlpool_core as _core

AUTORESET_MODES: tuple[str, ...] = _core.AUTORESET_MODES
MAX_ENVS = 1 << 20
MAX_THREADS = 1024

# Pool options every task takes, with EnvPool's names and defaults. None means
# "derived" (batch_size = num_envs, num_threads = min(batch_size, cores),
# max_episode_steps = the task's own limit).
POOL_OPTIONS: dict[str, Any] = {
    "num_envs": 1,
    "batch_size": None,
    "num_threads": None,
    "seed": 42,
    "max_episode_steps": None,
    "autoreset_mode": "NextStep",
    "thread_affinity_offset": -1,
    "max_num_players": None,
    "gym_reset_return_info": True,
    "reward_threshold": None,
    "render_mode": None,
    "render_env_id": 0,
    "render_width": None,
    "render_height": None,
    "render_camera_id": -1,
}

RENDER_MODES: tuple[str | None, ...] = (None, "rgb_array", "human")


def coerce(name: str, value: Any, default: Any, may_be_inf: bool = False) -> Any:
    """Type-check an env option against the type of its default, without lossy casts.

    Ints must fit the engine's int64; floats must be finite (NaN never passes; +-inf only where the
    option says ``may_be_inf``, as an env type declares in C++, e.g. a bound meaning "none"). A wrong
    type is a TypeError, a bad value a ValueError naming the option.
    """
    if isinstance(default, bool):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
    elif isinstance(default, int):
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            number = int(value)
            if not -(2**63) <= number < 2**63:
                raise ValueError(
                    f"option {name!r} is out of the int64 range [-2**63, 2**63 - 1], got {number}"
                )
            return number
    elif isinstance(default, float):
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
            try:
                number = float(value)
            except OverflowError:
                raise ValueError(f"option {name!r} is too large for a float64, got {value}") from None
            if np.isnan(number):
                allowed = "a number or +-inf" if may_be_inf else "finite"
                raise ValueError(f"option {name!r} must be {allowed}, got nan")
            if np.isinf(number) and not may_be_inf:
                raise ValueError(f"option {name!r} must be finite, got {number}")
            return number
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
    raise TypeError(f"option {name!r} must be of type {type(default).__name__}, got {value!r}")


def check_int(name: str, value: Any, low: int, high: int = 2**31 - 1) -> int:
    """``value`` as an int if it is an int (not a bool) in ``[low, high]``; else a TypeError or ValueError naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return int(value)


def env_id_list(name: str, value: Any, num_envs: int) -> list[int]:
    """``value`` (an env id, or a sequence or array of them) as a list of checked ids; else a TypeError/ValueError."""
    if isinstance(value, (int, np.integer)):
        value = [value]
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be an env id or a sequence of them, got {value!r}")
    return [check_int(name, i, 0, num_envs - 1) for i in np.asarray(value).reshape(-1).tolist()]


def seeds_for(seed: Any, num_envs: int) -> list[int]:
    """EnvPool/gymnasium seeding: an int gives env i ``seed + i``; a list gives one seed per env."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        seed = int(seed)
        # Env i gets seed + i, so the base must leave room for the last env below 2**64.
        if 0 <= seed < 2**64 and seed + num_envs - 1 >= 2**64:
            raise ValueError(
                f"seed={seed} gives env {2**64 - seed} the seed 2**64, beyond the largest seed 2**64 - 1: "
                f"with num_envs={num_envs} an int seed must be in [0, 2**64 - {num_envs}] "
                f"(at most {2**64 - num_envs})"
            )
        seeds = [seed + i for i in range(num_envs)]
    elif isinstance(seed, (list, tuple, np.ndarray)):
        seeds = list(seed)
        if len(seeds) != num_envs:
            raise ValueError(f"seed list has {len(seeds)} entries, expected num_envs={num_envs}")
    else:
        raise TypeError(f"seed must be an int or a list of ints, got {seed!r}")
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or not 0 <= s < 2**64:
            raise ValueError(f"seeds must be ints in [0, 2**64 - 1], got {s!r}")
    return [int(s) for s in seeds]
