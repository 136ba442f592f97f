"""Craftax (Classic and full): rlpool beside craftax's own jitted ``vmap`` step and EnvPool 1.2.7, rounds in turns.

Each peer runs ``--num-envs`` envs of a task with uniformly random actions, restarting finished episodes, for
``--seconds`` per round on the same cores; the table gives the best round's env steps per second and rlpool's
ratio to each peer. Every round of every peer runs in a child process of its own.

- rlpool: the sync vector face (NextStep), ``--threads`` threads.
- craftax 1.6.1 (JAX on the CPU; ``--craftax-python``, a Python with craftax installed, such as the test
  suite's cached reference virtualenv): one ``jax.jit`` of ``vmap``-ed ``step`` (craftax's AutoReset env, so
  finished episodes restart inside it) with the random actions drawn inside the jit: craftax's fastest form, no
  Python per step.
- EnvPool 1.2.7 (its wheels are for CPython 3.12-3.14): this script run by ``--envpool-python`` (a 3.13
  interpreter with ``pip install envpool==1.2.7``) as a child process, stepped as rlpool is.

    python benchmarks/craftax_speed.py --craftax-python <venv with craftax==1.6.1>/bin/python \\
        --envpool-python ~/.cache/rlpool/references/envpool-1.2.7-cp313/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
from timing import best_child_rates, jitted_rate, print_peer_table

TASKS = {"Craftax-Classic-Symbolic-v1": "Craftax-Classic-Symbolic-AutoReset-v1",
         "Craftax-Classic-Pixels-v1": "Craftax-Classic-Pixels-AutoReset-v1",
         "Craftax-Symbolic-v1": "Craftax-Symbolic-AutoReset-v1",
         "Craftax-Pixels-v1": "Craftax-Pixels-AutoReset-v1"}
"""rlpool's and EnvPool's id -> craftax's name of the env that restarts finished episodes itself."""


def pool_rate(make, task: str, num_envs: int, threads: int, seconds: float) -> float:
    """Env steps per second of a sync pool (rlpool's or EnvPool's gymnasium face)."""
    env = make(task, num_envs=num_envs, num_threads=threads, seed=0)
    rng = np.random.default_rng(0)
    env.reset()
    actions = rng.integers(0, env.single_action_space.n, size=(64, num_envs)).astype(np.int32)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for k in range(20):
            env.step(actions[(steps // num_envs + k) % 64])
        steps += 20 * num_envs
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def craftax_rate(name: str, num_envs: int, seconds: float) -> float:
    """Env steps per second of craftax's jitted, vmapped step (actions drawn and episodes restarted inside)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    from craftax.craftax_env import make_craftax_env_from_name

    env = make_craftax_env_from_name(name, auto_reset=True)
    params = env.default_params

    @jax.jit
    def play(states, key):
        key, k_act, k_step = jax.random.split(key, 3)
        actions = jax.random.randint(k_act, (num_envs,), 0, env.num_actions)
        _, states, _, _, _ = jax.vmap(env.step, in_axes=(0, 0, 0, None))(
            jax.random.split(k_step, num_envs), states, actions, params
        )
        return states, key

    key = jax.random.PRNGKey(0)
    _, states = jax.jit(jax.vmap(env.reset, in_axes=(0, None)))(jax.random.split(key, num_envs), params)
    return jitted_rate(play, states, key, num_envs, seconds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tasks", default=",".join(TASKS))
    p.add_argument("--craftax-python", default=None, help="a Python with craftax==1.6.1 (and jax) installed")
    p.add_argument("--envpool-python", default=None, help="a Python 3.12+ with envpool==1.2.7")
    p.add_argument("--peer", choices=("rlpool", "craftax", "envpool"), default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    tasks = args.tasks.split(",")
    if args.peer:  # a child: one round of one peer on one task, printed as JSON
        task = tasks[0]
        if args.peer == "rlpool":
            import rlpool

            rate = pool_rate(rlpool.make_gymnasium, task, args.num_envs, args.threads, args.seconds)
        elif args.peer == "envpool":
            import envpool

            rate = pool_rate(envpool.make_gymnasium, task, args.num_envs, args.threads, args.seconds)
        else:
            rate = craftax_rate(TASKS[task], args.num_envs, args.seconds)
        print(json.dumps({"rate": rate}))
        return
    peers = {"rlpool": sys.executable}
    if args.craftax_python:
        peers["craftax"] = args.craftax_python
    if args.envpool_python:
        peers["envpool"] = args.envpool_python
    child_args = ["--num-envs", str(args.num_envs), "--threads", str(args.threads), "--seconds", str(args.seconds)]
    best = best_child_rates(__file__, peers, tasks, child_args, args.rounds)
    print_peer_table(best, tasks, "craftax", "craftax vmap", args.num_envs, args.threads, args.rounds, args.seconds)


if __name__ == "__main__":
    main()
