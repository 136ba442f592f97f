"""A pool inherited by a forked child: dropping it never blocks, using it raises a clear error.

Each scenario runs in a fresh interpreter (subprocess) that forks; a hang shows as the
subprocess's timeout, a crash as its exit status, so the suite itself survives both.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

TIMEOUT = 60


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=TIMEOUT)


@pytest.mark.parametrize("task_id, mode", [("CartPole-v1", "sync"), ("CartPole-v1", "async"),
                                           ("LunarLander-v3", "async")])
def test_child_drops_inherited_pool_and_exits(task_id, mode):
    """The child deletes the parent's env (and exits normally, running finalizers): it must not hang."""
    result = run(f"""
        import gc, os, sys
        import numpy as np
        import rlpool
        batch = 2 if "{mode}" == "async" else 4
        env = rlpool.make("{task_id}", num_envs=4, batch_size=batch, num_threads=2, seed=0)
        _, info = env.reset()
        if "{mode}" == "async":
            # the reset returned the first two envs to finish (not always 0 and 1): send those
            env.send(np.zeros(2, np.int64), info["env_id"])  # two more envs in flight at the fork
        pid = os.fork()
        if pid == 0:
            del env
            gc.collect()
            sys.exit(0)  # a normal exit: atexit and finalizers run
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        env.close()  # the parent's pool is untouched by the child
        print("ok")
    """)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr


def test_child_using_inherited_pool_gets_an_error_and_parent_goes_on():
    result = run("""
        import os, sys
        import numpy as np
        import rlpool
        env = rlpool.make("CartPole-v1", num_envs=4, num_threads=2, seed=0)
        env.reset()
        pid = os.fork()
        if pid == 0:
            try:
                env.step(np.zeros(4, np.int64))
            except RuntimeError as e:
                ok = "fork" in str(e) and "Make a new env" in str(e)
                env.close()  # a no-op in the child, not an error
                fresh = rlpool.make("CartPole-v1", num_envs=2, num_threads=2, seed=0)  # a new one works
                fresh.reset()
                fresh.step(np.zeros(2, np.int64))
                fresh.close()
                os._exit(0 if ok else 3)
            os._exit(4)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, os.waitstatus_to_exitcode(status)
        obs, *_ = env.step(np.zeros(4, np.int64))
        env.close()
        print("ok")
    """)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr


def test_multiprocessing_fork_worker_that_replaces_the_env():
    """A fork-started multiprocessing worker whose task makes its own env and drops the inherited one."""
    result = run("""
        import multiprocessing as mp
        import numpy as np
        import rlpool
        env = rlpool.make("CartPole-v1", num_envs=4, num_threads=2, seed=0)
        env.reset()

        def task(seed):
            global env
            env = rlpool.make("CartPole-v1", num_envs=2, num_threads=1, seed=seed)  # drops the inherited one
            obs, _ = env.reset()
            return float(obs.sum())

        with mp.get_context("fork").Pool(2) as pool:
            print(len(pool.map(task, range(4))))
        print("ok")
    """)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr


@pytest.mark.usefixtures("osmesa")
def test_child_of_a_rendering_parent_gets_an_error_not_a_hang():
    """Mesa's rasterizer threads do not survive fork: a new rendering pool in the child says so."""
    pytest.importorskip("mujoco")
    result = run("""
        import os
        import rlpool
        env = rlpool.make("InvertedPendulum-v5", num_envs=1, render_mode="rgb_array", render_width=32,
                          render_height=32)
        env.reset()
        env.render()  # the parent's first OpenGL context
        pid = os.fork()
        if pid == 0:
            try:
                child = rlpool.make("InvertedPendulum-v5", num_envs=1, render_mode="rgb_array")
                child.reset()
                child.render()
                os._exit(3)
            except RuntimeError as e:
                os._exit(0 if "spawn" in str(e) and "fork" in str(e) else 4)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, os.waitstatus_to_exitcode(status)
        assert env.render().shape == (1, 32, 32, 3)  # the parent renders on
        env.close()
        print("ok")
    """)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr
