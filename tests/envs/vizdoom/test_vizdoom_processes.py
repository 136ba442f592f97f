"""No ViZDoom engine process outlives its pool: close(), an exception, Ctrl-C, SIGKILL of Python.

Each case runs in a Python subprocess that makes a pool, starts its engines (reset), prints the engine
processes' pids (its children running the vizdoom executable, read from /proc), waits until the test has
seen them alive and then ends in the case's way; the test then waits for every one of those pids to be gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from lane import REPO, require, vizdoom_missing

from rlpool.envs.vizdoom.registration import package_dir

pytest.importorskip("vizdoom")
require(vizdoom_missing())  # rlpool built without the controller library: the package to install
if not sys.platform.startswith("linux"):
    pytest.skip("reads /proc", allow_module_level=True)

SRC = str(REPO / "src")
ENGINE = str(package_dir() / "vizdoom")

PRELUDE = textwrap.dedent(f"""
    import os, signal, sys, time
    import numpy as np
    import rlpool

    def engines():
        pids = []
        for p in os.listdir("/proc"):
            if not p.isdigit():
                continue
            try:
                with open(f"/proc/{{p}}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if ppid == os.getpid() and os.readlink(f"/proc/{{p}}/exe") == {ENGINE!r}:
                    pids.append(int(p))
            except OSError:
                pass
        return pids

    env = rlpool.make("Basic-v1", num_envs=3, seed=0)
    env.reset()
    print("PIDS", *engines(), flush=True)
    sys.stdin.readline()  # the test has seen the engines alive: go on
""")


def engine_alive(pid: int, parent: int | None = None) -> bool:
    """Whether pid is a live (not zombie) vizdoom engine process (a child of ``parent``, if given)."""
    try:
        if os.readlink(f"/proc/{pid}/exe") != ENGINE:
            return False
        with open(f"/proc/{pid}/stat") as f:
            state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
        return state != "Z" and parent in (None, int(ppid))
    except OSError:
        return False


def wait_gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    deadline = time.monotonic() + timeout
    alive = pids
    while time.monotonic() < deadline:
        alive = [p for p in pids if engine_alive(p)]
        if not alive:
            return []
        time.sleep(0.1)
    return alive


def start(body: str) -> tuple[subprocess.Popen[str], list[int]]:
    """Run PRELUDE + body in a subprocess; returns it and the engine pids it printed."""
    proc = subprocess.Popen([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": SRC}, start_new_session=True)
    assert proc.stdout is not None and proc.stdin is not None
    line = proc.stdout.readline()
    if not line.startswith("PIDS"):
        proc.kill()
        raise AssertionError(f"no pids: {line!r} {proc.communicate(timeout=30)}")
    pids = [int(p) for p in line.split()[1:]]
    assert len(pids) == 3 and all(engine_alive(p) for p in pids), pids
    proc.stdin.write("\n")
    proc.stdin.flush()
    return proc, pids


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def test_close_ends_the_engines() -> None:
    proc, pids = start("""
        env.close()
        print("LEFT", *[p for p in engines()], flush=True)
        time.sleep(30)
    """)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    try:
        assert line.split() == ["LEFT"], line  # close() has returned: no engine left, not even a zombie child
        assert wait_gone(pids, timeout=1.0) == []
    finally:
        proc.kill()
        proc.communicate(timeout=30)


def test_exception_ends_the_engines() -> None:
    proc, pids = start("""
        raise RuntimeError("boom")
    """)
    rc, _, err = finish(proc)
    assert rc == 1 and "boom" in err
    assert wait_gone(pids) == []


def test_ctrl_c_interrupts_python_and_the_engines_end() -> None:
    # The whole session gets SIGINT, as a terminal's Ctrl-C does: the engines (in their own process
    # group) are not hit; Python stops with KeyboardInterrupt and ends them on the way out.
    proc, pids = start("""
        try:
            while True:
                env.step(np.zeros((3, 3)))
        except KeyboardInterrupt:
            print("INTERRUPTED", *engines(), flush=True)
            raise
    """)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    assert line[:1] == ["INTERRUPTED"] and sorted(map(int, line[1:])) == sorted(pids), line
    rc, _, err = finish(proc)
    assert rc != 0 and "KeyboardInterrupt" in err
    assert wait_gone(pids) == []


def test_sigkill_of_python_ends_the_engines() -> None:
    proc, pids = start("""
        time.sleep(60)
    """)
    folders = sorted(Path(tempfile.gettempdir()).glob(f"rlpool-vizdoom-{proc.pid}-*"))
    assert len(folders) == 3  # the engines' private folders
    proc.kill()
    proc.communicate(timeout=30)
    assert wait_gone(pids) == []
    # The next process's first ViZDoom env removes the folders of the dead one.
    subprocess.run([sys.executable, "-c", "import rlpool; rlpool.make('Basic-v1')"], check=True, timeout=60,
                   env={**os.environ, "PYTHONPATH": SRC})
    assert not any(f.exists() for f in folders)


def test_make_close_cycles_leave_no_threads_or_engines() -> None:
    """The make/close cycles of tests/core/test_leaks.py (which leaves ViZDoom out: a second per pool), fewer."""
    import numpy as np

    import rlpool

    def children() -> int:
        # This process's own: the other xdist worker may start and end engines meanwhile.
        return sum(1 for p in os.listdir("/proc") if p.isdigit() and engine_alive(int(p), os.getpid()))

    base_threads, base_engines = len(os.listdir("/proc/self/task")), children()
    rng = np.random.default_rng(0)
    for k in range(6):
        num_envs = int(rng.integers(1, 4))
        env = rlpool.make("Basic-v1", num_envs=num_envs, batch_size=int(rng.integers(1, num_envs + 1)), seed=k)
        env.async_reset()
        for _ in range(3):
            info = env.recv()[-1]
            env.send(rng.integers(0, 2, (len(info["env_id"]), 3)).astype(float), info["env_id"])
        assert children() > base_engines, k  # the count sees this pool's engines
        env.close()  # with envs in flight
        assert len(os.listdir("/proc/self/task")) <= base_threads, k  # no pool thread left
        assert children() == base_engines, k


def test_engines_start_after_blas_threads() -> None:
    """A pool's engines start together (one per worker thread) after a matrix product has started numpy's
    BLAS threads, whose fork handler is not safe for forks from several threads at once (without one spawn
    at a time, the first reset hung)."""
    code = textwrap.dedent("""
        import numpy as np
        import rlpool
        a = np.random.default_rng(0).random((400, 400))
        for i in range(3):
            a @ a
            env = rlpool.make("Basic-v1", num_envs=8, num_threads=8, seed=i)
            env.reset()
            env.close()
        print("done")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": SRC})
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr
