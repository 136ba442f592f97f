"""Drop-in API layers over rlpool for code written against other libraries.

``rlpool.compat.envpool`` speaks EnvPool 1.x (``import rlpool.compat.envpool as envpool``);
``rlpool.compat.envpool_legacy`` speaks the older EnvPool + gym < 0.26 API (4-tuple ``step``).
"""
