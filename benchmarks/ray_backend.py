"""The Ray backend against a local async pool, in one run: frames/s, their ratio, and the overhead per batch.

Peers (each measured for --seconds, in rounds that alternate the peers so that a change in machine load
hits all of them; the median round is reported):

- local async: ``rlpool.make(task, num_envs=N, batch_size=B, num_threads=T)``, recv/send.
- ray async: the same envs with ``backend="ray", num_workers=K`` (one CPU and one thread per worker by
  default, ``--cpus-per-worker``), recv/send; Ray started here with ``ray.init(num_cpus=T)``.
- ray sync (``--sync``): ``batch_size=N`` and ``step()`` over the K workers.

The overhead per batch is measured twice: (1) the Pong figures, as the extra wall time per batch
of the Ray pool over the local pool, (2) a near-free task (``--cheap-task``, CartPole-v1, ~1 us a
step) through the Ray pool, whose batch time is almost all overhead; with the driver's own CPU time
per batch (what bounds one learner's intake) and the bytes of one batch's observations.

Frames/s = env steps/s x frame_skip (4), the usual way to count Atari throughput.

    python benchmarks/ray_backend.py                    # Pong-v5, 16 envs, batch 8, 2 workers
    python benchmarks/ray_backend.py --batch-size 16 --rounds 3 --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

import numpy as np
from timing import add_run_options, time_calls

FRAME_SKIP = 4


def _run(env: Any, batch: int, seconds: float, warmup: int, sync: bool) -> dict[str, float]:
    """Steps/s, batches/s and the driver's CPU seconds per batch of a recv/send (or step) loop."""
    actions = np.ones(batch, dtype=np.int64)

    def step(calls: int) -> int:
        for _ in range(calls):
            env.step(actions)
        return calls

    def recv_send(calls: int) -> int:
        for _ in range(calls):
            _, _, _, _, info = env.recv()
            env.send(actions, info["env_id"])
        return calls

    if sync:
        env.reset()
    else:
        env.async_reset()
    batches = time_calls(step if sync else recv_send, seconds, chunk=8, warmup=warmup)
    if not sync:  # leave nothing in flight: the next round starts with async_reset()
        for _ in range(env.num_envs // batch):
            env.recv()
    return {
        "steps_per_s": batches.per_wall_s * batch,
        "batches_per_s": batches.per_wall_s,
        "driver_cpu_per_batch_s": batches.cpu_s / batches.units,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", default="Pong-v5")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--num-workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2, help="the local pool's threads and Ray's num_cpus")
    p.add_argument("--cpus-per-worker", type=float, default=1)
    p.add_argument("--sync", action="store_true", help="also measure the Ray pool in sync mode")
    p.add_argument("--cheap-task", default="CartPole-v1")
    add_run_options(p, num_envs=16, seconds=3.0, rounds=5, warmup=20)
    args = p.parse_args()

    import ray

    import rlpool

    n, b, k = args.num_envs, args.batch_size, args.num_workers
    # Ray's CPUs are bookkeeping: the Ray pools are alive together (and measured in turn), so Ray is told of
    # room for all of their workers; the machine's cores are what they are.
    ray_pools = 3 if args.sync else 2  # the cheap task's pool comes last, alone
    ray.init(num_cpus=max(args.threads, k * args.cpus_per_worker * ray_pools), include_dashboard=False,
             log_to_driver=False, configure_logging=False)
    common = dict(num_envs=n, seed=0)
    peers: dict[str, Any] = {
        "local async": (lambda: rlpool.make(args.task, batch_size=b, num_threads=args.threads, **common), b, False),
        "ray async": (lambda: rlpool.make(args.task, batch_size=b, backend="ray", num_workers=k,
                                          num_cpus_per_worker=args.cpus_per_worker, **common), b, False),
    }
    if args.sync:
        peers["ray sync"] = (lambda: rlpool.make(args.task, backend="ray", num_workers=k,
                                                 num_cpus_per_worker=args.cpus_per_worker, **common), n, True)
    envs = {name: make() for name, (make, _, _) in peers.items()}
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in peers}
    loads = []
    try:
        for r in range(args.rounds):
            order = list(peers) if r % 2 == 0 else list(reversed(peers))
            for name in order:
                _, batch, sync = peers[name]
                rounds[name].append(_run(envs[name], batch, args.seconds, args.warmup, sync))
            loads.append(open("/proc/loadavg").read().split()[0])
            print(f"round {r + 1}: " + ", ".join(
                f"{name} {rounds[name][-1]['steps_per_s'] * FRAME_SKIP:,.0f} frames/s" for name in peers), flush=True)
    finally:
        for env in envs.values():
            env.close()

    def median(name: str, key: str) -> float:
        return statistics.median(x[key] for x in rounds[name])

    result: dict[str, Any] = {"args": vars(args), "load": loads}
    for name in peers:
        result[name] = {
            "frames_per_s": median(name, "steps_per_s") * FRAME_SKIP,
            "batch_ms": 1e3 / median(name, "batches_per_s"),
            "driver_cpu_per_batch_ms": 1e3 * median(name, "driver_cpu_per_batch_s"),
        }
    # Per-round ratios (the same round's load for both), then their median.
    pairs = zip(rounds["ray async"], rounds["local async"], strict=True)
    ratios = [ray_r["steps_per_s"] / loc["steps_per_s"] for ray_r, loc in pairs]
    result["ratio ray async / local async"] = statistics.median(ratios)
    result["overhead per batch ms (Pong, ray - local)"] = (
        result["ray async"]["batch_ms"] - result["local async"]["batch_ms"])

    # A near-free task: the Ray pool's batch time is its overhead.
    cheap = rlpool.make(args.cheap_task, batch_size=b, backend="ray", num_workers=k,
                        num_cpus_per_worker=args.cpus_per_worker, **common)
    cheap_local = rlpool.make(args.cheap_task, batch_size=b, num_threads=args.threads, **common)
    try:
        c_rounds = [_run(cheap, b, args.seconds, args.warmup, False) for _ in range(3)]
        l_rounds = [_run(cheap_local, b, args.seconds, args.warmup, False) for _ in range(3)]
    finally:
        cheap.close()
        cheap_local.close()
    spec = rlpool.make_spec(args.task, num_envs=n)
    obs_bytes = sum(int(np.prod(a.shape)) * a.dtype.itemsize for a in spec.arrays.obs)
    result["cheap task"] = {
        "task": args.cheap_task,
        "ray batch_ms": 1e3 / statistics.median(x["batches_per_s"] for x in c_rounds),
        "ray driver_cpu_per_batch_ms": 1e3 * statistics.median(x["driver_cpu_per_batch_s"] for x in c_rounds),
        "local batch_ms": 1e3 / statistics.median(x["batches_per_s"] for x in l_rounds),
    }
    result["obs bytes per env step"] = obs_bytes
    result["obs bytes per batch"] = obs_bytes * b
    ray.shutdown()
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
