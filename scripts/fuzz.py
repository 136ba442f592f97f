#!/usr/bin/env python3
"""Long fuzzing run: the state machine of tests/core/test_fuzz.py for many more sequences (not for CI).

    PYTHONPATH=src python3 scripts/fuzz.py --sequences 10000            # ~20 min on 2 busy cores
    PYTHONPATH=src python3 scripts/fuzz.py --sequences 2000 --tasks BusyWork-v0,CartPole-v1 --steps 80

Runs in rounds of ``--round`` sequences (fresh hypothesis random seed each), stops at the first failure
(whose message carries the failing sequence's call log), and prints what was exercised: sequences, pools
per task and mode, calls per outcome, result rows checked against the per-env twins, and the time taken.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run the fuzzing rounds and print what was exercised; 1 on failure."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sequences", type=int, default=10000, help="call sequences to run (default 10000)")
    parser.add_argument("--steps", type=int, default=40, help="max rules per sequence (default 40)")
    parser.add_argument("--round", type=int, default=500, help="sequences per hypothesis run (default 500)")
    parser.add_argument("--tasks", default=None, help="comma-separated task ids (default: one per env type)")
    args = parser.parse_args()
    if args.tasks:
        os.environ["RLPOOL_RELIABILITY_TASKS"] = args.tasks
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "src"))

    import test_fuzz
    from hypothesis import settings
    from hypothesis.stateful import run_state_machine_as_test

    start = time.monotonic()
    done = 0
    status = 0
    try:
        while done < args.sequences:
            n = min(args.round, args.sequences - done)
            run_state_machine_as_test(
                test_fuzz.PoolMachine,
                settings=settings(test_fuzz.FUZZ_SETTINGS, max_examples=n, stateful_step_count=args.steps),
            )
            done += n
            elapsed = time.monotonic() - start
            print(f"{done} sequences, {test_fuzz.STATS['rows checked']} rows checked, {elapsed:.0f} s", flush=True)
    except Exception as e:  # report what ran before the failure too
        print(f"FAILED after about {done} sequences: {type(e).__name__}: {e}", flush=True)
        status = 1
    elapsed = time.monotonic() - start
    stats = test_fuzz.STATS
    print(f"\ntasks: {', '.join(test_fuzz.TASKS)}")
    print(f"sequences started: {stats['sequences']} (hypothesis examples run: {done})")
    print(f"time: {elapsed:.0f} s ({elapsed / max(1, stats['sequences']) * 1e3:.0f} ms per sequence)")
    print(f"result rows checked against twins: {stats['rows checked']}")
    print("calls:")
    for key in sorted(k for k in stats if ":" in k and not k.startswith("pools")):
        print(f"  {stats[key]:9d}  {key}")
    print("pools made:")
    for key in sorted(k for k in stats if k.startswith("pools")):
        print(f"  {stats[key]:9d}  {key.removeprefix('pools: ')}")
    return status


if __name__ == "__main__":
    sys.exit(main())
