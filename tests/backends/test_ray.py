"""The Ray backend (rlpool.backends.ray): the same trajectories as a local pool, every face, faults, a cluster."""

import sys
import time

import numpy as np
import pytest
from lane import FULL

import rlpool
from rlpool.compat import envpool as ep

try:
    import ray
except ImportError:  # the tests below that need Ray skip
    ray = None

needs_ray = pytest.mark.skipif(ray is None, reason="needs Ray: pip install 'ray>=2.40' (rlpool's ray extra)")

TASK = "CartPole-v1"


@pytest.fixture(scope="module")
def local_ray():
    if ray is None:
        pytest.skip("needs Ray: pip install 'ray>=2.40' (rlpool's ray extra)")
    if ray.is_initialized():
        ray.shutdown()
    # A Ray of its own: not a cluster another run left behind (/tmp/ray/ray_current_cluster) or RAY_ADDRESS.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def action(env_id, k):
    """A fixed action for env ``env_id``'s ``k``-th step: both pools get the same."""
    return (env_id * 7 + k * 3 + (k * k) // 5) % 2


def assert_same(a, b, where=""):
    if isinstance(a, dict):
        assert set(a) == set(b), (where, sorted(a), sorted(b))
        for k in a:
            assert_same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert b.dtype == object and a.shape == b.shape, where
        for x, y in zip(a, b, strict=True):
            if x is None:
                assert y is None, where
            else:
                assert_same(x, y, where)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, (where, a, b)
        assert np.array_equal(a, b), (where, a, b)
    else:
        assert a == b, where


def make_pair(make, **kwargs):
    remote = make(backend="ray", num_workers=2, **kwargs)
    local = make(**kwargs)
    return remote, local


# ------------------------------------------------------------------------------------------------
# Same seeds, same trajectories.


@needs_ray
@pytest.mark.parametrize("mode", ["NextStep", "SameStep", "Disabled"])
def test_sync_same_as_local(local_ray, mode):
    kwargs = dict(num_envs=5, seed=7, max_episode_steps=12, autoreset_mode=mode)  # 5 envs: 3 + 2
    remote, local = make_pair(lambda **k: rlpool.make(TASK, **k), **kwargs)
    try:
        assert remote._pool.offsets == [0, 3, 5]
        assert_same(remote.reset(), local.reset())
        steps = np.zeros(5, int)
        for t in range(40):
            a = np.array([action(i, steps[i]) for i in range(5)])
            r, lo = remote.step(a), local.step(a)
            assert_same(r, lo, f"step {t}")
            steps += 1
            done = lo[2] | lo[3]
            if mode == "Disabled" and done.any():
                assert_same(remote.reset(options={"reset_mask": done}), local.reset(options={"reset_mask": done}))
        # Re-seeding as gymnasium defines it.
        assert_same(remote.reset(seed=123), local.reset(seed=123))
        assert_same(remote.step(np.ones(5, int)), local.step(np.ones(5, int)))
        assert_same(remote.reset(seed=[None, 5, None, 9, 1]), local.reset(seed=[None, 5, None, 9, 1]))
    finally:
        remote.close()
        local.close()


def run_async(env, num_envs, rounds, min_rows=0, timeout_s=30.0):
    """Per env: the list of its rows (obs, reward, terminated, truncated, elapsed_step, final obs).

    ``rounds`` batches, then on until every env has ``min_rows`` rows (or ``timeout_s`` passed): an async
    pool returns the first envs to finish, and a worker the OS descheduled holds its env back while the
    others run on (a few ms: hundreds of CartPole batches), so a fixed number of batches can leave an env
    with none.
    """
    rows = {i: [] for i in range(num_envs)}
    steps = np.zeros(num_envs, int)
    obs, info = env.reset()
    n = len(info["env_id"])
    result = (obs, np.zeros(n), np.zeros(n, bool), np.zeros(n, bool), info)  # reset rows: as a recv gives them
    deadline = time.monotonic() + timeout_s
    k = 0
    while k < rounds or (min(map(len, rows.values())) < min_rows and time.monotonic() < deadline):
        k += 1
        obs, reward, term, trunc, info = result
        ids = info["env_id"]
        for j, i in enumerate(ids):
            final = info.get("final_obs")
            rows[int(i)].append((
                obs[j].tobytes(), float(reward[j]), bool(term[j]), bool(trunc[j]),
                int(info["elapsed_step"][j]), None if final is None or final[j] is None else final[j].tobytes(),
            ))
        a = np.array([action(int(i), steps[i]) for i in ids])
        steps[ids] += 1
        result = env.step(a, ids)
    return rows


@needs_ray
@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_async_same_as_local(local_ray, mode):
    kwargs = dict(num_envs=6, batch_size=2, seed=3, max_episode_steps=9, autoreset_mode=mode)
    remote, local = make_pair(lambda **k: rlpool.make(TASK, **k), **kwargs)
    try:
        a, b = run_async(remote, 6, 60, min_rows=5), run_async(local, 6, 60, min_rows=5)
        # The order in which envs finish differs; each env's own trajectory does not.
        for i in range(6):
            n = min(len(a[i]), len(b[i]))
            assert n >= 5, (i, len(a[i]), len(b[i]))
            assert a[i][:n] == b[i][:n], i
    finally:
        remote.close()
        local.close()


@needs_ray
def test_sync_pixels_same_as_local(local_ray):
    remote, local = make_pair(lambda **k: rlpool.make("Pong-v5", **k), num_envs=8, seed=5)  # 2 pieces per worker
    try:
        assert_same(remote.reset(), local.reset())
        for t in range(10):
            a = np.array([action(i, t) % 6 for i in range(8)])
            assert_same(remote.step(a), local.step(a), f"step {t}")
    finally:
        remote.close()
        local.close()


@needs_ray
def test_async_pixels_same_as_local(local_ray):
    # 4 Pong rows (113 KB) come back from a worker in two results under Ray's inline size.
    kwargs = dict(num_envs=8, batch_size=4, seed=5, autoreset_mode="SameStep")
    remote, local = make_pair(lambda **k: rlpool.make("Pong-v5", **k), **kwargs)
    try:
        assert remote._pool._row_bytes * 4 > rlpool.backends.ray._INLINE_BYTES
        a, b = run_async(remote, 8, 20, min_rows=4), run_async(local, 8, 20, min_rows=4)
        for i in range(8):  # which envs come first differs (on until each env came back 4 times)
            n = min(len(a[i]), len(b[i]))
            assert n >= 4, (i, len(a[i]), len(b[i]))
            assert a[i][:n] == b[i][:n], i
    finally:
        remote.close()
        local.close()


@needs_ray
def test_async_env_ids_and_errors(local_ray):
    env = rlpool.make(TASK, num_envs=4, batch_size=3, backend="ray", num_workers=2)
    try:
        obs, info = env.reset()
        ids = info["env_id"]
        assert len(ids) == 3 and len(set(ids.tolist())) == 3
        with pytest.raises(ValueError, match="already in flight"):
            env.send(np.zeros(1, int), [int(np.setdiff1d(np.arange(4), ids)[0])])
        with pytest.raises(IndexError, match="out of range"):
            env.send(np.zeros(1, int), [4])
        with pytest.raises(RuntimeError, match="needs at least batch_size=3"):
            env.step(np.zeros(1, int), ids[:1])
        env.send(np.zeros(3, int), ids)
        _, _, _, _, info = env.recv()
        assert len(info["env_id"]) == 3
        with pytest.raises(RuntimeError, match="needs at least batch_size=3"):
            env.recv()
    finally:
        env.close()


# ------------------------------------------------------------------------------------------------
# Every face.


def _dm_rows(ts):
    return ts.step_type, ts.reward, ts.discount, ts.observation


def _leaves(tree):
    if isinstance(tree, tuple):
        return [x for t in tree for x in _leaves(t)]
    return [np.asarray(tree)]


def _per_env(result, dm):
    """(env ids, one comparable row per env) of any face's reset or step result."""
    if dm:
        obs = result.observation
        ids = np.asarray(obs.env_id)
        rows = [(int(result.step_type[j]), float(result.reward[j]), float(result.discount[j]),
                 tuple(f[j].tobytes() for f in _leaves(obs))) for j in range(len(ids))]
        return ids, rows
    obs, info = result[0], result[-1]
    ids = np.asarray(info["env_id"])
    rest = result[1:-1]
    rows = [(obs[j].tobytes(), *(float(x[j]) for x in rest)) for j in range(len(ids))]
    return ids, rows


def _drive(env, dm, num_envs, rounds, min_rows=0, timeout_s=30.0):
    """Per env: its rows, over ``rounds`` batches and then on until each env has ``min_rows`` (as ``run_async``)."""
    trajectories = {i: [] for i in range(num_envs)}
    steps = np.zeros(num_envs, int)
    result = env.reset()
    deadline = time.monotonic() + timeout_s
    k = 0
    while k < rounds or (min(map(len, trajectories.values())) < min_rows and time.monotonic() < deadline):
        k += 1
        ids, rows = _per_env(result, dm)
        for i, row in zip(ids.tolist(), rows, strict=True):
            trajectories[i].append(row[-1:] if len(row) == 2 else row)  # reset rows: (obs, info) only
        a = np.array([action(i, steps[i]) for i in ids])
        steps[ids] += 1
        result = env.step(a, ids)
    return trajectories


@needs_ray
@pytest.mark.parametrize("face", ["gym", "dm", "envpool-gymnasium", "envpool-dm"])
@pytest.mark.parametrize("batch_size", [4, 2] if FULL else [4])
def test_faces_same_as_local(local_ray, face, batch_size):
    kwargs = dict(num_envs=4, batch_size=batch_size, seed=11, max_episode_steps=10)
    make = {
        "gym": lambda **k: rlpool.make(TASK, env_type="gym", **k),
        "dm": lambda **k: rlpool.make(TASK, env_type="dm", **k),
        "envpool-gymnasium": lambda **k: ep.make_gymnasium(TASK, **k),
        "envpool-dm": lambda **k: ep.make_dm(TASK, **k),
    }[face]
    remote, local = make_pair(make, **kwargs)
    dm = face.endswith("dm")
    try:
        if batch_size == 4:  # sync: the same batches
            r, lo = remote.reset(), local.reset()
            assert_same(_dm_rows(r) if dm else r, _dm_rows(lo) if dm else lo)
            for t in range(25):
                a = np.array([action(i, t) for i in range(4)])
                r, lo = remote.step(a), local.step(a)
                assert_same(_dm_rows(r) if dm else r, _dm_rows(lo) if dm else lo, f"{face} step {t}")
        else:  # async: each env's rows agree; which envs come first may not
            a, b = _drive(remote, dm, 4, 30, min_rows=6), _drive(local, dm, 4, 30, min_rows=6)
            for i in range(4):  # an env may come back seldom (first come, first served)
                n = min(len(a[i]), len(b[i]))
                assert n >= 6, (face, {i: (len(a[i]), len(b[i])) for i in range(4)})
                assert a[i][1:n] == b[i][1:n], (face, i, n)
    finally:
        remote.close()
        local.close()


@needs_ray
def test_envpool_sync_subset_step(local_ray):
    remote, local = make_pair(lambda **k: ep.make_gymnasium(TASK, **k), num_envs=4, seed=2)
    try:
        assert_same(remote.reset(), local.reset())
        for ids in ([3, 0], [1], [0, 1, 2, 3], [2, 3]):
            a = np.ones(len(ids), int)
            assert_same(remote.step(a, np.array(ids)), local.step(a, np.array(ids)), str(ids))
        # EnvPool's dict action.
        act = {"action": np.zeros(2, int), "env_id": np.array([1, 2])}
        assert_same(remote.step(act), local.step(act))
    finally:
        remote.close()
        local.close()


@needs_ray
def test_render_and_state(local_ray):
    remote, local = make_pair(lambda **k: rlpool.make("Pong-v5", **k), num_envs=3, seed=5, render_mode="rgb_array",
                              render_env_id=[2, 0])
    try:
        remote.reset()
        local.reset()
        assert_same(np.asarray(remote.render()), np.asarray(local.render()))
        state = remote.get_state(2)
        assert state == local.get_state(2)
        remote.step(np.ones(3, int))
        local.step(np.ones(3, int))
        assert_same(np.asarray(remote.render([1])), np.asarray(local.render([1])))
        remote.set_state(2, state)
        assert remote.get_state(2) == state
    finally:
        remote.close()
        local.close()


# ------------------------------------------------------------------------------------------------
# Faults.


def _all_dead(actors):
    for a in actors:
        with pytest.raises(ray.exceptions.RayActorError):
            ray.get(a.ready.remote(), timeout=30)
    return True


@needs_ray
@pytest.mark.parametrize("batch_size", [5, 2] if FULL else [2])
def test_killed_worker_names_lost_envs(local_ray, batch_size):
    env = rlpool.make(TASK, num_envs=5, batch_size=batch_size, backend="ray", num_workers=2)
    try:
        actors = list(env._pool.workers)
        pg = env._pool._pg
        obs, info = env.reset()
        ids = info["env_id"]
        for _ in range(3):
            ids = env.step(np.zeros(len(ids), int), ids if batch_size < 5 else None)[4]["env_id"]
        ray.kill(actors[1])  # envs 3 and 4
        start = time.monotonic()
        lost = r"envs 3\.\.4 \(2 envs: \[3, 4\]\) are lost"
        with pytest.raises(rlpool.backends.ray.WorkerLostError, match=lost) as e:
            for _ in range(20):  # the next call that needs worker 1 fails; none hangs
                ids = env.step(np.zeros(len(ids), int), ids if batch_size < 5 else None)[4]["env_id"]
        assert e.value.env_ids == [3, 4]
        assert time.monotonic() - start < 30
        with pytest.raises(rlpool.backends.ray.WorkerLostError):  # and every call after it
            env.step(np.zeros(len(ids), int), ids if batch_size < 5 else None)
        env.close()
        assert _all_dead(actors)
        assert ray.util.placement_group_table(pg)["state"] == "REMOVED"
        env.close()  # again: nothing
    finally:
        env.close()  # also when an assertion failed: its placement group would hold the CPUs


@needs_ray
def test_restarted_worker_resets_and_flags_sync(local_ray):
    env = rlpool.make(TASK, num_envs=4, seed=1, backend="ray", num_workers=2, max_restarts=1)
    local = rlpool.make(TASK, num_envs=4, seed=1)
    try:
        env.reset()
        local.reset()
        for _ in range(5):
            r = env.step(np.ones(4, int))
            lo = local.step(np.ones(4, int))
            assert "restarted" not in r[4]
        ray.kill(env._pool.workers[0], no_restart=False)  # envs 0, 1
        for _ in range(100):  # ray.kill takes effect a little later: a step or two may still be the old worker's
            obs, reward, term, trunc, info = env.step(np.ones(4, int))
            lo = local.step(np.ones(4, int))
            if "restarted" in info:
                break
            time.sleep(0.05)
        assert info["restarted"].tolist() == [True, True, False, False]
        assert info["elapsed_step"][:2].tolist() == [0, 0] and not (term | trunc)[:2].any()
        # The restarted envs start again from their seeds' first episode; the others go on as locally.
        fresh = rlpool.make(TASK, num_envs=4, seed=1)
        assert_same(obs[:2], fresh.reset()[0][:2])
        fresh.close()
        assert_same(obs[2:], lo[0][2:])
        assert env._pool.restarts == [1, 0]
        r = env.step(np.ones(4, int))
        assert "restarted" not in r[4]
    finally:
        env.close()
        local.close()


@needs_ray
def test_restarted_worker_resets_and_flags_async(local_ray):
    env = rlpool.make(TASK, num_envs=6, batch_size=2, seed=1, backend="ray", num_workers=2, max_restarts=2)
    try:
        obs, info = env.reset()
        ids = info["env_id"]
        for _ in range(10):
            ids = env.step(np.zeros(len(ids), int), ids)[4]["env_id"]
        ray.kill(env._pool.workers[1], no_restart=False)  # envs 3, 4, 5
        flagged = set()
        deadline = time.monotonic() + 60
        while flagged != {3, 4, 5} and time.monotonic() < deadline:  # worker 0 goes on while Ray restarts 1
            obs, reward, term, trunc, info = env.step(np.zeros(len(ids), int), ids)
            ids = info["env_id"]
            if "restarted" in info:
                rows = np.flatnonzero(info["restarted"])
                assert set(ids[rows].tolist()) <= {3, 4, 5}
                assert (info["elapsed_step"][rows] == 0).all()
                flagged |= set(ids[rows].tolist())
        assert flagged == {3, 4, 5}
        assert env._pool.restarts == [0, 1]
    finally:
        env.close()


@needs_ray
def test_close_after_failure_removes_every_actor(local_ray):
    env = rlpool.make(TASK, num_envs=4, batch_size=2, backend="ray", num_workers=2)
    try:
        actors, pg = list(env._pool.workers), env._pool._pg
        env.reset()
        ray.kill(actors[0])
        env.close()
        assert _all_dead(actors)
        assert ray.util.placement_group_table(pg)["state"] == "REMOVED"
    finally:
        env.close()  # also when an assertion failed: its placement group would hold the CPUs


@needs_ray
def test_no_room_is_a_clear_error(local_ray):
    groups = len(ray.util.placement_group_table())
    with pytest.raises(RuntimeError, match="no room for 3 workers"):
        rlpool.make(TASK, num_envs=3, backend="ray", num_workers=3, num_cpus_per_worker=1, placement_timeout_s=1)
    table = ray.util.placement_group_table()
    assert len(table) == groups + 1 and list(table.values())[-1]["state"] == "REMOVED"


# ------------------------------------------------------------------------------------------------
# Options and the optional dependency.


def test_backend_options_checked():
    with pytest.raises(ValueError, match="backend must be"):
        rlpool.make_spec(TASK, backend="dask")
    with pytest.raises(ValueError, match="options of backend='ray'"):
        rlpool.make_spec(TASK, num_workers=2)
    spec = rlpool.make_spec(TASK, backend="ray", num_workers=2, num_envs=4)
    assert "backend" not in spec.config and spec.backend["num_workers"] == 2


def test_thread_affinity_is_refused():
    with pytest.raises(ValueError, match="thread_affinity_offset is not taken with backend='ray'"):
        rlpool.make_spec("CartPole-v1", num_envs=2, backend="ray", num_workers=1, thread_affinity_offset=0)


def test_worker_options_the_backend_owns_are_refused():
    for key in ("num_cpus", "max_restarts", "max_concurrency", "scheduling_strategy"):
        with pytest.raises(ValueError, match="worker_options may not set"):
            rlpool.make("CartPole-v1", num_envs=2, backend="ray", num_workers=1, worker_options={key: 1})


def test_a_second_thread_is_refused_while_one_is_inside(local_ray):
    """As the C++ pool: one thread at a time; a call from another thread meanwhile is an error, not a race."""
    import threading

    env = rlpool.make("CartPole-v1", num_envs=2, backend="ray", num_workers=1)
    env.reset()
    pool = env._pool
    inside, release = threading.Event(), threading.Event()
    original = pool._gather

    def slow_gather(*args, **kwargs):
        inside.set()
        release.wait(30)
        return original(*args, **kwargs)

    pool._gather = slow_gather
    t = threading.Thread(target=lambda: env.step(np.zeros(2, np.int64)))
    t.start()
    try:
        assert inside.wait(30)
        with pytest.raises(RuntimeError, match="another thread"):
            env.step(np.zeros(2, np.int64))
    finally:
        release.set()
        t.join(30)
        pool._gather = original
    env.step(np.zeros(2, np.int64))  # free again
    env.close()


@pytest.mark.parametrize(("task", "num_envs"), [("CartPole-v1", 4), ("Pong-v5", 8)])
def test_results_are_writable_as_a_local_pools(local_ray, task, num_envs):
    """Arrays Ray hands back in one piece are read-only views; the pool's results are writable, as locally."""
    env = rlpool.make(task, num_envs=num_envs, backend="ray", num_workers=1)
    obs, _ = env.reset()
    obs, reward, *_ = env.step(np.zeros(num_envs, np.int64))
    assert obs.flags.writeable and reward.flags.writeable
    obs[0] += 1  # as with a local pool's results
    env.close()


def test_ray_missing_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(ImportError, match=r"pip install 'ray>=2.40' \(rlpool's ray extra"):
        rlpool.make(TASK, num_envs=2, backend="ray")


def test_import_rlpool_does_not_import_ray():
    import subprocess

    out = subprocess.run([sys.executable, "-c", "import sys, rlpool; print('ray' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------------------------------------
# Three nodes (ray.cluster_utils.Cluster on this machine). Last: it replaces the module's Ray.


@needs_ray
@pytest.mark.skipif(not FULL, reason="three Ray nodes on one machine take 10 s: the full lane (CI)")
def test_three_node_cluster(local_ray):
    from ray.cluster_utils import Cluster

    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        for _ in range(2):
            cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
        cluster.wait_for_nodes()
        kwargs = dict(num_envs=6, seed=4, max_episode_steps=8)
        env = rlpool.make(TASK, backend="ray", num_workers=3, placement_strategy="STRICT_SPREAD", **kwargs)
        local = rlpool.make(TASK, **kwargs)
        try:
            assert len(set(env._pool.node_ids)) == 3  # one worker per node
            assert_same(env.reset(), local.reset())
            for t in range(15):
                a = np.array([action(i, t) for i in range(6)])
                assert_same(env.step(a), local.step(a), f"step {t}")
        finally:
            env.close()
            local.close()
    finally:
        ray.shutdown()
        cluster.shutdown()


@needs_ray
def test_settings_reach_every_worker(local_ray):
    """The C++ Pool's settings set on a Ray pool apply on every worker, nested env ids made global."""
    env = rlpool.make(TASK, num_envs=4, backend="ray", num_workers=2)
    pool = env._pool
    pool.reward_dtype = "float32"
    pool.info_keys = [("env_id", "env_id"), ("who.env_id", "env_id"), ("elapsed_step", "elapsed_step")]
    _, info = env.reset(seed=0)
    assert np.array_equal(info["who"]["env_id"], np.arange(4))
    _, reward, *_ = pool.step(np.zeros(4, np.int64))
    assert reward.dtype == np.float32
    with pytest.raises(ValueError, match="must keep"):
        pool.info_keys = [("id", "env_id")]
    with pytest.raises(ValueError, match="reward_dtype"):
        pool.reward_dtype = "int8"  # refused by the workers' pools: the old value stays
    assert pool.reward_dtype == "float32"
    env.close()
