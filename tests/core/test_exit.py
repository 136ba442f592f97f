"""Interpreter exit while a daemon thread is inside the engine.

Python 3.11-3.13 end a daemon thread that asks for the GIL during finalization
with ``pthread_exit``; crossing rlpool's C++ frames, that forced unwind used to
abort the process (``terminate called without an active exception``, exit code
134). Each case runs in a child process whose main thread returns while a
daemon thread waits in ``recv()`` or ``step()`` on 100 ms BusyWork steps; the
child must exit with code 0 and print nothing on stderr (no abort, and no
nanobind leak report for the pool the parked thread still holds).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rlpool

pytestmark = [pytest.mark.timeout(120), pytest.mark.skipif(sys.platform == "win32", reason="POSIX threads")]

RLPOOL_PARENT = str(Path(os.path.abspath(rlpool.__file__)).parent.parent)  # not resolved: overlays use links

PRELUDE = textwrap.dedent(
    """
    import atexit, sys, threading, time
    import numpy as np
    """
)

DAEMON_RECV = """
    import rlpool
    env = rlpool.make("BusyWork-v0", num_envs=4, batch_size=2, num_threads=2, seed=0)
    env.async_reset(); env.recv(); env.recv()
    env.send(np.full(4, 100000), np.arange(4))
    def loop():
        while True:
            r = env.recv()
            env.send(np.full(2, 100000), r[4]["env_id"])
    threading.Thread(target=loop, daemon=True).start()
"""

DAEMON_STEP = """
    import rlpool
    env = rlpool.make("BusyWork-v0", num_envs=8, num_threads=2, seed=0)
    env.reset()
    def loop():
        while True:
            env.step(np.full(8, 100000))
    threading.Thread(target=loop, daemon=True).start()
"""

# A daemon thread in Python code that holds a pool: Python stops it at exit without unwinding its frame, so
# the pool is never freed, and that is no reference leak of rlpool's to report.
DAEMON_PYTHON_LOOP = """
    import rlpool
    env = rlpool.make("BusyWork-v0", num_envs=4, num_threads=2, seed=0)
    env.reset()
    def loop(held=env):
        while True:
            time.sleep(0.01)
    threading.Thread(target=loop, daemon=True).start()
"""

# The daemon thread's pool is its own: nothing on the main thread refers to it.
DAEMON_OWN_POOL = """
    import rlpool
    def loop():
        env = rlpool.make("BusyWork-v0", num_envs=6, batch_size=3, num_threads=3, seed=0)
        env.async_reset(); env.recv(); env.recv()
        env.send(np.full(6, 50000), np.arange(6))
        while True:
            r = env.recv()
            env.send(np.full(3, 50000), r[4]["env_id"])
    threading.Thread(target=loop, daemon=True).start()
"""

# An atexit callback registered before rlpool's runs after it, on the exiting
# thread: the engine still works there (only other threads are parked).
ATEXIT_USES_POOL = """
    def late():
        env.reset()
        r = env.step(np.full(4, 20000))
        print("late step", r[1].tolist(), flush=True)
        env.close()
    atexit.register(late)
    import rlpool
    env = rlpool.make("BusyWork-v0", num_envs=4, num_threads=2, seed=0)
    env.reset()
    other = rlpool.make("BusyWork-v0", num_envs=4, num_threads=2, seed=0)
    other.reset()
    def loop():
        while True:
            other.step(np.full(4, 100000))
    threading.Thread(target=loop, daemon=True).start()
"""


def run_child(body: str, delay: float) -> subprocess.CompletedProcess:
    code = PRELUDE + textwrap.dedent(body) + f"\ntime.sleep({delay})\n"
    env = {**os.environ, "PYTHONPATH": RLPOOL_PARENT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("body", [DAEMON_RECV, DAEMON_STEP, DAEMON_PYTHON_LOOP, DAEMON_OWN_POOL],
                         ids=["recv", "step", "python_loop", "own_pool"])
def test_exit_with_a_daemon_thread_in_the_engine_is_clean(body):
    # Several moments: the thread may be sleeping in a wait, polling for signals, or just returning.
    for delay in (0.05, 0.3, 0.37, 0.44):
        child = run_child(body, delay)
        assert child.returncode == 0, f"exit code {child.returncode} (delay {delay}):\n{child.stderr}"
        assert child.stderr == "", f"delay {delay}:\n{child.stderr}"


def test_atexit_callback_on_the_exiting_thread_still_uses_pools():
    child = run_child(ATEXIT_USES_POOL, 0.3)
    assert child.returncode == 0, f"exit code {child.returncode}:\n{child.stderr}"
    assert "late step [20000.0, 20000.0, 20000.0, 20000.0]" in child.stdout
    assert child.stderr == ""
