"""Where a pool's envs run: this process's C++ engine (``local``) or Ray actors (``ray``).

``new_pool(spec)`` is the one place a backend is chosen, from the spec's ``backend`` option; every
backend's pool has the C++ ``Pool``'s interface, which the faces drive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rlpool.backends.local import new_local_pool

if TYPE_CHECKING:
    from rlpool.spec import EnvSpec


def new_pool(spec: EnvSpec) -> Any:
    """Build the pool ``spec`` describes: the C++ pool, or a ``RayPool`` for ``backend="ray"``."""
    if spec.backend["backend"] == "ray":
        from rlpool.backends.ray import RayPool  # imports ray only when asked for

        return RayPool(spec)
    return new_local_pool(spec)
