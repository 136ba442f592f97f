"""Atari throughput: rlpool against bare ALE and EnvPool, in one run.

Peers (each measured for --seconds, in rounds that alternate the peers so that a change in machine
load hits all of them; the median round is reported):

- raw ALE: --procs processes (default 2), each a bare ``ale_py.ALEInterface.act`` loop on the game
  (random minimal-set actions, ``reset_game`` on game over): the emulator's own speed, no
  preprocessing. Frames/s summed over the processes.
- rlpool: ``rlpool.make(task, num_envs=N, batch_size=B, num_threads=T)`` stepped with recv/send
  (async mode; B < N) -- frame skip, max-pool, grayscale, resize to 84x84 and frame stack included.
- rlpool sync: the same with batch_size=N and step().
- EnvPool: ``envpool.make_gymnasium(task, num_envs=N, batch_size=B, num_threads=T)``, recv/send.

Frames/s = env steps/s x frame_skip (4), the usual way to count Atari throughput.

    python benchmarks/atari_raw.py                      # Pong-v5, 8 envs, batch 4, 2 threads
    python benchmarks/atari_raw.py --task Breakout-v5 --seconds 5 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
from typing import Any

import numpy as np
from timing import Timed, add_run_options, announce_versions, time_calls

FRAME_SKIP = 4


def _raw_worker(rom_id: str, seconds: float, start: Any, out: Any) -> None:
    import ale_py
    from ale_py import roms

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path(rom_id))
    ale.reset_game()
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(os.getpid())
    plan = [actions[i] for i in rng.integers(len(actions), size=4096)]

    def play(passes: int) -> int:
        for _ in range(passes):
            for a in plan:
                ale.act(a)
                if ale.game_over():
                    ale.reset_game()
        return passes * len(plan)

    start.wait()
    timed = time_calls(play, seconds)
    out.put((timed.units, timed.wall_s, timed.cpu_s))


def raw_ale(rom_id: str, procs: int, seconds: float) -> tuple[float, float]:
    """(frames/s, frames per CPU-second) of `procs` processes each running a bare ALE act loop."""
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(procs + 1)
    out = ctx.Queue()
    ps = [ctx.Process(target=_raw_worker, args=(rom_id, seconds, start, out)) for _ in range(procs)]
    for p in ps:
        p.start()
    start.wait()
    results = [out.get() for _ in ps]
    for p in ps:
        p.join()
    return (sum(frames / elapsed for frames, elapsed, _ in results),
            sum(f for f, _, _ in results) / sum(cpu for _, _, cpu in results))


def _frames_per_s(timed: Timed) -> tuple[float, float]:
    """(frames/s, frames per CPU-second) of a loop timed in env steps."""
    return timed.per_wall_s * FRAME_SKIP, timed.per_cpu_s * FRAME_SKIP


def _loop_async(env: Any, batch: int, seconds: float, warmup: int, int_dtype: Any) -> tuple[float, float]:
    """Time ``env`` stepped with recv/send, then close it."""
    actions = np.ones(batch, dtype=int_dtype)

    def recv_send(calls: int) -> int:
        for _ in range(calls):
            *_, info = env.recv()
            env.send(actions, info["env_id"])
        return calls * batch

    try:
        env.async_reset()
        return _frames_per_s(time_calls(recv_send, seconds, chunk=50, warmup=warmup))
    finally:
        env.close()


def rlpool_async(task: str, n: int, batch: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    import rlpool

    env = rlpool.make(task, num_envs=n, batch_size=batch, num_threads=threads, seed=0)
    return _loop_async(env, batch, seconds, warmup, np.int64)


def rlpool_sync(task: str, n: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    import rlpool

    env = rlpool.make(task, num_envs=n, num_threads=threads, seed=0)
    actions = np.ones(n, dtype=np.int64)
    env.reset()

    def step(calls: int) -> int:
        for _ in range(calls):
            env.step(actions)
        return calls * n

    timed = time_calls(step, seconds, chunk=20, warmup=warmup)
    env.close()
    return _frames_per_s(timed)


def envpool_async(task: str, n: int, batch: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    import envpool

    env = envpool.make_gymnasium(task, num_envs=n, batch_size=batch, num_threads=threads, seed=0)
    return _loop_async(env, batch, seconds, warmup, np.int32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="Pong-v5")
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--procs", type=int, default=2, help="bare ALE processes")
    parser.add_argument("--no-envpool", action="store_true")
    add_run_options(parser, num_envs=8, seconds=3.0, rounds=3, warmup=100)
    args = parser.parse_args()
    announce_versions()

    from rlpool.envs.atari.registration import GAMES, task_name

    names = {f"{task_name(g)}-v5": g for g in GAMES}
    rom_id = names[args.task]
    peers: dict[str, Any] = {
        f"raw ALE x{args.procs} procs": lambda: raw_ale(rom_id, args.procs, args.seconds),
        "rlpool async": lambda: rlpool_async(args.task, args.num_envs, args.batch_size, args.threads,
                                             args.seconds, args.warmup),
        "rlpool sync": lambda: rlpool_sync(args.task, args.num_envs, args.threads, args.seconds, args.warmup),
    }
    if not args.no_envpool:
        try:
            import envpool  # noqa: F401

            peers["EnvPool async"] = lambda: envpool_async(args.task, args.num_envs, args.batch_size, args.threads,
                                                           args.seconds, args.warmup)
        except ImportError:
            print("envpool not installed: its row is skipped")
    figures: dict[str, list[float]] = {k: [] for k in peers}
    per_cpu: dict[str, list[float]] = {k: [] for k in peers}
    loads = []
    for r in range(args.rounds):
        for name, fn in peers.items():
            wall, cpu = fn()
            figures[name].append(wall)
            per_cpu[name].append(cpu)
            print(f"round {r + 1}: {name:24s} {wall:10,.0f} frames/s {cpu:10,.0f} frames/CPU-s", flush=True)
        loads.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in figures.items()}
    med_cpu = {k: statistics.median(v) for k, v in per_cpu.items()}
    raw_name = f"raw ALE x{args.procs} procs"
    print(f"\n{args.task}, num_envs={args.num_envs}, batch_size={args.batch_size}, threads={args.threads}, "
          f"{os.cpu_count()} CPUs, load average during the run {min(loads):.1f}-{max(loads):.1f}")
    print("frames/s is wall-clock throughput (what a user gets; moved by other load on the machine);")
    print("frames/CPU-s is frames per second of CPU time the peer's process(es) used (efficiency).")
    print(f"{'peer':26s} {'frames/s':>10s} {'vs raw':>7s} {'frames/CPU-s':>13s} {'vs raw':>7s}")
    for k in peers:
        print(f"{k:26s} {med[k]:10,.0f} {med[k] / med[raw_name]:7.1%} {med_cpu[k]:13,.0f} "
              f"{med_cpu[k] / med_cpu[raw_name]:7.1%}")
    if "EnvPool async" in med:
        print(f"rlpool async / EnvPool async: {med['rlpool async'] / med['EnvPool async']:.2f}x frames/s, "
              f"{med_cpu['rlpool async'] / med_cpu['EnvPool async']:.2f}x frames/CPU-s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "frames_per_s": figures, "frames_per_cpu_s": per_cpu,
                       "median": med, "median_per_cpu": med_cpu, "loadavg": loads}, f, indent=1)


if __name__ == "__main__":
    main()
