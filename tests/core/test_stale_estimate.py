"""Thread use follows the steps' real cost, not a stale estimate.

After thousands of cheap steps the pool's cost estimate calls a step cheap, so a
batch of 50 ms BusyWork steps used to run on the calling thread alone (sync:
inline; async: in the caller's big chunks while the workers slept). Each case runs
in a child process and measures the CPU time each of its threads spent on that
one batch (``/proc/self/task``): the pool's worker threads must have done a fair
share of it. CPU time, not wall time: on a loaded machine both shrink, their
shares do not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rlpool

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="per-thread CPU times from /proc"),
]

RLPOOL_PARENT = str(Path(os.path.abspath(rlpool.__file__)).parent.parent)  # not resolved: overlays use links

CHILD = textwrap.dedent(
    """
    import json, os, sys, threading
    import numpy as np
    import rlpool

    TICK = os.sysconf("SC_CLK_TCK")

    def cpu_by_thread():
        '''CPU seconds of each thread of this process.'''
        out = {}
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/schedstat") as f:
                    out[int(tid)] = int(f.read().split()[0]) / 1e9
            except OSError:
                with open(f"/proc/self/task/{tid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                out[int(tid)] = (int(fields[11]) + int(fields[12])) / TICK
        return out

    sync = sys.argv[1] == "sync"
    n = 16
    bs = n if sync else n // 2
    env = rlpool.make("BusyWork-v0", num_envs=n, batch_size=bs, num_threads=2, seed=0, episode_length=10**6)
    if sync:
        env.reset()
        for _ in range(3000 // n + 1):
            env.step(np.zeros(n, np.int64))
    else:
        env.async_reset()
        env.recv(), env.recv()
        env.send(np.zeros(n, np.int64), np.arange(n))
        for _ in range(3000 // bs):
            info = env.recv()[4]
            env.send(np.zeros(bs, np.int64), info["env_id"])
        env.recv(), env.recv()
    main = threading.get_native_id()
    before = cpu_by_thread()
    if sync:
        env.step(np.full(n, 50000))                  # 16 steps of 50 ms
    else:
        env.send(np.full(n, 50000), np.arange(n))
        env.recv()                                   # the first 8 of 16 steps of 50 ms
    after = cpu_by_thread()
    spent = {t: after[t] - before.get(t, 0.0) for t in after}
    print(json.dumps({"caller": spent.pop(main), "others": sum(spent.values())}))
    env.close()
    """
)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_costly_batch_after_cheap_steps_uses_the_workers(mode):
    env = {**os.environ, "PYTHONPATH": RLPOOL_PARENT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    child = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, env=env, timeout=90)
    assert child.returncode == 0, child.stderr
    cpu = json.loads(child.stdout.strip().splitlines()[-1])
    total = cpu["caller"] + cpu["others"]
    print(f"{mode}: caller {cpu['caller']:.3f} s CPU, worker threads {cpu['others']:.3f} s")
    assert total > 0.05, cpu
    # Sync: caller and worker share the batch (about half each); async: the workers step it (the
    # caller at most the one task that showed the estimate stale). Stale: the caller did it all.
    assert cpu["others"] > (0.25 if mode == "sync" else 0.5) * total, cpu
