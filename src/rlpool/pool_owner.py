"""What every API face of a pool shares: the pool itself and the calls that don't depend on the API."""

from __future__ import annotations

from typing import Any

from rlpool.registry import EnvSpec


class PoolOwner:
    """Owns one C++ pool built from an ``EnvSpec``; the gymnasium, dm and gym faces derive from it."""

    def _init_pool(self, spec: EnvSpec) -> None:
        self.spec = spec
        self.config = spec.config
        self._pool = spec.new_pool()
        self.num_envs: int = spec.config["num_envs"]
        self.batch_size: int = spec.config["batch_size"]

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
        if hasattr(self, "_pool") and not self._pool.closed:  # no _pool when __init__ failed
            self._pool.close()
