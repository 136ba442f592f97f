"""The peers of ``myosuite_raw.py`` that run in another Python: myosuite 2.11.6's own envs and EnvPool 1.2.7.

    <myosuite reference venv>/bin/python benchmarks/myosuite_peer.py --peer myosuite --task myoHandPoseRandom-v0 \\
        --num-envs 8 --seconds 3 --actions '[[0.1, -0.2, ...], ...]'
    <myosuite reference venv>/bin/python benchmarks/myosuite_peer.py --peer model --task myoLegWalk-v0
    <EnvPool 1.2.7 venv>/bin/python benchmarks/myosuite_peer.py --peer envpool-async --task myoLegWalk-v0 ...

Run by ``myosuite_raw.py``, never with rlpool's own Python: myosuite 2.11.6 pins MuJoCo 3.3.0, dm-control
1.0.28 and gymnasium 0.29.1 (its reference virtualenv, ``tests/references/myosuite_reference.py``), and
EnvPool 1.2.7, the first EnvPool with MyoSuite envs, has wheels for CPython 3.12+ only
(``tests/references/envpool127.py``). Nothing here imports rlpool. Peers (``--peer``):

- ``myosuite``: ``num_envs`` envs ``gym.make(task)`` (myosuite's gymnasium registry, after ``import
  myosuite``) in gymnasium's ``AsyncVectorEnv`` (one process per env, shared memory, autoreset), stepped
  with the fixed action batch given, ``step`` after ``step``.
- ``envpool-async`` / ``envpool-sync``: ``envpool.make_gymnasium(task, num_envs, batch_size, seed=0)`` with
  EnvPool's default threads; async: ``recv`` a batch, ``send`` the batch's rows of the fixed actions back by
  ``env_id`` (batch ``num_envs // 2``); sync: ``step`` with all rows.
- ``model``: no timing; prints the task's model file (relative to the ``myosuite`` package folder, from the
  registry's ``model_path``) and the env's ``frame_skip`` and timestep, from one env made.

Each timed peer takes 20 untimed calls, then calls in chunks of 20 until ``--seconds`` pass, and prints one
JSON line: env steps per wall-clock second and what ran.
"""

from __future__ import annotations

import argparse
import json
import os
import time
import warnings
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np


def time_calls(call: Any, seconds: float, per_call: int) -> tuple[int, float]:
    """``call()`` 20 times untimed, then in chunks of 20 until ``seconds`` pass: (env steps, wall seconds)."""
    for _ in range(20):
        call()
    calls = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(20):
            call()
        calls += 20
        wall = time.perf_counter() - t0
        if wall >= seconds:
            return calls * per_call, wall


def make_myosuite_env(task: str) -> Any:
    """One of myosuite's envs of ``task``, as ``gym.make`` gives it (its registry's time limit included)."""
    warnings.simplefilter("ignore")
    import gymnasium
    import myosuite  # noqa: F401  (registers the ids)

    return gymnasium.make(task)


def model_info(task: str) -> dict[str, Any]:
    """The task's model file under the ``myosuite`` package folder, its ``frame_skip`` and its timestep."""
    import gymnasium
    import myosuite

    root = Path(myosuite.__file__).resolve().parent
    model_path = Path(os.path.normpath(gymnasium.spec(task).kwargs["model_path"])).resolve()
    env = make_myosuite_env(task)
    try:
        inner = env.unwrapped
        return {"model": model_path.relative_to(root).as_posix(), "frame_skip": int(inner.frame_skip),
                "timestep": float(inner.sim.model.opt.timestep)}
    finally:
        env.close()


def myosuite_rate(task: str, num_envs: int, seconds: float, seed: int, actions: np.ndarray) -> dict[str, Any]:
    """myosuite's envs in gymnasium's ``AsyncVectorEnv``: steps/s and versions."""
    import gymnasium
    import mujoco

    env = gymnasium.vector.AsyncVectorEnv([partial(make_myosuite_env, task) for _ in range(num_envs)])
    try:
        env.reset(seed=seed)
        steps, wall = time_calls(lambda: env.step(actions), seconds, num_envs)
    finally:
        env.close()
    from importlib.metadata import version

    return {"steps_per_s": steps / wall, "steps": steps, "wall_s": wall, "num_envs": num_envs,
            "processes": num_envs, "myosuite": version("myosuite"), "mujoco": mujoco.__version__,
            "gymnasium": gymnasium.__version__}


def envpool_rate(task: str, num_envs: int, seconds: float, seed: int, actions: np.ndarray,
                 asynchronous: bool) -> dict[str, Any]:
    """EnvPool's envs of ``task``, async (batch ``num_envs // 2``) or sync: steps/s and what ran."""
    warnings.simplefilter("ignore")
    import envpool

    if task not in envpool.list_all_envs():
        raise SystemExit(f"envpool {envpool.__version__} has no {task}")
    batch = max(1, num_envs // 2) if asynchronous else num_envs
    env = envpool.make_gymnasium(task, num_envs=num_envs, batch_size=batch, seed=seed)
    threads = int(env.config["num_threads"])
    try:
        if asynchronous:
            rows = np.ascontiguousarray(actions[:batch])
            env.async_reset()

            def call() -> None:
                info = env.recv()[4]
                env.send(rows, info["env_id"])

            steps, wall = time_calls(call, seconds, batch)
        else:
            env.reset()
            steps, wall = time_calls(lambda: env.step(actions), seconds, num_envs)
    finally:
        env.close()
    return {"steps_per_s": steps / wall, "steps": steps, "wall_s": wall, "num_envs": num_envs,
            "batch_size": batch, "num_threads": threads, "envpool": envpool.__version__}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", required=True, choices=("myosuite", "envpool-async", "envpool-sync", "model"))
    parser.add_argument("--task", required=True, help="myosuite's id (myoHandPoseRandom-v0)")
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--actions", help="the fixed action batch, JSON: one row per env")
    args = parser.parse_args()
    os.environ.setdefault("MUJOCO_GL", "osmesa")  # nothing renders; as the reference child sets it
    warnings.simplefilter("ignore")
    if args.peer == "model":
        print(json.dumps(model_info(args.task)), flush=True)
        return 0
    if args.actions is None:
        parser.error("--actions is needed to time the envs")
    actions = np.asarray(json.loads(args.actions), dtype=np.float32)
    if actions.shape[0] != args.num_envs:
        raise SystemExit(f"--actions has {actions.shape[0]} rows for {args.num_envs} envs")
    if args.peer == "myosuite":
        result = myosuite_rate(args.task, args.num_envs, args.seconds, args.seed, actions)
    else:
        result = envpool_rate(args.task, args.num_envs, args.seconds, args.seed, actions,
                              args.peer == "envpool-async")
    print(json.dumps({"peer": args.peer, "task": args.task, **result}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
