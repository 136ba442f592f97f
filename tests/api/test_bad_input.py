"""Bad input must raise a clear Python exception and leave the pool usable: actions, env ids, calls in the
wrong order, calls after close().

"Clear" means the exception type fits the mistake and the message names it.
"Usable" means the next valid call succeeds and gives exactly what a twin pool
that never saw the bad call gives, so a rejected action was not applied.
"""

from __future__ import annotations

import numpy as np
import pytest
from bad_input import N, assert_same_result, async_pair, check_still_works, good_actions, reset_pair

import rlpool

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
