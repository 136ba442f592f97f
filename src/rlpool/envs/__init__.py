"""Environment families, one sub-package each. Importing this registers every task id.

Each family's ``registration.py`` holds one ``register(...)`` line per task id.
"""

import importlib
import pkgutil

for _family in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg):
    importlib.import_module(f"{__name__}.{_family}.registration")
