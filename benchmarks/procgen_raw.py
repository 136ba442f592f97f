"""Procgen throughput: rlpool against procgen's own batched libenv and EnvPool, in one run.

Peers (each measured for --seconds, in rounds that alternate the peers so that a change in machine
load hits all of them; the median round is reported):

- libenv: one libenv of N games with --threads of libenv's own stepping threads, driven through
  ctypes (``rlpool.envs.procgen.libenv``): ``libenv_act`` + ``libenv_observe`` per batch, as procgen's
  gym3 env does; the throughput procgen itself gives.
- rlpool sync: ``rlpool.make(task, num_envs=N, num_threads=T)`` and ``step()``.
- rlpool async: the same with batch_size=N/2, recv/send.
- EnvPool sync / async: ``envpool.make_gymnasium(task, num_envs=N, num_threads=T)`` (batch N/2 for async).

``--layout`` measures instead what rlpool's design rests on, in one thread: N one-game libenvs stepped
in turn against one N-game libenv (num_threads=0), and what one libenv costs to make and in memory.

    python benchmarks/procgen_raw.py                                  # CoinrunEasy + StarpilotEasy, 16 envs
    python benchmarks/procgen_raw.py --tasks StarpilotEasy-v0 --seconds 3 --rounds 5
    python benchmarks/procgen_raw.py --layout
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from timing import add_run_options, announce_versions, each, time_calls

import rlpool
from rlpool.envs.procgen import libenv


def _game(task: str) -> tuple[str, str]:
    spec = rlpool.make_spec(task)
    return spec.task.env_defaults["_game"], spec.env_config["distribution_mode"]


def raw_libenv(task: str, n: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    game, mode = _game(task)
    env = libenv.LibEnv(game, n, seed=1, num_threads=threads, distribution_mode=mode)
    plan = np.random.default_rng(0).integers(0, 15, (256, n)).astype(np.int32)
    i = [0]

    def step() -> int:
        env.action[:] = plan[i[0] & 255]
        i[0] += 1
        env.act()
        env.observe()
        return n

    try:
        return time_calls(each(step), seconds, warmup=warmup).rates()
    finally:
        env.close()


def _step_loop(env: Any, n: int, seconds: float, warmup: int, dtype: Any) -> tuple[float, float]:
    env.reset()
    plan = np.random.default_rng(0).integers(0, 15, (256, n)).astype(dtype)
    i = [0]

    def step() -> int:
        env.step(plan[i[0] & 255])
        i[0] += 1
        return n

    try:
        return time_calls(each(step), seconds, warmup=warmup).rates()
    finally:
        env.close()


def rlpool_sync(task: str, n: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    return _step_loop(rlpool.make(task, num_envs=n, num_threads=threads, seed=1), n, seconds, warmup, np.int64)


def _send_recv(env: Any, n: int, batch: int, seconds: float, warmup: int, dtype: Any) -> tuple[float, float]:
    env.async_reset()
    plan = np.random.default_rng(0).integers(0, 15, (256, batch)).astype(dtype)
    i = [0]

    def step() -> int:
        info = env.recv()[-1]
        env.send(plan[i[0] & 255], info["env_id"])
        i[0] += 1
        return batch

    return time_calls(each(step), seconds, warmup=warmup).rates()


def rlpool_async(task: str, n: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    env = rlpool.make(task, num_envs=n, batch_size=n // 2, num_threads=threads, seed=1)
    try:
        return _send_recv(env, n, n // 2, seconds, warmup, np.int64)
    finally:
        env.close()


def _envpool(task: str, n: int, batch: int, threads: int) -> Any:
    import envpool

    return envpool.make_gymnasium(task, num_envs=n, batch_size=batch, num_threads=threads, seed=1)


def envpool_sync(task: str, n: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    return _step_loop(_envpool(task, n, n, threads), n, seconds, warmup, np.int32)


def envpool_async(task: str, n: int, threads: int, seconds: float, warmup: int) -> tuple[float, float]:
    env = _envpool(task, n, n // 2, threads)
    try:
        return _send_recv(env, n, n // 2, seconds, warmup, np.int32)
    finally:
        env.close()


PEERS: dict[str, Callable[..., tuple[float, float]]] = {
    "libenv": raw_libenv,
    "rlpool sync": rlpool_sync,
    "rlpool async": rlpool_async,
    "envpool sync": envpool_sync,
    "envpool async": envpool_async,
}


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def layout(task: str, n: int, seconds: float, rounds: int) -> dict[str, Any]:
    """One thread: n one-game libenvs in turn vs one n-game libenv; make time and memory of one libenv."""
    game, mode = _game(task)
    libenv.LibEnv(game, 1, seed=0, distribution_mode=mode).close()  # process-wide image loading, once
    before = _rss_kb()
    t0 = time.perf_counter()
    singles = [libenv.LibEnv(game, 1, seed=s, distribution_mode=mode) for s in range(n)]
    make_ms = (time.perf_counter() - t0) / n * 1e3
    mem_kb = (_rss_kb() - before) / n
    batched = libenv.LibEnv(game, n, seed=0, distribution_mode=mode)
    plan = np.random.default_rng(0).integers(0, 15, (256, n)).astype(np.int32)
    i = [0]

    def step_singles() -> int:
        a = plan[i[0] & 255]
        i[0] += 1
        for k, e in enumerate(singles):
            e.action[0] = a[k]
            e.act()
        return n

    def step_batched() -> int:
        batched.action[:] = plan[i[0] & 255]
        i[0] += 1
        batched.act()
        return n

    one, many = [], []
    for _ in range(rounds):
        one.append(time_calls(each(step_singles), seconds, warmup=50).per_wall_s)
        many.append(time_calls(each(step_batched), seconds, warmup=50).per_wall_s)
    for e in singles:
        e.close()
    batched.close()
    return {
        "task": task, "num_envs": n, "one_game_libenvs_steps_per_s": statistics.median(one),
        "one_libenv_of_n_steps_per_s": statistics.median(many),
        "ratio": statistics.median(one) / statistics.median(many),
        "make_ms_per_one_game_libenv": make_ms, "rss_kb_per_one_game_libenv": mem_kb,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=["CoinrunEasy-v0", "StarpilotEasy-v0"])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--peers", default=",".join(PEERS), help="comma-separated subset of: " + ", ".join(PEERS))
    p.add_argument("--layout", action="store_true", help="measure one-game libenvs against one batched libenv")
    add_run_options(p, num_envs=16, seconds=2.0, rounds=3, warmup=50)
    a = p.parse_args()
    announce_versions()
    load = os.getloadavg()
    if a.layout:
        results: Any = [layout(t, a.num_envs, a.seconds, a.rounds) for t in a.tasks]
        for r in results:
            print(f"{r['task']}: {a.num_envs} one-game libenvs in turn {r['one_game_libenvs_steps_per_s']:,.0f} "
                  f"steps/s, one {a.num_envs}-game libenv {r['one_libenv_of_n_steps_per_s']:,.0f} "
                  f"(ratio {r['ratio']:.3f}); one libenv: {r['make_ms_per_one_game_libenv']:.1f} ms to make, "
                  f"{r['rss_kb_per_one_game_libenv']:.0f} kB")
    else:
        peers = [s.strip() for s in a.peers.split(",") if s.strip()]
        results = []
        for task in a.tasks:
            runs: dict[str, list[tuple[float, float]]] = {peer: [] for peer in peers}
            for _ in range(a.rounds):
                for peer in list(peers):
                    try:
                        runs[peer].append(PEERS[peer](task, a.num_envs, a.threads, a.seconds, a.warmup))
                    except ImportError as e:
                        print(f"{peer}: unavailable ({e})")
                        peers.remove(peer)
                        runs.pop(peer)
            wall = {peer: statistics.median(w for w, _ in v) for peer, v in runs.items() if v}
            cpu = {peer: statistics.median(c for _, c in v) for peer, v in runs.items() if v}
            print(f"{task}, {a.num_envs} envs, {a.threads} threads, median of {a.rounds} rounds "
                  "(steps per wall second, per CPU second; ratios: best rlpool / this):")
            best_wall = max(v for k, v in wall.items() if k.startswith("rlpool")) if "rlpool sync" in wall else None
            best_cpu = max(v for k, v in cpu.items() if k.startswith("rlpool")) if "rlpool sync" in cpu else None
            for peer in wall:
                rel = f"  {best_wall / wall[peer]:.3f}  {best_cpu / cpu[peer]:.3f}" if best_wall else ""
                print(f"  {peer:14s} {wall[peer]:>10,.0f} {cpu[peer]:>10,.0f}{rel}")
            results.append({"task": task, "num_envs": a.num_envs, "threads": a.threads,
                             "steps_per_wall_s": wall, "steps_per_cpu_s": cpu, "rounds": runs})
    after = os.getloadavg()
    print(f"load average before {load[0]:.2f}, after {after[0]:.2f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"results": results, "load_before": load, "load_after": after}, f, indent=1)


if __name__ == "__main__":
    main()
