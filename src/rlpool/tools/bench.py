"""Throughput benchmark: rlpool side by side with gymnasium's vector envs and EnvPool.

Every measurement steps one vectorized env (one peer, one task, one
``num_envs``) with a fixed, pre-generated batch of valid actions, after a
warm-up, and reports env steps (batch rows returned) per second of
``time.perf_counter`` time. All peers run in the same process tree, one after
another, so their figures are comparable.

Nothing here is task-specific: a new family only needs its task ids
registered in rlpool (and, for the peers, in gymnasium / EnvPool). A family
may add peers of its own (its library stepped directly) in
``rlpool/envs/<family>/peers.py``: a ``PEERS`` tuple of ``Peer``, and
``GYM_PLUGINS`` where a package registers its tasks' gymnasium ids. They are
found, as the families' registrations are, on first use.
"""

from __future__ import annotations

import gc
import json
import math
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

import rlpool
from rlpool import registry
from rlpool.envs import family_modules
from rlpool.extras import install_hint

OWN_PEERS: tuple[str, ...] = (
    "rlpool-sync",
    "rlpool-async",
    "rlpool-compat",
    "gym-sync",
    "gym-async",
    "envpool-sync",
    "envpool-async",
    "rlpool-xla",
    "envpool-xla",
)
"""The peers every task may have, in the order they are run and shown; the families' own follow (``PEERS``).

``rlpool-xla`` and ``envpool-xla`` step a sync pool from inside ``jax.jit`` through each library's ``xla()``
(EnvPool's XLA interface): one call is a jitted ``lax.scan`` of many ``step`` calls with the fixed actions.

``rlpool-compat`` is rlpool through its EnvPool layer (``rlpool.compat.envpool.make_gymnasium``, sync): what an
EnvPool script gets after changing its import; next to ``rlpool-sync`` it shows the layer's cost.
"""

SEND_RECV_PEERS: frozenset[str] = frozenset({"rlpool-async", "envpool-async"})
"""Peers stepped EnvPool-style with ``recv()``/``send(actions, env_id)`` and ``batch_size < num_envs``.

(gym-async is gymnasium's ``AsyncVectorEnv``: one subprocess per env, stepped with ``step``. A family's own
peers are described in its ``peers.py``.)
"""

ACTION_SEED = 0
"""Seed of the action space that samples the fixed action batch."""

ENV_SEED = 0
"""Seed every peer's envs are reset with."""


class PeerUnavailable(Exception):
    """A peer cannot run a task here (library missing, task unknown to it, ...)."""


@dataclass(frozen=True)
class Peer:
    """A peer a family adds (in its ``peers.py``): usually its own library, stepped directly."""

    name: str
    check: Callable[[str], Any]
    """``check(task)`` raises ``PeerUnavailable`` if the peer cannot run ``task`` at all (any ``num_envs``)."""
    make: Callable[[str, int, np.ndarray], Runner]
    """``make(task, num_envs, actions)``: the peer's envs, reset and ready to step (a ``Runner``)."""


@cache
def family_peers() -> dict[str, Peer]:
    """The peers the families add, by name, in the families' order (imported on first use)."""
    found: dict[str, Peer] = {}
    for module in [m for _, m in family_modules("peers")]:
        for peer in getattr(module, "PEERS", ()):
            if peer.name in OWN_PEERS or peer.name in found:
                raise ValueError(f"{module.__name__}: peer {peer.name!r} is already known")
            found[peer.name] = peer
    return found


@cache
def gym_plugins() -> dict[str, str]:
    """Task-id prefixes whose gymnasium ids a separate package registers when imported (the families' say)."""
    plugins: dict[str, str] = {}
    for module in [m for _, m in family_modules("peers")]:
        plugins.update(getattr(module, "GYM_PLUGINS", {}))
    return plugins


def known_peers() -> tuple[str, ...]:
    """Every peer the benchmark knows, in the order they are run and shown: ``OWN_PEERS``, then the families'."""
    return OWN_PEERS + tuple(family_peers())


def __getattr__(name: str) -> Any:
    """``PEERS`` (``known_peers()``) and ``GYM_PLUGINS`` (``gym_plugins()``), found on first use."""
    if name == "PEERS":
        return known_peers()
    if name == "GYM_PLUGINS":
        return gym_plugins()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Measurement:
    """One timed run of one peer on one task with ``num_envs`` envs."""

    task: str
    peer: str
    num_envs: int
    batch_size: int
    steps: int
    """Env steps timed: batch rows returned by ``step``/``recv``."""
    calls: int
    """``step`` (sync) or ``recv``+``send`` (async) calls timed."""
    seconds: float
    steps_per_sec: float
    """The median of ``round_rates`` (with one round, ``steps / seconds``)."""
    round_rates: list[float] = field(default_factory=list)
    """Steps/s of each round (``run_benchmark(rounds=...)``), in the order they ran."""


@dataclass
class Skip:
    """A measurement that was not made, and why."""

    task: str
    peer: str
    num_envs: int
    reason: str


@dataclass
class BenchResult:
    """Everything one benchmark run produced."""

    measurements: list[Measurement] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)

    def find(self, task: str, num_envs: int, peer: str) -> Measurement | None:
        """Return the measurement of ``peer`` on ``task`` with ``num_envs`` envs, if made."""
        for m in self.measurements:
            if (m.task, m.num_envs, m.peer) == (task, num_envs, peer):
                return m
        return None


class Runner(Protocol):
    """A built vectorized env ready to be stepped ``calls`` times in a tight loop."""

    batch_size: int

    def run(self, calls: int) -> None:
        """Make ``calls`` step (or recv+send) calls."""

    def close(self) -> None:
        """Release the env (threads, processes)."""


class SyncRunner:
    """Steps every env each call: ``env.step(actions)``."""

    def __init__(self, env: Any, actions: np.ndarray, *, reseed: bool = True) -> None:
        self.env = env
        self.actions = actions
        self.batch_size = int(actions.shape[0])
        if reseed:
            env.reset(seed=ENV_SEED)
        else:  # the env was seeded when built
            env.reset()

    def run(self, calls: int) -> None:
        """Make ``calls`` ``step`` calls with the fixed action batch."""
        step = self.env.step
        actions = self.actions
        for _ in range(calls):
            step(actions)

    def close(self) -> None:
        """Close the env."""
        self.env.close()


class AsyncRunner:
    """EnvPool-style async stepping: ``recv()`` a batch, ``send`` its actions back by ``env_id``."""

    def __init__(self, env: Any, actions: np.ndarray) -> None:
        self.env = env
        self.actions = actions
        self.batch_size = int(actions.shape[0])
        env.async_reset()

    def run(self, calls: int) -> None:
        """Make ``calls`` ``recv``+``send`` rounds, each returning ``batch_size`` rows."""
        recv = self.env.recv
        send = self.env.send
        actions = self.actions
        for _ in range(calls):
            info = recv()[4]
            send(actions, info["env_id"])

    def close(self) -> None:
        """Close the env (pending sends are dropped)."""
        self.env.close()


class XlaRunner:
    """Sync stepping from inside ``jax.jit``: one call is a jitted ``lax.scan`` of ``steps`` sync steps.

    Each step goes through ``env.xla()``'s ``step`` with the fixed action batch. The scan's length is fixed
    when it compiles; it is sized from a few numpy-loop steps so that one call takes about 20 ms: each jitted
    call costs a dispatch and XLA's thread hand-offs (about 0.6 ms on the 2-core VM), which a scan of one
    Pong step would time along with it. ``max_warmup_calls`` keeps the warm-up as short as other peers'.
    """

    CALL_SECONDS = 0.02
    max_warmup_calls = 10

    def __init__(self, env: Any, actions: np.ndarray) -> None:
        import jax

        self.env = env
        env.reset()  # seeded when built
        for _ in range(5):
            env.step(actions)
        start = time.perf_counter()
        for _ in range(20):
            env.step(actions)
        per_step = max((time.perf_counter() - start) / 20, 1e-9)
        self.steps = int(min(100_000, max(1, round(self.CALL_SECONDS / per_step))))
        self.batch_size = int(actions.shape[0]) * self.steps
        handle, _, _, step = env.xla()
        batch = jax.numpy.asarray(actions)

        def body(h: Any, _: Any) -> tuple[Any, Any]:
            h, (_obs, reward, *_rest) = step(h, batch)
            return h, reward

        self._block = jax.block_until_ready
        self._scan = jax.jit(lambda h: jax.lax.scan(body, h, length=self.steps))
        self._handle, _ = self._block(self._scan(handle))  # compiles

    def run(self, calls: int) -> None:
        """Make ``calls`` jitted scans, each ``steps`` sync steps of every env."""
        handle, scan = self._handle, self._scan
        for _ in range(calls):
            handle, _ = scan(handle)
        self._handle = self._block(handle)

    def close(self) -> None:
        """Close the env."""
        self.env.close()


def sample_actions(task: str, num_envs: int) -> np.ndarray:
    """Sample a fixed batch of ``num_envs`` valid actions from ``task``'s single action space."""
    space = rlpool.make_spec(task).action_space
    space.seed(ACTION_SEED)
    return np.stack([np.asarray(space.sample()) for _ in range(num_envs)])


def _cast(actions: np.ndarray, dtype: Any) -> np.ndarray:
    return np.ascontiguousarray(actions, dtype=dtype)


def _async_batch_size(num_envs: int) -> int:
    return max(1, num_envs // 2)


# --- peers: availability checks and factories -------------------------------------------------


def _import_gym_plugin(task: str) -> None:
    """Import the package that registers ``task``'s gymnasium id (``gym_plugins()``), if installed."""
    for prefix, module in gym_plugins().items():
        if task.startswith(prefix):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    __import__(module)
            except ImportError as e:
                raise PeerUnavailable(f"{module} is not installed ({e})") from None


def gym_task_id(task: str) -> str:
    """Return the gymnasium id of ``task``.

    That is the id under which gymnasium has rlpool's task (its registered ``gymnasium_id``, e.g.
    ``CliffWalking-v1`` for ``CliffWalking-v0``), the id itself, or its only namespaced twin (``ns/Task``).
    rlpool's own ``rlpool/`` registrations are never picked. Raises
    ``PeerUnavailable`` when gymnasium has no such task or several candidates.
    """
    import gymnasium

    if task in rlpool.list_all_envs():
        task = registry.task(task).gymnasium_id or task
    _import_gym_plugin(task)
    if task in gymnasium.registry:
        return task
    twins = sorted(
        k for k in gymnasium.registry if k.rsplit("/", 1)[-1] == task and not k.startswith("rlpool/")
    )
    if len(twins) == 1:
        return twins[0]
    if twins:
        raise PeerUnavailable(f"gymnasium has several ids for {task}: {', '.join(twins)}")
    raise PeerUnavailable(f"gymnasium does not know {task}")


def _envpool() -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # envpool's import builds spaces that warn about precision
            import envpool
    except ImportError as e:
        raise PeerUnavailable(f"envpool is not installed ({e})") from None
    return envpool


def _check_gym_loads(gym_id: str) -> None:
    """Raise ``PeerUnavailable`` if ``gym_id``'s entry point needs a library that is missing (e.g. jax)."""
    import gymnasium
    from gymnasium.envs.registration import load_env_creator

    entry_point = gymnasium.spec(gym_id).entry_point
    if isinstance(entry_point, str):
        try:
            load_env_creator(entry_point)
        except (ImportError, gymnasium.error.DependencyNotInstalled) as e:
            raise PeerUnavailable(f"gymnasium cannot load {gym_id}: {e}") from None


def check_peer(peer: str, task: str) -> None:
    """Raise ``PeerUnavailable`` if ``peer`` cannot run ``task`` at all (any ``num_envs``)."""
    family = peer.rsplit("-", 1)[0]
    if peer.endswith("-xla"):
        try:
            import jax  # noqa: F401
        except ImportError as e:
            raise PeerUnavailable(f"jax is not installed ({e}); {install_hint('jax', 'jax>=0.10')}") from None
    if family == "rlpool":
        if task not in rlpool.list_all_envs():
            raise PeerUnavailable(f"rlpool does not know {task}")
    elif family == "gym":
        _check_gym_loads(gym_task_id(task))
    elif family == "envpool":
        if task not in _envpool().list_all_envs():
            raise PeerUnavailable(f"envpool does not know {task}")
    elif peer in family_peers():
        family_peers()[peer].check(task)
    else:
        raise ValueError(f"unknown peer {peer!r}; known: {', '.join(known_peers())}")


def _make_rlpool(task: str, num_envs: int, actions: np.ndarray, asynchronous: bool) -> Runner:
    if not asynchronous:
        return SyncRunner(rlpool.make_gymnasium(task, num_envs=num_envs, seed=ENV_SEED), actions)
    batch_size = _async_batch_size(num_envs)
    env = rlpool.make_gymnasium(task, num_envs=num_envs, batch_size=batch_size, seed=ENV_SEED)
    return AsyncRunner(env, actions[:batch_size])


def _make_xla(lib: str, task: str, num_envs: int, actions: np.ndarray) -> Runner:
    if lib == "rlpool":
        env = rlpool.make_gymnasium(task, num_envs=num_envs, seed=ENV_SEED)
    else:
        env = _envpool().make_gymnasium(task, num_envs=num_envs, seed=ENV_SEED)
    # jax works in 32 bits unless told otherwise (and EnvPool's integer actions are int32).
    dtype = np.int32 if np.issubdtype(actions.dtype, np.integer) else np.float32
    try:
        return XlaRunner(env, _cast(actions, dtype))
    except BaseException:
        env.close()
        raise


def _make_rlpool_compat(task: str, num_envs: int, actions: np.ndarray) -> Runner:
    import rlpool.compat.envpool as compat

    return SyncRunner(compat.make_gymnasium(task, num_envs=num_envs, seed=ENV_SEED), actions, reseed=False)


def _make_gym(task: str, num_envs: int, actions: np.ndarray, asynchronous: bool) -> Runner:
    import gymnasium

    mode = "async" if asynchronous else "sync"
    gym_id = gym_task_id(task)
    try:
        env = gymnasium.make_vec(gym_id, num_envs=num_envs, vectorization_mode=mode)
    except ValueError:
        if not asynchronous:
            raise
        # A space shared memory cannot hold (a MissionSpace of strings): pickled results instead.
        env = gymnasium.make_vec(gym_id, num_envs=num_envs, vectorization_mode=mode,
                                 vector_kwargs={"shared_memory": False})
    try:
        return SyncRunner(env, _cast(actions, env.single_action_space.dtype))
    except BaseException:
        env.close()
        raise


def _make_envpool(task: str, num_envs: int, actions: np.ndarray, asynchronous: bool) -> Runner:
    envpool = _envpool()
    batch_size = _async_batch_size(num_envs) if asynchronous else num_envs
    try:
        env = envpool.make_gymnasium(task, num_envs=num_envs, batch_size=batch_size, seed=ENV_SEED)
    except ImportError as e:  # e.g. an EnvPool env whose system library (Qt 5, ...) is missing
        raise PeerUnavailable(f"envpool cannot make {task}: {e}") from None
    _ = env.observation_space  # EnvPool builds it lazily, on the first recv otherwise (and warns)
    # EnvPool takes int32 for integer actions whatever dtype its space reports.
    dtype = env.single_action_space.dtype
    dtype = np.int32 if np.issubdtype(dtype, np.integer) else dtype
    batch = _cast(actions[:batch_size], dtype)
    try:
        return AsyncRunner(env, batch) if asynchronous else SyncRunner(env, batch, reseed=False)
    except BaseException:
        env.close()
        raise


_FACTORIES: dict[str, Callable[[str, int, np.ndarray], Runner]] = {
    "rlpool-sync": lambda t, n, a: _make_rlpool(t, n, a, False),
    "rlpool-async": lambda t, n, a: _make_rlpool(t, n, a, True),
    "rlpool-compat": _make_rlpool_compat,
    "gym-sync": lambda t, n, a: _make_gym(t, n, a, False),
    "gym-async": lambda t, n, a: _make_gym(t, n, a, True),
    "envpool-sync": lambda t, n, a: _make_envpool(t, n, a, False),
    "envpool-async": lambda t, n, a: _make_envpool(t, n, a, True),
    "rlpool-xla": lambda t, n, a: _make_xla("rlpool", t, n, a),
    "envpool-xla": lambda t, n, a: _make_xla("envpool", t, n, a),
}


def make_runner(peer: str, task: str, num_envs: int, actions: np.ndarray) -> Runner:
    """Build ``peer``'s env for ``task`` with ``num_envs`` envs, reset and ready to step.

    Raises ``PeerUnavailable`` when this combination is not measured: the
    send/recv peers (rlpool-async, envpool-async) need ``num_envs >= 2`` so
    that ``batch_size = num_envs // 2 < num_envs``.
    """
    if peer in SEND_RECV_PEERS and num_envs < 2:
        raise PeerUnavailable("send/recv mode needs num_envs >= 2 (batch_size = num_envs // 2)")
    if peer in _FACTORIES:
        return _FACTORIES[peer](task, num_envs, actions)
    return family_peers()[peer].make(task, num_envs, actions)


# --- timing -----------------------------------------------------------------------------------


def time_runner(
    runner: Runner, *, steps: int | None = None, seconds: float = 2.0, warmup: int = 300
) -> tuple[int, int, float]:
    """Warm ``runner`` up with ``warmup`` calls, then time it; returns ``(env_steps, calls, seconds)``.

    With ``steps``, times exactly ``ceil(steps / batch_size)`` calls; otherwise
    calls in chunks (sized from the warm-up, ~1% of the budget each) until
    ``seconds`` have passed.
    """
    warmup = max(1, min(warmup, getattr(runner, "max_warmup_calls", warmup)))
    t0 = time.perf_counter()
    runner.run(warmup)
    per_call = max((time.perf_counter() - t0) / warmup, 1e-9)
    if steps is not None:
        calls = max(1, math.ceil(steps / runner.batch_size))
        t0 = time.perf_counter()
        runner.run(calls)
        elapsed = time.perf_counter() - t0
    else:
        chunk = max(1, int(seconds / 100 / per_call))
        calls = 0
        t0 = time.perf_counter()
        while True:
            runner.run(chunk)
            calls += chunk
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
    return calls * runner.batch_size, calls, elapsed


def measure(
    peer: str,
    task: str,
    num_envs: int,
    *,
    steps: int | None = None,
    seconds: float = 2.0,
    warmup: int = 300,
) -> Measurement:
    """Build, warm up, time and close one peer; raises ``PeerUnavailable`` if it cannot run."""
    check_peer(peer, task)
    actions = sample_actions(task, num_envs)
    with warnings.catch_warnings():
        # Peers' construction chatter (space precision, seeding notes) would break the progress bar.
        warnings.simplefilter("ignore")
        runner = make_runner(peer, task, num_envs, actions)
    try:
        env_steps, calls, elapsed = time_runner(runner, steps=steps, seconds=seconds, warmup=warmup)
    finally:
        runner.close()
        del runner
        gc.collect()  # drop the env now so its threads/processes are gone before the next peer
    return Measurement(
        task=task,
        peer=peer,
        num_envs=num_envs,
        batch_size=env_steps // calls,
        steps=env_steps,
        calls=calls,
        seconds=elapsed,
        steps_per_sec=env_steps / elapsed if elapsed > 0 else float("inf"),
    )


class _NoBar:
    """A progress bar that shows nothing (``progress=False``, or tqdm not installed)."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def set_description(self, text: str) -> None:
        """Nothing to show."""

    def update(self, n: int) -> None:
        """Nothing to show."""


def _progress_bar(total: int, progress: bool) -> Any:
    """A tqdm bar on stderr over ``total`` measurements where asked and tqdm is installed (the bench extra)."""
    if progress:
        try:
            from tqdm import tqdm
        except ImportError:
            return _NoBar()
        return tqdm(total=total, unit="run", dynamic_ncols=True, file=sys.stderr)
    return _NoBar()


def run_benchmark(
    tasks: Sequence[str],
    num_envs: Sequence[int],
    peers: Sequence[str] | None = None,
    *,
    steps: int | None = None,
    seconds: float = 2.0,
    warmup: int = 300,
    rounds: int = 1,
    progress: bool = True,
) -> BenchResult:
    """Measure every peer on every task and ``num_envs``, with a tqdm bar over all measurements.

    With ``rounds`` > 1 each task and ``num_envs`` measures its peers ``rounds`` times, in their order and
    then in reverse, by turns, and each peer's rate is the median of its rounds: on a machine whose speed
    drifts (a shared VM) the peers then share its slow and fast moments, which one measurement each, one
    peer after another, does not. Peers that cannot run a task are recorded in ``BenchResult.skipped``
    (checked once per task and peer) instead of failing the run. ``peers`` defaults to every known one.
    """
    peers = known_peers() if peers is None else peers
    result = BenchResult()
    unavailable: dict[tuple[str, str], str | None] = {}  # (task, peer) -> why it cannot run
    total = len(tasks) * len(num_envs) * len(peers) * rounds
    with _progress_bar(total, progress) as bar:
        for task in tasks:
            for n in num_envs:
                runs: dict[str, list[Measurement]] = {}
                skipped: dict[str, str] = {}
                for r in range(rounds):
                    for peer in peers if r % 2 == 0 else list(reversed(peers)):
                        bar.set_description(f"{task} n={n} {peer}" + (f" round {r + 1}" if rounds > 1 else ""))
                        bar.update(1)
                        if peer in skipped:
                            continue
                        try:
                            if (task, peer) not in unavailable:
                                unavailable[(task, peer)] = _why_unavailable(peer, task)
                            if unavailable[(task, peer)] is not None:
                                raise PeerUnavailable(unavailable[(task, peer)])
                            m = measure(peer, task, n, steps=steps, seconds=seconds, warmup=warmup)
                            runs.setdefault(peer, []).append(m)
                        except PeerUnavailable as e:
                            skipped[peer] = str(e)
                            runs.pop(peer, None)
                for peer in peers:
                    if peer in skipped:
                        result.skipped.append(Skip(task, peer, n, skipped[peer]))
                    elif peer in runs:
                        result.measurements.append(combine_rounds(runs[peer]))
    return result


def _why_unavailable(peer: str, task: str) -> str | None:
    try:
        check_peer(peer, task)
    except PeerUnavailable as e:
        return str(e)
    return None


def combine_rounds(rounds: Sequence[Measurement]) -> Measurement:
    """One peer's rounds as one measurement: totals of steps, calls and seconds, the median rate."""
    first = rounds[0]
    rates = [m.steps_per_sec for m in rounds]
    return Measurement(
        task=first.task,
        peer=first.peer,
        num_envs=first.num_envs,
        batch_size=first.batch_size,
        steps=sum(m.steps for m in rounds),
        calls=sum(m.calls for m in rounds),
        seconds=sum(m.seconds for m in rounds),
        steps_per_sec=statistics.median(rates),
        round_rates=rates,
    )


# --- reporting --------------------------------------------------------------------------------


def _version(module: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:
        return None


def machine_info() -> dict[str, Any]:
    """CPU count, load, platform, Python and library versions, for the JSON report."""
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu_count": os.cpu_count(),
        "usable_cpus": affinity,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "versions": {
            "rlpool": rlpool.__version__,
            "gymnasium": _version("gymnasium"),
            "envpool": _version("envpool"),
            "numpy": np.__version__,
        },
    }


def ratios(result: BenchResult, m: Measurement) -> list[tuple[str, float]]:
    """``m``'s speed over every other peer measured on the same task and ``num_envs``."""
    out = []
    for other in result.measurements:
        if (other.task, other.num_envs) == (m.task, m.num_envs) and other.peer != m.peer:
            out.append((other.peer, m.steps_per_sec / other.steps_per_sec))
    return out


def _fmt_rate(x: float) -> str:
    return f"{x:,.0f}"


def _fmt_ratio(r: float) -> str:
    return f"x{r:.1f}" if r >= 0.95 else f"x{r:.2f}"


def best_rlpool(result: BenchResult, m: Measurement) -> Measurement | None:
    """The fastest rlpool mode measured on ``m``'s task and ``num_envs`` (None if none was)."""
    same = [
        o for o in result.measurements
        if (o.task, o.num_envs) == (m.task, m.num_envs) and o.peer.startswith("rlpool-")
    ]
    return max(same, key=lambda o: o.steps_per_sec, default=None)


def peer_label(peer: str) -> str:
    """``peer`` as the table shows it: EnvPool's rows name the release measured (1.2.5 and 1.2.7 differ)."""
    if peer.startswith("envpool-"):
        version = _version("envpool")
        return f"{peer} {version}" if version else peer
    return peer


def format_table(result: BenchResult) -> str:
    """Format the results as a table; each row says how many times faster the best rlpool mode is than it."""
    header = ("task", "num_envs", "peer", "steps/s", "best rlpool mode ÷ this")
    rows: list[tuple[str, ...]] = []
    for m in result.measurements:
        best = best_rlpool(result, m)
        if best is None:
            extra = ""
        elif best is m:
            extra = "(best rlpool mode)"
        else:
            extra = f"{_fmt_ratio(best.steps_per_sec / m.steps_per_sec)} ({best.peer})"
        rows.append((m.task, str(m.num_envs), peer_label(m.peer), _fmt_rate(m.steps_per_sec), extra))
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    right = {1, 3}

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    lines = [line(header), line(["-" * w for w in widths])]
    previous: tuple[str, int] | None = None
    for m, r in zip(result.measurements, rows, strict=True):
        if previous is not None and previous != (m.task, m.num_envs):
            lines.append("")
        previous = (m.task, m.num_envs)
        lines.append(line(r))
    return "\n".join(lines)


def format_skips(skipped: Iterable[Skip]) -> str:
    """One note per (task, peer, reason), listing the ``num_envs`` it covers."""
    groups: dict[tuple[str, str, str], list[int]] = {}
    for s in skipped:
        groups.setdefault((s.task, s.peer, s.reason), []).append(s.num_envs)
    return "\n".join(
        f"note: skipped {peer} on {task} (num_envs {', '.join(map(str, ns))}): {reason}"
        for (task, peer, reason), ns in groups.items()
    )


def to_json(result: BenchResult, config: dict[str, Any]) -> dict[str, Any]:
    """Build the JSON report: machine info, the run's settings, every measurement and skip."""
    return {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "config": config,
        "measurements": [
            {**asdict(m), "ratios": {p: r for p, r in ratios(result, m)}} for m in result.measurements
        ],
        "skipped": [asdict(s) for s in result.skipped],
    }


def write_json(report: dict[str, Any], path: Path) -> None:
    """Write ``report`` to ``path`` (parents created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n")


def plot(result: BenchResult, path: Path, peers: Sequence[str] | None = None) -> None:
    """Steps/s against num_envs (log-log), one subplot per task and one line per peer, to a PNG."""
    import matplotlib

    colors = known_peers()
    peers = colors if peers is None else peers
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = list(dict.fromkeys(m.task for m in result.measurements))
    if not tasks:
        tasks = list(dict.fromkeys(s.task for s in result.skipped)) or ["(no measurements)"]
    fig, axes = plt.subplots(1, len(tasks), figsize=(5.5 * len(tasks), 4.2), squeeze=False)
    for ax, task in zip(axes[0], tasks, strict=True):
        for peer in peers:
            points = sorted(
                (m.num_envs, m.steps_per_sec) for m in result.measurements if (m.task, m.peer) == (task, peer)
            )
            if points:
                xs, ys = zip(*points, strict=True)
                style = "--" if peer.endswith("-async") else "-"
                ax.plot(xs, ys, style, marker="o", color=f"C{colors.index(peer)}", label=peer)
        ax.set_xscale("log", base=2)
        ticks = sorted({m.num_envs for m in result.measurements if m.task == task})
        if ticks:
            ax.set_xticks(ticks, [str(t) for t in ticks])
            ax.minorticks_off()
        ax.set_yscale("log")
        ax.set_title(task)
        ax.set_xlabel("num_envs")
        ax.set_ylabel("env steps / s")
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
