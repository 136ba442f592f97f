"""The engine's reaction times, in seconds: Ctrl-C during a blocking call, Python threads during a step, a drop.

The tests check these behaviours without a clock (tests/core/test_signals.py, tests/core/test_engine.py,
tests/core/test_leaks.py); this script measures how long they take, on BusyWork-v0 (the action is the
microseconds of work a step spins for):

- ``interrupt``: SIGINT sent to a child Python blocked in rlpool on 100 ms steps, 0.3 s after the call
  started; the time until its KeyboardInterrupt is raised (the engine polls for signals every 50 ms), for
  each kind of blocking call. ``time.monotonic`` is one clock for all processes.
- ``gil``: how many iterations a Python thread makes per second while the main thread is inside
  ``step()`` (1 s of C++ work, GIL released), against the same thread alone.
- ``drop``: wall-clock and process CPU time of dropping a pool (``del env``) with 100 ms steps queued
  for its workers: the steps queued are dropped, those running finish.

    python benchmarks/engine_latency.py                   # all three, 5 repeats each
    python benchmarks/engine_latency.py --only interrupt --repeats 20
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import statistics
import subprocess
import sys
import textwrap
import time

import numpy as np
from timing import spinning_thread

import rlpool

STEP_US = 100_000  # BusyWork's largest action: 100 ms of work

CHILD = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    import rlpool

    def cheap_steps(env, n=3000):
        if env.batch_size == env.num_envs:
            for _ in range(n // env.num_envs + 1):
                env.step(np.zeros(env.num_envs, np.int64))
            return
        env.send(np.zeros(env.num_envs, np.int64), np.arange(env.num_envs))
        for _ in range(n // env.batch_size):
            info = env.recv()[4]
            env.send(np.zeros(env.batch_size, np.int64), info["env_id"])
        for _ in range(env.num_envs // env.batch_size):
            env.recv()

    STEP_US = {step_us}
    {setup}
    print("ready", flush=True)
    try:
        {call}
        raised_at = None
    except KeyboardInterrupt:
        raised_at = time.monotonic()
    env.close()
    print(json.dumps(raised_at), flush=True)
    """
)

# (setup, blocking call): each call has minutes of work, so that it can only end by the interrupt.
CALLS = {
    "async recv": (
        "env = rlpool.make('BusyWork-v0', num_envs=6000, batch_size=3000, num_threads=2, seed=0); "
        "env.async_reset(); env.recv(); env.recv(); env.send(np.full(6000, STEP_US), np.arange(6000))",
        "env.recv()",
    ),
    "sync step on workers": (
        "env = rlpool.make('BusyWork-v0', num_envs=4500, num_threads=3, seed=0); env.reset(); "
        "env.step(np.full(4500, 10))",
        "env.step(np.full(4500, STEP_US))",
    ),
    "sync step, one thread": (
        "env = rlpool.make('BusyWork-v0', num_envs=1500, num_threads=1, seed=0); env.reset()",
        "env.step(np.full(1500, STEP_US))",
    ),
    "async recv after cheap steps": (
        "env = rlpool.make('BusyWork-v0', num_envs=6000, batch_size=3000, num_threads=2, seed=0, "
        "episode_length=10**6); env.async_reset(); env.recv(); env.recv(); cheap_steps(env); "
        "env.send(np.full(6000, STEP_US), np.arange(6000))",
        "env.recv()",
    ),
    "sync step after cheap steps": (
        "env = rlpool.make('BusyWork-v0', num_envs=3000, num_threads=2, seed=0, episode_length=10**6); "
        "env.reset(); cheap_steps(env)",
        "env.step(np.full(3000, STEP_US))",
    ),
}


def interrupt_latency(setup: str, call: str, delay: float = 0.3) -> float:
    """Seconds from SIGINT to the child's KeyboardInterrupt."""
    code = CHILD.format(step_us=STEP_US, setup=setup, call=call)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(delay)
        sent_at = time.monotonic()
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    raised_at = json.loads(stdout.strip().splitlines()[-1])
    if raised_at is None:
        raise RuntimeError(f"no KeyboardInterrupt: {stderr}")
    return raised_at - sent_at


def gil_progress(seconds: float = 1.0) -> tuple[float, float]:
    """A Python thread's iterations per second: alone, and while the main thread is inside ``step()``."""
    env = rlpool.make("BusyWork-v0", num_envs=10, num_threads=1)
    env.reset()
    with spinning_thread() as count:
        start, before = time.perf_counter(), count()
        time.sleep(seconds)  # the main thread waits with the GIL released: the spinner runs alone
        alone = (count() - before) / (time.perf_counter() - start)
        start, before = time.perf_counter(), count()
        env.step(np.full(10, int(seconds * 1e6 / 10)))
        during = (count() - before) / (time.perf_counter() - start)
    env.close()
    return alone, during


def drop_cost() -> tuple[float, float]:
    """Wall-clock and CPU seconds of dropping a pool with 120 s of 100 ms steps queued for 2 workers."""
    env = rlpool.make("BusyWork-v0", num_envs=4800, batch_size=2400, num_threads=2)
    env.async_reset()
    ids = env.recv()[4]["env_id"].copy()
    env.send(np.full(len(ids), STEP_US), ids)
    time.sleep(0.05)  # the workers are inside their first steps
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    del env
    gc.collect()
    return time.perf_counter() - wall, time.process_time() - cpu


def summary(xs: list[float], unit: float = 1e3) -> str:
    return f"median {statistics.median(xs) * unit:8.1f}  max {max(xs) * unit:8.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["interrupt", "gil", "drop"], help="one measurement only")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"rlpool {rlpool.__version__}, {os.cpu_count()} CPUs, {args.repeats} repeats")
    if args.only in (None, "interrupt"):
        print("\nCtrl-C: SIGINT to KeyboardInterrupt (ms)")
        for name, (setup, call) in CALLS.items():
            xs = [interrupt_latency(setup, call) for _ in range(args.repeats)]
            print(f"  {name:30s} {summary(xs)}")
    if args.only in (None, "gil"):
        pairs = [gil_progress() for _ in range(args.repeats)]
        alone = statistics.median(a for a, _ in pairs)
        during = statistics.median(d for _, d in pairs)
        print("\nA Python thread while the main thread steps (iterations/s, median)")
        print(f"  alone          {alone:14,.0f}")
        print(f"  during step()  {during:14,.0f}  ({during / alone:.2f} of alone)")
    if args.only in (None, "drop"):
        costs = [drop_cost() for _ in range(args.repeats)]
        print("\nDropping a pool with 120 s of steps queued (ms)")
        print(f"  wall {summary([w for w, _ in costs])}")
        print(f"  CPU  {summary([c for _, c in costs])}")


if __name__ == "__main__":
    main()
