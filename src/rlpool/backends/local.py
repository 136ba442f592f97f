"""The local backend: a spec's envs on this process's C++ engine (``_rlpool_core.Pool``).

Its worker threads step the envs into the pool's batch buffers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rlpool import _rlpool_core as _core

if TYPE_CHECKING:
    from rlpool.spec import EnvSpec


def new_local_pool(spec: EnvSpec) -> _core.Pool:
    """The C++ pool of ``spec``'s envs, with its resolved options."""
    c = spec.config
    return _core.Pool(
        spec.task.env_type,
        spec.env_config,
        c["num_envs"],
        c["batch_size"],
        c["num_threads"],
        c["thread_affinity_offset"],
        spec.seeds,
        c["max_episode_steps"],
        c["autoreset_mode"],
    )
