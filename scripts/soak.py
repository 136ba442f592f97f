#!/usr/bin/env python3
"""Long soak: async runs with random batch and send sizes against sync runs, millions of steps (not CI).

    PYTHONPATH=src python3 scripts/soak.py                         # ~4M async steps, all task families
    PYTHONPATH=src python3 scripts/soak.py --steps 20000000 --tasks CartPole-v1,BusyWork-v0

Each run picks a task (round robin over the reliability task list), an autoreset mode (NextStep or
SameStep), num_envs, batch_size < num_envs, num_threads and a send-size seed at random, plays the same
per-env action table in sync mode (one thread, lockstep) and in async mode, and requires the two sets of
trajectories to be bitwise equal (tests/core/test_soak.py has the details). Stops at the first difference.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run soak rounds until the step budget is spent; print each run and the totals; 1 on failure."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=4_000_000, help="env steps in async mode to reach")
    parser.add_argument("--steps-per-env", type=int, default=20000, help="steps per env in one run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tasks", default=None, help="comma-separated task ids (default: one per env type)")
    args = parser.parse_args()
    if args.tasks:
        os.environ["RLPOOL_RELIABILITY_TASKS"] = args.tasks
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "src"))
    import numpy as np
    import test_soak

    rng = np.random.default_rng(args.seed)
    total_steps = total_rows = episodes = runs = 0
    combined = hashlib.sha256()
    start = time.monotonic()
    k = 0
    while total_steps < args.steps:
        task_id = test_soak.TASKS[k % len(test_soak.TASKS)]
        k += 1
        num_envs = int(rng.integers(2, 33))
        per_env = args.steps_per_env if task_id != "BusyWork-v0" else max(1, args.steps_per_env // 10)
        try:
            r = test_soak.soak(task_id, num_envs, per_env, seed=int(rng.integers(2**31)),
                               mode=str(rng.choice(["NextStep", "SameStep"])),
                               batch_size=int(rng.integers(1, num_envs)), num_threads=int(rng.integers(1, 5)),
                               send_seed=int(rng.integers(2**31)))
        except AssertionError as e:
            print(f"FAILED: {e}", flush=True)
            return 1
        runs += 1
        total_steps += r["steps"]
        total_rows += r["async_rows"]
        episodes += r["episodes_ended"]
        combined.update(r["sha256"].encode())
        print(f"{r['where']}: {r['steps']} steps, {r['episodes_ended']} episodes ended, "
              f"sync {r['sync_s']:.1f} s, async {r['async_s']:.1f} s, sha256 {r['sha256'][:16]} equal", flush=True)
    elapsed = time.monotonic() - start
    print(f"\n{runs} runs, {total_steps} env steps compared ({total_rows} async rows received incl. extra steps "
          f"that keep batches full), {episodes} episodes ended, all async trajectories equal to sync; "
          f"{elapsed:.0f} s; combined sha256 {combined.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
