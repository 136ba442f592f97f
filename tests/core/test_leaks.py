"""Leaks: threads and memory stay bounded over many pools and steps; dropped pools shut down.

Thread counts come from /proc/self/task, resident memory from /proc/self/statm.
Memory is measured after a warm-up (allocator arenas, numpy and gymnasium
caches settle) and must then stay within a stated bound while the work repeats.
"""

from __future__ import annotations

import ctypes
import gc
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from lane import FULL, IMPORT_PATHS
from reliability_tasks import TASK_OPTIONS, many_pools_tasks, sample_actions

import rlpool

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc"),
]

TASKS = many_pools_tasks()
# A thousand make/step/close cycles in the full lane (RLPOOL_FULL_REFERENCE=1, CI), half as many by default.
CYCLES = 1000 if FULL else 500
WARMUP = 150
# Resident memory the cycles may add after the warm-up: 8 KiB a cycle. The pools themselves are a few KiB
# each, so a leak of one pool per cycle (or one thread stack) would exceed it.
RSS_BOUND_CYCLES = CYCLES * (8 << 10)
RSS_BOUND_STEPS = 4 << 20
# Under ASan/TSan (scripts/sanitize.sh) freed memory sits in quarantine: RSS says nothing there.
UNDER_SANITIZER = bool(os.environ.get("RLPOOL_SANITIZER"))
# ThreadSanitizer starts a background thread of its own at some point: one more thread may be its.
EXTRA_THREADS_OK = 1 if os.environ.get("RLPOOL_SANITIZER") == "tsan" else 0
RLPOOL_PARENT = str(Path(os.path.abspath(rlpool.__file__)).parent.parent)  # not resolved: overlays use links


def threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _malloc_trim() -> None:
    """Give the C heap's free memory back to the OS (glibc), so RSS counts what is held, not fragmentation."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def rss() -> int:
    """The process's resident anonymous memory (heap, mmapped allocations, stacks), in bytes.

    Only anonymous memory can leak. The resident pages of mapped files (the libraries' code: libmujoco's
    texture decoding, first run by a task with textures) come and go as the kernel pages them in and
    reclaims them, by tens of MiB on a busy machine, so the total RSS would measure the page cache too.
    """
    gc.collect()
    _malloc_trim()
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    with open("/proc/self/statm") as f:  # a kernel without RssAnon (before 4.5): resident minus shared
        fields = f.read().split()
        return (int(fields[1]) - int(fields[2])) * os.sysconf("SC_PAGE_SIZE")


def threads_back_to(base: int, timeout: float = 5.0) -> bool:
    """Whether the thread count comes back to ``base`` (a joined thread may linger in /proc a moment)."""
    deadline = time.monotonic() + timeout
    while not (ok := threads() <= base + EXTRA_THREADS_OK) and time.monotonic() < deadline:
        time.sleep(0.001)
    return ok


def workers(num_envs: int, batch_size: int, num_threads: int) -> int:
    """Worker threads a pool starts: in sync mode the caller is one of num_threads."""
    return num_threads - 1 if batch_size == num_envs else num_threads


def cycle(rng: np.random.Generator, k: int, api: str = "gymnasium") -> None:
    """Make a pool of a task of the mixed list, step it a little, maybe leave envs in flight, close it."""
    task_id = TASKS[k % len(TASKS)]
    num_envs = int(rng.integers(1, 9))
    batch_size = num_envs if rng.random() < 0.5 else int(rng.integers(1, num_envs + 1))
    num_threads = int(rng.integers(1, 5))
    env = rlpool.make(task_id, env_type=api, num_envs=num_envs, batch_size=batch_size, num_threads=num_threads,
                      seed=k, **TASK_OPTIONS.get(task_id, {}))
    space = env.spec.action_space  # the single-env space, whatever the face
    env.async_reset()
    for _ in range(3):
        info = env.recv()[-1]
        ids = info["env_id"] if api != "dm" else info.env_id
        env.send(sample_actions(rng, task_id, space, len(ids)), ids)
    env.close()  # with batch_size envs still in flight


def make_close_cycles() -> None:
    """The cycles and their checks, run by the test below in a child Python."""
    rng = np.random.default_rng(0)
    for k in range(WARMUP):
        cycle(rng, k)
    gc.collect()
    # Counted after the warm-up: a first make can start threads that live for the process (importing
    # dm_control to compile a DMC model into rlpool's cache starts two), which are no pool's.
    base_threads = threads()
    rss_before = rss()
    late: list[int] = []
    for k in range(WARMUP, WARMUP + CYCLES):
        cycle(rng, k)
        assert threads_back_to(base_threads), f"cycle {k}: a closed pool left threads running"
        if k >= WARMUP + CYCLES * 2 // 3 and (k - WARMUP) % (CYCLES // 20) == 0:
            late.append(rss())
    gc.collect()
    # The least of the last third's samples: a leak grows steadily and shows in each of them, while the heap's
    # fragmentation comes and goes (tens of MiB for a few hundred cycles where tasks with 20 MB models take
    # turns with the rest, then gone again), so one sample at the end would measure where it stood.
    rss_after = min([*late, rss()])
    growth = rss_after - rss_before
    print(f"\n{CYCLES} cycles over {len(TASKS)} tasks: threads {base_threads} -> {threads()}, "
          f"RSS {rss_before / 2**20:.1f} MiB -> {rss_after / 2**20:.1f} MiB ({growth / 2**10:+.0f} KiB)")
    if UNDER_SANITIZER:
        return
    assert growth < RSS_BOUND_CYCLES, f"RSS grew by {growth / 2**20:.1f} MiB over {CYCLES} make/close cycles"


def test_make_close_cycles_leak_no_threads_or_memory():
    """A thousand pools (500 by default) made, stepped and closed leave no threads and hold no more memory.

    Measured in a fresh Python with one malloc arena (glibc's MALLOC_ARENA_MAX=1). With glibc's default
    per-thread arenas, the worker threads of each pool allocate in whichever arena they are handed, and
    the arenas' fragmentation made RSS wander by 4-13 MiB over the same cycles (CPython 3.11 and 3.13
    alike, more after other tests had run in the process) with nothing held; in one arena it grows by
    under 0.5 MiB, so a pool or a thread stack kept per cycle stands out.
    """
    env = {
        **os.environ,
        "MALLOC_ARENA_MAX": "1",
        "PYTHONPATH": os.pathsep.join([RLPOOL_PARENT, str(Path(__file__).parent), *IMPORT_PATHS,
                                       os.environ.get("PYTHONPATH", "")]),
    }
    child = subprocess.run([sys.executable, "-c", "import test_leaks; test_leaks.make_close_cycles()"],
                           capture_output=True, text=True, env=env, timeout=110)
    print(child.stdout)
    assert child.returncode == 0, child.stderr[-4000:]


@pytest.mark.parametrize("api", ["gymnasium", "gym", "dm"])
def test_every_api_face_closes_its_threads(api):
    rng = np.random.default_rng(1)
    base = threads()
    for k in range(30):
        cycle(rng, k, api)
        assert threads_back_to(base)


@pytest.mark.parametrize("api", ["gymnasium", "gym", "dm"])
@pytest.mark.parametrize("batch_size", [6, 2], ids=["sync", "async"])
def test_dropped_pool_shuts_its_threads_down(api, batch_size):
    """No close(): dropping the last reference (with work in flight) joins the workers."""
    gc.collect()
    base = threads()
    env = rlpool.make("BusyWork-v0", env_type=api, num_envs=6, batch_size=batch_size, num_threads=3)
    assert threads() - base in {workers(6, batch_size, 3) + e for e in range(EXTRA_THREADS_OK + 1)}
    env.async_reset()
    info = env.recv()[-1]
    if batch_size < 6:
        # Slow steps (20 ms) still running or queued when the pool goes away.
        ids = info.env_id if api == "dm" else info["env_id"]
        env.send(np.full(len(ids), 20000), ids)
    del env
    gc.collect()
    assert threads_back_to(base), "a dropped pool left worker threads running"


def test_dropped_pool_with_steps_in_flight():
    """Queued steps are dropped with the pool; only the steps running then finish.

    2400 steps of 100 ms are queued for 2 workers: 120 s of work. The pool is dropped on another thread
    (its destructor waits for the workers with the GIL released), so that this one can see whether the
    workers are gone long before that work could have run, however fast the machine.
    """
    gc.collect()
    base = threads()
    env = rlpool.make("BusyWork-v0", num_envs=4800, batch_size=2400, num_threads=2)
    env.async_reset()
    ids = env.recv()[4]["env_id"].copy()
    env.send(np.full(len(ids), 100_000), ids)
    pools = [env]
    del env

    def drop() -> None:
        pools.clear()
        gc.collect()

    dropper = threading.Thread(target=drop)
    dropper.start()
    # The dropper thread is counted until the pool's workers are joined.
    assert threads_back_to(base, timeout=30), "a dropped pool ran the steps queued at the drop"
    dropper.join()


def test_pool_in_a_reference_cycle_is_collected():
    gc.collect()
    base = threads()
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=2, num_threads=2)
    env.async_reset()
    env.cycle = env  # only the cycle collector can free it
    assert threads() - base in {2 + e for e in range(EXTRA_THREADS_OK + 1)}
    del env
    gc.collect()
    assert threads_back_to(base)


def test_arrays_outlive_a_dropped_pool():
    env = rlpool.make("CartPole-v1", num_envs=4, num_threads=2, seed=0)
    obs, _ = env.reset()
    step = env.step(np.ones(4, np.int64))
    copies = [obs.copy(), step[0].copy(), step[1].copy()]
    del env
    gc.collect()
    for a, c in zip([obs, step[0], step[1]], copies, strict=True):
        np.testing.assert_array_equal(a, c)


@pytest.mark.parametrize("batch_size", [16, 8], ids=["sync", "async"])
def test_steady_stepping_does_not_grow_memory(batch_size):
    """Results dropped each step, or held a while: buffers are reused, memory stays flat."""
    env = rlpool.make("CartPole-v1", num_envs=16, batch_size=batch_size, num_threads=2, seed=0)
    rng = np.random.default_rng(0)
    actions = sample_actions(rng, "CartPole-v1", env.single_action_space, batch_size)

    def run(steps: int) -> None:
        held = []  # every 7th result is kept until 20 pile up, then all are dropped
        if batch_size == 16:
            env.reset()
        else:
            env.async_reset()
        for k in range(steps):
            r = env.step(actions) if batch_size == 16 else env.recv()
            if k % 7 == 0:
                held.append(r)
            if len(held) > 20:
                held.clear()
            if batch_size < 16:
                env.send(actions, r[4]["env_id"])
        if batch_size < 16:
            for _ in range(16 // batch_size):  # what is in flight, so that the next run can async_reset
                env.recv()

    run(3000)
    gc.collect()
    before = rss()
    run(30000)
    gc.collect()
    growth = rss() - before
    env.close()
    print(f"\n30000 steps (batch_size={batch_size}): RSS {before / 2**20:.1f} -> {(before + growth) / 2**20:.1f} MiB")
    if UNDER_SANITIZER:
        pytest.skip("RSS is not meaningful under a sanitizer")
    assert growth < RSS_BOUND_STEPS, f"RSS grew by {growth / 2**20:.1f} MiB over 30000 steps"
