"""MetaWorld task ids: EnvPool's 50 (``MetaWorld/PickPlace-v3``) and metaworld's benchmark sets as one pool each.

A single task's id runs that task in every env, as EnvPool does; a benchmark's id (``MetaWorld/MT10-v3``,
``MetaWorld/ML10-train-v3``, ...) runs its tasks side by side: env i of the pool runs the i-th task of the
set (wrapping round), with metaworld's benchmark settings (``benchmarks.py``).
"""

from __future__ import annotations

from rlpool.envs.metaworld import benchmarks
from rlpool.registry import register

for _task in benchmarks.ALL_TASKS:
    register(
        f"MetaWorld/{benchmarks.envpool_name(_task)}",
        "MetaWorld",
        max_episode_steps=500,
        prepare=benchmarks.prepare,
        task_name=_task,
    )

for _name, _tasks, _observable in benchmarks.BENCHMARKS:
    register(
        f"MetaWorld/{_name}-v3",
        "MetaWorld",
        max_episode_steps=500,
        prepare=benchmarks.prepare,
        task_name=",".join(_tasks),
        partially_observable=not _observable,
        num_goals=benchmarks.NUM_GOALS,
    )
