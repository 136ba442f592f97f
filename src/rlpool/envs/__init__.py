"""Environment families, one sub-package each. Importing this registers every task id.

Each family's ``registration.py`` holds one ``register(...)`` line per task id. The other modules a family
may have (``docs.py``, ``envpool.py``, ``peers.py``) are found by ``family_modules``, so that no shared
module lists the families.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType

FAMILIES: tuple[str, ...] = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))
"""The family folders, in name order."""


def family_modules(module: str) -> list[tuple[str, ModuleType]]:
    """``(family, rlpool.envs.<family>.<module>)`` for every family that has that module, imported, in order."""
    found = []
    for family in FAMILIES:
        name = f"{__name__}.{family}.{module}"
        if importlib.util.find_spec(name) is not None:
            found.append((family, importlib.import_module(name)))
    return found


family_modules("registration")
