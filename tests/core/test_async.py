"""Async mode (batch_size < num_envs): send/recv bookkeeping and determinism."""

from __future__ import annotations

import numpy as np
import pytest

import rlpool


def action_for(task, i, k):
    """The action env ``i`` takes at its ``k``-th step, whatever order steps are run in."""
    if task.startswith("Pendulum"):
        return np.float32(2.0 * np.sin(0.7 * i + 0.37 * k + 0.11 * k * k))
    return (i * 5 + k * 3 + (k * k) // 7) % 2


def batch_actions(task, ids, steps):
    """Actions for envs ``ids`` at their per-env step counts ``steps``."""
    acts = [action_for(task, int(i), int(steps[i])) for i in ids]
    if task.startswith("Pendulum"):
        return np.array(acts, np.float32).reshape(len(ids), 1)
    return np.array(acts, np.int64)


def rows(result):
    """(env_id, obs, reward, terminated, truncated, elapsed_step) per result row."""
    obs, rew, term, trunc, info = result
    for r, i in enumerate(info["env_id"].tolist()):
        yield i, obs[r].copy(), float(rew[r]), bool(term[r]), bool(trunc[r]), int(info["elapsed_step"][r])


# --------------------------------------------------------------------------- #
# Bookkeeping
# --------------------------------------------------------------------------- #


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("num_envs", "batch_size", "num_threads"), [(4, 2, 1), (8, 3, 2), (5, 1, 2), (6, 5, 2)]
)
def test_async_reset_then_recv(num_envs, batch_size, num_threads):
    env = rlpool.make("Pendulum-v1", num_envs=num_envs, batch_size=batch_size, num_threads=num_threads)
    assert env.num_envs == num_envs
    env.async_reset()
    seen = []
    for _ in range(num_envs // batch_size):
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        assert obs.shape == (batch_size, 3)
        assert rew.shape == term.shape == trunc.shape == ids.shape == (batch_size,)
        assert len(set(ids.tolist())) == batch_size
        assert np.all(info["elapsed_step"] == 0)
        assert not term.any() and not trunc.any()
        assert np.all(rew == 0)
        seen += ids.tolist()
    assert len(seen) == len(set(seen))
    assert set(seen) <= set(range(num_envs))


@pytest.mark.timeout(30)
@pytest.mark.parametrize("num_threads", [1, 2])
def test_every_sent_env_comes_back_exactly_once(num_threads):
    """Random subsets in random orders: each recv returns only envs in flight, each once."""
    rng = np.random.default_rng(0)
    num_envs, bs = 8, 3
    env = rlpool.make("Pendulum-v1", num_envs=num_envs, batch_size=bs, num_threads=num_threads, seed=1)
    env.async_reset()
    in_flight = set(range(num_envs))
    steps = np.zeros(num_envs, int)  # steps sent per env; Pendulum's 200-step limit is never reached
    ready = []
    for _ in range(150):
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"].tolist()
        assert len(ids) == bs == len(set(ids))
        if len(in_flight) == bs:
            assert set(ids) == in_flight
        assert set(ids) <= in_flight
        in_flight -= set(ids)
        # Each row belongs to the env it names: its step count is the number we sent it.
        np.testing.assert_array_equal(info["elapsed_step"], steps[ids])
        assert not term.any() and not trunc.any()
        ready += ids
        # Re-send a random subset, in random order, keeping at least bs in flight.
        need = max(0, bs - len(in_flight))
        k = int(rng.integers(need, len(ready) + 1))
        order = rng.permutation(len(ready))
        send = [ready[j] for j in order[:k]]
        ready = [ready[j] for j in order[k:]]
        if send:
            env.send(batch_actions("Pendulum-v1", send, steps), np.array(send, np.int32))
            steps[send] += 1
            in_flight |= set(send)
    # Drain: top up to a multiple of bs, then everything in flight comes back once.
    while len(in_flight) % bs:
        i = ready.pop()
        env.send(batch_actions("Pendulum-v1", [i], steps), np.array([i]))
        steps[i] += 1
        in_flight.add(i)
    back = []
    while in_flight:
        ids = env.recv()[4]["env_id"].tolist()
        assert set(ids) <= in_flight
        in_flight -= set(ids)
        back += ids
    assert len(back) == len(set(back))
    with pytest.raises(RuntimeError):
        env.recv()
    assert steps.sum() > 300


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
@pytest.mark.parametrize("api", ["gymnasium", "gym"])
def test_step_with_env_id_equals_send_recv(task, api):
    kw = {"num_envs": 6, "batch_size": 2, "num_threads": 1, "seed": 9, "env_type": api}
    a, b = rlpool.make(task, **kw), rlpool.make(task, **kw)
    a.async_reset()
    b.async_reset()
    steps = np.zeros(6, int)
    ra, rb = a.recv(), b.recv()
    for _ in range(20):
        ids = ra[-1]["env_id"].copy()
        np.testing.assert_array_equal(ids, rb[-1]["env_id"])
        acts = batch_actions(task, ids, steps)
        steps[ids] += 1
        ra = a.step(acts, ids)
        b.send(acts, ids)
        rb = b.recv()
        for x, y in zip(ra[:-1], rb[:-1], strict=True):
            np.testing.assert_array_equal(x, y)
        for key in ("env_id", "elapsed_step"):
            np.testing.assert_array_equal(ra[-1][key], rb[-1][key])


@pytest.mark.timeout(30)
def test_dm_async_send_recv():
    env = rlpool.make_dm("CartPole-v1", num_envs=4, batch_size=2, num_threads=1)
    env.async_reset()
    ts = env.recv()
    ids = ts.observation.env_id.copy()
    assert len(set(ids.tolist())) == 2
    assert np.all(ts.step_type == 0)  # FIRST
    env.send(np.zeros(2, np.int64), ids)
    seen = set()
    for _ in range(2):
        ts = env.recv()
        seen |= set(ts.observation.env_id.tolist())
    assert seen == {0, 1, 2, 3}


@pytest.mark.timeout(30)
def test_async_reset_gives_same_obs_as_sync_reset():
    sync = rlpool.make("CartPole-v1", num_envs=5, seed=123)
    obs, _ = sync.reset()
    env = rlpool.make("CartPole-v1", num_envs=5, batch_size=2, seed=123, num_threads=2)
    env.async_reset()
    got = {}
    for _ in range(2):
        for i, o, *_ in rows(env.recv()):
            got[i] = o
    assert len(got) == 4
    for i, o in got.items():
        np.testing.assert_array_equal(o, obs[i])


# --------------------------------------------------------------------------- #
# Determinism across modes and thread counts
# --------------------------------------------------------------------------- #

NUM_ENVS = 8
STEPS = 60  # per env; CartPole episodes end by termination, Pendulum's by a short time limit
TASKS = {"CartPole-v1": {}, "Pendulum-v1": {"max_episode_steps": 17}}


def sync_trajectories(task, num_threads):
    env = rlpool.make(task, num_envs=NUM_ENVS, num_threads=num_threads, seed=77, **TASKS[task])
    traj = {i: [] for i in range(NUM_ENVS)}
    obs, info = env.reset()
    for i in range(NUM_ENVS):
        traj[i].append((obs[i].copy(), 0.0, False, False, int(info["elapsed_step"][i])))
    steps = np.zeros(NUM_ENVS, int)
    for _ in range(STEPS):
        res = env.step(batch_actions(task, range(NUM_ENVS), steps))
        steps += 1
        assert res[4]["env_id"].tolist() == list(range(NUM_ENVS))
        for i, *row in rows(res):
            traj[i].append(tuple(row))
    return traj


def async_trajectories(task, num_threads, order_seed):
    rng = np.random.default_rng(order_seed)
    bs = 3
    env = rlpool.make(task, num_envs=NUM_ENVS, batch_size=bs, num_threads=num_threads, seed=77, **TASKS[task])
    traj = {i: [] for i in range(NUM_ENVS)}
    steps = np.zeros(NUM_ENVS, int)
    env.async_reset()
    in_flight = NUM_ENVS
    ready = []
    while min(len(t) for t in traj.values()) < STEPS + 1:
        res = env.recv()
        in_flight -= bs
        for i, *row in rows(res):
            traj[i].append(tuple(row))
            ready.append(i)
        k = int(rng.integers(max(1, bs - in_flight), len(ready) + 1))
        order = rng.permutation(len(ready))
        send = [ready[j] for j in order[:k]]
        ready = [ready[j] for j in order[k:]]
        env.send(batch_actions(task, send, steps), np.array(send))
        steps[send] += 1
        in_flight += len(send)
    return {i: t[: STEPS + 1] for i, t in traj.items()}


def assert_same_trajectories(a, b, label):
    assert sorted(a) == sorted(b)
    for i in a:
        assert len(a[i]) == len(b[i]) == STEPS + 1, label
        for k, (x, y) in enumerate(zip(a[i], b[i], strict=True)):
            assert x[0].tobytes() == y[0].tobytes(), f"{label}: env {i} step {k} obs {x[0]} != {y[0]}"
            assert x[1:] == y[1:], f"{label}: env {i} step {k}: {x[1:]} != {y[1:]}"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("task", sorted(TASKS))
def test_trajectories_identical_across_modes(task):
    reference = sync_trajectories(task, 1)
    # The reference must cover episode ends, or autoreset is not being compared.
    flags = [(row[2], row[3]) for t in reference.values() for row in t]
    if task.startswith("CartPole"):
        assert any(term for term, _ in flags)
    else:
        assert any(trunc for _, trunc in flags) and not any(term for term, _ in flags)
    runs = {"sync/2 threads": sync_trajectories(task, 2)}
    for threads in (1, 2):
        for order_seed in (0, 1):
            runs[f"async/{threads} threads/order {order_seed}"] = async_trajectories(
                task, threads, order_seed
            )
    for label, traj in runs.items():
        assert_same_trajectories(reference, traj, label)
