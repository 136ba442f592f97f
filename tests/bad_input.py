"""Helpers of the bad-input tests: small pools, valid actions, the check that a pool which refused a call
steps exactly as a twin pool that never saw it, child interpreters (one short of memory), and a one-number
Python-written task."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

import rlpool

N = 3  # envs per sync pool in these tests


def make(task, **kwargs):
    kwargs.setdefault("num_envs", N)
    kwargs.setdefault("seed", 7)
    return rlpool.make(task, **kwargs)


def good_actions(task, n=N, k=0):
    """A valid batch of actions that differs between envs and between steps."""
    if task.startswith("Pendulum"):
        return (np.linspace(-1.5, 1.5, n) * (1 + 0.1 * k)).reshape(n, 1).astype(np.float32)
    return (np.arange(n) + k) % 2


def assert_same_result(a, b):
    """Two step results (obs, reward, terminated, truncated, info) are bitwise equal."""
    assert len(a) == len(b) == 5
    np.testing.assert_array_equal(a[0], b[0])
    for x, y in zip(a[1:4], b[1:4], strict=True):
        np.testing.assert_array_equal(x, y)
    assert sorted(a[4]) == sorted(b[4])
    for key in ("env_id", "elapsed_step"):
        np.testing.assert_array_equal(a[4][key], b[4][key])


def check_still_works(env, twin, task, steps=2):
    """`env` (which saw a rejected call) and `twin` (which did not) step identically."""
    for k in range(steps):
        assert_same_result(env.step(good_actions(task, k=k)), twin.step(good_actions(task, k=k)))


def reset_pair(task, **kwargs):
    env, twin = make(task, **kwargs), make(task, **kwargs)
    np.testing.assert_array_equal(env.reset()[0], twin.reset()[0])
    return env, twin


def async_pair(task="CartPole-v1", num_envs=4, batch_size=2, **kwargs):
    kwargs.setdefault("seed", 3)
    env = rlpool.make(task, num_envs=num_envs, batch_size=batch_size, **kwargs)
    twin = rlpool.make(task, num_envs=num_envs, batch_size=batch_size, num_threads=1, **kwargs)
    return env, twin


def run_script(code: str, *, cwd=None, timeout: int = 120) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter (a crash, hang or memory blow-up stays there).

    It imports the same rlpool as this process, whatever its working directory.
    """
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=child_env(),
    )


def run_out_of_memory(setup: str, call: str, *, spare_mib: int, cwd=None) -> subprocess.CompletedProcess:
    """Runs the statement ``setup`` in a fresh interpreter (``rlpool`` imported), caps its address space at what
    it then takes plus ``spare_mib`` MiB, and runs the statement ``call``, which prints ``MEMORYERROR <message>``,
    ``OTHER <type> <message>`` or ``NO ERROR`` as it ends."""
    return run_script(
        f"""
        import resource
        import rlpool
        {setup}
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        limit = vm + ({spare_mib} << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            {call}
        except MemoryError as e:
            print("MEMORYERROR", e)
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        else:
            print("NO ERROR")
        """,
        cwd=cwd,
    )


def child_env(**extra: str) -> dict[str, str]:
    """os.environ with this process's rlpool, then this folder (these helpers), first on PYTHONPATH, plus ``extra``."""
    src = str(Path(rlpool.__file__).resolve().parents[1])
    here = str(Path(__file__).resolve().parent)
    path = os.pathsep.join(p for p in (src, here, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


def register_one_number_task(task_id, step, *, obs_dtype=np.float64, options=None, max_episode_steps=10):
    """Register ``task_id``, a Python-written task (numba needed) of one number: a 1-element state and
    observation (a Box in [-10, 10] of ``obs_dtype``) that reset sets to 0, a Discrete(2) action, ``step``
    its step function and ``options`` its own options."""
    from gymnasium import spaces

    from rlpool import python_env

    def reset(state, obs):
        state[0] = 0.0
        obs[0] = 0.0

    python_env.register(
        task_id,
        obs=spaces.Box(-10.0, 10.0, (1,), obs_dtype),
        action=spaces.Discrete(2),
        state=1,
        options=options,
        max_episode_steps=max_episode_steps,
        reset=reset,
        step=step,
    )
