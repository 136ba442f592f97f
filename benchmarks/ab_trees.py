"""Before/after speed of two rlpool checkouts, in one run: alternating rounds, medians, ratios.

    python benchmarks/ab_trees.py BEFORE_TREE AFTER_TREE            # default cases, 5 rounds of 2 s each
    python benchmarks/ab_trees.py /work/baseline . --rounds 7 --seconds 3 --cases cartpole-1,pong-8

Each tree must hold a built extension in ``src/rlpool`` (``bash scripts/dev_build.sh`` there). For every
case and round, a fresh subprocess imports rlpool from ``<tree>/src`` and measures steps/s of one loop;
rounds alternate the trees (A B B A A B ...) so that both see the same machine load, and the median of each
tree's rounds is reported with the ratio after/before. Cases:

- ``cartpole-1``, ``cartpole-16``: CartPole-v1, sync ``step(actions)`` with 1 and 16 envs (per-call cost);
- ``pong-8``: Pong-v5, 8 envs, async batch 4, 2 threads (``recv`` then ``send``);
- ``ant-8``: Ant-v5, 8 envs, async batch 4, 2 threads.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CASES = {
    "cartpole-1": dict(task="CartPole-v1", num_envs=1, batch_size=1),
    "cartpole-16": dict(task="CartPole-v1", num_envs=16, batch_size=16),
    "pong-8": dict(task="Pong-v5", num_envs=8, batch_size=4, num_threads=2),
    "ant-8": dict(task="Ant-v5", num_envs=8, batch_size=4, num_threads=2),
}

# Runs in the child: one measurement, printed as JSON on the last line. The child imports rlpool from the
# tree measured and ``timing`` from this folder, so that both trees are timed by the same loop.
CHILD = r"""
import json, sys
import numpy as np
import rlpool
from timing import time_calls
case = json.loads(sys.argv[1]); seconds = float(sys.argv[2])
task = case.pop("task")
env = rlpool.make(task, seed=0, **case)
n, bs = env.num_envs, env.batch_size
space = env.single_action_space
space.seed(0)
actions = np.stack([space.sample() for _ in range(bs)])
if bs == n:
    env.reset()
    step = lambda: env.step(actions)
else:
    env.async_reset()
    def step():
        info = env.recv()[4]
        env.send(actions, info["env_id"])
def run(calls):
    for _ in range(calls):
        step()
    return calls * bs
timed = time_calls(run, seconds, chunk=100, warmup=300)
print(json.dumps({"steps_per_s": timed.per_wall_s, "rlpool": rlpool.__file__}))
"""


def measure(tree: Path, case: dict, seconds: float) -> float:
    """Steps/s of one case in a fresh process importing rlpool from ``tree``/src."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree / "src"), str(Path(__file__).resolve().parent)]))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(case), str(seconds)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    if not result["rlpool"].startswith(str(tree)):
        raise RuntimeError(f"imported rlpool from {result['rlpool']}, not from {tree}")
    return result["steps_per_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", type=Path, help="write every measurement here")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    results: dict[str, dict[str, list[float]]] = {}
    print(f"load average at start: {os.getloadavg()}")
    for name in args.cases.split(","):
        case = CASES[name]
        runs: dict[str, list[float]] = {"before": [], "after": []}
        for r in range(args.rounds):
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            for which in order:
                runs[which].append(measure(trees[which], dict(case), args.seconds))
        results[name] = runs
        b, a = statistics.median(runs["before"]), statistics.median(runs["after"])
        print(f"{name:12s} before {b:>12,.0f}  after {a:>12,.0f} steps/s  after/before {a / b:.3f}"
              f"  (spread before {min(runs['before']):,.0f}..{max(runs['before']):,.0f},"
              f" after {min(runs['after']):,.0f}..{max(runs['after']):,.0f})", flush=True)
    print(f"load average at end: {os.getloadavg()}")
    if args.json:
        args.json.write_text(json.dumps({"trees": {k: str(v) for k, v in trees.items()}, "results": results}, indent=1))


if __name__ == "__main__":
    main()
