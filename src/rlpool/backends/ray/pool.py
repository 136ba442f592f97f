"""The Ray backend's driver side: ``RayPool``, one pool over K ``PoolWorker`` actors.

It has the C++ pool's interface; the package's docstring says how sync and async mode and faults work.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from rlpool.backends.ray.worker import (
    _INLINE_BYTES,
    _RESTART_TIMEOUT_S,
    PoolWorker,
    WorkerLostError,
    WorkerRestartedError,
    _concat,
    _rows,
    _take,
    import_ray,
)
from rlpool.options import check_int

if TYPE_CHECKING:
    from rlpool.spec import EnvSpec


def split(num_envs: int, num_workers: int) -> list[int]:
    """First env id of each worker, and ``num_envs`` last: near-equal contiguous ranges."""
    base, extra = divmod(num_envs, num_workers)
    offsets = [0]
    for k in range(num_workers):
        offsets.append(offsets[-1] + base + (1 if k < extra else 0))
    return offsets


_remote_class: Any = None


def _worker_class(ray: Any) -> Any:
    global _remote_class
    if _remote_class is None:
        _remote_class = ray.remote(PoolWorker)
    return _remote_class


# --------------------------------------------------------------------------------------------------
# The driver's pool.


def _one_thread(method: Callable[..., Any]) -> Callable[..., Any]:
    """A ``RayPool`` method refused while another thread is inside one, as the C++ pool refuses it."""

    @functools.wraps(method)
    def wrapper(self: RayPool, *args: Any, **kwargs: Any) -> Any:
        me = threading.get_ident()
        with self._owner_lock:
            if self._owner not in (None, me):
                raise RuntimeError("the pool is being used by another thread")
            self._owner, self._depth = me, self._depth + 1
        try:
            return method(self, *args, **kwargs)
        finally:
            with self._owner_lock:
                self._depth -= 1
                if self._depth == 0:
                    self._owner = None

    return wrapper


def _setting(name: str, doc: str) -> property:
    """A property of ``RayPool`` that mirrors the C++ Pool's setting ``name`` on every worker."""

    def get(self: RayPool) -> Any:
        return self._settings[name]

    def set_(self: RayPool, value: Any) -> None:
        self._set(name, value)

    return property(get, set_, doc=doc)


class RayPool:
    """A pool of ``num_envs`` envs spread over Ray actors, with the C++ ``Pool``'s interface.

    Built by ``rlpool.backends.new_pool`` when the spec says ``backend="ray"``; the API faces use it
    as they use a local pool. ``workers`` are the actor handles, ``offsets[k]`` the first env
    id of worker ``k`` (``offsets[-1] == num_envs``), ``node_ids[k]`` its Ray node.
    """

    def __init__(self, spec: EnvSpec) -> None:
        self._owner_lock = threading.Lock()  # _one_thread: the thread inside a call, and its call depth
        self._owner: int | None = None
        self._depth = 0
        ray = import_ray()
        from ray.util.placement_group import placement_group, remove_placement_group
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        self._ray = ray
        self._remove_pg = remove_placement_group
        self._closed = False
        self._lost: WorkerLostError | None = None
        self.workers: list[Any] = []
        self._pg: Any = None
        opts = spec.backend
        c = spec.config
        self.num_envs: int = c["num_envs"]
        self.batch_size: int = c["batch_size"]
        self.max_episode_steps: int = c["max_episode_steps"]
        self._sync = self.batch_size == self.num_envs
        # The C++ Pool's settings, kept here and given to every worker's pool (and again after a restart).
        self._settings: dict[str, Any] = {
            "export_discount": False,
            "reward_dtype": "float64",
            "info_keys": [("env_id", "env_id"), ("elapsed_step", "elapsed_step"),
                          *((n, n) for n in spec.arrays.info_names)],
            "first_step_resets": False,
            "dict_action_keys": None,
            "float_discrete_actions": False,
            "subset_steps": False,
        }
        if not ray.is_initialized():
            ray.init()
        k = opts["num_workers"]
        if k is None:
            k = max(1, sum(1 for n in ray.nodes() if n.get("Alive")))
        k = min(int(k), self.num_envs)
        self.offsets = split(self.num_envs, k)
        self.max_restarts = int(opts["max_restarts"])
        cpus = opts["num_cpus_per_worker"]
        user_threads = spec.explicit_num_threads
        extra = dict(opts["worker_options"] or {})
        bundle = {"CPU": float(cpus)} if cpus else {}
        for name, amount in (extra.pop("resources", None) or {}).items():
            bundle[name] = float(amount)
        if extra.pop("num_gpus", None):
            raise ValueError("worker_options: rlpool's envs run on CPUs; num_gpus is not taken")
        try:
            if bundle:
                self._pg = placement_group([dict(bundle) for _ in range(k)], strategy=opts["placement_strategy"])
                ready, _ = ray.wait([self._pg.ready()], timeout=float(opts["placement_timeout_s"]))
                if not ready:
                    total = ray.cluster_resources()
                    raise RuntimeError(
                        f"the Ray cluster has no room for {k} workers of {bundle} with placement strategy "
                        f"{opts['placement_strategy']!r} after {opts['placement_timeout_s']} s (cluster resources: "
                        f"{total}); lower num_workers or num_cpus_per_worker, or add nodes"
                    )
            cls = _worker_class(ray)
            seeds = spec.seeds
            self.worker_threads: list[int] = []
            """Each worker's thread count."""
            for w in range(k):
                lo, hi = self.offsets[w], self.offsets[w + 1]
                n = hi - lo
                threads = min(n, user_threads if user_threads else max(1, int(cpus)))
                self.worker_threads.append(threads)
                actor_opts: dict[str, Any] = {
                    "num_cpus": float(cpus),
                    "max_restarts": self.max_restarts,
                    "max_task_retries": 0,
                    **extra,
                }
                if self._pg is not None:
                    actor_opts["scheduling_strategy"] = PlacementGroupSchedulingStrategy(
                        self._pg, placement_group_bundle_index=w
                    )
                self.workers.append(
                    cls.options(**actor_opts).remote(spec.id, spec.kwargs, lo, seeds[lo:hi], self._sync, threads)
                )
            try:
                self.node_ids: list[str] = ray.get(
                    [a.ready.remote() for a in self.workers], timeout=float(opts["placement_timeout_s"])
                )
            except ray.exceptions.GetTimeoutError:
                raise RuntimeError(
                    f"the Ray workers did not start within placement_timeout_s={opts['placement_timeout_s']} s "
                    f"(cluster resources: {ray.available_resources()})"
                ) from None
        except BaseException:
            self.close()
            raise
        self.restarts = [0] * k
        """How often each worker was restarted after a failure."""
        self.num_threads = sum(self.worker_threads)
        """All workers' threads together."""
        # Async bookkeeping.
        self._in_flight = np.zeros(self.num_envs, dtype=np.bool_)  # sent, not yet returned to the caller
        self._unrequested = [0] * k  # per worker: in flight there and not covered by a request
        # first result ref of a call -> (worker, local ids sent, rows wanted, all its result refs)
        self._requests: dict[Any, tuple[int, np.ndarray, int, list[Any]]] = {}
        self._buffer: deque[Any] = deque()  # row chunks that reached the driver, not yet returned
        self._buffered = 0
        self._sync_refs: list[Any] | None = None
        arrays = spec.arrays
        row = sum(int(np.prod(a.shape)) * a.dtype.itemsize for a in (*arrays.obs, *arrays.info)) + 32
        if c["autoreset_mode"] == "SameStep":
            row *= 2  # the final rows too
        self._row_bytes = row
        """Bytes of one env's row in a result (about), for the split into inline pieces."""

    # -- the C++ Pool's properties ------------------------------------------------------------
    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._closed

    def _set(self, name: str, value: Any) -> None:
        """Setting ``name`` on every worker's pool (a value its pool refuses changes nothing)."""
        if name == "info_keys" and ("env_id", "env_id") not in [tuple(k) for k in value]:
            raise ValueError("a Ray pool's info_keys must keep ('env_id', 'env_id'): it routes rows by them")
        old = self._settings[name]
        self._settings[name] = value
        try:
            self._send_settings()
        except Exception:
            self._settings[name] = old
            self._send_settings()
            raise

    export_discount = _setting("export_discount", "Results carry ``info['_rlpool_discount']`` (the dm faces).")
    reward_dtype = _setting("reward_dtype", "The rewards' dtype: ``'float64'`` (default) or ``'float32'``.")
    info_keys = _setting("info_keys", "info's entries in order, each ``(key, field)`` (as the C++ Pool's).")
    first_step_resets = _setting("first_step_resets", "Whether a step of a never-reset env resets it.")
    dict_action_keys = _setting("dict_action_keys", "None or ``(action key, [env id keys])``: dict actions.")
    float_discrete_actions = _setting("float_discrete_actions", "A discrete space takes float actions.")
    subset_steps = _setting("subset_steps", "A sync pool's ``step(actions, env_id)`` steps only those envs.")

    def _send_settings(self, workers: Sequence[int] | None = None) -> None:
        ws = range(len(self.workers)) if workers is None else workers
        self._get([self.workers[w].configure.remote(self._settings) for w in ws], list(ws))

    def fields(self) -> list:
        """Not available: the XLA bridge steps local pools only."""
        raise RuntimeError("xla() needs a local pool (backend='local'): a Ray pool's envs run in other processes")

    def xla_handle(self) -> bytes:
        """Not available (see ``fields``)."""
        return self.fields()  # raises

    # -- routing helpers ----------------------------------------------------------------------
    def _worker_of(self, ids: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.offsets, ids, side="right") - 1

    def _ids(self, env_id: Any) -> np.ndarray:
        if isinstance(env_id, (int, np.integer)) and not isinstance(env_id, (bool, np.bool_)):
            raise TypeError("env_id must be a sequence or array of ints, not a single int")
        ids = np.asarray(env_id)
        if ids.size == 0:
            ids = ids.astype(np.int64)
        if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
            raise TypeError(f"env_id must be a 1-D array of integers, got {ids.dtype} with {ids.ndim} dimensions")
        ids = ids.astype(np.int64)
        bad = ids[(ids < 0) | (ids >= self.num_envs)]
        if bad.size:
            raise IndexError(f"env_id {int(bad[0])} is out of range")
        if np.unique(ids).size != ids.size:
            values, counts = np.unique(ids, return_counts=True)
            raise ValueError(f"env_id {int(values[counts > 1][0])} appears more than once in one call")
        return ids

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the pool is closed")
        if self._lost is not None:
            raise WorkerLostError(str(self._lost), self._lost.env_ids)

    def _envs_of(self, w: int) -> list[int]:
        return list(range(self.offsets[w], self.offsets[w + 1]))

    def _fetch(self, ref: Any, w: int) -> Any:
        """``ray.get(ref)`` of worker ``w``'s call: a dead (or restarted) worker raises ``_Died``."""
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayActorError as e:
            raise _Died(w, e) from e
        except ray.exceptions.RayTaskError as e:
            if isinstance(e.cause, WorkerRestartedError):
                raise _Died(w, e) from e
            raise e.as_instanceof_cause() from None

    def _worker_died(self, w: int, error: BaseException) -> None:
        """Worker ``w`` died: wait for Ray to restart it, else raise a WorkerLostError naming its envs."""
        envs = self._envs_of(w)
        ray = self._ray
        reason = f"{type(error).__name__}: {str(error).strip().splitlines()[0]}" if str(error).strip() else type(
            error).__name__
        if self.max_restarts != 0:
            deadline = time.monotonic() + _RESTART_TIMEOUT_S
            unavailable = getattr(ray.exceptions, "ActorUnavailableError", ())
            try:
                while True:  # a restarting actor is "unavailable" for a while; a dead one's calls fail at once
                    try:
                        ray.get(self.workers[w].ready.remote(), timeout=max(0.1, deadline - time.monotonic()))
                        break
                    except unavailable:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.1)
                ray.get(self.workers[w].acknowledge.remote(), timeout=_RESTART_TIMEOUT_S)
                ray.get(self.workers[w].configure.remote(self._settings), timeout=_RESTART_TIMEOUT_S)
                self.restarts[w] += 1
                return
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError, ray.exceptions.RayTaskError):
                pass
        self._lost = WorkerLostError(
            f"Ray worker {w} of this pool died ({reason}): its envs {envs[0]}..{envs[-1]} ({len(envs)} envs: "
            f"{envs}) are lost"
            + ("" if self.max_restarts == 0 else " and Ray could not restart it")
            + "; close() the pool and make a new one",
            envs,
        )
        raise self._lost from None

    def _get(self, refs: list[Any], workers: list[int]) -> list[Any]:
        """Results of one call per worker; a restarted worker raises ``WorkerRestarted`` (call again)."""
        out = []
        for ref, w in zip(refs, workers, strict=True):
            try:
                out.append(self._fetch(ref, w))
            except _Died as d:
                self._worker_died(w, d.error)
                envs = self._envs_of(w)
                raise WorkerRestarted(
                    f"Ray worker {w} died during this call and was restarted: its envs {envs[0]}..{envs[-1]} were "
                    "lost and are reset before their next step; call again",
                    envs,
                ) from None
        return out

    # -- sync ---------------------------------------------------------------------------------
    def _split_actions(self, action: Any, ids: np.ndarray) -> tuple[Any, np.ndarray]:
        """``action`` for ``ids`` as an array whose first axis runs over ``ids`` (shape checked)."""
        a = np.asarray(action)
        if a.ndim == 0 or a.shape[0] != len(ids):
            raise ValueError(f"actions must have one entry per env id ({len(ids)}), got shape {a.shape}")
        return a, ids

    def _unpack(self, action: Any, env_id: Any) -> tuple[Any, Any]:
        """A dict action (``dict_action_keys``) as ``(action, env_id)``, as the C++ Pool reads it."""
        keys = self._settings["dict_action_keys"]
        if keys is None or not isinstance(action, dict):
            return action, env_id
        action_key, id_keys = keys
        flat: dict[str, Any] = {}
        for key, value in action.items():
            if isinstance(value, dict):
                flat.update((f"{key}.{k}", v) for k, v in value.items())
            else:
                flat[key] = value
        if action_key not in flat or set(flat) - {action_key, *id_keys}:
            allowed = f" (and may have {', '.join(repr(k) for k in id_keys)})" if id_keys else ""
            raise ValueError(f"a dict action needs the key {action_key!r}{allowed}, got {sorted(flat)}")
        if env_id is None and id_keys and id_keys[0] in flat:
            env_id = flat[id_keys[0]]
        return flat[action_key], env_id

    @_one_thread
    def step(self, action: Any, env_id: Any = None) -> tuple:
        """Sync: step every env (``subset_steps``: or ``env_id``'s). Async: ``send`` then ``recv``."""
        action, env_id = self._unpack(action, env_id)
        if not self._sync:
            ids = self._ids(env_id) if env_id is not None else None
            n = self.num_envs if ids is None else len(ids)
            self._check_can_recv_after(n, "step()")
            self.send(action, env_id)
            return self.recv()
        self._check_open()
        if env_id is not None:
            ids = self._ids(env_id)
            subset = self._settings["subset_steps"]
            if not subset and len(ids) != self.num_envs:
                raise ValueError(
                    f"sync mode (batch_size == num_envs) steps all {self.num_envs} envs at once, got {len(ids)} "
                    "env ids; use batch_size < num_envs for async mode"
                )
            if subset:
                return self._step_ids(action, ids)
            order = np.argsort(ids)
            action = np.asarray(action)[order]
        self._sync_send(action)
        return self.recv()

    def _sync_send(self, action: Any) -> None:
        a = np.asarray(action)
        if a.ndim == 0 or a.shape[0] != self.num_envs:
            raise ValueError(f"actions must have {self.num_envs} rows (one per env), got shape {a.shape}")
        if self._sync_refs is not None:
            raise RuntimeError("send twice in sync mode: recv the previous batch first")
        o = self.offsets
        self._sync_refs = [self._step_call(k, a[o[k]:o[k + 1]], None, o[k + 1] - o[k]) for k in range(len(o) - 1)]

    def _pieces(self, rows: int) -> int:
        """Results to split ``rows`` rows into, so that each stays under Ray's inline size (1: no split)."""
        if rows > 1 and self._row_bytes * rows > _INLINE_BYTES and self._row_bytes * 2 <= _INLINE_BYTES:
            return min(rows, -(-self._row_bytes * rows // _INLINE_BYTES))
        return 1

    def _step_call(self, w: int, action: Any, ids: np.ndarray | None, rows: int) -> list[Any]:
        """Worker ``w``'s ``step_sync`` call: its result refs (one per piece)."""
        pieces = self._pieces(rows)
        method = self.workers[w].step_sync
        if pieces == 1:
            return [method.remote(action, ids)]
        return list(method.options(num_returns=pieces).remote(action, ids, pieces))

    def _step_ids(self, action: Any, ids: np.ndarray) -> tuple:
        a, ids = self._split_actions(action, ids)
        owner = self._worker_of(ids)
        ws = sorted(set(owner.tolist()))
        refs = [self._step_call(w, a[owner == w], (ids[owner == w] - self.offsets[w]).astype(np.int32),
                                int((owner == w).sum())) for w in ws]
        parts = self._gather(refs, ws)
        result = _concat(parts)
        got = result[4]["env_id"].astype(np.int64)
        position = {int(e): i for i, e in enumerate(got)}
        return _take(result, np.array([position[int(e)] for e in ids], dtype=np.int64))

    def _gather(self, refs: list[Any], workers: list[int]) -> list[Any]:
        """Results of one sync call per worker; a restarted worker's rows come from its reset (flagged)."""
        out: list[Any] = []
        for parts, w in zip(refs, workers, strict=True):
            try:
                out.append(_concat([self._fetch(ref, w) for ref in parts]))
            except _Died as d:
                self._worker_died(w, d.error)  # raises unless restarted
                out.append(self._get([self.workers[w].step_sync.remote(None, None)], [w])[0])
        return out

    @_one_thread
    def recv(self) -> tuple:
        """Sync: the batch ``send`` started. Async: the next ``batch_size`` rows to reach the driver."""
        self._check_open()
        if self._sync:
            if self._sync_refs is None:
                raise RuntimeError(
                    f"recv needs at least batch_size={self.batch_size} envs in flight, but only 0 are: "
                    "send actions first"
                )
            # Cleared only once gathered: a Ctrl-C in the gather leaves the stepped batch to the next recv.
            parts = self._gather(self._sync_refs, list(range(len(self.workers))))
            self._sync_refs = None
            return _concat(parts)
        in_flight = int(self._in_flight.sum())
        if in_flight < self.batch_size:
            raise RuntimeError(
                f"recv needs at least batch_size={self.batch_size} envs in flight, but only {in_flight} are: "
                "send actions first"
            )
        ray = self._ray
        while self._buffered < self.batch_size:
            for w in range(len(self.workers)):
                if self._unrequested[w] > 0 and not any(r[0] == w for r in self._requests.values()):
                    self._request(w, None, np.zeros(0, np.int32), False)
            if not self._requests:  # cannot happen while the counts agree; never wait on nothing
                raise RuntimeError(
                    f"internal error: {in_flight} envs in flight but no worker call pending ({self._buffered} rows "
                    "buffered); close() the pool"
                )
            ready, _ = ray.wait(list(self._requests), num_returns=1)
            self._collect(ready[0])
        return self._pop(self.batch_size)

    def _pop(self, n: int) -> tuple:
        chunks: list[Any] = []
        got = 0
        while got < n:
            chunk = self._buffer.popleft()
            rows = _rows(chunk)
            if got + rows > n:
                cut = n - got
                self._buffer.appendleft(_take(chunk, slice(cut, None)))
                chunk = _take(chunk, slice(0, cut))
                rows = cut
            chunks.append(chunk)
            got += rows
        self._buffered -= n
        result = _concat(chunks)
        self._in_flight[result[4]["env_id"].astype(np.int64)] = False
        return result

    def _collect(self, ref: Any) -> None:
        w, sent, want, refs = self._requests.pop(ref)
        try:
            parts = [self._fetch(r, w) for r in refs]
            chunk = parts[0] if len(parts) == 1 or parts[0] is None else _concat(parts)
        except _Died as d:
            self._restart_async(w, d.error)
            return
        except Exception:
            # The worker refused the send (its pool checks before it queues): those envs are not in flight.
            self._in_flight[sent + self.offsets[w]] = False
            self._unrequested[w] -= len(sent) - want
            raise
        if chunk is not None:
            self._buffer.append(chunk)
            self._buffered += _rows(chunk)

    def _restart_async(self, w: int, error: BaseException) -> None:
        # Drop every request of the dead worker; its envs in flight (not yet at the driver) are resent as resets.
        for ref in [r for r, v in self._requests.items() if v[0] == w]:
            del self._requests[ref]
        self._worker_died(w, error)  # raises unless the worker was restarted
        lo, hi = self.offsets[w], self.offsets[w + 1]
        held = np.zeros(self.num_envs, np.bool_)
        for chunk in self._buffer:
            held[chunk[4]["env_id"].astype(np.int64)] = True
        lost = np.flatnonzero(self._in_flight[lo:hi] & ~held[lo:hi]).astype(np.int32)
        self._unrequested[w] = 0
        if lost.size:
            self._unrequested[w] = len(lost)
            self._request(w, None, lost, True)

    def _request(self, w: int, action: Any, local_ids: np.ndarray, reset: bool,
                 seed_ids: Sequence[int] = (), seeds: Sequence[int] = ()) -> None:
        """One call to worker ``w``: send ``action`` to ``local_ids`` (or reset them) and ask for its next rows."""
        # Up to a whole batch from one worker: one call per batch where a worker holds batch_size envs.
        want = min(self._unrequested[w], self.batch_size)
        # Results under Ray's inline size (100 KB) travel in the call's reply, not through the object store
        # (on one node: a third of the call's cost): split the rows into that many results.
        pieces = self._pieces(want)
        payload = (action, local_ids, want, reset, list(seed_ids), list(seeds), pieces)
        method = self.workers[w].send_recv
        refs = method.remote(payload) if pieces == 1 else method.options(num_returns=pieces).remote(payload)
        refs = [refs] if pieces == 1 else list(refs)
        self._unrequested[w] -= want
        self._requests[refs[0]] = (w, local_ids, want, refs)

    def _check_can_recv_after(self, sending: int, call: str) -> None:
        would_be = int(self._in_flight.sum()) + sending
        if would_be < self.batch_size:
            raise RuntimeError(
                f"{call} needs at least batch_size={self.batch_size} envs in flight to receive a batch, but only "
                f"{would_be} would be: send() more envs first"
            )

    @_one_thread
    def send(self, action: Any, env_id: Any = None) -> None:
        """Queue one action per env in ``env_id`` (default: all envs) on the workers and return at once."""
        self._check_open()
        action, env_id = self._unpack(action, env_id)
        if self._sync:
            if env_id is not None:
                ids = self._ids(env_id)
                if len(ids) != self.num_envs:
                    raise ValueError(
                        f"sync mode (batch_size == num_envs) steps all {self.num_envs} envs at once, got {len(ids)} "
                        "env ids; use batch_size < num_envs for async mode"
                    )
                action = np.asarray(action)[np.argsort(ids)]
            self._sync_send(action)
            return
        if env_id is None:
            if self._in_flight.any():
                raise ValueError("env_id is required while some envs are in flight (async mode)")
            ids = np.arange(self.num_envs)
        else:
            ids = self._ids(env_id)
        self._send_async(action, ids, reset=False)

    def _send_async(self, action: Any, ids: np.ndarray, reset: bool,
                    seed_ids: Sequence[int] = (), seeds: Sequence[int] = ()) -> None:
        busy = ids[self._in_flight[ids]]
        if busy.size:
            raise ValueError(f"env_id {int(busy[0])} is already in flight: recv() its result before sending it again")
        a = None
        if not reset:
            a, ids = self._split_actions(action, ids)
        owner = self._worker_of(ids)
        seed_map = dict(zip((int(i) for i in seed_ids), (int(s) for s in seeds), strict=True))
        for w in sorted(set(owner.tolist())):
            mine = owner == w
            local = (ids[mine] - self.offsets[w]).astype(np.int32)
            s_ids = [i - self.offsets[w] for i in seed_map if self.offsets[w] <= i < self.offsets[w + 1]]
            s_vals = [seed_map[i + self.offsets[w]] for i in s_ids]
            self._unrequested[w] += len(local)
            self._request(w, None if a is None else a[mine], local, reset, s_ids, s_vals)
        self._in_flight[ids] = True

    @_one_thread
    def async_reset(self) -> None:
        """Start resetting every env; collect the first observations with ``recv()``."""
        self._check_open()
        if self._sync:
            raise RuntimeError("async_reset() needs async mode (batch_size < num_envs); use reset()")
        self._send_async(None, np.arange(self.num_envs), reset=True)

    @_one_thread
    def reset(self, env_id: Any = None, seed_ids: Sequence[int] = (), seeds: Sequence[int] = ()) -> tuple:
        """Reset ``env_id`` (None: all), seeding ``seed_ids`` with ``seeds`` first; returns ``(obs, info)``.

        Sync: every env's row (the others repeat their latest). Async: the next batch, as EnvPool's.
        """
        self._check_open()
        ids = np.arange(self.num_envs) if env_id is None else self._ids(env_id)
        seed_ids = [int(i) for i in seed_ids]
        if len(seed_ids) != len(seeds):
            raise ValueError("need one seed per seeded env id")
        reset_set = set(ids.tolist())
        for i in seed_ids:
            if i not in reset_set:
                raise ValueError(f"env {i} is seeded but not reset")
        if not self._sync:
            self._check_can_recv_after(len(ids), "reset()")
            self._send_async(None, ids, True, seed_ids, seeds)
            r = self.recv()
            return r[0], r[4]
        owner = self._worker_of(ids)
        refs = []
        for w, worker in enumerate(self.workers):
            lo, hi = self.offsets[w], self.offsets[w + 1]
            local = (ids[owner == w] - lo).astype(np.int32)
            s = [(i - lo, v) for i, v in zip(seed_ids, seeds, strict=True) if lo <= i < hi]
            every = len(local) == hi - lo
            refs.append(worker.reset_sync.remote(None if every else local, [i for i, _ in s], [v for _, v in s]))
        return _concat(self._get(refs, list(range(len(self.workers)))))

    @_one_thread
    def seed(self, env_id: Any, seeds: Sequence[int]) -> None:
        """Seed ``env_id`` with ``seeds`` for their next reset."""
        self._check_open()
        ids = np.arange(self.num_envs) if env_id is None else self._ids(env_id)
        if len(ids) != len(seeds):
            raise ValueError("need one seed per env_id")
        owner = self._worker_of(ids)
        ws = sorted(set(owner.tolist()))
        seeds = list(seeds)
        refs = [self.workers[w].seed.remote((ids[owner == w] - self.offsets[w]).astype(np.int32),
                                            [seeds[i] for i in np.flatnonzero(owner == w)]) for w in ws]
        self._get(refs, ws)

    def _one(self, env_id: int) -> tuple[int, int]:
        env_id = check_int("env_id", env_id, 0, self.num_envs - 1)
        w = int(self._worker_of(np.array([env_id]))[0])
        return w, env_id - self.offsets[w]

    @_one_thread
    def get_state(self, env_id: int) -> bytes:
        """Env ``env_id``'s state bytes."""
        self._check_open()
        w, local = self._one(env_id)
        return self._get([self.workers[w].get_state.remote(local)], [w])[0]

    @_one_thread
    def set_state(self, env_id: int, state: bytes) -> None:
        """Restore env ``env_id`` from ``get_state`` bytes."""
        self._check_open()
        w, local = self._one(env_id)
        self._get([self.workers[w].set_state.remote(local, state)], [w])

    @_one_thread
    def render(self, env_ids: Sequence[int], width: int, height: int, camera_id: int) -> np.ndarray:
        """Frames of ``env_ids`` as one ``(len, height, width, 3)`` uint8 array."""
        self._check_open()
        ids = np.asarray(list(env_ids), dtype=np.int64)
        owner = self._worker_of(ids)
        frames = np.empty((len(ids), height, width, 3), np.uint8)
        ws = sorted(set(owner.tolist()))
        refs = [self.workers[w].render.remote([int(i) - self.offsets[w] for i in ids[owner == w]], width, height,
                                              camera_id) for w in ws]
        for w, part in zip(ws, self._get(refs, ws), strict=True):
            frames[owner == w] = part
        return frames

    @_one_thread
    def close(self) -> None:
        """Kill every worker and remove the placement group; calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        ray = self._ray
        for actor in self.workers:
            try:
                ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001, S110 - already dead or Ray shut down: nothing to remove
                pass
        self.workers = []
        if hasattr(self, "_requests"):
            self._requests.clear()
        if self._pg is not None:
            try:
                self._remove_pg(self._pg)
            except Exception:  # noqa: BLE001, S110 - Ray shut down: the group went with it
                pass
            self._pg = None

    def __del__(self) -> None:
        try:
            if not self._closed and self._ray.is_initialized():
                self.close()
        except Exception:  # noqa: BLE001, S110 - interpreter shutdown
            pass


class WorkerRestarted(WorkerLostError):
    """A worker died during a call that cannot be redone and Ray restarted it (``max_restarts > 0``).

    Its envs (``env_ids``) were lost; they reset before their next step. Calling again works.
    """


class _Died(Exception):
    """Worker ``worker``'s call failed because it died (or was restarted meanwhile)."""

    def __init__(self, worker: int, error: BaseException) -> None:
        super().__init__(worker)
        self.worker = worker
        self.error = error
