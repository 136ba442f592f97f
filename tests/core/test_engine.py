"""Engine behaviour that classic control is too cheap to show: threads, completion order, GIL."""

import ctypes
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from lane import REPO

import rlpool

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("two_phase", [False, True])
def test_async_returns_first_finished_envs_first(two_phase):
    # Two-phase envs take their output row only once their work is done, like staged ones.
    env = rlpool.make("BusyWork-v0", num_envs=4, batch_size=1, num_threads=2, two_phase=two_phase)
    env.async_reset()
    for _ in range(4):
        env.recv()
    # 100 ms of work against three steps of 0.1 ms on the other thread: the quick ones come back first
    # unless that thread is kept off its core for the whole 100 ms.
    env.send(np.array([100_000]), np.array([0]))
    env.send(np.array([100, 100, 100]), np.array([1, 2, 3]))
    order = [int(env.recv()[4]["env_id"][0]) for _ in range(4)]
    assert sorted(order) == [0, 1, 2, 3]
    assert order[-1] == 0, f"the slow env came back before quicker ones: {order}"
    env.close()


@pytest.mark.parametrize("num_envs,batch_size", [(8, 8), (8, 3)])
def test_threaded_work_is_deterministic(num_envs, batch_size):
    """Steps costly enough to be shared between threads give the same results as one thread, and a
    two-phase env (written straight into the async batch) the same as a staged one."""

    def run(num_threads, two_phase=False):
        env = rlpool.make("BusyWork-v0", num_envs=num_envs, batch_size=batch_size, num_threads=num_threads, seed=3,
                          two_phase=two_phase)
        per_env = {i: [] for i in range(num_envs)}
        env.async_reset()
        # 40 batches, then on until every env has a row: a worker the OS descheduled holds its env back
        # for a few ms while the others run on.
        deadline = time.monotonic() + 30
        rounds = 0
        while rounds < 40 or (min(map(len, per_env.values())) == 0 and time.monotonic() < deadline):
            rounds += 1
            obs, rew, term, trunc, info = env.recv()
            for row, i in enumerate(info["env_id"]):
                per_env[int(i)].append((obs[row].copy(), rew[row], term[row], trunc[row]))
            ids = info["env_id"].copy()
            # Env i's k-th action depends on (i, k) only, not on arrival order.
            env.send(np.array([50 + (7 * i + 13 * len(per_env[int(i)])) % 250 for i in ids]), ids)
        env.close()
        return per_env

    a = run(1)
    for b in (run(2), run(2, two_phase=True)):
        for i in range(num_envs):
            n = min(len(a[i]), len(b[i]))
            assert n > 0
            for x, y in zip(a[i][:n], b[i][:n], strict=True):
                np.testing.assert_array_equal(x[0], y[0])
                assert x[1:] == y[1:]


def test_two_phase_error_still_fills_the_batch():
    # advance() throws before the env has a row: the row is still taken and names the env, recv()
    # raises the error, and nothing stays "in flight".
    env = rlpool.make("BusyWork-v0", num_envs=4, batch_size=2, num_threads=2, seed=0, two_phase=True,
                      fail_on_action=7)
    env.async_reset()
    env.recv()
    env.recv()
    env.send(np.array([7, 100]), np.array([1, 2]))
    with pytest.raises(RuntimeError, match="env 1: BusyWork: action 7 fails"):
        env.recv()
    env.send(np.array([100, 100]), np.array([0, 3]))
    *_, info = env.recv()
    assert sorted(info["env_id"]) == [0, 3]
    env.send(np.array([100, 100]), np.array([1, 2]))  # not "already in flight"
    *_, info = env.recv()
    assert sorted(info["env_id"]) == [1, 2]
    env.close()


def test_sync_step_error_still_names_the_row():
    # Sync mode with env ids goes through send()+recv(), which frees envs by the env_id in each row: a
    # step that throws on a fresh block must still name its row, or the env stays "in flight".
    env = rlpool.make("BusyWork-v0", num_envs=3, num_threads=1, seed=0, fail_on_action=7)
    env.reset()
    with pytest.raises(RuntimeError, match="env 2: BusyWork: action 7 fails"):
        env.step(np.array([100, 100, 7]), np.array([0, 1, 2]))
    *_, info = env.step(np.array([100, 100, 100]), np.array([0, 1, 2]))
    assert list(info["env_id"]) == [0, 1, 2]
    env.close()


def _thread_state(tid: int) -> str:
    """The scheduler state of thread ``tid`` of this process: R running or runnable, S sleeping, ...

    Read through libc with the GIL held (ctypes.PyDLL calls keep it; Python's file I/O would let it go).
    """
    libc = ctypes.PyDLL(None)
    fd = libc.open(f"/proc/self/task/{tid}/stat".encode(), os.O_RDONLY)
    assert fd >= 0, tid
    buf = ctypes.create_string_buffer(1024)
    n = libc.read(fd, buf, len(buf) - 1)
    libc.close(fd)
    assert n > 0, tid
    return buf.value.decode().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")
def test_gil_released_while_stepping():
    """Another Python thread runs while this one is inside step() working (not waiting for the GIL).

    With a switch interval longer than the test, this thread gives the GIL up only where it lets go of it
    itself: the other thread can run only inside step(), and when it does, this thread is still stepping
    (runnable, R), not asleep waiting to take the GIL back (S). Held during the work, the GIL would keep
    the other thread out until the test's timeout.
    """
    env = rlpool.make("BusyWork-v0", num_envs=10, num_threads=1)
    env.reset()
    stepping_thread = threading.get_native_id()
    seen: list[str] = []
    go = threading.Event()

    def look():
        go.wait()
        seen.append(_thread_state(stepping_thread))

    other = threading.Thread(target=look)
    other.start()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        go.set()
        while not seen:
            env.step(np.full(10, 100_000))  # 1 s of C++ work on this thread (num_threads=1: no workers)
    finally:
        sys.setswitchinterval(interval)
    other.join()
    env.close()
    assert seen == ["R"], f"the other thread ran while the stepping thread was in state {seen}"


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")
def test_idle_workers_sleep():
    """Between batches the worker threads sleep (S) until work comes: they do not spin waiting for it."""
    before = set(os.listdir("/proc/self/task"))
    env = rlpool.make("BusyWork-v0", num_envs=8, batch_size=4, num_threads=3, seed=0)
    workers = sorted(set(os.listdir("/proc/self/task")) - before)
    assert len(workers) == 3
    env.async_reset()
    for _ in range(20):
        info = env.recv()[4]
        env.send(np.full(4, 1000), info["env_id"])
    env.recv(), env.recv()  # nothing in flight: no work left for anyone
    states: list[str] = []
    # Each worker sleeps once it finds the queue empty; a spinning one stays runnable (R) for good.
    for _ in range(10_000):
        states = [_thread_state(int(tid)) for tid in workers]
        if all(s == "S" for s in states):
            break
        time.sleep(0.001)
    env.close()
    assert all(s == "S" for s in states), f"idle workers not asleep: {states}"


def test_concurrent_use_from_two_threads_is_refused():
    env = rlpool.make("BusyWork-v0", num_envs=1, num_threads=1)
    env.reset()
    errors = []
    started = threading.Event()

    def long_step():
        started.set()
        done = 0
        while done < 10:  # ten steps of 0.1 s; one is retried if our quick step below held the pool then
            try:
                env.step(np.array([100_000]))
                done += 1
            except RuntimeError:
                pass

    t = threading.Thread(target=long_step)
    t.start()
    started.wait()
    # Try until the other thread is inside its step (it refuses us) or has finished (then we failed).
    while t.is_alive() and not errors:
        try:
            env.step(np.array([0]))
        except RuntimeError as e:
            errors.append(str(e))
    t.join()
    env.close()
    assert errors and "another thread" in errors[0]


def test_examples_run():
    example = REPO / "examples" / "quickstart.py"
    result = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
