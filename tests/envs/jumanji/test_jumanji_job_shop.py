"""JobShop-v0 (src/rlpool/envs/jumanji/job_shop.cc) against jumanji 1.1.2's JobShop, step by step, bit for bit.

Whole episodes in lockstep from the same keys: uniformly random legal choices per machine (no-ops often, so
that all machines fall idle), a busy policy that schedules a job wherever one is legal (schedules run to
their end), and now and then an illegal job (which jumanji ends the episode on, after updating the state as
for any action); other generator sizes; states built from jumanji's own ``State``; a planted difference that
the comparison catches; and bad state blobs refused by name.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "JobShop-v0"
DEFAULT = (20, 10, 8, 6)  # num_jobs, num_machines, max_num_ops, max_op_duration
# An episode's length has no bound below EnvPool's registered 1,000 steps for other sizes; the comparisons
# with jumanji's flags run with a limit past the longest episode.
PAST_THE_END = 100_001

_GENERATORS: dict[tuple[int, int, int, int], Any] = {}


def reference(size: tuple[int, int, int, int] = DEFAULT) -> jr.Reference:
    """jumanji's JobShop-v0, or JobShop with RandomGenerator(num_jobs, num_machines, max_num_ops, max_op_duration)."""
    if size == DEFAULT:
        return jr.Reference(TASK)
    from jumanji.environments.packing.job_shop.generator import RandomGenerator

    generator = _GENERATORS.setdefault(size, RandomGenerator(*size))  # one per size: Reference's cache is hit
    return jr.Reference(TASK, {"generator": generator})


def options(size: tuple[int, int, int, int]) -> dict[str, int]:
    """The env type's options for a generator size."""
    return dict(zip(("num_jobs", "num_machines", "max_num_ops", "max_op_duration"), size, strict=True))


def blob(state: Any, env_key: Any = (0, 0)) -> bytes:
    """jumanji's JobShop ``State`` as job_shop.cc's state bytes, behind an env key."""
    return jr.state_blob(env_key, (state.ops_machine_ids, "<i4"), (state.ops_durations, "<i4"), (state.ops_mask, "u1"),
                         (state.machines_job_ids, "<i4"), (state.machines_remaining_times, "<i4"),
                         (state.step_count, "<i4"), (state.scheduled_times, "<i4"), (state.key, "key"))


def _busy_rows(mask: np.ndarray, rng: np.random.Generator) -> list[int]:
    """Per machine (a mask row), a random legal job, the no-op (last) only where no job is legal."""
    out = []
    for row in mask:
        jobs = np.flatnonzero(row[:-1])
        out.append(int(rng.choice(jobs)) if len(jobs) else len(row) - 1)
    return out


def busy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """A legal job on every machine that can take one (a schedule then runs to its end)."""
    return np.asarray([_busy_rows(m, rng) for m in np.asarray(obs["action_mask"])], np.int64)


def sometimes_illegal(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Busy choices, except that one env-step in fifty gives one machine any job (often an illegal one)."""
    actions = busy(obs, rng, action_space)
    n = obs["action_mask"].shape[-1]
    for i in range(len(actions)):
        if rng.random() < 0.02:
            actions[i, rng.integers(actions.shape[1])] = rng.integers(n)
    return actions


def _played(ref: jr.Reference, seed: int, steps: int) -> tuple[Any, np.random.Generator]:
    """jumanji's state after up to ``steps`` busy steps from reset(PRNGKey(seed)) (fewer if it ends)."""
    rng = np.random.default_rng(seed)
    state, ts = ref.reset(jr.prng_key(seed))
    for _ in range(steps):
        next_state, ts = ref.step(state, np.asarray(_busy_rows(np.asarray(state.action_mask), rng), np.int32))
        if bool(ts.step_type == 2):
            break
        state = next_state
    return state, rng


def _actions_on(ref: jr.Reference, state: Any, rng: np.random.Generator, n: int) -> list[list[int]]:
    """Up to ``n`` busy actions from ``state`` on, to the end of its episode."""
    actions = []
    for _ in range(n):
        action = _busy_rows(np.asarray(state.action_mask), rng)
        actions.append(action)
        state, ts = ref.step(state, np.asarray(action, np.int32))
        if bool(ts.step_type == 2):
            break
    return actions


def test_lockstep_random_legal() -> None:
    stats = jr.lockstep(TASK, reference(), seed=0, num_envs=4, steps=120, policy=jr.random_masked_actions)
    assert stats.steps >= 400 and stats.episodes >= 3


def test_lockstep_busy_schedules_run_to_their_end() -> None:
    stats = jr.lockstep(TASK, reference(), seed=1, num_envs=3, steps=200, policy=busy)
    assert stats.episodes >= 3


def test_lockstep_with_illegal_actions() -> None:
    stats = jr.lockstep(TASK, reference(), seed=2, num_envs=4, steps=150, policy=sometimes_illegal)
    assert stats.episodes >= 4


def test_other_sizes() -> None:
    """Other generator sizes (each a program of its own to compile: one in the default lane, three in the full)."""
    for size in ((1, 1, 1, 1), (3, 2, 4, 3), (5, 7, 2, 9)) if FULL else ((3, 2, 4, 3),):
        stats = jr.lockstep(TASK, reference(size), seed=sum(size), num_envs=3, steps=60, policy=sometimes_illegal,
                            max_episode_steps=PAST_THE_END, **options(size))
        assert stats.episodes >= 3


def test_from_jumanji_states() -> None:
    ref = reference()
    for seed, steps in ((3, 0), (4, 10), (5, 40)):
        state, rng = _played(ref, seed, steps)
        actions = _actions_on(ref, state, rng, 400)
        assert jr.run_from_state(TASK, ref, state, blob(state), actions) == len(actions)


def test_a_planted_difference_is_caught() -> None:
    ref = reference()
    state, rng = _played(ref, 6, 5)
    actions = _actions_on(ref, state, rng, 400)
    assert jr.run_from_state(TASK, ref, state, blob(state), actions) == len(actions)
    durations = np.asarray(state.ops_durations).copy()
    job, op = np.argwhere(np.asarray(state.ops_mask))[-1]  # an operation not yet scheduled
    durations[job, op] = durations[job, op] % 6 + 1
    changed = state.replace(ops_durations=durations)
    jr.check_caught(TASK, ref, state, blob(changed), actions, "ops_durations")


def test_state_round_trip_and_bad_blobs() -> None:
    ref = reference()
    state, _ = _played(ref, 7, 12)
    good = blob(state, env_key=(3, 4))
    jobs, machines, ops = 20, 10, 8
    n = jobs * ops
    durations = 8 + 4 * n
    mask = durations + 4 * n
    job_ids = mask + n
    remaining = job_ids + 4 * machines
    step_count = remaining + 4 * machines
    scheduled = step_count + 4
    padded = int(np.flatnonzero(np.asarray(state.ops_machine_ids).reshape(-1) == -1)[0])

    def put(at: int, fmt: str, value: int) -> bytes:
        return jr.patched(good, at, struct.pack(fmt, value))

    jr.check_refused_blobs(TASK, good, {
        "ops_machine_ids": put(8, "<i", 10),
        "ops_durations": put(durations, "<i", 7),
        "of a padded op": put(durations + 4 * padded, "<i", 3),
        "ops_mask": put(mask, "<B", 2),
        "machines_job_ids": put(job_ids, "<i", 21),
        "machines_remaining_times": put(remaining, "<i", -1),
        "step_count": put(step_count, "<i", -1),
        "scheduled_times": put(scheduled, "<i", int(state.step_count) + 1),
        "key": good[:-1],
        "bytes": good + b"\x00",
    })


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_lockstep_sweep() -> None:
    seed = 0
    assert jr.lockstep(TASK, reference(), seed=10 * seed, num_envs=8, steps=300,
                       policy=jr.random_masked_actions).episodes >= 16
    assert jr.lockstep(TASK, reference(), seed=10 * seed + 1, num_envs=4, steps=400,
                       policy=sometimes_illegal).episodes >= 8
    for size in ((2, 3, 5, 1), (30, 5, 3, 4)):
        stats = jr.lockstep(TASK, reference(size), seed=sum(size), num_envs=8, steps=200, policy=sometimes_illegal,
                            max_episode_steps=PAST_THE_END, **options(size))
        assert stats.episodes >= 8


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_from_jumanji_states() -> None:
    ref = reference()
    for seed in range(6):
        state, rng = _played(ref, 100 + seed, 5 * seed)
        actions = _actions_on(ref, state, rng, 1000)
        assert jr.run_from_state(TASK, ref, state, blob(state), actions) == len(actions)
