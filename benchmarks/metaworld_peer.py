"""metaworld 3.1.1's own envs, timed: the ``metaworld-async`` (and ``metaworld-1``) figures of ``metaworld_raw.py``.

    <reference venv>/bin/python benchmarks/metaworld_peer.py --task pick-place-v3 --num-envs 8 --seconds 3 \\
        --actions '[[0.1, -0.2, 0.3, 0.4], ...]'

Run by ``metaworld_raw.py`` with the Python of the virtualenv ``tests/references/metaworld_reference.py``
makes (metaworld 3.1.1 and the MuJoCo it pins, 3.3.0; or metaworld on rlpool's MuJoCo), never with rlpool's
own: metaworld cannot be imported there. Each env is ``ALL_V3_ENVIRONMENTS[task]()`` made ready to run on its
own, as the MT1 benchmark's task setting would leave it (``_freeze_rand_vec=False``: a fresh task vector each
reset, ``seeded_rand_vec=True``, ``_set_task_called=True``), seeded ``seed + k``, in gymnasium's ``TimeLimit``
of its ``max_path_length`` (500 steps: metaworld refuses a step past it) so that the vector env resets it when
truncated. ``num_envs`` of them run in gymnasium's ``AsyncVectorEnv`` (one process per env, shared memory,
autoreset on the next step), stepped with the fixed action batch given, ``step`` after ``step`` for
``--seconds`` after 20 untimed steps; ``--in-process`` times one env in this process instead (no vector
env). Prints one JSON line: env steps per wall-clock second and what ran.
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

WELD = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 5.0])
"""What metaworld's ``SawyerMocapBase.reset_mocap_welds`` writes into each weld's ``eq_data``."""


def fix_welds_for_newer_mujoco() -> None:
    """Let metaworld's ``reset_mocap_welds`` run on a MuJoCo whose weld rows are longer than its 11 numbers.

    MuJoCo 3.3.0 (metaworld's pin) has 11 numbers a weld row and metaworld's own method runs. Later versions
    add a twelfth, and metaworld's write of 11 into the row fails: this writes them into the first 11, as
    ``tests/references/metaworld_child.py`` does.
    """
    import metaworld.sawyer_xyz_env
    import mujoco

    if mujoco.mjNEQDATA <= len(WELD):
        return

    def reset_mocap_welds(self: Any) -> None:
        if self.model.nmocap > 0 and self.model.eq_data is not None:
            for i in range(self.model.eq_data.shape[0]):
                if self.model.eq_type[i] == mujoco.mjtEq.mjEQ_WELD:
                    self.model.eq_data[i][: len(WELD)] = WELD

    metaworld.sawyer_xyz_env.SawyerMocapBase.reset_mocap_welds = reset_mocap_welds


def make_env(task: str, seed: int) -> Any:
    """One metaworld env of ``task``, ready to step, in a ``TimeLimit`` of its path length."""
    warnings.simplefilter("ignore")
    import gymnasium
    from metaworld.env_dict import ALL_V3_ENVIRONMENTS

    fix_welds_for_newer_mujoco()
    env = ALL_V3_ENVIRONMENTS[task]()
    env._freeze_rand_vec = False
    env.seeded_rand_vec = True
    env._set_task_called = True
    env.seed(seed)
    return gymnasium.wrappers.TimeLimit(env, max_episode_steps=env.max_path_length)


def time_steps(step: Any, seconds: float, per_call: int) -> tuple[int, float]:
    """``step()`` 20 times untimed, then in chunks of 20 until ``seconds`` pass: (env steps, wall seconds)."""
    for _ in range(20):
        step()
    calls = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(20):
            step()
        calls += 20
        wall = time.perf_counter() - t0
        if wall >= seconds:
            return calls * per_call, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", required=True, help="metaworld's task name (pick-place-v3)")
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--actions", help="the fixed action batch, JSON: one row of 4 per env")
    parser.add_argument("--in-process", action="store_true", help="one env in this process, no vector env")
    parser.add_argument("--model-file", action="store_true",
                        help="print the task's model file (under metaworld's assets folder) and stop")
    args = parser.parse_args()
    if args.model_file:
        from metaworld.env_dict import ALL_V3_ENVIRONMENTS

        path = Path(ALL_V3_ENVIRONMENTS[args.task].model_name.fget(None))  # a property of the class
        print(path.relative_to(path.parents[1]).as_posix())
        return 0
    if args.actions is None:
        parser.error("--actions is needed to time the envs")
    os.environ.setdefault("MUJOCO_GL", "osmesa")  # nothing renders; as the reference child sets it
    warnings.simplefilter("ignore")
    import gymnasium
    import metaworld  # noqa: F401  (its import registers nothing we use; it must import at all)
    import mujoco

    actions = np.asarray(json.loads(args.actions), dtype=np.float32)
    if args.in_process:
        env = make_env(args.task, args.seed)
        env.reset(seed=args.seed)
        action = actions[0]

        def step() -> None:
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                env.reset()

        steps, wall = time_steps(step, args.seconds, 1)
        env.close()
    else:
        if actions.shape[0] != args.num_envs:
            raise SystemExit(f"--actions has {actions.shape[0]} rows for {args.num_envs} envs")
        fns = [partial(make_env, args.task, args.seed + k) for k in range(args.num_envs)]
        env = gymnasium.vector.AsyncVectorEnv(fns)
        env.reset(seed=args.seed)
        steps, wall = time_steps(lambda: env.step(actions), args.seconds, args.num_envs)
        env.close()
    from importlib.metadata import version

    print(json.dumps({"steps_per_s": steps / wall, "steps": steps, "wall_s": wall, "num_envs": args.num_envs,
                      "in_process": args.in_process, "metaworld": version("metaworld"),
                      "mujoco": mujoco.__version__, "gymnasium": gymnasium.__version__}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
