"""Ctrl-C during a blocking call: KeyboardInterrupt comes while the work is going on, and the pool stays usable.

Each case runs in a child process that blocks in rlpool on slow BusyWork-v0
steps (the action is the microseconds of work) and prints "ready" right before
the blocking call; the parent sends SIGINT a moment later. While a call waits
for worker threads the engine checks for signals every 50 ms (Pool::wait_filled):

- async ``recv()``: raises KeyboardInterrupt; every result stays pending and
  the next ``recv()`` returns it;
- sync ``step()`` on worker threads: raises; envs not started yet are not
  stepped (they keep their state), started ones finish; the next step works;
- a Python signal handler that raises (how pytest-timeout stops a test) is
  delivered the same way.

A batch that runs inline on the calling thread (``num_threads=1`` in sync
mode, or one estimated too cheap to hand off) is cut once it has run for a few
milliseconds: what is left goes through the same wait, so it is interrupted
between two envs too, whatever the steps before cost.

No check here reads a clock: "promptly" is checked by giving the blocked call
far more work (minutes) than the child is allowed in all, so that it can only
end by the interrupt. How long the interrupt takes is measured by
``benchmarks/engine_latency.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import rlpool

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
]

# The child imports the same rlpool as this process (a source tree, a sanitizer build's overlay, or site-packages).
RLPOOL_PARENT = str(Path(os.path.abspath(rlpool.__file__)).parent.parent)  # not resolved: overlays use links
STEP_US = 100000  # BusyWork's largest action: 100 ms of work per step
# How long the parent waits for the child once it has sent the signal: a bound for the child's whole run
# after it (the interrupt itself is expected within one 50 ms poll), far below the work of LONG_CASES.
CHILD_TIMEOUT_S = 45

PRELUDE = textwrap.dedent(
    f"""
    import json, signal, sys
    import numpy as np
    import rlpool

    STEP_US = {STEP_US}
    out = {{}}

    def ready():
        print("ready", flush=True)

    def blocked(call):
        '''Run the blocking call; record which exception interrupted it, or that none did.'''
        try:
            call()
            out["interrupted"] = False
        except KeyboardInterrupt:
            out["interrupted"] = True
        except TimeoutError:
            out["interrupted"] = "TimeoutError"
    """
)

def run_child(body: str, delay: float = 0.3, sig: int = signal.SIGINT) -> dict:
    """Run ``body`` in a child; send ``sig`` ``delay`` s after it prints "ready"; return its JSON output."""
    code = PRELUDE + textwrap.dedent(body) + "\nprint(json.dumps(out), flush=True)\n"
    env = {**os.environ, "PYTHONPATH": RLPOOL_PARENT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    try:
        line = child.stdout.readline()
        assert line.strip() == "ready", f"child did not get ready: {line!r} {child.stderr.read()}"
        time.sleep(delay)
        child.send_signal(sig)
        try:
            stdout, stderr = child.communicate(timeout=CHILD_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the child was still blocked {CHILD_TIMEOUT_S} s after {signal.Signals(sig).name}: "
                        "the interrupt was not delivered during the call")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, f"child failed ({child.returncode}):\n{stderr}"
    return json.loads(stdout.strip().splitlines()[-1])


def test_async_recv_is_interrupted_and_results_stay_pending():
    r = run_child("""
        env = rlpool.make("BusyWork-v0", num_envs=40, batch_size=20, num_threads=2, seed=0)
        env.async_reset()
        env.recv(), env.recv()                            # all 40 resets back
        env.send(np.full(40, STEP_US), np.arange(40))
        ready()
        blocked(env.recv)                                 # 20 steps of 100 ms on 2 workers: about 1 s
        batches = [env.recv()[1:] for _ in range(2)]      # the interrupted batch, then the rest
        out["ids"] = sorted(sum((b[3]["env_id"].tolist() for b in batches), []))
        out["rewards"] = sorted(set(sum((b[0].tolist() for b in batches), [])))
        out["elapsed"] = sorted(set(sum((b[3]["elapsed_step"].tolist() for b in batches), [])))
        try:
            env.recv()
            out["nothing_left"] = False
        except RuntimeError:
            out["nothing_left"] = True
        env.close()
    """)
    assert r["interrupted"] is True
    # Nothing lost or repeated: each of the 40 envs came back once, stepped once with its action.
    assert r["ids"] == list(range(40))
    assert r["rewards"] == [float(STEP_US)]
    assert r["elapsed"] == [1]
    assert r["nothing_left"]


def test_async_recv_survives_interrupts_at_different_times():
    for delay in (0.05, 0.25):
        r = run_child("""
            env = rlpool.make("BusyWork-v0", num_envs=22, batch_size=11, num_threads=2, seed=1)
            env.async_reset()
            env.recv(), env.recv()
            env.send(np.full(22, STEP_US), np.arange(22))
            ready()
            blocked(env.recv)
            infos = [env.recv()[4] for _ in range(2)]
            out["ids"] = sorted(sum((i["env_id"].tolist() for i in infos), []))
            out["elapsed"] = sorted(set(sum((i["elapsed_step"].tolist() for i in infos), [])))
            env.close()
        """, delay=delay)
        assert r["interrupted"] is True, (delay, r)
        assert r["ids"] == list(range(22)) and r["elapsed"] == [1], (delay, r)


def test_sync_step_on_workers_is_interrupted_and_drops_unstarted_envs():
    r = run_child("""
        env = rlpool.make("BusyWork-v0", num_envs=16, num_threads=3, seed=2)
        env.reset()
        # One 10 ms step first: until a step has been timed, the pool runs the first sync batch inline.
        env.step(np.full(16, STEP_US // 10))
        ready()
        blocked(lambda: env.step(np.full(16, STEP_US)))   # 16 x 100 ms on 3 threads: about 0.55 s
        obs, rew, term, trunc, info = env.step(np.zeros(16, np.int64))
        out["elapsed"] = info["elapsed_step"].tolist()
        out["count"] = obs[:, 0].tolist()                 # BusyWork's obs[0] counts steps since reset
        env.close()
    """, delay=0.15)
    assert r["interrupted"] is True
    # Each env was dropped by the interrupt (2 steps in all) or ran before it (3), nothing else.
    assert set(r["elapsed"]) <= {2, 3}, r["elapsed"]
    assert r["count"] == [float(e) for e in r["elapsed"]]
    assert 2 in r["elapsed"], "no env was dropped: the interrupt was not delivered while stepping"
    assert 3 in r["elapsed"], "no env ran before the interrupt"


def test_sync_send_recv_is_interrupted_and_results_stay_pending():
    r = run_child("""
        env = rlpool.make("BusyWork-v0", num_envs=12, num_threads=3, seed=3)
        env.reset()
        env.send(np.full(12, STEP_US))
        ready()
        blocked(env.recv)
        obs, rew, term, trunc, info = env.recv()
        out["elapsed"] = sorted(set(info["elapsed_step"].tolist()))
        out["ids"] = info["env_id"].tolist()
        env.close()
    """, delay=0.15)
    assert r["interrupted"] is True
    assert r["elapsed"] == [1] and r["ids"] == list(range(12))


def test_signal_handler_that_raises_is_delivered():
    """A Python handler raising another exception (as pytest-timeout's does) interrupts the wait too."""
    r = run_child("""
        def on_alarm(signum, frame):
            raise TimeoutError("too slow")
        signal.signal(signal.SIGALRM, on_alarm)
        env = rlpool.make("BusyWork-v0", num_envs=30, batch_size=15, num_threads=2, seed=4)
        env.async_reset()
        env.recv(), env.recv()
        env.send(np.full(30, STEP_US), np.arange(30))
        ready()
        blocked(env.recv)
        out["elapsed"] = sorted(set(sum((env.recv()[4]["elapsed_step"].tolist() for _ in range(2)), [])))
        env.close()
    """, sig=signal.SIGALRM)
    assert r["interrupted"] == "TimeoutError"
    assert r["elapsed"] == [1]


XLA_RECV = """
    import time
    import jax
    env = rlpool.make("BusyWork-v0", num_envs=40, batch_size=20, num_threads=2, seed=5)
    handle, recv, _, _ = env.xla()
    recv_xla = jax.jit(recv).lower(handle).compile()  # before the send: compiling eats into its second
    env.async_reset()
    env.recv(), env.recv()
    env.send(np.full(40, STEP_US), np.arange(40))
    ready()
    out["raised"] = []
    try:
        try:
            jax.block_until_ready(recv_xla(handle))   # 20 steps of 100 ms on 2 workers: about 1 s
        except Exception as e:  # XLA's error; Python's KeyboardInterrupt may come with it or right after
            out["raised"].append(type(e).__name__)
            out["xla_error"] = str(e)
            time.sleep(2)
    except KeyboardInterrupt as e:
        out["raised"].append("KeyboardInterrupt")
        out.setdefault("xla_error", str(e.__context__))
    batches = [env.recv()[1:] for _ in range(2)]      # the interrupted batch stays pending, then the rest
    out["ids"] = sorted(sum((b[3]["env_id"].tolist() for b in batches), []))
    out["elapsed"] = sorted(set(sum((b[3]["elapsed_step"].tolist() for b in batches), [])))
    env.close()
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGALRM])
def test_xla_recv_is_interrupted_and_results_stay_pending(sig):
    """A jitted recv waiting on the main thread ends on Ctrl-C (or a handler that raises): XLA reports the
    call as interrupted, Python then raises KeyboardInterrupt (its context XLA's error); every result stays
    pending."""
    pytest.importorskip("jax")
    prelude = ("def on_alarm(signum, frame):\n    raise TimeoutError('too slow')\n"
               "signal.signal(signal.SIGALRM, on_alarm)\n") if sig == signal.SIGALRM else ""
    r = run_child(prelude + textwrap.dedent(XLA_RECV), sig=sig)
    if sig == signal.SIGINT:  # XLA's error, then Python's KeyboardInterrupt
        assert r["raised"][-1] == "KeyboardInterrupt", r
        assert "rlpool xla recv: interrupted by KeyboardInterrupt()" in r["xla_error"], r
    else:  # XLA's error names the handler's exception (which Python cannot raise again)
        assert r["raised"] in (["JaxRuntimeError"], ["XlaRuntimeError"]), r
        assert "rlpool xla recv: interrupted by TimeoutError('too slow')" in r["xla_error"], r
    assert r["ids"] == list(range(40)) and r["elapsed"] == [1]


def test_single_thread_step_is_interrupted_between_envs():
    """num_threads=1, sync: the caller steps every env; a long batch is interrupted between two envs."""
    r = run_child("""
        env = rlpool.make("BusyWork-v0", num_envs=6, num_threads=1, seed=5)
        env.reset()
        ready()
        blocked(lambda: env.step(np.full(6, STEP_US)))    # 0.6 s on the calling thread
        obs, rew, term, trunc, info = env.step(np.zeros(6, np.int64))
        out["elapsed"] = info["elapsed_step"].tolist()
        out["count"] = obs[:, 0].tolist()
        env.close()
    """, delay=0.15)
    assert r["interrupted"] is True
    # The envs stepped before the interrupt have 2 steps, the others (not started) 1.
    assert set(r["elapsed"]) <= {1, 2}, r["elapsed"]
    assert r["count"] == [float(e) for e in r["elapsed"]]
    assert 1 in r["elapsed"], "no env was dropped: the batch ran to its end"
    assert 2 in r["elapsed"], "no env ran before the interrupt"


# After thousands of cheap steps the cost estimate says "cheap": a batch of 100 ms steps sized on it
# (run inline, or in big chunks by the caller) would hold Ctrl-C back for the whole run. The engine
# notices the overrun after one task.
CHEAP_FIRST = textwrap.dedent("""
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
""")


def test_async_recv_after_cheap_steps_is_interrupted():
    r = run_child(CHEAP_FIRST + textwrap.dedent("""
        env = rlpool.make("BusyWork-v0", num_envs=64, batch_size=32, num_threads=2, seed=6, episode_length=10**6)
        env.async_reset()
        env.recv(), env.recv()
        cheap_steps(env)
        env.send(np.full(64, STEP_US), np.arange(64))
        ready()
        blocked(env.recv)
        infos = [env.recv()[4] for _ in range(2)]
        out["ids"] = sorted(sum((i["env_id"].tolist() for i in infos), []))
        env.close()
    """), delay=0.3)
    assert r["interrupted"] is True
    assert r["ids"] == list(range(64))


def test_sync_step_after_cheap_steps_is_interrupted_mid_batch():
    r = run_child(CHEAP_FIRST + textwrap.dedent("""
        env = rlpool.make("BusyWork-v0", num_envs=24, num_threads=2, seed=7, episode_length=10**6)
        env.reset()
        cheap_steps(env)
        before = env.step(np.zeros(24, np.int64))[4]["elapsed_step"].copy()
        ready()
        blocked(lambda: env.step(np.full(24, STEP_US)))   # 2.4 s if it all ran on the caller
        info = env.step(np.zeros(24, np.int64))[4]
        out["stepped"] = (info["elapsed_step"] - before).tolist()
        env.close()
    """), delay=0.15)
    assert r["interrupted"] is True
    assert set(r["stepped"]) <= {1, 2} and 1 in r["stepped"], r["stepped"]


# The blocked call of each case has at least 150 s of work before it could return (100 ms steps: the
# envs it waits for, divided by the threads), over three times CHILD_TIMEOUT_S: it ends in time only if
# the signal is delivered while the work goes on, whatever the machine's speed or load. After a cut sync
# call the child steps once with no work (the pool still steps; the call stepped some envs and left the
# others out), then closes the pool (queued steps are dropped).
LONG_CASES = {
    "async recv": """
        env = rlpool.make("BusyWork-v0", num_envs=6000, batch_size=3000, num_threads=2, seed=0)
        env.async_reset()
        env.recv(), env.recv()
        env.send(np.full(6000, STEP_US), np.arange(6000))
        ready()
        blocked(env.recv)
    """,
    "sync step on workers": """
        env = rlpool.make("BusyWork-v0", num_envs=4500, num_threads=3, seed=2)
        env.reset()
        env.step(np.full(4500, 10))                       # timed steps: the next batch goes to the workers
        ready()
        blocked(lambda: env.step(np.full(4500, STEP_US)))
        zero_step(env)
    """,
    "sync send, recv": """
        env = rlpool.make("BusyWork-v0", num_envs=4500, num_threads=3, seed=3)
        env.reset()
        env.send(np.full(4500, STEP_US))
        ready()
        blocked(env.recv)
    """,
    "single thread": """
        env = rlpool.make("BusyWork-v0", num_envs=1500, num_threads=1, seed=5)
        env.reset()
        ready()
        blocked(lambda: env.step(np.full(1500, STEP_US)))
        zero_step(env)
    """,
    "async recv after cheap steps": """
        env = rlpool.make("BusyWork-v0", num_envs=6000, batch_size=3000, num_threads=2, seed=6,
                          episode_length=10**6)
        env.async_reset()
        env.recv(), env.recv()
        cheap_steps(env)
        env.send(np.full(6000, STEP_US), np.arange(6000))
        ready()
        blocked(env.recv)
    """,
    "sync step after cheap steps": """
        env = rlpool.make("BusyWork-v0", num_envs=3000, num_threads=2, seed=7, episode_length=10**6)
        env.reset()
        cheap_steps(env)
        ready()
        blocked(lambda: env.step(np.full(3000, STEP_US)))
        zero_step(env)
    """,
    "handler that raises": """
        def on_alarm(signum, frame):
            raise TimeoutError("too slow")
        signal.signal(signal.SIGALRM, on_alarm)
        env = rlpool.make("BusyWork-v0", num_envs=6000, batch_size=3000, num_threads=2, seed=4)
        env.async_reset()
        env.recv(), env.recv()
        env.send(np.full(6000, STEP_US), np.arange(6000))
        ready()
        blocked(env.recv)
    """,
}

ZERO_STEP = textwrap.dedent("""
    def zero_step(env):
        '''One step of no work after a cut sync call: the steps each env had from the cut call (0 or 1).'''
        elapsed = env.step(np.zeros(env.num_envs, np.int64))[4]["elapsed_step"]
        out["cut_call_steps"] = sorted(set((elapsed - elapsed.min()).tolist()))
""")


@pytest.mark.parametrize("case", list(LONG_CASES))
def test_interrupt_ends_a_call_with_minutes_of_work_left(case):
    sig = signal.SIGALRM if case == "handler that raises" else signal.SIGINT
    r = run_child(CHEAP_FIRST + ZERO_STEP + textwrap.dedent(LONG_CASES[case]) + "env.close()\n", sig=sig)
    assert r["interrupted"] == ("TimeoutError" if sig == signal.SIGALRM else True), r
    if "cut_call_steps" in r:
        # The envs started before the interrupt were stepped (their step finished), the others left out.
        assert r["cut_call_steps"] == [0, 1], r
