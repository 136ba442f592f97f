"""metaworld 3.1.1's task list and its benchmark sets (``env_dict.py``), as rlpool's ids run them.

``ALL_TASKS`` is metaworld's ``ALL_V3_ENVIRONMENTS`` (EnvPool's order too: ``info["task_id"]`` is a task's
place in it). A benchmark set runs as one pool: env i runs the i-th task of the set (wrapping round), so a
pool of ``k * len(set)`` envs holds each task k times; ``info["task_index"]`` is the task's place in the set,
which ``use_one_hot=True`` appends to the observation as a one-hot (metaworld's ``OneHotWrapper``). As
metaworld's benchmarks (``MT10(seed=...)``, ``ML10(seed=...)``), each task of a set has ``NUM_GOALS`` fixed
task vectors (object and goal positions) drawn once from ``goal_seed``, and each reset picks one of them at
random (its ``RandomTaskSelectWrapper``); the MT sets show the goal in the observation, the ML sets do not.
A single task's id draws a fresh task vector at every reset instead (``num_goals=0``), as EnvPool does.
"""

from __future__ import annotations

from typing import Any

ALL_TASKS: tuple[str, ...] = (
    "assembly-v3", "basketball-v3", "bin-picking-v3", "box-close-v3", "button-press-topdown-v3",
    "button-press-topdown-wall-v3", "button-press-v3", "button-press-wall-v3", "coffee-button-v3",
    "coffee-pull-v3", "coffee-push-v3", "dial-turn-v3", "disassemble-v3", "door-close-v3", "door-lock-v3",
    "door-open-v3", "door-unlock-v3", "hand-insert-v3", "drawer-close-v3", "drawer-open-v3", "faucet-open-v3",
    "faucet-close-v3", "hammer-v3", "handle-press-side-v3", "handle-press-v3", "handle-pull-side-v3",
    "handle-pull-v3", "lever-pull-v3", "pick-place-wall-v3", "pick-out-of-hole-v3", "pick-place-v3",
    "plate-slide-v3", "plate-slide-side-v3", "plate-slide-back-v3", "plate-slide-back-side-v3",
    "peg-insert-side-v3", "peg-unplug-side-v3", "soccer-v3", "stick-push-v3", "stick-pull-v3", "push-v3",
    "push-wall-v3", "push-back-v3", "reach-v3", "reach-wall-v3", "shelf-place-v3", "sweep-into-v3", "sweep-v3",
    "window-open-v3", "window-close-v3",
)
"""metaworld's ALL_V3_ENVIRONMENTS, in its order."""

MT10 = ("reach-v3", "push-v3", "pick-place-v3", "door-open-v3", "drawer-open-v3", "drawer-close-v3",
        "button-press-topdown-v3", "peg-insert-side-v3", "window-open-v3", "window-close-v3")
ML10_TRAIN = ("reach-v3", "push-v3", "pick-place-v3", "door-open-v3", "drawer-close-v3", "button-press-topdown-v3",
              "peg-insert-side-v3", "window-open-v3", "sweep-v3", "basketball-v3")
ML10_TEST = ("drawer-open-v3", "door-close-v3", "shelf-place-v3", "sweep-into-v3", "lever-pull-v3")
ML45_TEST = ("bin-picking-v3", "box-close-v3", "hand-insert-v3", "door-lock-v3", "door-unlock-v3")
ML45_TRAIN = ("assembly-v3", "basketball-v3", "button-press-topdown-v3", "button-press-topdown-wall-v3",
              "button-press-v3", "button-press-wall-v3", "coffee-button-v3", "coffee-pull-v3", "coffee-push-v3",
              "dial-turn-v3", "disassemble-v3", "door-close-v3", "door-open-v3", "drawer-close-v3",
              "drawer-open-v3", "faucet-open-v3", "faucet-close-v3", "hammer-v3", "handle-press-side-v3",
              "handle-press-v3", "handle-pull-side-v3", "handle-pull-v3", "lever-pull-v3", "pick-place-wall-v3",
              "pick-out-of-hole-v3", "push-back-v3", "pick-place-v3", "plate-slide-v3", "plate-slide-side-v3",
              "plate-slide-back-v3", "plate-slide-back-side-v3", "peg-insert-side-v3", "peg-unplug-side-v3",
              "soccer-v3", "stick-push-v3", "stick-pull-v3", "push-wall-v3", "push-v3", "reach-wall-v3",
              "reach-v3", "shelf-place-v3", "sweep-into-v3", "sweep-v3", "window-open-v3", "window-close-v3")

BENCHMARKS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("MT10", MT10, True),
    ("MT50", ALL_TASKS, True),
    ("ML10-train", ML10_TRAIN, False),
    ("ML10-test", ML10_TEST, False),
    ("ML45-train", ML45_TRAIN, False),
    ("ML45-test", ML45_TEST, False),
)
"""(id part, tasks in metaworld's order, whether the goal is observed): metaworld's MT and ML sets."""

NUM_GOALS = 50
"""metaworld's _N_GOALS: the task vectors each task of a benchmark has."""


def envpool_name(task: str) -> str:
    """EnvPool's name of a task: ``pick-place-v3`` -> ``PickPlace-v3``."""
    name, version = task.rsplit("-", 1)
    return "".join(part[:1].upper() + part[1:] for part in name.split("-")) + f"-{version}"


def prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The hidden options the C++ env reads: metaworld's assets folder, and each task's place in ``ALL_TASKS``.

    The assets are fetched once where needed; a task's place is its ``info["task_id"]`` (-1 for a name that is
    not a task, which the env refuses by name).
    """
    from rlpool.envs.metaworld import assets_dir

    names = [name.strip() for name in str(config.get("task_name", "")).split(",")]
    ids = [ALL_TASKS.index(name) if name in ALL_TASKS else -1 for name in names]
    return {"_assets": str(assets_dir()), "_task_ids": ",".join(map(str, ids))}
