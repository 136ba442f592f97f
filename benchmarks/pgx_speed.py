"""Multi-agent tasks: rlpool beside pgx's own ``jax.vmap`` step and EnvPool 1.2.7, one run, rounds in turns.

Each peer plays ``--num-envs`` games at once with uniformly random legal moves and restarts a game when it
ends, for ``--seconds`` per round; the table gives the best round's moves per second and rlpool's ratio.

- rlpool: the sync vector face (NextStep autoreset); actions drawn with numpy from ``legal_action_mask``
  (``RandomLegal``).
- pgx 2.6.0: one ``jax.jit`` of ``jax.vmap``-ed step, the legal-move draw (``jax.random``) and the restart of
  finished games (``jnp.where`` with fresh ``init`` states) inside it -- pgx's fastest loop, no Python per move.
- MARLGrid (no pgx game): rlpool and EnvPool 1.2.7 only, random actions for every agent.
- EnvPool 1.2.7 (its wheels are for CPython 3.12-3.14): this script run by ``--envpool-python`` (a 3.13
  interpreter with ``pip install envpool==1.2.7``) as a child process, stepped as rlpool is.

    python benchmarks/pgx_speed.py --envpool-python <a 3.13 venv with envpool 1.2.7>/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
from timing import best_child_rates, jitted_rate

TASKS = {"Go19x19-v1": "go_19x19", "Chess-v1": "chess", "ConnectFour-v1": "connect_four"}
# Tasks no pgx game stands beside: EnvPool 1.2.7 only (MARLGrid's agents act at once; EnvPool takes one action
# per player in a flat [num_envs * players] array, rlpool a [num_envs, players] one).
OTHER = {"MarlGrid-3AgentEmpty9x9-v0": (3, 7)}


class RandomLegal:
    """Uniformly random legal moves, one per row of a [num_envs, num_actions] mask, drawn as cheaply as numpy
    allows. Few actions: a perturbed argmax, its uniforms drawn for ``block`` moves at a time (one generator call
    per block: the call, not the numbers, is what costs at 64 envs). Many (Chess's 4,672): an index into the
    legal moves."""

    def __init__(self, rng: np.random.Generator, block: int = 20) -> None:
        self.rng, self.block = rng, block
        self.noise: np.ndarray | None = None
        self.used = block

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        n, k = mask.shape
        if k <= 64:
            if self.used == self.block:
                self.noise = self.rng.random((self.block, n, k), dtype=np.float32)
                self.used = 0
            self.used += 1
            return (self.noise[self.used - 1] + mask).argmax(axis=1)
        legal = np.flatnonzero(mask)
        counts = np.bincount(legal // k, minlength=n)
        first = np.cumsum(counts) - counts
        return legal[first + (self.rng.random(n) * counts).astype(np.int64)] - np.arange(n) * k


def pool_rate(make, task: str, num_envs: int, threads: int, seconds: float, flat_players: bool = False) -> float:
    """Env steps per second of a sync pool (rlpool's or EnvPool's gymnasium face): a game's moves, or MARLGrid's
    steps of all agents at once (``flat_players``: EnvPool's [num_envs * players] actions)."""
    env = make(task, num_envs=num_envs, num_threads=threads, seed=0)
    rng = np.random.default_rng(0)
    draw = RandomLegal(rng)
    _, info = env.reset()
    moves = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            if task in OTHER:
                players, n = OTHER[task]
                action = rng.integers(0, n, size=(num_envs * players,) if flat_players else (num_envs, players))
            else:
                action = draw(info["legal_action_mask"])
            _, _, _, _, info = env.step(action)
        moves += 20 * num_envs
    rate = moves / (time.perf_counter() - t0)
    env.close()
    return rate


def pgx_rate(name: str, num_envs: int, seconds: float) -> float:
    """Moves per second of pgx's jitted, vmapped loop (action draw and restarts inside the jit)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    import pgx

    env = pgx.make(name)
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    @jax.jit
    def play(states, key):
        key, k_act, k_step, k_init = jax.random.split(key, 4)
        logits = jnp.where(states.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_act, logits, axis=1)
        states = step(states, action, jax.random.split(k_step, num_envs))
        fresh = init(jax.random.split(k_init, num_envs))
        done = states.terminated | states.truncated
        states = jax.tree_util.tree_map(
            lambda f, s: jnp.where(done.reshape((-1,) + (1,) * (s.ndim - 1)), f, s), fresh, states
        )
        return states, key

    key = jax.random.PRNGKey(0)
    states = jax.jit(init)(jax.random.split(key, num_envs))
    return jitted_rate(play, states, key, num_envs, seconds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tasks", default=",".join([*TASKS, *OTHER]))
    p.add_argument("--envpool-python", default=None, help="a Python 3.12+ with envpool==1.2.7")
    p.add_argument("--peer", choices=("rlpool", "pgx", "envpool"), default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    tasks = args.tasks.split(",")
    if args.peer:  # a child: one round of one peer on one task, printed as JSON
        task = tasks[0]
        if args.peer == "rlpool":
            import rlpool

            rate = pool_rate(rlpool.make_gymnasium, task, args.num_envs, args.threads, args.seconds)
        elif args.peer == "envpool":
            import envpool

            rate = pool_rate(envpool.make_gymnasium, task, args.num_envs, args.threads, args.seconds, True)
        else:
            rate = pgx_rate(TASKS[task], args.num_envs, args.seconds)
        print(json.dumps({"rate": rate}))
        return
    peers = {"rlpool": sys.executable, "pgx": sys.executable}
    if args.envpool_python:
        peers["envpool"] = args.envpool_python
    child_args = ["--num-envs", str(args.num_envs), "--threads", str(args.threads), "--seconds", str(args.seconds)]
    best = best_child_rates(__file__, peers, tasks, child_args, args.rounds,
                            runs=lambda task, peer: peer != "pgx" or task in TASKS)
    print(f"{args.num_envs} envs, {args.threads} threads, best of {args.rounds} rounds of {args.seconds:.0f} s, "
          f"env steps (moves) per second")
    print("| task | rlpool | pgx vmap | EnvPool 1.2.7 | rlpool / pgx | rlpool / EnvPool |")
    print("|---|---|---|---|---|---|")
    for task in tasks:
        r, g = best[(task, "rlpool")], best.get((task, "pgx"))
        e = best.get((task, "envpool"))
        print(f"| {task} | {r:,.0f} | {'-' if g is None else f'{g:,.0f}'} | {'-' if e is None else f'{e:,.0f}'} | "
              f"{'-' if g is None else f'{r / g:.1f}x'} | "
              f"{'-' if e is None else f'{r / e:.2f}x'} |")


if __name__ == "__main__":
    main()
