"""Helpers of the bad-input tests: small pools, valid actions, and the check that a pool which refused a call
steps exactly as a twin pool that never saw it."""

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


def child_env(**extra: str) -> dict[str, str]:
    """os.environ with this process's rlpool first on PYTHONPATH, plus ``extra``."""
    src = str(Path(rlpool.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}
