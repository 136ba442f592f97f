"""env.xla() speed: a jitted lax.scan with a trivial policy against the same pool stepped from a numpy loop,
and against EnvPool 1.2.5's xla() (and its numpy loop), side by side in one process, best of --rounds.

    python benchmarks/xla_bench.py                      # Pong-v5 x 8 envs, CartPole-v1 x 16 envs
    python benchmarks/xla_bench.py --json out.json

Prints env steps per second per way and the ratios the issue asks about (xla / numpy loop, rlpool xla /
EnvPool xla). The policy is the constant action 0 in every way, so only stepping and the call path differ.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np

CASES = (("Pong-v5", 8, 400), ("CartPole-v1", 16, 5000))


def _make(lib: str, task: str, n: int) -> Any:
    if lib == "rlpool":
        import rlpool.compat.envpool as envpool
    else:
        import envpool
    # The same thread count for both (one per core, at most one per env).
    threads = min(n, os.cpu_count() or 1)
    return envpool.make_gymnasium(task, num_envs=n, batch_size=n, seed=0, num_threads=threads)


def numpy_loop(env: Any, n: int, steps: int) -> float:
    env.reset()
    action = np.zeros(n, np.int32)
    env.step(action)
    start = time.perf_counter()
    for _ in range(steps):
        env.step(action)
    return n * steps / (time.perf_counter() - start)


def xla_scan(env: Any, n: int, steps: int) -> float:
    import jax
    import jax.numpy as jnp

    env.reset()
    handle, _, _, step = env.xla()
    action = jnp.zeros(n, jnp.int32)

    def body(h: Any, _: Any) -> tuple[Any, Any]:
        h, (obs, reward, *_rest) = step(h, action)
        return h, reward

    run = jax.jit(lambda h: jax.lax.scan(body, h, length=steps))
    handle, _ = jax.block_until_ready(run(handle))  # compile and warm up
    start = time.perf_counter()
    handle, rewards = jax.block_until_ready(run(handle))
    return n * steps / (time.perf_counter() - start)


def bench(rounds: int) -> list[dict[str, Any]]:
    try:
        import envpool  # noqa: F401

        libs = ("rlpool", "envpool")
    except ImportError:
        libs = ("rlpool",)
    rows = []
    for task, n, steps in CASES:
        best: dict[str, float] = {}
        for _ in range(rounds):  # interleaved, so load changes hit every way alike
            for lib in libs:
                for way, fn in (("numpy", numpy_loop), ("xla", xla_scan)):
                    env = _make(lib, task, n)
                    best[f"{lib}_{way}"] = max(best.get(f"{lib}_{way}", 0.0), fn(env, n, steps))
                    env.close()
        row: dict[str, Any] = {"task": task, "num_envs": n, **{k: round(v) for k, v in best.items()}}
        row["xla_vs_numpy"] = best["rlpool_xla"] / best["rlpool_numpy"]
        if "envpool_xla" in best:
            row["xla_vs_envpool_xla"] = best["rlpool_xla"] / best["envpool_xla"]
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = bench(args.rounds)
    print(f"load average: {os.getloadavg()}")
    for r in rows:
        ways = "  ".join(f"{k} {v}/s" for k, v in r.items() if k.startswith(("rlpool_", "envpool_")))
        ratios = f"xla/numpy {r['xla_vs_numpy']:.2f}"
        if "xla_vs_envpool_xla" in r:
            ratios += f"  rlpool xla / EnvPool xla {r['xla_vs_envpool_xla']:.2f}"
        print(f"{r['task']} x{r['num_envs']}: {ways}  |  {ratios}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load": os.getloadavg(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
