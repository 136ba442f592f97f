"""DeepMind Control Suite throughput in one run: rlpool against raw ``mj_step`` in threads, EnvPool and dm_control.

    python benchmarks/dmc_raw.py                          # CheetahRun-v1 and HumanoidWalk-v1, 8 envs, 2 threads
    python benchmarks/dmc_raw.py --task WalkerWalk-v1 --seconds 5 --rounds 3 --json out.json

raw: the physics alone. The same compiled model rlpool loads (dm_control's, from rlpool's MJB cache), one
``MjData`` per env, ``mujoco.mj_step(model, data, nstep=n_sub_steps * chunk)`` from the ``mujoco`` bindings in
``--threads`` Python threads (they release the GIL in ``mj_step``), the fixed action batch as ``ctrl``. Every
1000 env steps an env is reset with ``mj_resetData`` plus the physics steps the task's reset itself runs
(Cheetah's 200 settling steps, ``RESET_STEPS``), since rlpool's envs do that work too. The timer callback
the ``mujoco`` package installs is off meanwhile (``python_timer_off``): rlpool's private copy of the library
has none, and with it each step would cost ~15 % more.

Then rlpool async (``batch_size = num_envs / 2``), EnvPool async (same) and a Python loop over ``num_envs``
dm_control environments (``rlpool bench``'s dm_control peer). Rounds alternate the peers so that all see the
same machine load; each peer's best round is reported with its ratio to raw.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from timing import CountingThreads, add_run_options, announce_versions

import rlpool
from rlpool.envs.dmc.registration import DOMAINS, model_file
from rlpool.envs.mujoco import python_timer_off
from rlpool.tools import bench

RESET_STEPS = {"cheetah": 200}
"""Physics steps a domain's initialize_episode runs (dm_control: cheetah settles for 200 steps)."""


def domain_of(task: str) -> tuple[str, str, int]:
    spec = rlpool.make_spec(task)
    name = spec.config["task_name"]
    for d in DOMAINS:
        if spec.task.env_type == f"Dmc{''.join(p[:1].upper() + p[1:] for p in d.name.split('_'))}":
            return d.name, name, d.n_sub_steps
    raise ValueError(f"{task} is not a DMC task")


def raw_steps_per_sec(task: str, num_envs: int, threads: int, seconds: float, chunk: int = 10) -> float:
    import mujoco

    domain, name, n_sub = domain_of(task)
    model = mujoco.MjModel.from_binary_path(model_file(domain, name))
    actions = bench.sample_actions(task, num_envs).astype(np.float64)
    datas = []
    for i in range(num_envs):
        d = mujoco.MjData(model)
        mujoco.mj_forward(model, d)
        d.ctrl[:] = actions[i]
        datas.append(d)
    pool = CountingThreads(threads)
    counts, stop = pool.counts, pool.stop
    reset_steps = RESET_STEPS.get(domain, 0)

    def work(k: int) -> None:
        mine = datas[k::threads]
        elapsed = [0] * len(mine)
        pool.started.wait()
        while not stop.is_set():
            for j, d in enumerate(mine):
                mujoco.mj_step(model, d, nstep=n_sub * chunk)
                elapsed[j] += chunk
                counts[k] += chunk
                if elapsed[j] >= 1000:
                    ctrl = d.ctrl.copy()
                    mujoco.mj_resetData(model, d)
                    if reset_steps:
                        mujoco.mj_step(model, d, nstep=reset_steps)
                    mujoco.mj_forward(model, d)
                    d.ctrl[:] = ctrl
                    elapsed[j] = 0

    with python_timer_off():  # as rlpool's private copy of the library runs
        return pool.measure(work, seconds, settle=0.3).per_wall_s


def peer_steps_per_sec(peer: str, task: str, num_envs: int, threads: int, seconds: float) -> float | None:
    actions = bench.sample_actions(task, num_envs)
    try:
        bench.check_peer(peer, task)
        if peer == "rlpool-async":
            env = rlpool.make_gymnasium(task, num_envs=num_envs, batch_size=num_envs // 2, num_threads=threads,
                                        seed=bench.ENV_SEED)
            runner: bench.Runner = bench.AsyncRunner(env, actions[: num_envs // 2])
        elif peer == "envpool-async":
            env = bench._envpool().make_gymnasium(task, num_envs=num_envs, batch_size=num_envs // 2,
                                                  num_threads=threads, seed=bench.ENV_SEED)
            runner = bench.AsyncRunner(env, actions[: num_envs // 2])
        else:
            runner = bench.make_runner(peer, task, num_envs, actions)
    except bench.PeerUnavailable as e:
        print(f"  {peer}: skipped ({e})")
        return None
    try:
        steps, _, elapsed = bench.time_runner(runner, seconds=seconds, warmup=50)
    finally:
        runner.close()
    return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", action="append", help="task id (repeatable; default CheetahRun-v1, HumanoidWalk-v1)")
    parser.add_argument("--threads", type=int, default=2)
    add_run_options(parser, num_envs=8, seconds=3.0, rounds=3)
    args = parser.parse_args()
    announce_versions()
    tasks = args.task or ["CheetahRun-v1", "HumanoidWalk-v1"]
    peers = ("raw", "rlpool-async", "envpool-async", "dm_control")
    report: dict[str, dict[str, float]] = {}
    for task in tasks:
        best: dict[str, float] = {}
        print(f"{task}: {args.num_envs} envs, {args.threads} threads, best of {args.rounds} rounds")
        for _ in range(args.rounds):
            for peer in peers:
                if peer == "raw":
                    rate: float | None = raw_steps_per_sec(task, args.num_envs, args.threads, args.seconds)
                else:
                    rate = peer_steps_per_sec(peer, task, args.num_envs, args.threads, args.seconds)
                if rate is not None:
                    best[peer] = max(best.get(peer, 0.0), rate)
        for peer, rate in best.items():
            print(f"  {peer:14s} {rate:10.0f} steps/s   {rate / best['raw']:6.1%} of raw   "
                  f"rlpool-async / this: {best.get('rlpool-async', float('nan')) / rate:5.2f}x")
        report[task] = best
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
