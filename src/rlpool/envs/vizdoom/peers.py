"""ViZDoom's peers in ``rlpool bench``: ``vizdoom-procs`` and ``vizdoom-threads``, vizdoom's own ``DoomGame``.

Each is ``num_envs`` bare loops over vizdoom's Python ``DoomGame`` (``make_action(action, frame_skip)``,
a new episode where one ends), one per process (``vizdoom-procs``) or one per thread of this process
(``vizdoom-threads``, the GIL held between engine calls): what driving the engines from Python costs.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

import rlpool
from rlpool import registry
from rlpool.envs.vizdoom.registration import doomgame
from rlpool.tools.bench import ENV_SEED, Peer, PeerUnavailable


def _check_doomgame(task: str) -> None:
    """PeerUnavailable unless ``task`` is a ViZDoom task and vizdoom is installed."""
    if task not in rlpool.list_all_envs() or registry.task(task).env_type != "Vizdoom":
        raise PeerUnavailable(f"{task} is not a ViZDoom task")
    try:
        import vizdoom  # noqa: F401
    except ImportError as e:
        raise PeerUnavailable(f"vizdoom is not installed ({e})") from None


def _doomgame_loop(task: str, seed: int, action: np.ndarray, calls: Any, done: Any, folder: str, own: bool) -> None:
    """One bare DoomGame loop: per request of n calls, n ``make_action(action, frame_skip)`` steps.

    ``folder``: the runner's temporary folder, for the engine's files; ``own``: this loop has a process
    of its own, which then works in that folder (the engine starts there and writes its _vizdoom/ there).
    """
    if own:
        os.chdir(folder)
    frame_skip = int(registry.task(task).env_defaults.get("frame_skip", 4))
    game = doomgame(task, config_path=os.path.join(folder, f"_vizdoom_{seed}.ini"))
    game.set_seed(seed)
    game.init()
    act = [float(a) for a in action]
    try:
        while (n := calls.get()) is not None:
            for _ in range(n):
                game.make_action(act, frame_skip)
                if game.is_episode_finished():
                    game.new_episode()
            done.put(n)
    finally:
        game.close()


class DoomGameRunner:
    """``num_envs`` bare loops over vizdoom's Python ``DoomGame``: one per process, or one per thread."""

    def __init__(self, task: str, num_envs: int, actions: np.ndarray, processes: bool) -> None:
        import tempfile

        # The engines write their settings and a _vizdoom/ folder where they start: here, not in the
        # caller's folder (threads: this process works in it until close()).
        self.folder = tempfile.TemporaryDirectory(prefix="rlpool-bench-vizdoom-")
        self.cwd = None if processes else os.getcwd()
        if not processes:
            os.chdir(self.folder.name)
        if processes:
            import multiprocessing

            ctx = multiprocessing.get_context("spawn")
            make_queue, make_worker = ctx.Queue, ctx.Process
        else:
            import queue
            import threading

            make_queue, make_worker = queue.Queue, threading.Thread
        self.done = make_queue()
        self.calls = [make_queue() for _ in range(num_envs)]
        self.workers = [
            make_worker(target=_doomgame_loop, daemon=True,
                        args=(task, ENV_SEED + i, actions[i], self.calls[i], self.done, self.folder.name, processes))
            for i in range(num_envs)
        ]
        for w in self.workers:
            w.start()
        self.batch_size = num_envs

    def run(self, calls: int) -> None:
        """Every loop makes ``calls`` steps; returns when all have."""
        for q in self.calls:
            q.put(calls)
        for _ in self.calls:
            self.done.get()

    def close(self) -> None:
        """End the loops (each closes its game)."""
        for q in self.calls:
            q.put(None)
        for w in self.workers:
            w.join(timeout=30)
        if self.cwd is not None:
            os.chdir(self.cwd)
        self.folder.cleanup()


PEERS = (
    Peer("vizdoom-procs", _check_doomgame, lambda t, n, a: DoomGameRunner(t, n, a, True)),
    Peer("vizdoom-threads", _check_doomgame, lambda t, n, a: DoomGameRunner(t, n, a, False)),
)
