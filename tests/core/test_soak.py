"""Soak: long async runs give exactly the trajectories of sync runs under the same seeds and actions.

Env i's k-th action is fixed in advance (a table indexed by env and step), so
its trajectory does not depend on the order in which steps run. The async run
sends random subsets of the envs that came back (random send sizes, at least
enough to fill the next batch), receives batches in completion order, and files
each row under its env and step; the sync run steps every env in lockstep. Both
trajectories (observations, rewards, flags, elapsed steps, and SameStep's
final observations) must be bitwise equal; a SHA-256 of each is reported.

This file runs a short version; ``scripts/soak.py`` runs millions of steps.
"""

from __future__ import annotations

import hashlib
import random
import time
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from lane import FULL, build_missing, require
from reliability_tasks import TASK_OPTIONS, action_table, is_heavy, many_pools_tasks, pool_options, reliability_tasks

import rlpool

# Actions of BusyWork are microseconds of work: small enough for long runs, large enough to hand off.
SOAK_ACTION_RANGES: dict[str, tuple[int, int]] = {"BusyWork-v0": (0, 40)}


def leaves(obs: Any, name: str = "obs") -> dict[str, np.ndarray]:
    """A batched observation (array, dict, nested dict or tuple) as named arrays."""
    if isinstance(obs, dict):
        return {n: a for k, v in obs.items() for n, a in leaves(v, f"{name}[{k}]").items()}
    if isinstance(obs, tuple):
        return {f"{name}[{i}]": v for i, v in enumerate(obs)}
    return {name: obs}


@dataclass
class Trajectories:
    """Per-env records ``[env, k]``: k = 0 is the first reset, k = 1.. the results of the k-th step."""

    fields: dict[str, np.ndarray]

    @classmethod
    def empty(cls, env: Any, num_envs: int, steps: int, same_step: bool) -> Trajectories:
        shape = (num_envs, steps + 1)
        fields: dict[str, np.ndarray] = {}
        sample = env.single_observation_space.sample()
        for name, leaf in leaves(sample if isinstance(sample, (dict, tuple)) else np.asarray(sample)).items():
            leaf = np.asarray(leaf)
            fields[name] = np.zeros(shape + leaf.shape, leaf.dtype)
            if same_step:
                fields["final_" + name] = np.zeros(shape + leaf.shape, leaf.dtype)
        # A multi-agent env's rewards and flags have an agent axis.
        agents = (env.spec.arrays.num_agents,) if env.spec.arrays.num_agents else ()
        fields["reward"] = np.zeros(shape + agents, np.float64)
        fields["terminated"] = np.zeros(shape + agents, bool)
        fields["truncated"] = np.zeros(shape + agents, bool)
        fields["elapsed_step"] = np.zeros(shape, np.int32)
        return cls(fields)

    def file(self, result: tuple, envs: np.ndarray, k: np.ndarray, rows: np.ndarray | slice) -> None:
        """Store rows ``rows`` of a result as records ``[envs, k]``."""
        obs, *rest = result
        info = rest[-1]
        for name, arr in leaves(obs).items():
            self.fields[name][envs, k] = arr[rows]
        if len(rest) == 4:
            self.fields["reward"][envs, k] = rest[0][rows]
            self.fields["terminated"][envs, k] = rest[1][rows]
            self.fields["truncated"][envs, k] = rest[2][rows]
        self.fields["elapsed_step"][envs, k] = info["elapsed_step"][rows]
        if "final_obs" in info:
            done = info["_final_obs"][rows]
            finals = info["final_obs"][rows]
            for j in np.flatnonzero(done):
                for name, v in leaves(finals[j], "final_obs").items():
                    self.fields[name][envs[j], k[j]] = v

    def digest(self) -> str:
        h = hashlib.sha256()
        for name in sorted(self.fields):
            h.update(name.encode())
            h.update(np.ascontiguousarray(self.fields[name]).tobytes())
        return h.hexdigest()

    def first_difference(self, other: Trajectories) -> str | None:
        """The earliest record (by step) where the two differ, or None."""
        found: list[tuple[int, int, str]] = []
        for name in sorted(self.fields):
            a, b = self.fields[name], other.fields[name]
            diff = a != b
            if a.dtype.kind == "f":
                diff &= ~(np.isnan(a) & np.isnan(b))
            per_record = diff.reshape(diff.shape[0], diff.shape[1], -1).any(axis=2)
            if per_record.any():
                k = int(np.flatnonzero(per_record.any(axis=0))[0])
                found.append((k, int(np.flatnonzero(per_record[:, k])[0]), name))
        if not found:
            return None
        k, env, name = min(found)
        a, b = self.fields[name][env, k], other.fields[name][env, k]
        return f"{name} of env {env} at record {k} (after its step {k}): {a!r} != {b!r}"


def make(task_id: str, num_envs: int, batch_size: int, num_threads: int, seed: int, mode: str) -> Any:
    return rlpool.make(task_id, num_envs=num_envs, batch_size=batch_size, num_threads=num_threads, seed=seed,
                       autoreset_mode=mode, **TASK_OPTIONS.get(task_id, {}), **pool_options(task_id))


def actions_for(task_id: str, num_envs: int, steps: int, seed: int) -> np.ndarray:
    space = rlpool.make_spec(task_id).action_space
    rng = np.random.default_rng(seed)
    if task_id in SOAK_ACTION_RANGES:
        low, high = SOAK_ACTION_RANGES[task_id]
        return rng.integers(low, high + 1, size=(num_envs, steps), dtype=np.int64)
    return action_table(rng, task_id, space, num_envs, steps)


def run_sync(task_id: str, num_envs: int, steps: int, seed: int, mode: str, actions: np.ndarray) -> Trajectories:
    """Every env stepped in lockstep on one thread."""
    env = make(task_id, num_envs, num_envs, 1, seed, mode)
    traj = Trajectories.empty(env, num_envs, steps, mode == "SameStep")
    envs = np.arange(num_envs)
    traj.file(env.reset(), envs, np.zeros(num_envs, int), slice(None))
    for k in range(steps):
        traj.file(env.step(actions[:, k]), envs, np.full(num_envs, k + 1), slice(None))
    env.close()
    return traj


def run_async(task_id: str, num_envs: int, steps: int, seed: int, mode: str, actions: np.ndarray, *,
              batch_size: int, num_threads: int, send_seed: int) -> tuple[Trajectories, int]:
    """Random send sizes, results filed by env and step; returns the trajectories and the rows received."""
    env = make(task_id, num_envs, batch_size, num_threads, seed, mode)
    traj = Trajectories.empty(env, num_envs, steps, mode == "SameStep")
    pick = random.Random(send_seed)
    received = np.zeros(num_envs, np.int64)  # records received per env
    ready: list[int] = []  # envs back and not yet sent again
    in_flight = num_envs
    rows = 0
    env.async_reset()
    while received.min() <= steps:
        result = env.recv()
        ids = result[-1]["env_id"].astype(np.int64)
        k = received[ids]
        keep = k <= steps  # envs already done may run extra steps to keep batches full; those are not filed
        if keep.all():
            traj.file(result, ids, k, slice(None))
        elif keep.any():
            traj.file(result, ids[keep], k[keep], np.flatnonzero(keep))
        received[ids] += 1
        in_flight -= len(ids)
        rows += len(ids)
        ready.extend(ids.tolist())
        # Send a random number of the ready envs, at least enough for the next batch.
        need = max(1, batch_size - in_flight)
        count = pick.randint(need, len(ready))
        pick.shuffle(ready)
        send, ready = ready[:count], ready[count:]
        send_ids = np.array(send, np.int64)
        step_no = (received[send_ids] - 1) % steps  # the next step of each env (extra steps reuse actions)
        env.send(actions[send_ids, step_no], send_ids)
        in_flight += len(send)
    env.close()  # with envs still in flight
    return traj, rows


def soak(task_id: str, num_envs: int, steps: int, seed: int, mode: str, batch_size: int, num_threads: int,
         send_seed: int = 0) -> dict[str, Any]:
    """One async run against its sync twin; raises AssertionError on any difference."""
    actions = actions_for(task_id, num_envs, steps, seed)
    t0 = time.perf_counter()
    want = run_sync(task_id, num_envs, steps, seed, mode, actions)
    t1 = time.perf_counter()
    got, rows = run_async(task_id, num_envs, steps, seed, mode, actions, batch_size=batch_size,
                          num_threads=num_threads, send_seed=send_seed)
    t2 = time.perf_counter()
    where = f"{task_id} {mode} num_envs={num_envs} batch_size={batch_size} num_threads={num_threads} seed={seed}"
    diff = want.first_difference(got)
    assert diff is None, f"{where}: async differs from sync: {diff}"
    digest = got.digest()
    assert digest == want.digest()
    episodes = int(want.fields["terminated"].sum() + want.fields["truncated"].sum())
    return {"where": where, "steps": num_envs * steps, "async_rows": rows, "episodes_ended": episodes,
            "sha256": digest, "sync_s": t1 - t0, "async_s": t2 - t1}


# The default run soaks every fifth task of those without a process per env (ViZDoom: its determinism
# across threads is tested with its family), to keep within its time; the full run soaks every task.
TASKS = reliability_tasks() if FULL else many_pools_tasks()[::5]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("task_id", TASKS)
def test_async_trajectories_equal_sync(task_id):
    require(build_missing([task_id]))
    rng = np.random.default_rng(zlib.crc32(task_id.encode()))
    # The default run soaks one autoreset mode per task (by the task's hash), the full one both.
    modes = ("NextStep", "SameStep") if FULL else (("NextStep", "SameStep")[zlib.crc32(task_id.encode()) % 2],)
    for mode in modes:
        num_envs = int(rng.integers(2, 13))
        batch_size = int(rng.integers(1, num_envs))
        num_threads = int(rng.integers(1, 4))
        steps = 300 if task_id == "BusyWork-v0" or is_heavy(task_id) else 1500
        report = soak(task_id, num_envs, steps, seed=int(rng.integers(2**31)), mode=mode, batch_size=batch_size,
                      num_threads=num_threads, send_seed=int(rng.integers(2**31)))
        assert report["episodes_ended"] > 0, f"{report['where']}: no episode ended; autoreset not exercised"
