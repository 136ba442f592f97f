"""rlpool's tasks in gymnasium's registry: ``gymnasium.make_vec("rlpool/<TaskId>", num_envs=...)``.

``import rlpool`` registers every task. Where rlpool is not imported yet, name it before the id:
``gymnasium.make("rlpool:rlpool/CartPole-v1")`` has gymnasium import rlpool first (gymnasium 1.x has no
entry-point plugins that would register a package's ids before it is imported). Registering again (a
second ``register_all_with_gymnasium``) does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium

from rlpool.registry import list_all_envs


def gymnasium_id(task_id: str) -> str:
    """The gymnasium id of rlpool task ``task_id``: ``"rlpool/<task_id>"``.

    gymnasium's ids hold one namespace, so a task id with one of its own (``MetaWorld/PickPlace-v3``) has
    its slash spelt ``-`` there: ``rlpool/MetaWorld-PickPlace-v3``.
    """
    return f"rlpool/{task_id.replace('/', '-')}"


def register_with_gymnasium(task_id: str) -> None:
    """Make ``task_id`` reachable as ``gymnasium.make("rlpool/<task_id>")`` and ``gymnasium.make_vec``.

    ``gymnasium.make`` gives one env (``rlpool.api.single.SingleEnv``), so ``make_vec`` works in every
    ``vectorization_mode`` and with ``wrappers``; its ``"vector_entry_point"`` mode builds
    ``rlpool.make_gymnasium(task_id, num_envs=num_envs, **options)``.
    Does nothing if the id is registered already. Call it after ``rlpool.registry.register``
    for a task registered after ``import rlpool`` (as ``rlpool.python_env`` does).
    """
    gym_id = gymnasium_id(task_id)
    if gym_id not in gymnasium.registry:
        gymnasium.register(
            id=gym_id, entry_point=_entry_point(task_id), vector_entry_point=_vector_entry_point(task_id)
        )


def register_all_with_gymnasium() -> None:
    """``register_with_gymnasium`` for every registered task (``import rlpool`` does it once)."""
    for task_id in list_all_envs():
        register_with_gymnasium(task_id)


def _entry_point(task_id: str) -> Callable[..., Any]:
    def create(**kwargs: Any) -> Any:
        from rlpool.api.single import SingleEnv

        return SingleEnv(task_id, **kwargs)

    return create


def _vector_entry_point(task_id: str) -> Callable[..., Any]:
    def create(num_envs: int = 1, **kwargs: Any) -> Any:
        from rlpool.api.gymnasium import GymnasiumVectorEnv
        from rlpool.spec import EnvSpec

        return GymnasiumVectorEnv(EnvSpec(task_id, num_envs=num_envs, **kwargs))

    return create
