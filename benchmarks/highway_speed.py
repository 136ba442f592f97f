"""highway-env's scenarios: rlpool beside highway-env's own vector env and EnvPool, one run, rounds in turns.

Each peer runs ``--num-envs`` envs of a task with uniformly random actions (restarting finished episodes) for
``--seconds`` per round, on the same cores; the table gives the best round's env steps per second and rlpool's
ratio to each peer.

- rlpool: the async vector face, batches of ``--batch-size`` (``send``/``recv``), ``--threads`` threads.
- highway-env 1.12.1: gymnasium's ``AsyncVectorEnv`` of ``gymnasium.make(<highway-env id>)`` (one process per
  env, NextStep autoreset), its ids from ``rlpool.envs.highway.registration.HIGHWAY_ENV_IDS``.
- EnvPool 1.2.5 (this Python, where it is installed and has the id): async, as rlpool.
- EnvPool 1.2.7 (its wheels are for CPython 3.12-3.14): this script run by ``--envpool-python`` (a 3.13
  interpreter with ``pip install envpool==1.2.7``) as a child process, async as rlpool.

Every round of every peer runs in a child process of its own (the peers' imports and threads do not meet).

    python benchmarks/highway_speed.py --envpool-python ~/.cache/rlpool/references/envpool-1.2.7-cp313/bin/python
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings

import numpy as np

TASKS = ("Highway-v0", "Intersection-v1")
PEERS = ("rlpool", "highway-env", "envpool-1.2.5", "envpool-1.2.7")


def _actions(space, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` uniformly random actions of a single env's ``space`` (Discrete or Box)."""
    if hasattr(space, "n"):
        return rng.integers(0, int(space.n), size=n)
    return rng.uniform(space.low, space.high, size=(n, *space.shape)).astype(space.dtype)


def async_rate(make, task: str, num_envs: int, batch_size: int, threads: int, seconds: float) -> float:
    """Env steps per second of an async pool (rlpool's or EnvPool's gymnasium face): recv a batch, send its actions."""
    env = make(task, num_envs=num_envs, batch_size=batch_size, num_threads=threads, seed=0)
    space = getattr(env, "single_action_space", None) or env.action_space
    rng = np.random.default_rng(0)
    env.async_reset()
    for _ in range(5):  # warm up
        *_, info = env.recv()
        env.send(_actions(space, len(info["env_id"]), rng), info["env_id"])
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        *_, info = env.recv()
        ids = info["env_id"]
        env.send(_actions(space, len(ids), rng), ids)
        steps += len(ids)
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def highway_env_rate(task: str, num_envs: int, seconds: float) -> float:
    """Env steps per second of gymnasium's AsyncVectorEnv of highway-env's own envs."""
    import gymnasium as gym

    from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS

    highway_id = HIGHWAY_ENV_IDS[task]

    def make():
        import highway_env  # noqa: F401 (registers highway-env's ids in the child process)

        return gym.make(highway_id, disable_env_checker=True)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gym.vector.AsyncVectorEnv([make] * num_envs)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    for _ in range(2):
        env.step(_actions(env.single_action_space, num_envs, rng))
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.step(_actions(env.single_action_space, num_envs, rng))
        steps += num_envs
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def child(peer: str, task: str, args: argparse.Namespace) -> float | None:
    """One round of one peer on one task (in this process); None where the peer does not have the task."""
    if peer == "rlpool":
        import rlpool

        return async_rate(rlpool.make_gymnasium, task, args.num_envs, args.batch_size, args.threads, args.seconds)
    if peer.startswith("envpool"):
        try:
            import envpool
        except ImportError:
            return None
        if task not in envpool.list_all_envs():
            return None
        return async_rate(envpool.make_gymnasium, task, args.num_envs, args.batch_size, args.threads, args.seconds)
    return highway_env_rate(task, args.num_envs, args.seconds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tasks", default=",".join(TASKS))
    p.add_argument("--envpool-python", default=None, help="a Python 3.12+ with envpool==1.2.7")
    p.add_argument("--peer", choices=PEERS, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    tasks = args.tasks.split(",")
    if args.peer:  # a child: one round of one peer on one task, printed as JSON
        print(json.dumps({"rate": child(args.peer, tasks[0], args)}))
        return
    pythons = {"rlpool": sys.executable, "highway-env": sys.executable, "envpool-1.2.5": sys.executable}
    if args.envpool_python:
        pythons["envpool-1.2.7"] = args.envpool_python
    best: dict[tuple[str, str], float | None] = {}
    for _ in range(args.rounds):
        for task in tasks:
            for peer, python in pythons.items():
                out = subprocess.run(
                    [python, __file__, "--peer", peer, "--tasks", task, "--num-envs", str(args.num_envs),
                     "--batch-size", str(args.batch_size), "--threads", str(args.threads),
                     "--seconds", str(args.seconds)],
                    capture_output=True, text=True,
                )
                if out.returncode != 0:
                    print(f"{peer} {task} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
                    rate = None
                else:
                    rate = json.loads(out.stdout.strip().splitlines()[-1])["rate"]
                previous = best.get((task, peer))
                best[(task, peer)] = rate if previous is None else (previous if rate is None else max(previous, rate))
    print(f"{args.num_envs} envs, async batches of {args.batch_size}, {args.threads} threads (highway-env: "
          f"{args.num_envs} processes), best of {args.rounds} rounds of {args.seconds:.0f} s, env steps per second")
    shown = [peer for peer in PEERS if peer in pythons]
    print("| task | " + " | ".join(shown) + " | " + " | ".join(f"rlpool / {p}" for p in shown[1:]) + " |")
    print("|---" * (2 * len(shown)) + "|")
    for task in tasks:
        rates = [best.get((task, peer)) for peer in shown]
        r = rates[0]
        cells = ["-" if x is None else f"{x:,.0f}" for x in rates]
        ratios = ["-" if x is None or r is None else f"{r / x:.1f}x" for x in rates[1:]]
        print(f"| {task} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
