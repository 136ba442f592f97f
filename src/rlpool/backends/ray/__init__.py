"""The Ray backend: one pool spread over K Ray actors (``rlpool.make(..., backend="ray", num_workers=K)``).

``RayPool`` has the interface of the C++ ``Pool`` that every API face drives (``reset``,
``send``, ``recv``, ``step``, ``async_reset``, ``render``, ...), so the gymnasium, dm_env,
gym and EnvPool faces work over it unchanged. Actor ``k`` holds an ordinary rlpool pool of
the contiguous envs ``[offset_k, offset_k + n_k)``, built with those envs' global seeds, and
returns rows with global env ids: each env's trajectory is the one a local pool gives it.

Sync mode (``batch_size == num_envs``): ``step`` sends every actor its slice of the actions
and gathers all rows, in env-id order. Async mode: each actor's pool is an async pool of
batch size 1; ``send`` routes actions by env id (one Ray call per actor, which also asks
for the actor's next results), and ``recv`` returns the first ``batch_size`` rows to reach
the driver, keeping any rows beyond that for the next ``recv``: it never waits for a slow
actor when others have finished enough envs.

Faults: an actor that dies raises ``WorkerLostError`` (naming the lost env ids) at the
next ``recv``/``step``; with ``max_restarts > 0`` Ray restarts it, its envs are reset and
their next rows carry ``info["restarted"]`` (True on those rows). ``close()`` kills every
actor and removes the placement group, also after a failure.

This module imports ray only when a pool is made: ``import rlpool`` does not.
"""

from rlpool.backends.ray.pool import RayPool, WorkerRestarted, split
from rlpool.backends.ray.worker import (
    _INLINE_BYTES,
    RAY_INSTALL_HINT,
    WorkerLostError,
    WorkerRestartedError,
    import_ray,
)

__all__ = [
    "RAY_INSTALL_HINT",
    "RayPool",
    "WorkerLostError",
    "WorkerRestarted",
    "WorkerRestartedError",
    "_INLINE_BYTES",
    "import_ray",
    "split",
]
