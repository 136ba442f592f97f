"""Minigrid and BabyAI in ``rlpool bench``: gymnasium knows their ids once the minigrid package is imported.

The ``gym-sync``/``gym-async`` peers import it (``GYM_PLUGINS``) before they look a task's id up.
"""

GYM_PLUGINS: dict[str, str] = {"MiniGrid-": "minigrid", "BabyAI-": "minigrid"}
"""Task-id prefixes -> the package that registers those gymnasium ids when imported."""
