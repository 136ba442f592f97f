"""MuJoCo throughput in one run: rlpool against raw ``mj_step`` in threads, EnvPool and gymnasium.

    python benchmarks/mujoco_raw.py                       # Ant-v5, 8 envs, async batch 4, 2 raw threads
    python benchmarks/mujoco_raw.py --task Hopper-v5 --seconds 5 --rounds 3 --json out.json

The raw baseline is what the physics alone costs: the same model file rlpool
loads, one ``MjData`` per env, ``mujoco.mj_step(model, data, nstep=...)`` from
the ``mujoco`` Python bindings in ``--threads`` Python threads. Those bindings
release the GIL inside ``mj_step`` (checked at start-up: another thread keeps
running Python during a long call), and each call advances one env by
``--chunk`` env steps (``frame_skip * chunk`` MuJoCo steps), so the Python cost
per call is noise against the physics and no C++ harness is needed. The timer
callback the ``mujoco`` package installs on import is off meanwhile
(``python_timer_off``), as in rlpool's private copy of the library. Each env
gets the same fixed action batch the ``rlpool bench`` peers use (``ctrl`` set
once), and is reset like the task's reset (``mj_resetData`` plus the task's
reset noise) every ``max_episode_steps`` env steps: with that fixed batch Ant
never falls, so rlpool's envs run the same episodes (1000 steps, truncated).

rlpool's env does a little more than ``mj_step`` per env step: gymnasium's
``mj_rnePostConstraint`` (the contact forces in the observation) and the
observation/reward. The ``raw+rne`` row adds that call (one Python call per env
step), to show what the physics of a full env step costs.

Then the peers of ``rlpool bench`` (rlpool sync/async, EnvPool sync/async,
gymnasium's Sync/AsyncVectorEnv) are measured on the same task and num_envs.
Rounds alternate raw and rlpool-async so that both see the same machine load;
each peer's best round is reported. Figures on a shared machine are rough.
"""

from __future__ import annotations

import argparse
import json
import os
import time
import warnings
from pathlib import Path

import numpy as np
from timing import CountingThreads, add_run_options, announce_versions, spinning_thread, time_calls

import rlpool
from rlpool.envs.mujoco import python_timer_off
from rlpool.tools import bench

PEERS = ("rlpool-async", "rlpool-sync", "envpool-sync", "envpool-async", "gym-sync", "gym-async")


def gil_released_by_mj_step(mujoco, model) -> bool:
    """Whether another Python thread runs while ``mj_step`` runs (the GIL is released)."""
    data = mujoco.MjData(model)
    with spinning_thread() as count:
        time.sleep(0.01)
        before = count()
        mujoco.mj_step(model, data, nstep=2000)
        advanced = count() - before
    return advanced > 1000


def reset_noise(spec: rlpool.EnvSpec, model, data, rng: np.random.Generator, mujoco) -> None:
    """Reset ``data`` as the task does (qpos + U(-s, s), qvel + s * N(0, 1) for Ant; U for others)."""
    mujoco.mj_resetData(model, data)
    scale = float(spec.config.get("reset_noise_scale", 0.0))
    data.qpos[:] += rng.uniform(-scale, scale, model.nq)
    if spec.id.startswith(("Ant", "HalfCheetah", "InvertedDoublePendulum")):
        data.qvel[:] += scale * rng.standard_normal(model.nv)
    else:
        data.qvel[:] += rng.uniform(-scale, scale, model.nv)
    mujoco.mj_forward(model, data)


def raw_steps_per_sec(task: str, num_envs: int, threads: int, seconds: float, chunk: int, with_rne: bool) -> float:
    """Env steps per second of raw ``mj_step`` on ``num_envs`` MjData split over ``threads`` threads."""
    import mujoco

    spec = rlpool.make_spec(task)
    model = mujoco.MjModel.from_xml_path(spec.config["xml_file"])
    frame_skip = int(spec.config["frame_skip"])
    episode = spec.max_episode_steps
    actions = bench.sample_actions(task, num_envs).astype(np.float64)
    rng = np.random.default_rng(0)
    datas = []
    for i in range(num_envs):
        d = mujoco.MjData(model)
        reset_noise(spec, model, d, rng, mujoco)
        d.ctrl[:] = actions[i]
        datas.append(d)
    pool = CountingThreads(threads)
    counts, stop = pool.counts, pool.stop

    def work(k: int) -> None:
        mine = datas[k::threads]
        local_rng = np.random.default_rng(k + 1)
        elapsed = [0] * len(mine)
        pool.started.wait()
        while not stop.is_set():
            for j, d in enumerate(mine):
                if with_rne:
                    for _ in range(chunk):
                        mujoco.mj_step(model, d, nstep=frame_skip)
                        mujoco.mj_rnePostConstraint(model, d)
                else:
                    mujoco.mj_step(model, d, nstep=frame_skip * chunk)
                elapsed[j] += chunk
                counts[k] += chunk
                if elapsed[j] >= episode:
                    ctrl = d.ctrl.copy()
                    reset_noise(spec, model, d, local_rng, mujoco)
                    d.ctrl[:] = ctrl
                    elapsed[j] = 0

    with python_timer_off():  # as rlpool's private copy of the library runs
        timed = pool.measure(work, seconds)
    return timed.per_wall_s, timed.per_cpu_s


def peer_steps_per_sec(peer: str, task: str, num_envs: int, seconds: float) -> tuple[float, float | None]:
    """Env steps per second (wall, CPU of this process) of a ``rlpool bench`` peer, stepped as it steps them.

    The CPU figure is None for gym-async, whose work runs in child processes.
    """
    bench.check_peer(peer, task)
    actions = bench.sample_actions(task, num_envs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner = bench.make_runner(peer, task, num_envs, actions)

    def run(calls: int) -> int:
        runner.run(calls)
        return calls * runner.batch_size

    try:
        timed = time_calls(run, seconds, chunk=20, warmup=50)
    finally:
        runner.close()
    return timed.per_wall_s, None if peer == "gym-async" else timed.per_cpu_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="Ant-v5")
    parser.add_argument("--threads", type=int, default=2, help="raw mj_step threads (default 2)")
    parser.add_argument("--chunk", type=int, default=10, help="env steps per raw mj_step call")
    parser.add_argument("--peers", default=",".join(PEERS), help=f"comma-separated, from {','.join(PEERS)}")
    add_run_options(parser, num_envs=8, seconds=3.0, rounds=2)
    args = parser.parse_args()
    announce_versions()
    peers = [p for p in args.peers.split(",") if p]

    import mujoco

    model = mujoco.MjModel.from_xml_path(rlpool.make_spec(args.task).config["xml_file"])
    released = gil_released_by_mj_step(mujoco, model)
    print(f"mujoco {mujoco.__version__}: mj_step releases the GIL: {released}")
    if not released:
        print("warning: raw threads are serialised by the GIL; the raw figure is a one-core figure")

    best: dict[str, float] = {}
    best_cpu: dict[str, float] = {}

    def keep(name: str, wall: float, cpu: float | None) -> None:
        best[name] = max(best.get(name, 0.0), wall)
        if cpu is not None:
            best_cpu[name] = max(best_cpu.get(name, 0.0), cpu)
        per_cpu = "" if cpu is None else f"   {cpu:10,.0f} per CPU-second"
        print(f"  {name:14s} {wall:10,.0f} env steps/s{per_cpu}")

    def peer(name: str) -> None:
        try:
            keep(name, *peer_steps_per_sec(name, args.task, args.num_envs, args.seconds))
        except bench.PeerUnavailable as e:
            print(f"  {name:14s} skipped: {e}")

    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds} (load average {os.getloadavg()[0]:.2f})")
        keep("raw", *raw_steps_per_sec(args.task, args.num_envs, args.threads, args.seconds, args.chunk, False))
        if "rlpool-async" in peers:
            peer("rlpool-async")
    keep("raw+rne", *raw_steps_per_sec(args.task, args.num_envs, args.threads, args.seconds, args.chunk, True))
    for name in peers:
        if name != "rlpool-async":
            peer(name)

    print(f"\n{args.task}, {args.num_envs} envs (async batch {max(1, args.num_envs // 2)}), best of each:")
    for name, value in best.items():
        per_cpu = f"   {best_cpu[name]:10,.0f} per CPU-second" if name in best_cpu else ""
        print(f"  {name:14s} {value:10,.0f} env steps/s{per_cpu}")
    ratios: dict[str, float] = {}
    ours = best.get("rlpool-async")
    envpool = max((best[p] for p in ("envpool-sync", "envpool-async") if p in best), default=None)
    if ours is not None:
        ratios["rlpool-async / raw"] = ours / best["raw"]
        ratios["rlpool-async / raw+rne"] = ours / best["raw+rne"]
        if envpool:
            ratios["rlpool-async / EnvPool best"] = ours / envpool
        for gym_peer in ("gym-async", "gym-sync"):
            if gym_peer in best:
                ratios[f"rlpool-async / {gym_peer}"] = ours / best[gym_peer]
        # Per CPU-second: how much of the machine each spends per env step, which a busy
        # shared machine disturbs much less than wall-clock rates.
        ratios["per CPU-second: rlpool-async / raw"] = best_cpu["rlpool-async"] / best_cpu["raw"]
        cpu_envpool = max((best_cpu[p] for p in ("envpool-sync", "envpool-async") if p in best_cpu), default=None)
        if cpu_envpool:
            ratios["per CPU-second: rlpool-async / EnvPool best"] = best_cpu["rlpool-async"] / cpu_envpool
    for name, value in ratios.items():
        print(f"  {name:45s} {value:6.3f}")
    if args.json is not None:
        report = {"task": args.task, "num_envs": args.num_envs, "raw_threads": args.threads, "best": best}
        report["best_per_cpu_second"] = best_cpu
        report.update(ratios=ratios, machine=bench.machine_info(), gil_released=released)
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
