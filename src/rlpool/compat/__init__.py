"""Drop-in API layers over rlpool for code written against other libraries.

``rlpool.compat.envpool`` speaks EnvPool 1.x (``import rlpool.compat.envpool as envpool``);
``rlpool.compat.envpool_legacy`` speaks the older EnvPool + gym < 0.26 API (4-tuple ``step``).
For code one cannot edit, ``rlpool.compat.install()`` makes ``import envpool`` (and ``envpool.registration``,
``envpool.python.protocol``, ...) give one of these layers in the process, even where the real EnvPool is
installed; ``uninstall()`` undoes it (``envpool_alias.py``).
"""

from rlpool.compat.envpool_alias import install, installed_api, uninstall

__all__ = ["install", "installed_api", "uninstall"]
