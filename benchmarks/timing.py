"""What the benchmark scripts share: a timed loop of calls, threads that count their work, a GIL probe, options.

The scripts run as ``python benchmarks/<name>.py``, so they import this module as ``timing`` (a script's
folder is first on ``sys.path``, also in the processes ``multiprocessing`` spawns from it). CPU time here is
``time.process_time()``: all the threads of this process, none of its children.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Timed:
    """What a timed loop did: ``units`` of work (env steps, frames) in ``wall_s`` seconds and ``cpu_s`` CPU seconds."""

    units: int
    wall_s: float
    cpu_s: float

    @property
    def per_wall_s(self) -> float:
        """Units per wall-clock second."""
        return self.units / self.wall_s

    @property
    def per_cpu_s(self) -> float:
        """Units per CPU second of this process."""
        return self.units / self.cpu_s

    def rates(self) -> tuple[float, float]:
        """(units per wall-clock second, units per CPU second)."""
        return self.per_wall_s, self.per_cpu_s


def time_calls(run: Callable[[int], int], seconds: float, *, chunk: int = 1, warmup: int = 0) -> Timed:
    """``run(warmup)`` untimed, then ``run(chunk)`` again and again until ``seconds`` of wall-clock time have passed.

    ``run(calls)`` makes ``calls`` of the calls measured and returns the units of work they did. The clock is
    read between chunks only, so that a chunk of cheap calls does not time the clock itself.
    """
    if warmup:
        run(warmup)
    units = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while True:
        units += run(chunk)
        wall_s = time.perf_counter() - t0
        if wall_s >= seconds:
            break
    return Timed(units, wall_s, time.process_time() - c0)


def each(step: Callable[[], int]) -> Callable[[int], int]:
    """The ``run(calls)`` of ``time_calls`` for a ``step()`` that makes one call and returns its units."""

    def run(calls: int) -> int:
        units = 0
        for _ in range(calls):
            units += step()
        return units

    return run


class CountingThreads:
    """``threads`` Python threads that each run ``work(k)`` and count their units of work in ``counts[k]``.

    ``work(k)`` does its own set-up, waits on ``started``, then works until ``stop`` is set, adding to
    ``counts[k]`` as it goes.
    """

    def __init__(self, threads: int) -> None:
        self.counts = [0] * threads
        self.stop = threading.Event()
        self.started = threading.Barrier(threads + 1)

    def measure(self, work: Callable[[int], None], seconds: float, *, settle: float = 0.0) -> Timed:
        """Start the threads; once all have started (and ``settle`` seconds more), count for ``seconds``; stop them."""
        workers = [threading.Thread(target=work, args=(k,)) for k in range(len(self.counts))]
        for w in workers:
            w.start()
        self.started.wait()
        if settle:
            time.sleep(settle)
        t0, c0 = time.perf_counter(), time.process_time()
        first = sum(self.counts)
        time.sleep(seconds)
        done = sum(self.counts) - first
        wall_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
        self.stop.set()
        for w in workers:
            w.join()
        return Timed(done, wall_s, cpu_s)


@contextmanager
def spinning_thread() -> Iterator[Callable[[], int]]:
    """A Python thread counting its loop iterations for as long as the block runs; yields the count's reader.

    How far it gets while the main thread is inside a call shows whether that call releases the GIL.
    """
    count = 0
    stop = threading.Event()

    def spin() -> None:
        nonlocal count
        while not stop.is_set():
            count += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        yield lambda: count
    finally:
        stop.set()
        t.join()


def add_run_options(
    parser: argparse.ArgumentParser, *, num_envs: int, seconds: float, rounds: int, warmup: int | None = None
) -> None:
    """The options every throughput script takes, with its defaults: --num-envs, --seconds, --rounds, --json.

    ``--warmup`` too where ``warmup`` (its default) is given; ``--json`` is a path, as a string.
    """
    parser.add_argument("--num-envs", type=int, default=num_envs)
    parser.add_argument("--seconds", type=float, default=seconds, help="per measurement")
    parser.add_argument("--rounds", type=int, default=rounds)
    if warmup is not None:
        parser.add_argument("--warmup", type=int, default=warmup, help="untimed calls before each measurement")
    parser.add_argument("--json", help="also write the figures here")


def announce_versions() -> None:
    """Print the Python and the releases measured (EnvPool 1.2.5 and 1.2.7 are different peers)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    def of(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    print(f"Python {platform.python_version()}; rlpool {of('rlpool')}; envpool {of('envpool')}; "
          f"gymnasium {of('gymnasium')}", flush=True)


def print_best(results: dict[str, Any], targets: dict[str, float], num_envs: int, threads: int, rounds: int) -> None:
    """Each task's best steps/s per peer (and per CPU-second where measured), then its ratios against targets.

    ``results`` maps a task to ``{"best": {peer: steps/s}, "best_per_cpu_second": {peer: ...}, "ratios":
    {name: value}}``; a ratio named in ``targets`` is marked met or not.
    """
    batch = max(1, num_envs // 2)
    print(f"\n{num_envs} envs (async batch {batch}), raw on {threads} threads, best of {rounds} rounds:")
    for task, result in results.items():
        print(f"{task}")
        for name, value in result["best"].items():
            cpu = result["best_per_cpu_second"].get(name)
            per_cpu = "" if cpu is None else f"   {cpu:10,.0f} per CPU-second"
            print(f"  {name:15s} {value:10,.0f} env steps/s{per_cpu}")
        for name, value in result["ratios"].items():
            target = targets.get(name)
            mark = "" if target is None else f"   (target >= {target:g}: {'met' if value >= target else 'NOT met'})"
            print(f"  {name:47s} {value:6.3f}{mark}")


class BestRates:
    """The best steps/s of each peer over rounds (wall clock, and per CPU-second where measured), printed as kept."""

    def __init__(self) -> None:
        self.best: dict[str, float] = {}
        self.best_cpu: dict[str, float] = {}

    def keep(self, name: str, wall: float, cpu: float | None) -> None:
        """One round's figures of ``name``: kept where they are its best so far, and printed."""
        self.best[name] = max(self.best.get(name, 0.0), wall)
        if cpu is not None:
            self.best_cpu[name] = max(self.best_cpu.get(name, 0.0), cpu)
        per_cpu = "" if cpu is None else f"   {cpu:10,.0f} per CPU-second"
        print(f"  {name:15s} {wall:10,.0f} env steps/s{per_cpu}", flush=True)


def best_child_rates(
    script: str,
    peers: dict[str, str],
    tasks: list[str],
    args: list[str],
    rounds: int,
    runs: Callable[[str, str], bool] = lambda task, peer: True,
) -> dict[tuple[str, str], float]:
    """The best rate of each (task, peer) over ``rounds`` rounds taken in turns, each round of each peer in a
    child process of its own: ``<peers[peer]> <script> --peer <peer> --tasks <task> *args``, whose last line
    of output is ``{"rate": ...}``. ``runs(task, peer)`` leaves out the pairs that do not apply."""
    best: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        for task in tasks:
            for peer, python in peers.items():
                if not runs(task, peer):
                    continue
                command = [python, script, "--peer", peer, "--tasks", task, *args]
                out = subprocess.run(command, capture_output=True, text=True, check=True)
                rate = json.loads(out.stdout.strip().splitlines()[-1])["rate"]
                best[(task, peer)] = max(best.get((task, peer), 0.0), rate)
    return best


def print_peer_table(best: dict[tuple[str, str], float], tasks: list[str], reference: str, label: str,
                     num_envs: int, threads: int, rounds: int, seconds: float) -> None:
    """The Markdown table of ``best_child_rates``' results for rlpool, a JAX reference peer (``reference``, shown
    as ``label``) and EnvPool 1.2.7: each one's env steps per second and rlpool's ratio to the other two."""
    print(f"{num_envs} envs, {threads} threads, best of {rounds} rounds of {seconds:.0f} s, env steps per second")
    print(f"| task | rlpool | {label} | EnvPool 1.2.7 | rlpool / {reference} | rlpool / EnvPool |")
    print("|---|---|---|---|---|---|")
    for task in tasks:
        r, j, e = best[(task, "rlpool")], best.get((task, reference)), best.get((task, "envpool"))
        cells = [f"{r:,.0f}", "-" if j is None else f"{j:,.0f}", "-" if e is None else f"{e:,.0f}",
                 "-" if j is None else f"{r / j:.1f}x", "-" if e is None else f"{r / e:.2f}x"]
        print(f"| {task} | " + " | ".join(cells) + " |")


def jitted_rate(play: Callable[[Any, Any], tuple[Any, Any]], states: Any, key: Any, num_envs: int, seconds: float,
                warmup: int = 3) -> float:
    """Env steps per second of a JAX peer's jitted loop ``states, key = play(states, key)`` (``num_envs`` steps a
    call), after ``warmup`` calls (the compile, and again where the first call's weak types change)."""
    import jax

    for _ in range(warmup):
        states, key = play(states, key)
    jax.block_until_ready(states)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            states, key = play(states, key)
        jax.block_until_ready(states)
        steps += 20 * num_envs
    return steps / (time.perf_counter() - t0)
