"""Jumanji: rlpool beside jumanji's own jitted ``vmap`` step and EnvPool 1.2.7, rounds in turns.

Each peer runs ``--num-envs`` envs of a task with uniformly random legal actions (uniform over the
observation's ``action_mask`` where the task has one, else over the action space), restarting finished
episodes, for ``--seconds`` per round on the same cores; the table gives the best round's env steps per second
and rlpool's ratio to each peer. Every round of every peer runs in a child process of its own.

- rlpool: the sync vector face (NextStep), ``--threads`` threads; the legal actions are drawn with numpy from
  the batch's masks (one vectorised argmax of random keys over the legal entries), as a user's policy would.
- jumanji 1.1.2 (JAX on the CPU): one ``jax.jit`` of ``vmap``-ed ``step`` of jumanji's ``AutoResetWrapper``
  (finished episodes restart inside it) with the legal actions drawn inside the jit from the masks: jumanji's
  fastest form, no Python per step.
- EnvPool 1.2.7 (its wheels are for CPython 3.12-3.14): this script run by ``--envpool-python`` (a 3.13
  interpreter with ``pip install envpool==1.2.7``) as a child process, stepped as rlpool is.

    python benchmarks/jumanji_speed.py \\
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

TASKS = ("TSP-v1", "BinPack-v2", "Snake-v1", "RubiksCube-v0")


def legal_actions(obs: dict, space, num_envs: int, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per env from the batch's ``action_mask`` (else from the space).

    ``space`` is a single env's action space (a MultiDiscrete's ``nvec`` or a box's ``high``), or a batch's.
    """
    mask = obs.get("action_mask") if isinstance(obs, dict) else None
    if mask is None:
        sizes = np.asarray(space.nvec) if hasattr(space, "nvec") else np.asarray(space.high) + 1
        sizes = np.broadcast_to(sizes.reshape(-1, sizes.shape[-1])[0], (num_envs, sizes.shape[-1]))
        return (rng.random(sizes.shape) * sizes).astype(np.int64)
    n = len(mask)
    flat = np.asarray(mask).reshape(n, -1)
    keys = rng.random(flat.shape) + flat  # legal entries above every illegal one
    choice = keys.argmax(axis=1)
    if mask.ndim == 2:
        return choice
    return np.stack(np.unravel_index(choice, mask.shape[1:]), axis=1)


def pool_rate(make, task: str, num_envs: int, threads: int, seconds: float) -> float:
    """Env steps per second of a sync pool (rlpool's or EnvPool's gymnasium face)."""
    env = make(task, num_envs=num_envs, num_threads=threads, seed=0)
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    space = env.action_space
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            obs, *_ = env.step(legal_actions(obs, space, num_envs, rng))
        steps += 20 * num_envs
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def jumanji_rate(task: str, num_envs: int, seconds: float) -> float:
    """Env steps per second of jumanji's jitted, vmapped AutoReset step (legal actions drawn inside)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    import jumanji
    from jumanji.wrappers import AutoResetWrapper

    env = AutoResetWrapper(jumanji.make(task))
    spec = env.action_spec

    def draw(key, obs):
        mask = getattr(obs, "action_mask", None)
        if mask is None:
            nvec = jnp.asarray(spec.num_values)
            return (jax.random.uniform(key, nvec.shape) * nvec).astype(spec.dtype)
        flat = mask.reshape(-1)
        choice = jax.random.categorical(key, jnp.where(flat, 0.0, -jnp.inf))
        if mask.ndim == 1:
            return choice.astype(spec.dtype)
        return jnp.stack(jnp.unravel_index(choice, mask.shape)).astype(spec.dtype)

    @jax.jit
    def play(carry, key):
        states, timesteps = carry
        key, sub = jax.random.split(key)
        actions = jax.vmap(draw)(jax.random.split(sub, num_envs), timesteps.observation)
        return jax.vmap(env.step)(states, actions), key

    key = jax.random.PRNGKey(0)
    carry = jax.jit(jax.vmap(env.reset))(jax.random.split(key, num_envs))
    return jitted_rate(play, carry, key, num_envs, seconds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tasks", default=",".join(TASKS))
    p.add_argument("--no-jumanji", action="store_true", help="leave jumanji's own step out")
    p.add_argument("--envpool-python", default=None, help="a Python 3.12+ with envpool==1.2.7")
    p.add_argument("--peer", choices=("rlpool", "jumanji", "envpool"), default=None, help=argparse.SUPPRESS)
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
            rate = jumanji_rate(task, args.num_envs, args.seconds)
        print(json.dumps({"rate": rate}))
        return
    peers = {"rlpool": sys.executable}
    if not args.no_jumanji:
        peers["jumanji"] = sys.executable
    if args.envpool_python:
        peers["envpool"] = args.envpool_python
    child_args = ["--num-envs", str(args.num_envs), "--threads", str(args.threads), "--seconds", str(args.seconds)]
    best = best_child_rates(__file__, peers, tasks, child_args, args.rounds)
    print_peer_table(best, tasks, "jumanji", "jumanji vmap", args.num_envs, args.threads, args.rounds, args.seconds)


if __name__ == "__main__":
    main()
