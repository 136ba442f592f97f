"""The Ray backend's actor side, and the result trees both sides cut and join.

``PoolWorker`` holds an ordinary local pool of a contiguous range of envs and returns its rows with
global env ids; a result tree is (obs, reward, terminated, truncated, info).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from rlpool.backends.local import new_local_pool
from rlpool.backends.options import BACKEND_OPTION_NAMES
from rlpool.extras import install_hint

if TYPE_CHECKING:
    pass

_RESTART_TIMEOUT_S = 120.0
_INLINE_BYTES = 90_000  # under Ray's max_direct_call_object_size (100 KB by default), with room for pickling

RAY_INSTALL_HINT = f'backend="ray" needs Ray: {install_hint("ray", "ray>=2.40")}'



class WorkerRestartedError(RuntimeError):
    """Raised by a worker that Ray restarted, until the driver has taken note (its envs were lost)."""


class WorkerLostError(RuntimeError):
    """A Ray actor of a pool died: its envs (``env_ids``) are lost."""

    def __init__(self, message: str, env_ids: Sequence[int]) -> None:
        super().__init__(message)
        self.env_ids = list(env_ids)


def import_ray() -> Any:
    """The ``ray`` module, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(RAY_INSTALL_HINT) from e
    return ray


# --------------------------------------------------------------------------------------------------
# Results as trees: (obs, reward, terminated, truncated, info); obs an array, dict or tuple of arrays;
# info a dict of arrays, maybe nested dicts (the pool's info_keys), and the private "_rlpool_final" tuple.


def _writable(tree: Any) -> Any:
    """``tree`` with every array writable, as a local pool's results are.

    Ray's object store hands out read-only views of what it holds.
    """
    if isinstance(tree, np.ndarray):
        return tree if tree.flags.writeable else tree.copy()
    if isinstance(tree, dict):
        return {k: _writable(v) for k, v in tree.items()}
    if isinstance(tree, tuple):
        return tuple(_writable(v) for v in tree)
    return tree


def _concat(trees: list[Any]) -> Any:
    first = trees[0]
    if len(trees) == 1:
        return _writable(first)
    if isinstance(first, np.ndarray):
        return np.concatenate(trees)
    if isinstance(first, dict):
        keys = list(first)
        for t in trees[1:]:
            keys += [k for k in t if k not in keys]
        if "restarted" in keys:  # only some parts have rows of a restarted worker
            trees = [t if "restarted" in t else {**t, "restarted": np.zeros(t["env_id"].shape[0], np.bool_)}
                     for t in trees]
        return {k: _concat([t[k] for t in trees]) for k in keys}
    if isinstance(first, tuple):
        return tuple(_concat([t[i] for t in trees]) for i in range(len(first)))
    return first


def _take(tree: Any, index: Any) -> Any:
    if isinstance(tree, np.ndarray):
        return tree[index]
    if isinstance(tree, dict):
        return {k: _take(v, index) for k, v in tree.items()}
    if isinstance(tree, tuple):
        return tuple(_take(v, index) for v in tree)
    return tree


def _rows(tree: Any) -> int:
    return int(tree[4]["env_id"].shape[0]) if len(tree) == 5 else int(tree[1]["env_id"].shape[0])


def _split_list(items: list[Any], parts: int) -> list[list[Any]]:
    """``items`` in ``parts`` consecutive, near-equal, non-empty runs (``parts <= len(items)``)."""
    base, extra = divmod(len(items), parts)
    out, start = [], 0
    for k in range(parts):
        end = start + base + (1 if k < extra else 0)
        out.append(items[start:end])
        start = end
    return out


def _with_env_ids(info: dict[str, Any], env_id: np.ndarray, paths: Sequence[str]) -> None:
    """``info``'s env id entries (``paths``, as ``info_keys`` names them) set to ``env_id``."""
    for path in paths:
        top, _, sub = path.partition(".")
        if sub:
            info[top] = {**info[top], sub: env_id}
        else:
            info[top] = env_id


# --------------------------------------------------------------------------------------------------
# The actor.


class PoolWorker:
    """One Ray actor's pool: envs ``[offset, offset + num_envs)`` of a ``RayPool``.

    Made with ``ray.remote`` by ``RayPool``; rows it returns carry global env ids. A worker
    that Ray restarted after a failure resets its envs before stepping them again and flags
    their next rows with ``info["restarted"]``.
    """

    def __init__(
        self, task_id: str, kwargs: dict[str, Any], offset: int, seeds: list[int], sync: bool, num_threads: int
    ) -> None:
        import rlpool.envs  # noqa: F401  (registers the families' tasks in this process)
        from rlpool.spec import EnvSpec

        n = len(seeds)
        options = {k: v for k, v in kwargs.items() if k not in BACKEND_OPTION_NAMES}
        options.update(num_envs=n, batch_size=n if sync else 1, seed=list(seeds), num_threads=num_threads)
        options["render_env_id"] = 0
        self.spec = EnvSpec(task_id, **options)
        self.pool = new_local_pool(self.spec)
        self.offset = offset
        self.num_envs = n
        self.sync = sync
        self.buffer: deque[tuple] = deque()  # async: rows taken from the pool, not yet returned
        self.flagged: set[int] = set()  # local ids whose next row is flagged "restarted"
        self.fresh: set[int] = set()  # local ids to reset (not step) next: a restarted worker's envs
        try:
            import warnings

            import ray

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                restarted = ray.is_initialized() and bool(ray.get_runtime_context().was_current_actor_reconstructed)
        except Exception:  # noqa: BLE001 - outside Ray (unit use): never a restart
            restarted = False
        if restarted:
            self.fresh = set(range(n))
        self.unacknowledged = restarted
        self.reward_dtype = np.dtype(np.float64)
        self.env_id_paths = ["env_id"]
        self.pending = 0  # async: envs in flight in the pool

    def ready(self) -> str:
        """The Ray node id of this worker (``ray.get`` on it waits until the pool is built)."""
        import ray

        return ray.get_runtime_context().get_node_id()

    def acknowledge(self) -> None:
        """The driver knows this worker was restarted: calls are served again."""
        self.unacknowledged = False

    def _guard(self) -> None:
        if self.unacknowledged:
            raise WorkerRestartedError(f"this worker (envs {self.offset}..{self.offset + self.num_envs - 1}) "
                                       "was restarted: its envs were lost")

    def configure(self, settings: dict[str, Any]) -> None:
        """The C++ pool's settings (``export_discount``, ``reward_dtype``, ``info_keys``, ...)."""
        for name, value in settings.items():
            setattr(self.pool, name, value)
        self.reward_dtype = np.dtype(self.pool.reward_dtype)
        self.env_id_paths = [path for path, field in self.pool.info_keys if field == "env_id"]

    # -- sync ---------------------------------------------------------------------------------
    def step_sync(self, action: Any, ids: np.ndarray | None, pieces: int = 1) -> Any:
        """Step every env (or ``ids``, EnvPool mode) of a sync pool; a restarted worker resets instead.

        ``pieces > 1``: the rows split into that many results (the call's ``num_returns``).
        """
        self._guard()
        result = self._fresh_sync() if self.fresh else self._global(self.pool.step(action, ids))
        if pieces == 1:
            return result
        n = _rows(result)
        bounds = np.linspace(0, n, pieces + 1).astype(int)
        return tuple(_take(result, slice(int(lo), int(hi))) for lo, hi in zip(bounds[:-1], bounds[1:], strict=True))

    def reset_sync(self, ids: np.ndarray | None, seed_ids: list[int], seeds: list[int]) -> tuple:
        """Sync reset of ``ids`` (None: all): every env's ``(obs, info)`` row."""
        self._guard()
        every = np.arange(self.num_envs, dtype=np.int32)
        was_fresh = self.fresh & set((every if ids is None else ids).tolist())
        self.fresh -= was_fresh
        obs, info = self.pool.reset(ids, seed_ids, seeds)
        info = dict(info)
        local = info["env_id"]
        _with_env_ids(info, (local + self.offset).astype(local.dtype), self.env_id_paths)
        if was_fresh:
            info["restarted"] = np.isin(every, list(was_fresh))
        return obs, info

    def _fresh_sync(self) -> tuple:
        obs, info = self.pool.reset(None, [], [])
        self.fresh.clear()
        n = self.num_envs
        info = dict(info)
        info["restarted"] = np.ones(n, dtype=np.bool_)
        info.pop("_rlpool_final", None)
        result = (obs, np.zeros(n, self.reward_dtype), np.zeros(n, np.bool_), np.zeros(n, np.bool_), info)
        out = self._global(result)
        if self.pool_has_final():
            skip = {"env_id", "restarted", "_rlpool_discount"}
            final_info = {k: np.copy(v) for k, v in info.items() if k not in skip and not isinstance(v, dict)}
            out[4]["_rlpool_final"] = (_take(obs, slice(None)), final_info)
        return out

    def pool_has_final(self) -> bool:
        """Whether results carry SameStep's final rows."""
        return self.spec.config["autoreset_mode"] == "SameStep"

    # -- async --------------------------------------------------------------------------------
    def send_recv(self, call: tuple) -> Any:
        """``call = (action, ids, want, reset, seed_ids, seeds, pieces)`` (one argument: one serialization).

        Sends ``action`` to ``ids`` (or resets them, seeding ``seed_ids`` first), then returns the next
        ``want`` rows (None for 0), split by rows into ``pieces`` results when ``pieces > 1`` (the
        call's ``num_returns``: pieces under Ray's inline size skip the object store). A restarted worker
        resets the envs it is asked to step (their rows are flagged).
        """
        self._guard()
        action, ids, want, reset, seed_ids, seeds, pieces = call
        ids = np.asarray(ids, dtype=np.int32)
        if len(ids):
            if reset:
                self._reset_async(ids, seed_ids, seeds)
            else:
                fresh = np.isin(ids, list(self.fresh)) if self.fresh else None
                if fresh is not None and fresh.any():
                    self._reset_async(ids[fresh], (), ())
                    ids, action = ids[~fresh], np.asarray(action)[~fresh]
                if len(ids):
                    self.pool.send(action, ids)
                    self.pending += len(ids)
        if want == 0:
            return None if pieces == 1 else (None,) * pieces
        while len(self.buffer) < want:
            self._recv1()
        rows = [self.buffer.popleft() for _ in range(want)]
        if pieces == 1:
            return self._global(_concat(rows))
        return tuple(self._global(_concat(part)) for part in _split_list(rows, pieces))

    def _recv1(self) -> None:
        self.buffer.append(self.pool.recv())
        self.pending -= 1

    def _reset_async(self, ids: np.ndarray, seed_ids: Sequence[int], seeds: Sequence[int]) -> None:
        # The pool's async reset() sends the resets and receives one row, the first env to finish:
        # with no other env in flight it is one of these resets (the others' rows go to the buffer first).
        while self.pending > 0:
            self._recv1()
        for i in ids.tolist():
            if i in self.fresh:
                self.fresh.discard(i)
                self.flagged.add(i)
        obs, info = self.pool.reset(ids, list(seed_ids), list(seeds))
        n = info["env_id"].shape[0]
        self.buffer.append((obs, np.zeros(n, self.reward_dtype), np.zeros(n, np.bool_), np.zeros(n, np.bool_), info))
        self.pending += len(ids) - n

    # -- both ---------------------------------------------------------------------------------
    def _global(self, result: tuple) -> tuple:
        obs, reward, terminated, truncated, info = result
        info = dict(info)
        local = info["env_id"]
        _with_env_ids(info, (local + self.offset).astype(local.dtype), self.env_id_paths)
        if self.flagged and "restarted" not in info:
            flag = np.isin(local, list(self.flagged))
            if flag.any():
                info["restarted"] = flag
                self.flagged.difference_update(int(i) for i in local[flag])
        return obs, reward, terminated, truncated, info

    def seed(self, ids: np.ndarray, seeds: list[int]) -> None:
        """Seed ``ids`` for their next reset."""
        self._guard()
        self.pool.seed(ids, seeds)

    def get_state(self, env_id: int) -> bytes:
        """Local env ``env_id``'s state bytes."""
        self._guard()
        return self.pool.get_state(env_id)

    def set_state(self, env_id: int, state: bytes) -> None:
        """Restore local env ``env_id``."""
        self._guard()
        self.pool.set_state(env_id, state)

    def render(self, ids: list[int], width: int, height: int, camera_id: int) -> np.ndarray:
        """Frames of local envs ``ids``."""
        self._guard()
        return self.pool.render(ids, width, height, camera_id)

    def close(self) -> None:
        """Stop the pool's threads."""
        if not self.pool.closed:
            self.pool.close()
