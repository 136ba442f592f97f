"""Bad input must raise a clear Python exception and leave the pool usable.

"Clear" means the exception type fits the mistake and the message names it.
"Usable" means the next valid call succeeds and gives exactly what a twin pool
that never saw the bad call gives, so a rejected action was not applied.
"""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from lane import FULL

import rlpool

N = 3  # envs per sync pool in these tests


def make(task, **kwargs):
    kwargs.setdefault("num_envs", N)
    kwargs.setdefault("seed", 7)
    return rlpool.make(task, **kwargs)


def good_actions(task, n=N, k=0):
    """A valid batch of actions that differs between envs and between steps."""
    if task.startswith("Pendulum"):
        return (np.linspace(-1.5, 1.5, n) * (1 + 0.1 * k)).reshape(n, 1).astype(np.float32)
    return (np.arange(n) + k) % 2


def assert_same_result(a, b):
    """Two step results (obs, reward, terminated, truncated, info) are bitwise equal."""
    assert len(a) == len(b) == 5
    np.testing.assert_array_equal(a[0], b[0])
    for x, y in zip(a[1:4], b[1:4], strict=True):
        np.testing.assert_array_equal(x, y)
    assert sorted(a[4]) == sorted(b[4])
    for key in ("env_id", "elapsed_step"):
        np.testing.assert_array_equal(a[4][key], b[4][key])


def check_still_works(env, twin, task, steps=2):
    """`env` (which saw a rejected call) and `twin` (which did not) step identically."""
    for k in range(steps):
        assert_same_result(env.step(good_actions(task, k=k)), twin.step(good_actions(task, k=k)))


def reset_pair(task, **kwargs):
    env, twin = make(task, **kwargs), make(task, **kwargs)
    np.testing.assert_array_equal(env.reset()[0], twin.reset()[0])
    return env, twin


# --------------------------------------------------------------------------- #
# Bad actions in sync mode
# --------------------------------------------------------------------------- #

DISCRETE_BAD = [
    # (id, actions, exception, message pattern)
    ("too-few", np.zeros(N - 1, np.int64), ValueError, r"shape"),
    ("too-many", np.zeros(N + 1, np.int64), ValueError, r"shape"),
    ("extra-dim", np.zeros((N, 1), np.int64), ValueError, r"shape"),
    ("scalar", np.int64(0), ValueError, r"shape"),
    ("float", np.array([0.0, 1.0, 0.0]), TypeError, r"integer"),
    ("float32-integral", np.array([1, 0, 1], np.float32), TypeError, r"integer"),
    ("bool", np.array([True, False, True]), TypeError, r"integer"),
    ("object", np.array([0, 1, 0], dtype=object), TypeError, r"(?i)dtype|object"),
    ("strings", np.array(["0", "1", "0"]), TypeError, r"(?i)dtype|str|<U"),
    ("list-of-str", ["0", "1", "0"], TypeError, r"(?i)dtype|str|<U"),
    ("negative", np.array([0, 1, -1]), ValueError, r"out of range"),
    ("equal-n", np.array([0, 1, 2]), ValueError, r"out of range"),
    ("huge-uint64", np.array([0, 1, 2**64 - 1], np.uint64), ValueError, r"out of range"),
    ("int8-negative", np.array([0, -128, 1], np.int8), ValueError, r"out of range"),
    ("uint8-large", np.array([255, 1, 0], np.uint8), ValueError, r"out of range"),
]

CONTINUOUS_BAD = [
    ("flat", np.zeros(N, np.float32), ValueError, r"shape"),
    ("too-few", np.zeros((N - 1, 1), np.float32), ValueError, r"shape"),
    ("too-wide", np.zeros((N, 2), np.float32), ValueError, r"shape"),
    ("int", np.zeros((N, 1), np.int64), TypeError, r"float"),
    ("bool", np.zeros((N, 1), bool), TypeError, r"float"),
    ("float16", np.zeros((N, 1), np.float16), TypeError, r"float"),
    ("object", np.array([[0.0], [1.0], [None]], dtype=object), TypeError, r"(?i)dtype|object"),
    ("strings", np.array([["0.5"], ["1"], ["0"]]), TypeError, r"(?i)dtype|str|<U"),
    ("nan", np.array([[0.5], [1.0], [np.nan]], np.float32), ValueError, r"finite"),
    ("inf", np.array([[0.5], [np.inf], [1.0]], np.float64), ValueError, r"finite"),
    ("-inf", np.array([[0.5], [1.0], [-np.inf]], np.float64), ValueError, r"finite"),
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("task", "actions", "exc", "match"),
    [pytest.param("CartPole-v1", *case[1:], id=f"CartPole-{case[0]}") for case in DISCRETE_BAD]
    + [pytest.param("Pendulum-v1", *case[1:], id=f"Pendulum-{case[0]}") for case in CONTINUOUS_BAD],
)
def test_bad_action_sync(task, actions, exc, match):
    env, twin = reset_pair(task)
    with pytest.raises(exc, match=match):
        env.step(actions)
    check_still_works(env, twin, task)
    # The same bad call later in an episode is rejected the same way.
    with pytest.raises(exc, match=match):
        env.step(actions)
    check_still_works(env, twin, task)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_bad_action_message_names_env(task):
    """A bad value in one row is reported with that row's env id."""
    env, twin = reset_pair(task)
    bad = good_actions(task).copy()
    if task.startswith("Pendulum"):
        bad[2, 0] = np.nan
    else:
        bad[2] = 5
    with pytest.raises(ValueError, match=r"env 2\b"):
        env.step(bad)
    check_still_works(env, twin, task)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_non_native_byte_order_actions_are_not_misread(task):
    """Big-endian actions are either read correctly or refused with a message about their dtype."""
    env, twin = reset_pair(task)
    actions = good_actions(task)
    swapped = actions.astype(actions.dtype.newbyteorder(">"))
    try:
        got = env.step(swapped)
    except (TypeError, ValueError) as e:
        assert any(w in str(e).lower() for w in ("byte order", "endian", "dtype")), str(e)
        check_still_works(env, twin, task)
    else:
        assert_same_result(got, twin.step(actions))


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_strided_actions_are_read_by_row(task):
    """Non-contiguous action arrays are read with their strides, not as raw memory."""
    env, twin = reset_pair(task)
    actions = good_actions(task)
    wide = np.repeat(actions, 3, axis=0)[::3]  # same values, stride 3 rows
    assert not wide.flags.c_contiguous or wide.strides[0] != actions.strides[0]
    np.testing.assert_array_equal(wide, actions)
    assert_same_result(env.step(wide), twin.step(actions))
    if task.startswith("Pendulum"):
        fortran = np.asfortranarray(np.concatenate([actions, -actions], axis=1))[:, :1]
        assert_same_result(env.step(fortran), twin.step(actions))


# --------------------------------------------------------------------------- #
# env_id problems
# --------------------------------------------------------------------------- #


def async_pair(task="CartPole-v1", num_envs=4, batch_size=2, **kwargs):
    kwargs.setdefault("seed", 3)
    env = rlpool.make(task, num_envs=num_envs, batch_size=batch_size, **kwargs)
    twin = rlpool.make(task, num_envs=num_envs, batch_size=batch_size, num_threads=1, **kwargs)
    return env, twin


BAD_ENV_IDS = [
    # (id, function of (ready ids, in-flight ids) -> env_id, exception, pattern)
    ("out-of-range", lambda ready, busy: np.array([ready[0], 4]), IndexError, r"out of range"),
    ("negative", lambda ready, busy: np.array([ready[0], -1]), IndexError, r"out of range"),
    ("huge", lambda ready, busy: np.array([ready[0], 2**40]), IndexError, r"out of range"),
    (
        "huge-uint64",
        lambda ready, busy: np.array([ready[0], 2**64 - 1], np.uint64),
        IndexError,
        r"out of range",
    ),
    ("repeated", lambda ready, busy: np.array([ready[0], ready[0]]), ValueError, r"more than once"),
    ("in-flight", lambda ready, busy: np.array([ready[0], busy[0]]), ValueError, r"in flight"),
    ("float", lambda ready, busy: np.array(ready[:2], np.float64), TypeError, r"integer"),
    ("bool", lambda ready, busy: np.array([True, False]), TypeError, r"integer"),
    ("2-d", lambda ready, busy: np.array([ready[:2]]), TypeError, r"1-D"),
    ("single-int", lambda ready, busy: int(ready[0]), TypeError, r"env_id"),
]


def rows_by_env(results):
    """{env_id: (obs, reward, terminated, truncated, elapsed_step)} over async results."""
    out = {}
    for obs, rew, term, trunc, info in results:
        for row, i in enumerate(info["env_id"].tolist()):
            assert i not in out, f"env {i} came back twice"
            out[i] = (obs[row].copy(), rew[row], term[row], trunc[row], info["elapsed_step"][row])
    return out


def assert_same_rows(got, want):
    assert sorted(got) == sorted(want)
    for i in got:
        for x, y in zip(got[i], want[i], strict=True):
            np.testing.assert_array_equal(x, y)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("env_id_fn", "exc", "match"), [pytest.param(*c[1:], id=c[0]) for c in BAD_ENV_IDS])
def test_bad_env_id_async(env_id_fn, exc, match):
    env, twin = async_pair()
    env.async_reset()
    first = env.recv()
    ready = first[4]["env_id"].copy()
    busy = np.setdiff1d(np.arange(4), ready)
    bad = env_id_fn(ready, busy)
    n = 1 if np.isscalar(bad) else len(bad)
    with pytest.raises(exc, match=match):
        env.send(np.zeros(n, np.int64), bad)
    # Nothing of the rejected call happened: the ready envs can be sent, and
    # exactly the four envs in flight come back, with the twin's results.
    env.send(np.array([1, 0]), ready)
    got = rows_by_env([env.recv(), env.recv()])
    with pytest.raises(RuntimeError, match=r"in flight"):
        env.recv()
    twin.async_reset()
    twin_first = rows_by_env([twin.recv(), twin.recv()])
    assert_same_rows(rows_by_env([first]), {i: twin_first[i] for i in ready.tolist()})
    twin.send(np.array([1, 0]), ready)
    twin.send(np.zeros(2, np.int64), busy)  # twin's busy envs: the step after reset
    want = rows_by_env([twin.recv(), twin.recv()])
    assert_same_rows({i: got[i] for i in ready.tolist()}, {i: want[i] for i in ready.tolist()})
    assert_same_rows({i: got[i] for i in busy.tolist()}, {i: twin_first[i] for i in busy.tolist()})
    assert [got[i][4] for i in range(4)] == [1 if i in ready else 0 for i in range(4)]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("task", "bad_row", "exc", "match"),
    [
        ("CartPole-v1", np.array([1, 2]), ValueError, r"out of range"),
        ("CartPole-v1", np.array([1.0, 0.0]), TypeError, r"integer"),
        ("CartPole-v1", np.array([1, 0, 1]), ValueError, r"shape"),
        ("Pendulum-v1", np.array([[0.5], [np.nan]]), ValueError, r"finite"),
        ("Pendulum-v1", np.array([[1], [0]]), TypeError, r"float"),
        ("Pendulum-v1", np.array([0.5, 0.5]), ValueError, r"shape"),
    ],
)
def test_bad_action_async_is_not_queued(task, bad_row, exc, match):
    env, twin = async_pair(task)
    for e in (env, twin):
        e.async_reset()
    got_reset = rows_by_env([env.recv(), env.recv()])
    assert_same_rows(got_reset, rows_by_env([twin.recv(), twin.recv()]))
    ids = np.array([2, 0])
    with pytest.raises(exc, match=match):
        env.send(bad_row, ids)
    with pytest.raises(RuntimeError, match=r"in flight"):
        env.recv()  # nothing was queued
    good = np.array([[0.5], [-0.5]], np.float32) if task.startswith("Pendulum") else np.array([1, 0])
    env.send(good, ids)
    twin.send(good, ids)
    got, want = rows_by_env([env.recv()]), rows_by_env([twin.recv()])
    assert_same_rows(got, want)
    assert [got[i][4] for i in (0, 2)] == [1, 1]


@pytest.mark.timeout(30)
def test_send_same_id_twice_without_recv():
    env, twin = async_pair(num_envs=4, batch_size=2)
    for e in (env, twin):
        e.async_reset()
        e.recv()
        e.recv()
    env.send(np.array([1, 1]), np.array([0, 2]))
    with pytest.raises(ValueError, match=r"env_id 2 .*in flight"):
        env.send(np.array([0]), np.array([2]))
    with pytest.raises(ValueError, match=r"in flight"):
        env.async_reset()
    with pytest.raises(ValueError, match=r"in flight"):
        env.reset()
    twin.send(np.array([1, 1]), np.array([0, 2]))
    got, want = env.recv(), twin.recv()
    order = np.argsort(got[4]["env_id"])
    worder = np.argsort(want[4]["env_id"])
    np.testing.assert_array_equal(got[4]["env_id"][order], [0, 2])
    np.testing.assert_array_equal(got[0][order], want[0][worder])
    np.testing.assert_array_equal(got[4]["elapsed_step"], [1, 1])


@pytest.mark.timeout(30)
def test_mismatched_actions_and_env_ids():
    env, _ = async_pair()
    env.async_reset()
    ready = env.recv()[4]["env_id"].copy()
    with pytest.raises(ValueError, match=r"shape"):
        env.send(np.zeros(3, np.int64), ready)
    with pytest.raises(ValueError, match=r"shape"):
        env.send(np.zeros(1, np.int64), ready)
    env.send(np.zeros(2, np.int64), ready)
    assert len(env.recv()[4]["env_id"]) == 2


SYNC_BAD_ENV_IDS = [
    ("out-of-range", [0, 1, 5], IndexError, r"out of range"),
    ("negative", [0, 1, -1], IndexError, r"out of range"),
    ("repeated", [0, 0, 1], ValueError, r"more than once"),
]


def gym_pair():
    env, twin = (rlpool.make_gym("CartPole-v1", num_envs=N, seed=5) for _ in range(2))
    np.testing.assert_array_equal(env.reset()[0], twin.reset()[0])
    return env, twin


def check_gym_twins(env, twin):
    a, b = env.step(np.array([1, 0, 1])), twin.step(np.array([1, 0, 1]))
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[3]["elapsed_step"], b[3]["elapsed_step"])


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("env_id", "exc", "match"),
    [pytest.param(*c[1:], id=c[0]) for c in SYNC_BAD_ENV_IDS]
    + [pytest.param([0, 1], ValueError, r"sync mode|all", id="subset")],  # sync mode steps every env
)
def test_bad_env_id_sync_step(env_id, exc, match):
    env, twin = gym_pair()
    with pytest.raises(exc, match=match):
        env.step(np.ones(len(env_id), np.int64), np.array(env_id))
    check_gym_twins(env, twin)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("env_id", "exc", "match"), [pytest.param(*c[1:], id=c[0]) for c in SYNC_BAD_ENV_IDS]
)
def test_bad_env_id_sync_reset(env_id, exc, match):
    env, twin = gym_pair()
    env.step(np.array([0, 1, 1]))
    twin.step(np.array([0, 1, 1]))
    with pytest.raises(exc, match=match):
        env.reset(np.array(env_id))
    check_gym_twins(env, twin)


# --------------------------------------------------------------------------- #
# Calls in the wrong order
# --------------------------------------------------------------------------- #


@pytest.mark.timeout(30)
@pytest.mark.parametrize("batch_size", [N, 2], ids=["sync", "async"])
def test_recv_with_nothing_in_flight(batch_size):
    env = rlpool.make("CartPole-v1", num_envs=N, batch_size=batch_size)
    with pytest.raises(RuntimeError, match=r"in flight"):
        env.recv()
    env.async_reset()
    first = env.recv()
    assert len(first[4]["env_id"]) == batch_size


@pytest.mark.timeout(30)
def test_recv_with_fewer_than_batch_size_in_flight():
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=3, seed=1)
    env.async_reset()
    ids = env.recv()[4]["env_id"].copy()  # one env still in flight
    with pytest.raises(RuntimeError, match=r"batch_size=3.*in flight|in flight.*batch_size"):
        env.recv()
    env.send(np.zeros(2, np.int64), ids[:2])
    got = env.recv()[4]["env_id"]
    assert len(set(got.tolist())) == 3
    assert set(got.tolist()) == set(np.setdiff1d(np.arange(4), ids).tolist()) | set(ids[:2].tolist())


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
@pytest.mark.parametrize("api", ["gymnasium", "gym", "dm"])
def test_step_before_reset(task, api):
    env = rlpool.make(task, env_type=api, num_envs=N, seed=4)
    with pytest.raises(ValueError, match=r"reset"):
        env.step(good_actions(task))
    twin = rlpool.make(task, env_type=api, num_envs=N, seed=4)
    env.reset()
    twin.reset()
    a, b = env.step(good_actions(task)), twin.step(good_actions(task))
    if api == "dm":
        np.testing.assert_array_equal(a.observation.obs, b.observation.obs)
        np.testing.assert_array_equal(a.observation.elapsed_step, [1] * N)
    else:
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[-1]["elapsed_step"], [1] * N)


@pytest.mark.timeout(30)
def test_send_before_reset_async():
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=2)
    with pytest.raises(ValueError, match=r"reset"):
        env.send(np.zeros(2, np.int64), np.array([0, 1]))
    with pytest.raises(RuntimeError, match=r"in flight"):
        env.recv()  # the rejected send queued nothing
    env.async_reset()
    assert len(env.recv()[4]["env_id"]) == 2


# --------------------------------------------------------------------------- #
# close()
# --------------------------------------------------------------------------- #

CLOSED_CALLS = {
    "step": lambda env: env.step(np.zeros(env.batch_size, np.int64)),
    "reset": lambda env: env.reset(),
    "send": lambda env: env.send(np.zeros(2, np.int64), np.array([0, 1])),
    "recv": lambda env: env.recv(),
    "async_reset": lambda env: env.async_reset(),
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("call", sorted(CLOSED_CALLS))
@pytest.mark.parametrize("api", ["gymnasium", "gym", "dm"])
@pytest.mark.parametrize("batch_size", [4, 2], ids=["sync", "async"])
def test_calls_after_close(call, api, batch_size):
    env = rlpool.make("CartPole-v1", env_type=api, num_envs=4, batch_size=batch_size)
    env.async_reset()  # some envs in flight when the pool closes
    env.close()
    with pytest.raises(RuntimeError, match=r"closed"):
        CLOSED_CALLS[call](env)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("api", ["gymnasium", "gym", "dm"])
def test_close_twice_is_a_noop(api):
    env = rlpool.make("Pendulum-v1", env_type=api, num_envs=2)
    env.reset()
    assert env.close() is None
    assert env.close() is None
    if api == "gymnasium":
        assert env.closed is True


# --------------------------------------------------------------------------- #
# Options
# --------------------------------------------------------------------------- #


def test_unknown_task_id_suggests_instead_of_listing_every_id():
    with pytest.raises(ValueError, match=r"CartPole-v2.*did you mean 'CartPole-v1'") as info:
        rlpool.make("CartPole-v2")
    assert "Acrobot-v1" not in str(info.value) and "rlpool list" in str(info.value)
    with pytest.raises(ValueError, match=r"CartPole-v2"):
        rlpool.make_spec("CartPole-v2")


@pytest.mark.parametrize("maker", [rlpool.make, rlpool.make_gym, rlpool.make_dm, rlpool.make_spec])
def test_unknown_option_lists_valid_options(maker):
    with pytest.raises(ValueError, match=r"num_env\b") as info:
        maker("Pendulum-v1", num_env=4)
    for name in ("num_envs", "batch_size", "num_threads", "seed", "max_episode_steps", "g"):
        assert f"'{name}'" in str(info.value)


BAD_OPTIONS = [
    # (id, task, kwargs, exception, pattern)
    ("num_envs-str", "CartPole-v1", {"num_envs": "4"}, TypeError, r"num_envs"),
    ("num_envs-float", "CartPole-v1", {"num_envs": 4.0}, TypeError, r"num_envs"),
    ("num_envs-bool", "CartPole-v1", {"num_envs": True}, TypeError, r"num_envs"),
    ("num_envs-zero", "CartPole-v1", {"num_envs": 0}, ValueError, r"num_envs"),
    ("num_envs-negative", "CartPole-v1", {"num_envs": -2}, ValueError, r"num_envs"),
    ("batch_size-gt-num_envs", "CartPole-v1", {"num_envs": 4, "batch_size": 5}, ValueError, r"batch_size"),
    ("batch_size-str", "CartPole-v1", {"num_envs": 4, "batch_size": "2"}, TypeError, r"batch_size"),
    ("batch_size-negative", "CartPole-v1", {"num_envs": 4, "batch_size": -1}, ValueError, r"batch_size"),
    ("num_threads-str", "CartPole-v1", {"num_threads": "2"}, TypeError, r"num_threads"),
    ("num_threads-negative", "CartPole-v1", {"num_threads": -1}, ValueError, r"num_threads"),
    ("seed-negative", "CartPole-v1", {"seed": -1}, ValueError, r"seed"),
    ("seed-too-big", "CartPole-v1", {"seed": 2**64}, ValueError, r"seed"),
    ("seed-str", "CartPole-v1", {"seed": "1"}, TypeError, r"seed"),
    ("seed-float", "CartPole-v1", {"seed": 1.5}, TypeError, r"seed"),
    ("seed-list-length", "CartPole-v1", {"num_envs": 3, "seed": [1, 2]}, ValueError, r"seed"),
    ("seed-list-negative", "CartPole-v1", {"num_envs": 2, "seed": [1, -2]}, ValueError, r"seed"),
    ("seed-list-float", "CartPole-v1", {"num_envs": 2, "seed": [1, 2.0]}, ValueError, r"seed"),
    ("max_episode_steps-zero", "CartPole-v1", {"max_episode_steps": 0}, ValueError, r"max_episode_steps"),
    ("max_episode_steps-str", "CartPole-v1", {"max_episode_steps": "10"}, TypeError, r"max_episode_steps"),
    (
        "autoreset_mode-bogus",
        "CartPole-v1",
        {"autoreset_mode": "bogus"},
        ValueError,
        r"autoreset_mode.*bogus",
    ),
    ("autoreset_mode-int", "CartPole-v1", {"autoreset_mode": 1}, ValueError, r"autoreset_mode"),
    (
        "thread_affinity_offset-str",
        "CartPole-v1",
        {"thread_affinity_offset": "0"},
        TypeError,
        r"thread_affinity_offset",
    ),
    ("max_num_players", "CartPole-v1", {"max_num_players": 2}, ValueError, r"max_num_players"),
    (
        "gym_reset_return_info-str",
        "CartPole-v1",
        {"gym_reset_return_info": "no"},
        TypeError,
        r"gym_reset_return_info",
    ),
    ("reward_threshold-str", "CartPole-v1", {"reward_threshold": "high"}, TypeError, r"reward_threshold"),
    ("pendulum-g-str", "Pendulum-v1", {"g": "x"}, TypeError, r"'g'"),
    ("pendulum-g-bool", "Pendulum-v1", {"g": True}, TypeError, r"'g'"),
    ("cartpole-reward-int", "CartPole-v1", {"sutton_barto_reward": 1}, TypeError, r"sutton_barto_reward"),
    ("cartpole-reward-str", "CartPole-v1", {"sutton_barto_reward": "yes"}, TypeError, r"sutton_barto_reward"),
    ("env_type", "CartPole-v1", {"env_type": "bogus"}, ValueError, r"env_type"),
    ("render_mode", "BusyWork-v0", {"render_mode": "human"}, ValueError, r"render_mode"),  # it does not render
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("task", "kwargs", "exc", "match"), [pytest.param(*c[1:], id=c[0]) for c in BAD_OPTIONS]
)
def test_bad_option(task, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        rlpool.make(task, **kwargs)


@pytest.mark.timeout(30)
def test_failed_construction_leaves_no_unraisable_errors(monkeypatch):
    """A make() that raises must not also print 'Exception ignored in __del__' noise."""
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    for task, kwargs in (("BusyWork-v0", {"render_mode": "human"}),  # it does not render
                         ("CartPole-v1", {"max_episode_steps": 2**31}), ("CartPole-v1", {"num_threads": 2**31})):
        with pytest.raises((ValueError, TypeError, OverflowError)):
            rlpool.make(task, **kwargs)
        gc.collect()
    assert [str(u.exc_value) for u in unraisable] == []


@pytest.mark.timeout(60)
def test_num_envs_beyond_engine_limit_raises_quickly():
    """num_envs that cannot fit the engine's int must be refused, not built (run with a memory cap)."""
    code = textwrap.dedent(
        """
        import resource
        import rlpool
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), vm + (1 << 30)))  # 1 GiB more at most
        try:
            rlpool.make_spec("CartPole-v1", num_envs=2**31)
        except (ValueError, OverflowError) as e:
            print("REFUSED", "num_envs" in str(e))
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        else:
            print("ACCEPTED")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "REFUSED True", (proc.returncode, proc.stdout, proc.stderr[-2000:])


BAD_MASKS = [
    ("short", np.array([True, False])),
    ("long", np.ones(N + 1, bool)),
    ("int", np.array([1, 0, 1])),
    ("list", [True, False, True]),
    ("2-d", np.ones((N, 1), bool)),
    ("none-selected", np.zeros(N, bool)),
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("mask", [pytest.param(m, id=i) for i, m in BAD_MASKS])
def test_bad_reset_mask(mask):
    env, twin = reset_pair("CartPole-v1")
    for k in range(3):
        env.step(good_actions("CartPole-v1", k=k))
        twin.step(good_actions("CartPole-v1", k=k))
    with pytest.raises(ValueError, match=r"reset_mask"):
        env.reset(options={"reset_mask": mask})
    check_still_works(env, twin, "CartPole-v1")


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"options": {"reset_mask": np.ones(4, bool)}}, ValueError, r"sync"),
        ({"options": {"bogus": 1}}, ValueError, r"bogus"),
        ({"seed": -1}, ValueError, r"seed"),
        ({"seed": "1"}, TypeError, r"seed"),
        ({"seed": [1, 2]}, ValueError, r"seed"),
        ({"seed": [1, -1, None, 2]}, ValueError, r"seed"),
    ],
)
def test_bad_reset_arguments(kwargs, exc, match):
    sync = "reset_mask" not in kwargs.get("options", {})
    # One thread: which envs an async reset returns first must not depend on timing.
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=4 if sync else 2, seed=2, num_threads=1)
    twin = rlpool.make("CartPole-v1", num_envs=4, batch_size=4 if sync else 2, seed=2, num_threads=1)
    with pytest.raises(exc, match=match):
        env.reset(**kwargs)
    a, b = env.reset(), twin.reset()
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1]["env_id"], b[1]["env_id"])


# --------------------------------------------------------------------------- #
# Lifetime: arrays outliving their pool
# --------------------------------------------------------------------------- #

_LIFETIME_SCRIPT = textwrap.dedent(
    """
    import gc
    import numpy as np
    import rlpool

    def run(task, **kw):
        env = rlpool.make(task, **kw)
        n = env.batch_size
        act = np.zeros((n, 1), np.float32) if task.startswith("Pendulum") else np.ones(n, np.int64)
        if env.batch_size < env.num_envs:
            env.async_reset()
            first = env.recv()
            env.send(act, first[4]["env_id"])
            held = env.recv()
            env.send(act, held[4]["env_id"])  # leave envs in flight
        else:
            env.reset()
            held = env.step(act)
            env.step(act)
        copies = (held[0].copy(), held[1].copy(), held[2].copy(), held[4]["env_id"].copy())
        del env
        gc.collect()
        junk = [np.full(4096, 12345.0) for _ in range(2000)]  # reuse freed memory
        others = [rlpool.make(task, num_envs=8) for _ in range(3)]
        for o in others:
            o.reset()
        assert np.array_equal(held[0], copies[0])
        assert np.array_equal(held[1], copies[1])
        assert np.array_equal(held[2], copies[2])
        assert np.array_equal(held[4]["env_id"], copies[3])
        assert float(np.sum(held[0])) == float(np.sum(copies[0]))
        del junk, others

    run("CartPole-v1", num_envs=4, num_threads=2)
    run("Pendulum-v1", num_envs=6, batch_size=2, num_threads=2)
    run("CartPole-v1", num_envs=6, batch_size=3, num_threads=1)
    print("LIFETIME-OK")
    """
)


def test_arrays_outlive_their_pool_in_subprocess():
    """Results held after the pool is garbage-collected (envs still in flight) stay readable."""
    proc = subprocess.run(
        [sys.executable, "-c", _LIFETIME_SCRIPT], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "LIFETIME-OK" in proc.stdout


# --------------------------------------------------------------------------- #
# Options with a valid range
# --------------------------------------------------------------------------- #

RANGED_OPTIONS = [
    # (task, option, a value at the edge of the range (accepted), a bad value, what the message must say)
    ("Catch-v0", "rows", 2, 1, r"'rows'.*rows must be in \[2, 1048576\], got 1"),
    ("Catch-v0", "width", 0, -1, r"'width'.*width must be in \[0, 1048576\], got -1"),
    ("NChain-v0", "n", 1, 0, r"'n'.*n must be in \[1, 1073741824\], got 0"),
    ("NChain-v0", "slip", 1.0, 1.5, r"'slip'.*slip must be in \[0, 1\], got 1\.5"),
    ("NChain-v0", "slip", 0.0, float("nan"), r"'slip' must be finite, got nan"),
    ("NChain-v0", "small", -1e300, float("-inf"), r"'small' must be finite, got -inf"),
    ("FrozenLake-v1", "success_rate", 0.0, -0.25, r"'success_rate'.*must be in \[0, 1\], got -0\.25"),
    ("Pendulum-v1", "g", 0.0, float("inf"), r"'g' must be finite, got inf"),
    ("MountainCar-v0", "goal_velocity", -1.0, float("nan"), r"'goal_velocity' must be finite, got nan"),
    ("MountainCarContinuous-v0", "goal_velocity", 1.0, float("inf"), r"'goal_velocity' must be finite"),
    ("Pong-v5", "stack_num", 64, 65, r"'stack_num'.*stack_num must be in \[1, 64\], got 65"),
    ("Pong-v5", "frame_skip", 1, 0, r"frame_skip must be in \[1, 1000\], got 0"),
    ("Pong-v5", "noop_max", 0, -1, r"noop_max must be in \[0, 100000\], got -1"),
    ("Pong-v5", "img_height", 1, 1025, r"img_height must be in \[1, 1024\], got 1025"),
    ("Pong-v5", "repeat_action_probability", 1.0, float("nan"), r"'repeat_action_probability' must be finite"),
    ("Hopper-v5", "frame_skip", 1, 0, r"frame_skip must be in \[1, 1000000\], got 0"),
    ("Hopper-v4", "ctrl_cost_weight", 0.0, float("nan"), r"'ctrl_cost_weight' must be finite, got nan"),
    ("Walker2d-v5", "healthy_reward", -1.0, float("inf"), r"'healthy_reward' must be finite, got inf"),
    ("Ant-v5", "main_body", 0, 99, r"main_body must be in \[0, \d+\], got 99"),
    ("Ant-v4", "contact_cost_weight", 1e-3, float("inf"), r"'contact_cost_weight' must be finite"),
    ("HalfCheetah-v5", "forward_reward_weight", -1.0, float("-inf"), r"'forward_reward_weight' must be finite"),
    ("Humanoid-v5", "contact_cost_weight", 0.0, float("nan"), r"'contact_cost_weight' must be finite"),
    ("HumanoidStandup-v5", "uph_cost_weight", 2.0, float("inf"), r"'uph_cost_weight' must be finite"),
    ("InvertedPendulum-v5", "reset_noise_scale", 0.0, float("nan"), r"'reset_noise_scale' must be finite"),
    ("InvertedDoublePendulum-v5", "healthy_reward", 0.0, float("inf"), r"'healthy_reward' must be finite"),
    ("Pusher-v5", "reward_near_weight", 0.0, float("nan"), r"'reward_near_weight' must be finite"),
    ("Reacher-v5", "reward_control_weight", 0.0, float("-inf"), r"'reward_control_weight' must be finite"),
    ("Swimmer-v4", "reset_noise_scale", 0.5, float("inf"), r"'reset_noise_scale' must be finite"),
    # Bounds may be +-inf (no bound) but never NaN (every comparison with NaN is false: never healthy).
    ("Ant-v5", "healthy_z_max", float("inf"), float("nan"), r"'healthy_z_max' must be a number or \+-inf"),
    ("Hopper-v5", "healthy_state_min", float("-inf"), float("nan"), r"'healthy_state_min' must be a number"),
    ("Walker2d-v4", "healthy_angle_max", float("inf"), float("nan"), r"'healthy_angle_max' must be a number"),
    ("Humanoid-v5", "contact_cost_max", float("inf"), float("nan"), r"'contact_cost_max' must be a number"),
    ("HumanoidStandup-v5", "impact_cost_min", float("-inf"), float("nan"), r"'impact_cost_min' must be a number"),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("task", "option", "edge", "bad", "match"),
    RANGED_OPTIONS,
    ids=[f"{t}-{o}-{b}" for t, o, _, b, _ in RANGED_OPTIONS],
)
def test_options_out_of_range_or_not_finite_are_refused(task, option, edge, bad, match):
    """An option with a valid range refuses values outside it (floats: NaN and inf too) with a
    ValueError naming the option, the range and the value, from make_spec as from make; the edge
    of the range is accepted."""
    if task.startswith("Pong"):
        pytest.importorskip("ale_py")
    elif task.split("-")[0] in {"Hopper", "Walker2d", "Ant", "HalfCheetah", "Humanoid", "HumanoidStandup",
                                "InvertedPendulum", "InvertedDoublePendulum", "Pusher", "Reacher", "Swimmer"}:
        pytest.importorskip("mujoco")
    assert rlpool.make_spec(task, **{option: edge}).config[option] == edge
    with pytest.raises(ValueError, match=match):
        rlpool.make_spec(task, **{option: bad})
    with pytest.raises(ValueError, match=match):
        rlpool.make(task, num_envs=1, **{option: bad})


# --------------------------------------------------------------------------- #
# Issue 23, item 7: messages that named the wrong thing, values cast silently
# --------------------------------------------------------------------------- #


def test_frozen_lake_non_ascii_desc_names_desc_and_the_character():
    """A non-ASCII letter in desc is a ValueError quoting it whole, not a UnicodeDecodeError."""
    with pytest.raises(ValueError, match=r"desc.*'é'"):
        rlpool.make("FrozenLake-v1", desc="SFé,FFG")
    with pytest.raises(ValueError, match=r"desc.*'☃'"):
        rlpool.make_spec("FrozenLake-v1", desc="S☃,FG")


@pytest.mark.parametrize("value", [2**63, 2**64 + 5, -(2**63) - 1])
def test_int_option_beyond_int64_names_the_range(value):
    with pytest.raises(ValueError, match=r"option 'n' is out of the int64 range.*" + str(value)):
        rlpool.make_spec("NChain-v0", n=value)


def test_int_option_at_int64_edge_reaches_the_env_check():
    with pytest.raises(ValueError, match=r"'n'.*n must be in \[1, 1073741824\], got 9223372036854775807"):
        rlpool.make_spec("NChain-v0", n=2**63 - 1)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_actions_with_odd_strides_are_copied_not_refused(task):
    """A field of a structured array (stride not a whole number of items) and a reversed view are read."""
    env, twin = reset_pair(task)
    actions = good_actions(task)
    dtype = actions.dtype
    rec = np.zeros(actions.shape[:1], dtype=[("a", dtype, actions.shape[1:]), ("pad", np.int8)])
    rec["a"] = actions
    assert rec["a"].strides[0] % dtype.itemsize != 0
    assert_same_result(env.step(rec["a"]), twin.step(actions))
    reversed_view = actions[::-1].copy()[::-1]
    assert reversed_view.strides[0] < 0
    assert_same_result(env.step(reversed_view), twin.step(actions))


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("task", "what"), [("CartPole-v1", "discrete actions must be integers"), ("Pendulum-v1", "float32 or float64")]
)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_actions_are_named_as_numpy_names_them(task, what, dtype):
    env, twin = reset_pair(task)
    actions = good_actions(task).astype(dtype)
    with pytest.raises(TypeError, match=rf"{what}, got dtype {np.dtype(dtype).name}$"):
        env.step(actions)
    check_still_works(env, twin, task)


def test_complex_env_ids_are_named_as_numpy_names_them():
    env, _ = async_pair()
    env.async_reset()
    with pytest.raises(TypeError, match=r"integers, got complex128"):
        env.send(np.zeros(2, np.int64), np.array([0, 1], np.complex128))


@pytest.mark.parametrize("num_envs", [2, 5])
def test_seed_whose_last_env_overflows_states_the_bound(num_envs):
    """seed + i must stay below 2**64: the message gives the largest allowed base, not seed + i."""
    with pytest.raises(ValueError, match=rf"num_envs={num_envs}.*at most {2**64 - num_envs}\)") as info:
        rlpool.make_spec("CartPole-v1", num_envs=num_envs, seed=2**64 - 1)
    assert str(2**64) not in str(info.value)
    assert rlpool.make_spec("CartPole-v1", num_envs=num_envs, seed=2**64 - num_envs).seeds[-1] == 2**64 - 1



def _float_options():
    """(task, option) for one task of each env type and each of its float options."""
    from rlpool import registry

    seen, out = set(), []
    for task_id in registry.list_all_envs():
        for doc in registry.option_docs(task_id):
            key = (registry.task(task_id).env_type, doc.name)
            if isinstance(doc.default, float) and key not in seen:
                seen.add(key)
                out.append((task_id, doc.name))
    return out


FLOAT_OPTIONS = _float_options()


@pytest.mark.timeout(60)
def test_every_float_option_refuses_nan_and_inf_unless_inf_means_no_bound():
    """NaN never passes; +-inf only where it means "no bound" or "no limit" (rlpool.options.INF_OPTIONS)."""
    from rlpool.options import INF_OPTIONS

    assert len(FLOAT_OPTIONS) > 50
    for task_id, option in FLOAT_OPTIONS:
        with pytest.raises(ValueError, match=rf"option '{option}' must be"):
            rlpool.make_spec(task_id, **{option: float("nan")})
        for inf in (float("inf"), float("-inf")):
            if option in INF_OPTIONS:
                continue
            with pytest.raises(ValueError, match=rf"option '{option}' must be finite, got -?inf"):
                rlpool.make_spec(task_id, **{option: inf})
    with pytest.raises(ValueError, match=r"option 'g' must be finite, got nan"):
        rlpool.make_spec("Pendulum-v1", g=np.float32("nan"))
    with pytest.raises(ValueError, match=r"option 'g' is too large for a float64"):
        rlpool.make_spec("Pendulum-v1", g=10**400)


@pytest.mark.parametrize(
    ("task", "option", "value"),
    [("Hopper-v5", "healthy_z_max", float("inf")), ("Ant-v5", "contact_force_min", float("-inf"))],
)
def test_inf_options_still_take_inf(task, option, value):
    pytest.importorskip("mujoco")
    assert rlpool.make_spec(task, **{option: value}).config[option] == value


# --------------------------------------------------------------------------- #
# Issue 23, item 7 (messages and smaller semantics) and item 5 (an env closing its own pool)
# --------------------------------------------------------------------------- #


def run_script(code: str, *, cwd=None, timeout: int = 120) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter (a crash, hang or memory blow-up stays there).

    It imports the same rlpool as this process, whatever its working directory.
    """
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=child_env(),
    )


def child_env(**extra: str) -> dict[str, str]:
    """os.environ with this process's rlpool first on PYTHONPATH, plus ``extra``."""
    src = str(Path(rlpool.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


def test_float_options_of_python_envs_must_be_finite(tmp_path, monkeypatch):
    """Float options are refused when NaN or infinite, whatever the family: the check is generic
    (registry.py), so a Python-written env's own options get it too; the options where inf means
    "no bound" or "no limit" keep accepting inf, never NaN."""
    pytest.importorskip("numba")
    from gymnasium import spaces

    from rlpool import python_env

    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path))

    @python_env.register(
        "FiniteOptions-v0",
        obs=spaces.Box(-10.0, 10.0, (1,), np.float64),
        action=spaces.Discrete(2),
        state=1,
        options={"speed": 0.5},
        max_episode_steps=10,
    )
    class FiniteOptions:
        @staticmethod
        def reset(state, obs):
            state[0] = 0.0
            obs[0] = 0.0

        @staticmethod
        def step(state, action, obs, params):
            state[0] += params.speed
            obs[0] = state[0]
            return 1.0, False

    assert rlpool.make_spec("FiniteOptions-v0", speed=-1e300).config["speed"] == -1e300
    for bad in (float("nan"), float("inf"), -np.inf):
        with pytest.raises(ValueError, match=r"option 'speed' must be finite, got"):
            rlpool.make_spec("FiniteOptions-v0", speed=bad)
    pytest.importorskip("mujoco")
    assert rlpool.make_spec("Hopper-v5", healthy_z_max=float("inf")).config["healthy_z_max"] == float("inf")
    with pytest.raises(ValueError, match=r"option 'healthy_z_max' must be a number or \+-inf, got nan"):
        rlpool.make_spec("Hopper-v5", healthy_z_max=float("nan"))
    with pytest.raises(ValueError, match=r"option 'ctrl_cost_weight' must be finite, got inf"):
        rlpool.make_spec("Hopper-v5", ctrl_cost_weight=float("inf"))


# atari_env.cc's state checksum, written again from its definition (the header's fields at their
# offsets, then the frame ring, then ALE's part), to make blobs that pass it: what ALE itself does
# with a bad field is then what is tested.
ATARI_CHECKSUM = textwrap.dedent(
    """
    import struct

    def sign(blob):
        M = 2**64 - 1
        x = 0xCBF29CE484222325
        def mix(b):
            nonlocal x
            n8 = len(b) // 8 * 8
            for i in range(0, n8, 8):
                x = ((x ^ int.from_bytes(b[i:i + 8], "little")) * 0x100000001B3) & M
            w = len(b) - n8
            for c in b[n8:]:
                w = ((w << 8) | c) & M
            x = ((x ^ w) * 0x100000001B3) & M
            x ^= x >> 29
        ring = struct.unpack_from("<Q", blob, 40)[0]
        for a, b in [(0, 8), (8, 40), (40, 48), (48, 56), (64, 68), (68, 72), (72, 73)]:
            mix(bytes(blob[a:b]))
        mix(bytes(blob[80:80 + ring]))
        mix(bytes(blob[80 + ring:]))
        struct.pack_into("<Q", blob, 56, x)
    """
)


@pytest.mark.timeout(300)
def test_atari_state_with_flipped_bits_is_refused_and_changes_nothing():
    """Random bit flips anywhere in a Ms. Pac-Man or Pitfall state (they used to crash ALE with
    SIGSEGV or a heap error within a few thousand trials; a bank number of 0xFFFF did at once) are
    each a ValueError, and the env goes on exactly as it was. CI: 150 blobs per game;
    RLPOOL_FULL_REFERENCE=1: 3000."""
    pytest.importorskip("ale_py")
    trials = 3000 if FULL else 150
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent(f"""
        import numpy as np
        import rlpool
        rng = np.random.default_rng(23)
        for game in ("MsPacman", "Pitfall"):
            env = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            env.reset()
            for _ in range(20):
                env.step(np.array([1]))
            good = env.get_state(0)
            twin = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            twin.reset()
            twin.set_state(0, good)
            refused = 0
            for _ in range({trials}):
                blob = bytearray(good)
                for bit in rng.integers(0, 8 * len(blob), int(rng.integers(1, 9))):
                    blob[bit // 8] ^= 1 << (bit % 8)
                if bytes(blob) == good:
                    continue
                try:
                    env.set_state(0, bytes(blob))
                except ValueError:
                    refused += 1
                assert env.get_state(0) == good, "a refused state changed the env"
            a = env.step(np.array([2]))[0]
            b = twin.step(np.array([2]))[0]
            assert np.array_equal(a, b), "the env does not step on as before"
            print(game, "refused", refused)
        """),
        timeout=280,
    )
    assert proc.returncode == 0, f"exit code {proc.returncode}:\n{proc.stderr[-3000:]}"
    for game in ("MsPacman", "Pitfall"):
        assert f"{game} refused {trials}" in proc.stdout, proc.stdout


# One game per cartridge type the registered ROMs use (F8, 4K, E0, DPC, F6SC, F8SC, FE, 2K, F6).
CRAFTED_STATE_GAMES = ("MsPacman", "Pitfall", "MontezumaRevenge", "Pitfall2", "Darkchambers",
                       "ElevatorAction", "Robotank", "Bowling", "RoadRunner")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", CRAFTED_STATE_GAMES if FULL else CRAFTED_STATE_GAMES[::3])
def test_atari_state_with_a_crafted_field_is_refused_or_harmless(game):
    """An edited state that carries a valid checksum (as anyone who reads atari_env.cc can make
    one): at every byte offset of ALE's console snapshot in turn, a 4-byte field is overwritten with
    a hostile value (a bank of 0xFFFF used to crash Ms. Pac-Man at the next step; an array length
    of 2**31 - 1 made ALE's loader write past its buffers). Each blob is either refused with a
    ValueError that leaves the env exactly as it was, or accepted and stepped without harm; the
    child process must end cleanly. Default: every third game, every 4th offset (a different quarter per
    game); RLPOOL_FULL_REFERENCE=1 (CI): every game, every offset."""
    pytest.importorskip("ale_py")
    stride = 1 if FULL else 4
    first = CRAFTED_STATE_GAMES.index(game) % stride
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent(f"""
        import struct
        import numpy as np
        import rlpool
        # A small frame ring keeps the blob (and the Python checksum) short: ALE's part is the same.
        env = rlpool.make("{game}-v5", num_envs=1, num_threads=1, seed=1, stack_num=1, img_height=8, img_width=8)
        env.reset()
        for _ in range(30):
            env.step(np.array([1]))
        good = env.get_state(0)
        emu_bytes = struct.unpack_from("<Q", good, 48)[0]
        start = len(good) - emu_bytes
        values = (-1, 0xFFFF, 2**31 - 1, -(2**31), 160, 16, 4096, 0x800)
        # Most of ALE's part is the text of its two generators' states (digits and spaces), which
        # ALE parses as text: only their first bytes are tried.
        text = set(b"0123456789 ")
        inside_text, run = set(), []
        for i in range(start, len(good)):
            if good[i] in text:
                run.append(i)
                continue
            if len(run) > 64:
                inside_text.update(run[8:])
            run = []
        refused = accepted = 0
        for at in range(start + {first}, len(good) - 3, {stride}):
            if at in inside_text:
                continue
            for v in values:
                blob = bytearray(good)
                struct.pack_into("<i", blob, at, v)
                sign(blob)
                if bytes(blob) == good:
                    continue
                try:
                    env.set_state(0, bytes(blob))
                except ValueError as e:
                    assert str(e), "empty message"
                    refused += 1
                    assert env.get_state(0) == good, f"a refused state changed the env (offset {{at}})"
                    continue
                accepted += 1
                for _ in range(3):
                    env.step(np.array([1]))
                env.set_state(0, good)
        print("DONE refused", refused, "accepted", accepted)
        """),
        timeout=580,
    )
    assert proc.returncode == 0, f"exit code {proc.returncode}:\n{proc.stderr[-3000:]}"
    assert "DONE refused" in proc.stdout, proc.stdout
    refused = int(proc.stdout.split("DONE refused")[1].split()[0])
    assert refused > 0


def test_atari_state_check_names_the_field():
    """A signed state with one field out of range is refused by a message that names the field."""
    pytest.importorskip("ale_py")
    import struct

    namespace: dict = {}
    exec(ATARI_CHECKSUM, namespace)
    env = rlpool.make("MsPacman-v5", num_envs=1, num_threads=1, seed=1)
    env.reset()
    good = env.get_state(0)
    emu = good[len(good) - struct.unpack_from("<Q", good, 48)[0]:]
    # The F8 cartridge section is its name, then its bank; the game's fields follow it.
    name = b"CartridgeF8"
    at = len(good) - len(emu) + emu.index(struct.pack("<i", len(name)) + name) + 4 + len(name)
    assert struct.unpack_from("<i", good, at)[0] in (0, 1)
    blob = bytearray(good)
    struct.pack_into("<i", blob, at, 0xFFFF)
    namespace["sign"](blob)
    with pytest.raises(ValueError, match=r"cartridge bank is 65535 \(valid: 0 to 1\)"):
        env.set_state(0, bytes(blob))
    assert env.get_state(0) == good
    env.close()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (0, -5, r"left paddle is -5 \(valid: 27450 to 790196\)"),
        (4, 2**31 - 1, r"right paddle is 2147483647 \(valid: 27450 to 790196\)"),
        (8, -1, r"frame number is -1 \(valid: 0 to "),
        (12, 2**30, r"episode frame number is 1073741824 \(valid: 0 to \d+\)"),
        (16, 7, r"taken in game mode 7, difficulty 0; this env plays mode 0, difficulty 0"),
        (20, 3, r"taken in game mode 0, difficulty 3"),
        (-8, 0, r"its paddle range is not this env's"),
    ],
)
def test_atari_state_settings_are_the_envs(field, value, message):
    """The fields ALE keeps outside the console: its paddles (a resistance is computed from each,
    within the paddle range), its frame counters (ALE adds to them in int arithmetic) and the game
    mode and difficulty (a mode the game lacks makes every later reset throw). A signed state may
    not change the env's settings or put a paddle outside its range."""
    pytest.importorskip("ale_py")
    import struct

    namespace: dict = {}
    exec(ATARI_CHECKSUM, namespace)
    env = rlpool.make("Pong-v5", num_envs=1, num_threads=1, seed=1, stack_num=1, img_height=8, img_width=8)
    env.reset()
    good = env.get_state(0)
    # ALE's part: six ints (paddles, frame counters, mode, difficulty), the console, two ints
    # (the paddle range).
    at = len(good) - struct.unpack_from("<Q", good, 48)[0] + field if field >= 0 else len(good) + field
    blob = bytearray(good)
    struct.pack_into("<i", blob, at, value)
    namespace["sign"](blob)
    with pytest.raises(ValueError, match=message):
        env.set_state(0, bytes(blob))
    assert env.get_state(0) == good
    env.close()


def test_atari_state_of_another_game_mode_is_refused():
    """A genuine state of Freeway in mode 1 does not go into an env made for mode 0."""
    pytest.importorskip("ale_py")
    kw = dict(num_envs=1, num_threads=1, stack_num=1, img_height=8, img_width=8)
    other = rlpool.make("Freeway-v5", mode=1, **kw)
    other.reset()
    env = rlpool.make("Freeway-v5", **kw)
    env.reset()
    with pytest.raises(ValueError, match=r"taken in game mode 1, difficulty 0; this env plays mode 0"):
        env.set_state(0, other.get_state(0))
    other.close()
    env.close()


@pytest.mark.timeout(300)
def test_atari_state_loaded_mid_frame_plays_on_as_in_a_fresh_env():
    """A console left in the middle of a frame (here by a signed state whose CPU runs a loop in
    RAM, which first maps slice 0 into an E0 cartridge's three segments) and then given a genuine
    state plays on exactly as a twin that only loaded the genuine state. ALE's TIA kept its frame
    pointer where the open frame had left it (the next frame was drawn from there, past the end of
    the buffer), and its E0 cartridge kept the slices mapped before the load. One game per
    cartridge type in use."""
    pytest.importorskip("ale_py")
    games = CRAFTED_STATE_GAMES + ("Tutankham",)
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent(f"""
        import struct
        import numpy as np
        import rlpool

        def cpu_pc_and_riot_ram(blob):
            # Offsets in a state, by ALE 0.12.1's layout: its six ints and the console's length,
            # then the ROM checksum, the System (name, cycles, generator), the CPU, the RIOT.
            p = len(blob) - struct.unpack_from("<Q", blob, 48)[0] + 24 + 4
            def past_string(p):
                return p + 4 + struct.unpack_from("<i", blob, p)[0]
            p = past_string(past_string(p))
            p = past_string(p + 4)
            high = blob[p + 4:p + 13] == b"M6502High"
            p = past_string(p)
            pc = p + 20  # after A, X, Y, SP, IR
            p = past_string(p + 24 + 7 * 4 + 4 + (8 if high else 0))
            assert blob[p - 5:p] == b"M6532" and struct.unpack_from("<i", blob, p)[0] == 128
            return pc, p + 4

        # LDA $1FE0; LDA $1FE8; LDA $1FF0 (E0's hotspots; no other type in use switches there);
        # then JMP to itself: the frame never ends.
        code = (0xAD, 0xE0, 0x1F, 0xAD, 0xE8, 0x1F, 0xAD, 0xF0, 0x1F, 0x4C, 0x89, 0x00)
        for game in {games!r}:
            env = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            twin = rlpool.make(f"{{game}}-v5", num_envs=1, num_threads=1, seed=1)
            env.reset()
            twin.reset()
            for _ in range(30):
                env.step(np.array([1]))
            good = env.get_state(0)
            twin.set_state(0, good)
            pc, ram = cpu_pc_and_riot_ram(good)
            stuck = bytearray(good)
            struct.pack_into("<i", stuck, pc, 0x80)
            for i, byte in enumerate(code):
                struct.pack_into("<i", stuck, ram + 4 * i, byte)
            sign(stuck)
            env.set_state(0, bytes(stuck))
            for _ in range(3):
                env.step(np.array([0]))
            env.set_state(0, good)
            rng = np.random.default_rng(0)
            for t in range(40):
                a = rng.integers(0, int(env.action_space.nvec[0]), 1)
                x, y = env.step(a), twin.step(a)
                assert np.array_equal(x[0], y[0]) and x[1][0] == y[1][0], f"{{game}}: step {{t}} differs"
            print("SAME", game)
        """),
        timeout=280,
    )
    assert proc.returncode == 0, f"exit code {proc.returncode}:\n{proc.stderr[-3000:]}"
    for game in games:
        assert f"SAME {game}" in proc.stdout, proc.stdout


@pytest.mark.timeout(120)
def test_atari_state_with_a_huge_embedded_length_is_refused_without_allocating():
    """ALE's state holds length-prefixed strings: a length of 2**31 - 1 in a 42 KB blob must be a
    ValueError, not a 2 GiB allocation (the child runs with 1 GiB of address space to spare), and
    the env steps on from where it was."""
    pytest.importorskip("ale_py")
    proc = run_script(
        ATARI_CHECKSUM + textwrap.dedent("""
        import resource, struct
        import numpy as np
        import rlpool
        env = rlpool.make("Pong-v5", num_envs=1, num_threads=1)
        env.reset()
        state = bytearray(env.get_state(0))
        # Header: magic[8], md5[32], ring_bytes, emu_bytes (uint64 each), ...; ALE's part is last and
        # starts with 6 int32s, then its console state as a length-prefixed string.
        emu_bytes = struct.unpack_from("<Q", state, 48)[0]
        struct.pack_into("<i", state, len(state) - emu_bytes + 24, 2**31 - 1)
        sign(state)  # past the checksum, down to ALE's own reader
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), vm + (1 << 30)))
        try:
            env.set_state(0, bytes(state))
        except ValueError as e:
            print("REFUSED", e)
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        env.step(np.zeros(1, np.int64))
        print("STEPPED", len(state))
        """)
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # rlpool's own check of the snapshot refuses it first (ALE's reader, patched, would too).
    assert "REFUSED not a valid Atari env state: the length of the console snapshot is wrong" in proc.stdout, (
        proc.stdout
    )
    assert "STEPPED" in proc.stdout


@pytest.mark.timeout(120)
def test_running_out_of_memory_in_an_env_is_a_memory_error():
    """A std::bad_alloc while envs reset (each Atari env allocates its emulator then) is a
    MemoryError naming the env, not a RuntimeError."""
    pytest.importorskip("ale_py")
    proc = run_script(
        """
        import resource
        import rlpool
        envs = rlpool.make("Pong-v5", num_envs=2000, num_threads=1)
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (128 << 20), vm + (128 << 20)))
        try:
            envs.reset()
        except MemoryError as e:
            print("MEMORYERROR", e)
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        else:
            print("NO ERROR")
        """
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "MEMORYERROR env " in proc.stdout, proc.stdout


@pytest.mark.timeout(60)
def test_rom_path_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    pytest.importorskip("ale_py")
    fifo = tmp_path / "pong.bin"
    os.mkfifo(fifo)
    proc = run_script(
        f"""
        import rlpool
        try:
            rlpool.make("Pong-v5", rom_path={str(fifo)!r})
        except ValueError as e:
            print("REFUSED", e)
        """,
        timeout=50,
    )
    assert f"REFUSED rom_path '{fifo}' is not a file" in proc.stdout, proc.stdout + proc.stderr[-3000:]


@pytest.mark.timeout(60)
def test_rom_path_far_larger_than_any_rom_is_refused_unread(tmp_path):
    pytest.importorskip("ale_py")
    big = tmp_path / "huge.bin"
    with open(big, "wb") as f:
        f.truncate(2**31)  # sparse: 2 GiB that reading would have to go through
    with pytest.raises(ValueError, match=r"rom_path '.*huge\.bin' has 2147483648 bytes, more than any Atari ROM"):
        rlpool.make_spec("Pong-v5", rom_path=str(big))


@pytest.mark.timeout(120)
def test_mujoco_warnings_write_no_log_file_in_the_working_directory(tmp_path):
    """MuJoCo's default warning handler appends to MUJOCO_LOG.TXT in the cwd; rlpool's records them."""
    pytest.importorskip("mujoco")
    proc = run_script(
        """
        import numpy as np
        import rlpool
        env = rlpool.make("InvertedPendulum-v5", num_envs=1)
        env.reset()
        state = np.full(len(env.get_state(0)) // 8, 1e300)  # "Nan, Inf or huge value in QPOS"
        env.set_state(0, state.tobytes())
        env.step(np.zeros((1, 1), np.float32))
        print("STEPPED")
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "STEPPED" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert "WARNING" not in proc.stdout


_SELF_CLOSING_ENV = """
import numba
import numpy as np
from gymnasium import spaces

import rlpool
from rlpool import python_env

POOL = []
REFUSALS = []  # printed by the main thread: prints from several worker threads interleave


def close_pool():
    try:
        POOL[0].close()
    except RuntimeError as e:
        REFUSALS.append(f"CLOSE REFUSED {e}")
        raise


def step_pool():
    try:
        POOL[0].step(np.zeros(4, np.int64))
    except RuntimeError as e:
        REFUSALS.append(f"STEP REFUSED {e}")
        raise


@python_env.register(
    "SelfClosing-v0",
    obs=spaces.Box(-10.0, 10.0, (1,), np.float32),
    action=spaces.Discrete(2),
    state=1,
    max_episode_steps=100,
)
class SelfClosing:
    @staticmethod
    def reset(state, obs):
        state[0] = 0.0
        obs[0] = 0.0

    @staticmethod
    def step(state, action, obs):
        with numba.objmode():
            close_pool() if action == 0 else step_pool()
        obs[0] = state[0]
        return 1.0, False


for batch_size, action in ((4, 0), (2, 0), (2, 1)):
    env = rlpool.make("SelfClosing-v0", num_envs=4, batch_size=batch_size, num_threads=2)
    POOL[:] = [env]
    if batch_size == 4:
        env.reset()
    else:
        env.async_reset()
        env.recv()
        env.recv()  # every reset received: the next recv() is the step sent below
    try:
        if batch_size == 4:
            env.step(np.full(4, action, np.int64))
        else:
            env.send(np.full(2, action, np.int64), np.array([0, 1]))
            env.recv()
    except RuntimeError as e:
        print("CALLER GOT", batch_size, e, flush=True)
    else:
        print("NOT REFUSED", batch_size, flush=True)
    assert not env.closed
    env.close()
    POOL.clear()
for refusal in REFUSALS:
    print(refusal)
print("DONE", flush=True)
"""


@pytest.mark.timeout(180)
def test_an_env_closing_its_own_pool_is_refused(tmp_path):
    """A Python-written env reaching its own pool from step() (an objmode block) runs on a thread
    the pool owns: close() there would join that thread itself (a joinable thread left, abort at
    exit). It is refused with a RuntimeError, which reaches the caller as the env's error, and the
    process exits cleanly."""
    pytest.importorskip("numba")
    script = tmp_path / "self_closing.py"
    script.write_text(_SELF_CLOSING_ENV)
    proc = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=170,
        env=child_env(RLPOOL_CACHE_DIR=str(tmp_path / "cache")),
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "CLOSE REFUSED close() on a pool from inside one of its own envs" in proc.stdout, proc.stdout
    assert "STEP REFUSED this call on a pool from inside one of its own envs" in proc.stdout, proc.stdout
    assert proc.stdout.count("CALLER GOT") == 3, proc.stdout
    # The refusal's own text reaches the caller, also from a worker thread (numba's objmode used to
    # drop it there: the caller saw only "raised an exception").
    caller = [line for line in proc.stdout.splitlines() if line.startswith("CALLER GOT")]
    for line, what in zip(caller, ("close()", "close()", "this call"), strict=True):
        assert f"step() raised RuntimeError: {what} on a pool from inside one of its own envs" in line, line
    assert "NOT REFUSED" not in proc.stdout and "DONE" in proc.stdout


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("task", "spare_mib"), [("Hopper-v5", 200), ("HopperHop-v1", 300)])
def test_mujoco_running_out_of_memory_is_a_memory_error_not_an_exit(task, spare_mib, tmp_path):
    """mj_makeData reports running out of memory with mju_error, whose default handler prints, writes
    MUJOCO_LOG.TXT into the working directory and ends the process: it must be a MemoryError naming
    the model, with no file left behind."""
    pytest.importorskip("mujoco")
    proc = run_script(
        f"""
        import resource
        import rlpool
        rlpool.make({task!r}, num_envs=1).close()
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        limit = vm + ({spare_mib} << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            rlpool.make({task!r}, num_envs=20000, num_threads=1)
        except MemoryError as e:
            print("MEMORYERROR", e)
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        else:
            print("NO ERROR")
        """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "MEMORYERROR MuJoCo could not allocate mjData for " in proc.stdout, proc.stdout
    assert "Could not allocate memory" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == []


_TINY_STACK_MODEL = """
<mujoco>
  <size memory="2K"/>
  <worldbody>
    <body pos="0 0 1"><freejoint/><geom size="0.1"/></body>
    <body pos="0.05 0 1.1"><freejoint/><geom size="0.1"/></body>
    <geom type="plane" size="5 5 0.1"/>
  </worldbody>
</mujoco>
"""


@pytest.mark.timeout(120)
def test_mujoco_error_inside_a_step_is_an_exception_not_an_exit(tmp_path):
    """A model whose <size memory> is too small for mj_forward makes MuJoCo call mju_error, whose
    default handler prints, appends to MUJOCO_LOG.TXT in the working directory and ends the process:
    it must be a RuntimeError with MuJoCo's message, every time, and leave no file behind."""
    pytest.importorskip("mujoco")
    model = tmp_path / "model" / "tiny_stack.xml"
    model.parent.mkdir()
    model.write_text(_TINY_STACK_MODEL)
    work = tmp_path / "work"
    work.mkdir()
    proc = run_script(
        f"""
        import rlpool
        env = rlpool.make("InvertedPendulum-v5", xml_file={str(model)!r}, num_envs=2)
        for _ in range(2):
            try:
                env.reset()
            except RuntimeError as e:
                print("RUNTIMEERROR", e)
        print("ALIVE")
        """,
        cwd=work,
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert proc.stdout.count("RUNTIMEERROR env ") == 2, proc.stdout
    assert "MuJoCo error: mj_stackAlloc: out of memory" in proc.stdout
    assert "ALIVE" in proc.stdout
    assert sorted(p.name for p in work.iterdir()) == []


@pytest.mark.parametrize(
    ("task", "names"),
    [
        ("CartPole-v1", ["0", "1", "2", "3"]),
        ("Acrobot-v1", ["0", "1", "2", "3"]),
        ("Pendulum-v1", ["0", "1"]),
        ("MountainCar-v0", ["0", "1"]),
        ("MountainCarContinuous-v0", ["0", "1"]),
        ("Hopper-v5", [f"qpos[{i}]" for i in range(6)] + [f"qvel[{i}]" for i in range(6)]),
    ],
)
def test_a_state_with_a_non_finite_number_is_refused_and_changes_nothing(task, names):
    """A state whose numbers are NaN or infinite is refused by name, whichever entry it is, and the env
    steps on as a twin that was never given it (gymnasium's envs never hold such a state)."""
    if task.startswith("Hopper"):
        pytest.importorskip("mujoco")
    env, twin = make(task, num_envs=1), make(task, num_envs=1)
    env.reset()
    twin.reset()
    action = np.zeros(env.action_space.shape, env.action_space.dtype)
    state = np.frombuffer(env.get_state(0), np.float64)
    assert len(state) == len(names)
    for i, name in enumerate(names):
        for bad in (np.nan, np.inf, -np.inf):
            crafted = state.copy()
            crafted[i] = bad
            message = rf"state entry {re.escape(name)} is -?(nan|inf): a state holds finite"
            with pytest.raises(ValueError, match=message):
                env.set_state(0, crafted.tobytes())
            assert env.get_state(0) == twin.get_state(0)
    for _ in range(5):
        assert_same_result(env.step(action), twin.step(action))
    env.set_state(0, state.tobytes())  # the same numbers, finite: accepted
