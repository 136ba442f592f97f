"""env.xla() speed: a jitted lax.scan with a trivial policy against the same pool stepped from a numpy loop,
and against EnvPool 1.2.5's xla() (and its numpy loop), side by side in one process.

    python benchmarks/xla_bench.py                      # Pong-v5 x 8 envs, CartPole-v1 x 16 envs
    python benchmarks/xla_bench.py --rounds 20 --json out.json

Each library's pool is stepped in alternating chunks of about 0.2 s, one from a numpy loop, one by the
jitted scan, --rounds pairs of them: the two ways share the pool, its threads and whatever load the
machine has at that moment. Prints each way's best rate and the median over pairs of xla / numpy (a
paired median: a burst of load on a shared machine moves one pair, not the result), and rlpool's xla
against EnvPool's. The policy is the constant action 0 in every way, so only the call path differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import numpy as np
from timing import announce_versions

CASES = (("Pong-v5", 8), ("CartPole-v1", 16))
CHUNK_S = 0.2


def _make(lib: str, task: str, n: int) -> Any:
    if lib == "rlpool":
        import rlpool.compat.envpool as envpool
    else:
        import envpool
    # The same thread count for both (one per core, at most one per env).
    threads = min(n, os.cpu_count() or 1)
    return envpool.make_gymnasium(task, num_envs=n, batch_size=n, seed=0, num_threads=threads)


def numpy_chunk(env: Any, action: np.ndarray, steps: int) -> float:
    """Seconds for `steps` batched steps from Python."""
    start = time.perf_counter()
    for _ in range(steps):
        env.step(action)
    return time.perf_counter() - start


def paired(lib: str, task: str, n: int, rounds: int) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp

    env = _make(lib, task, n)
    env.reset()
    action = np.zeros(n, np.int32)
    # Chunk length: about CHUNK_S of numpy-loop stepping (the scan's length is fixed when it compiles).
    steps = 100
    while (t := numpy_chunk(env, action, steps)) < CHUNK_S / 4:
        steps *= 4
    steps = max(1, int(steps * CHUNK_S / t))

    handle, _, _, step = env.xla()
    jax_action = jnp.zeros(n, jnp.int32)

    def body(h: Any, _: Any) -> tuple[Any, Any]:
        h, (obs, reward, *_rest) = step(h, jax_action)
        return h, reward

    run = jax.jit(lambda h: jax.lax.scan(body, h, length=steps))
    handle, _ = jax.block_until_ready(run(handle))  # compile and warm up
    numpy_rates, xla_rates = [], []
    for i in range(rounds):
        if i % 2 == 0:  # either way first, in turn
            numpy_rates.append(n * steps / numpy_chunk(env, action, steps))
        start = time.perf_counter()
        handle, _ = jax.block_until_ready(run(handle))
        xla_rates.append(n * steps / (time.perf_counter() - start))
        if i % 2 == 1:
            numpy_rates.append(n * steps / numpy_chunk(env, action, steps))
    env.close()
    return {
        "numpy": max(numpy_rates),
        "xla": max(xla_rates),
        "xla_vs_numpy": statistics.median(x / y for x, y in zip(xla_rates, numpy_rates, strict=True)),
        "chunk_steps": steps,
    }


def bench(rounds: int) -> list[dict[str, Any]]:
    try:
        import envpool  # noqa: F401

        libs = ("rlpool", "envpool")
    except ImportError:
        libs = ("rlpool",)
    rows = []
    for task, n in CASES:
        row: dict[str, Any] = {"task": task, "num_envs": n}
        for lib in libs:
            r = paired(lib, task, n, rounds)
            row[f"{lib}_numpy"] = round(r["numpy"])
            row[f"{lib}_xla"] = round(r["xla"])
            row[f"{lib}_xla_vs_numpy"] = r["xla_vs_numpy"]
            row[f"{lib}_chunk_steps"] = r["chunk_steps"]
        row["xla_vs_numpy"] = row["rlpool_xla_vs_numpy"]
        if "envpool_xla" in row:
            row["xla_vs_envpool_xla"] = row["rlpool_xla"] / row["envpool_xla"]
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="pairs of chunks per library and task")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    announce_versions()
    rows = bench(args.rounds)
    print(f"load average: {os.getloadavg()}")
    for r in rows:
        libs = [lib for lib in ("rlpool", "envpool") if f"{lib}_xla" in r]
        ways = "  ".join(f"{lib}_{way} {r[f'{lib}_{way}']}/s" for lib in libs for way in ("numpy", "xla"))
        ratios = "  ".join(f"{lib} xla/numpy {r[f'{lib}_xla_vs_numpy']:.3f} (median of pairs)" for lib in libs)
        if "xla_vs_envpool_xla" in r:
            ratios += f"  rlpool xla / EnvPool xla {r['xla_vs_envpool_xla']:.2f}"
        print(f"{r['task']} x{r['num_envs']}: {ways}  |  {ratios}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load": os.getloadavg(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
