"""What every API face of a pool shares: the pool itself and the calls that don't depend on the API."""

from __future__ import annotations

from typing import Any

from rlpool.registry import EnvSpec


class PoolOwner:
    """Owns one C++ pool built from an ``EnvSpec``; every API face derives from it.

    The gymnasium, gym and dm faces, the EnvPool layer's pools and the SB3 ``VecEnv``
    build their pool with ``_init_pool`` and tear it down with ``_close_pool`` (both
    for subclasses); ``send``, ``async_reset``, ``get_state`` and ``set_state`` are
    the same for every face.
    """

    spec: Any
    config: Any
    num_envs: int
    batch_size: int
    _pool: Any

    def _init_pool(self, spec: EnvSpec, *, export_discount: bool = False) -> None:
        """Build the pool ``spec`` describes; sets ``spec``, ``config``, ``num_envs`` and ``batch_size``.

        ``export_discount`` makes results carry the env's own discount
        (``info["_rlpool_discount"]``) for the dm faces' ``StepTypes``.
        """
        self.spec = spec
        self.config = spec.config
        self._pool = spec.new_pool()
        if export_discount:
            self._pool.export_discount = True
        self.num_envs = spec.config["num_envs"]
        self.batch_size = spec.config["batch_size"]

    def send(self, action: Any, env_id: Any = None) -> None:
        """Queue one action per env in ``env_id`` (default: all envs) and return at once."""
        self._pool.send(action, env_id)

    def async_reset(self) -> None:
        """Start resetting every env; collect the first observations with ``recv()``."""
        self._pool.async_reset()

    def get_state(self, env_id: int) -> bytes:
        """Snapshot of env ``env_id``'s dynamic state (family-specific bytes)."""
        return self._pool.get_state(env_id)

    def set_state(self, env_id: int, state: bytes) -> None:
        """Restore env ``env_id`` from ``get_state`` bytes; its next step continues from there."""
        self._pool.set_state(env_id, state)

    def _close_pool(self) -> None:
        """Stop the worker threads; calling it again (or after a failed ``_init_pool``) does nothing."""
        if hasattr(self, "_pool") and not self._pool.closed:  # no _pool when __init__ failed
            self._pool.close()
