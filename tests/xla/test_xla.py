"""env.xla(): the pool stepped from inside jax.jit.

The reference is the same pool stepped from Python with the same policy: a jitted lax.scan must give
bitwise the same observations, rewards and flags, in sync mode (row i = env i) and in async mode (rows in
completion order, compared per env).
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from lane import REPO, require, vizdoom_missing

import rlpool

jax = pytest.importorskip("jax")
jnp = jax.numpy

STEPS = 1000
ATARI = "Pong-v5" in rlpool.list_all_envs()


def _policy_np(task: str, obs: np.ndarray, t: int | np.ndarray) -> np.ndarray:
    """A deterministic policy both loops compute alike (integer arithmetic on the observation)."""
    if task.startswith("CartPole"):
        return ((obs[:, 2] > 0) ^ (t % 7 == 0)).astype(np.int32)
    flat = obs.reshape(obs.shape[0], -1)[:, ::97].astype(np.int32)
    return ((flat.sum(axis=1) + t) % 6).astype(np.int32)


def _policy_jax(task: str, obs: jax.Array, t: jax.Array) -> jax.Array:
    if task.startswith("CartPole"):
        return ((obs[:, 2] > 0) ^ (t % 7 == 0)).astype(jnp.int32)
    flat = obs.reshape(obs.shape[0], -1)[:, ::97].astype(jnp.int32)
    return ((flat.sum(axis=1) + t) % 6).astype(jnp.int32)


def _tasks() -> list:
    tasks = ["CartPole-v1"]
    tasks.append(pytest.param("Pong-v5", marks=pytest.mark.skipif(not ATARI, reason="Atari not built")))
    return tasks


def _make(task: str, async_: bool) -> rlpool.GymnasiumVectorEnv:
    n = 8 if async_ else 4
    return rlpool.make(task, num_envs=n, batch_size=4, seed=3, num_threads=2)


@pytest.mark.parametrize("task", _tasks())
def test_scan_matches_python_sync(task):
    env = _make(task, async_=False)
    obs0, _ = env.reset()
    handle, _, _, step = env.xla()

    def body(carry, t):
        h, obs = carry
        h, (obs, reward, terminated, truncated, info) = step(h, _policy_jax(task, obs, t))
        return (h, obs), (obs, reward, terminated, truncated, info["elapsed_step"])

    run = jax.jit(lambda h, o: jax.lax.scan(body, (h, o), jnp.arange(STEPS)))
    _, (obs, reward, terminated, truncated, elapsed) = jax.device_get(run(handle, obs0))

    ref = _make(task, async_=False)
    o, _ = ref.reset()
    done = 0
    for t in range(STEPS):
        o, r, te, tr, info = ref.step(_policy_np(task, o, t))
        assert np.array_equal(obs[t], o), t
        assert np.array_equal(reward[t], r.astype(np.float32)), t
        assert np.array_equal(terminated[t], te) and np.array_equal(truncated[t], tr), t
        assert np.array_equal(elapsed[t], info["elapsed_step"]), t
        done += int((te | tr).sum())
    assert done > 0 or task != "CartPole-v1"  # episodes ended (and autoreset) inside the scan
    env.close()
    ref.close()


def _async_python(task: str) -> dict[int, list]:
    env = _make(task, async_=True)
    env.async_reset()
    per_env: dict[int, list] = {i: [] for i in range(env.num_envs)}
    o, r, te, tr, info = env.recv()
    # Every env's sequence starts with its reset (some come in later batches than the first).
    for k, i in enumerate(info["env_id"]):
        per_env[int(i)].append((o[k].copy(), np.float32(r[k]), bool(te[k]), bool(tr[k])))
    for _ in range(STEPS):
        ids = info["env_id"]
        # The batch's rows come in completion order: the policy reads each env's own step count.
        env.send(_policy_np(task, o, info["elapsed_step"]), ids)
        o, r, te, tr, info = env.recv()
        for k, i in enumerate(info["env_id"]):
            per_env[int(i)].append((o[k].copy(), np.float32(r[k]), bool(te[k]), bool(tr[k])))
    env.close()
    return per_env


@pytest.mark.parametrize("task", _tasks())
def test_scan_matches_python_async(task):
    env = _make(task, async_=True)
    env.async_reset()
    handle, recv, send, step = env.xla()

    def body(carry, _):
        h, obs, ids, elapsed = carry
        h, (obs, reward, terminated, truncated, info) = step(h, _policy_jax(task, obs, elapsed), ids)
        return (h, obs, info["env_id"], info["elapsed_step"]), (obs, reward, terminated, truncated, info["env_id"])

    def run(h):
        h, (obs, reward, terminated, truncated, info) = recv(h)
        first = (obs, reward, terminated, truncated, info["env_id"])
        return first, jax.lax.scan(body, (h, obs, info["env_id"], info["elapsed_step"]), length=STEPS)[1]

    first, rest = jax.device_get(jax.jit(run)(handle))
    joined = (np.concatenate([f[None], r]) for f, r in zip(first, rest, strict=True))
    obs, reward, terminated, truncated, env_id = joined
    got: dict[int, list] = {i: [] for i in range(env.num_envs)}
    for t in range(STEPS + 1):
        for k, i in enumerate(env_id[t]):
            got[int(i)].append((obs[t, k], reward[t, k], bool(terminated[t, k]), bool(truncated[t, k])))
    want = _async_python(task)
    # Each env's own sequence is deterministic whatever the completion order; how many steps each env
    # got in 1000 batches is not, so the common prefix is compared.
    for i in got:
        n = min(len(got[i]), len(want[i]))
        assert n >= 100, (i, len(got[i]), len(want[i]))
        for s in range(n):
            assert np.array_equal(got[i][s][0], want[i][s][0]), (i, s)
            assert got[i][s][1:] == want[i][s][1:], (i, s)
    env.close()


def test_bad_action_inside_jit_raises():
    env = rlpool.make("CartPole-v1", num_envs=2)
    obs, _ = env.reset()
    handle, _, _, step = env.xla()

    @jax.jit
    def bad(h):
        h, (obs, *_rest) = step(h, jnp.array([0, 5], jnp.int32))
        return h, obs

    with pytest.raises(Exception, match="action 5 for env 1 is out of range"):
        jax.block_until_ready(bad(handle))
    # Nothing was queued: the pool still steps, from jax and from Python.
    h, o = jax.jit(lambda h: step(h, jnp.zeros(2, jnp.int32)))(handle)
    assert np.asarray(o[0]).shape == (2, 4)
    env.step(np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="discrete actions must be integers"):
        jax.jit(lambda h: step(h, jnp.zeros(2, jnp.float32)))(handle)
    with pytest.raises(ValueError, match="actions must have shape"):
        jax.jit(lambda h: step(h, jnp.zeros(3, jnp.int32)))(handle)
    env.close()


def test_async_errors_raise():
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=2)
    env.async_reset()
    handle, recv, send, _ = env.xla()
    # All four are in flight: sending env 0 again is refused.
    with pytest.raises(Exception, match="already in flight"):
        jax.block_until_ready(jax.jit(lambda h: send(h, jnp.zeros(1, jnp.int32), jnp.array([0])))(handle))
    h, (_, _, _, _, info) = jax.jit(recv)(handle)
    h, (_, _, _, _, info2) = jax.jit(recv)(h)
    assert sorted(np.concatenate([info["env_id"], info2["env_id"]]).tolist()) == [0, 1, 2, 3]
    with pytest.raises(Exception, match="needs at least batch_size=2 envs in flight"):
        jax.block_until_ready(jax.jit(recv)(h))
    env.close()


def test_stale_and_forged_handles_raise():
    env = rlpool.make("CartPole-v1", num_envs=2)
    env.reset()
    handle, recv, send, step = env.xla()
    f = jax.jit(lambda h: step(h, jnp.zeros(2, jnp.int32))[1][1])
    f(handle)
    env.close()
    with pytest.raises(Exception, match="names no live pool"):
        jax.block_until_ready(f(handle))
    other = rlpool.make("CartPole-v1", num_envs=2)
    other.reset()
    other.xla()
    with pytest.raises(Exception, match="names no live pool"):  # a closed pool's handle never names another
        jax.block_until_ready(f(handle))
    forged = np.random.default_rng(0).integers(0, 256, 16, dtype=np.uint8)
    with pytest.raises(Exception, match="names no live pool"):
        jax.block_until_ready(f(forged))
    with pytest.raises(TypeError, match=r"handle must be the uint8\[16\] array"):
        f(np.zeros(8, np.uint8))
    with pytest.raises(RuntimeError, match="closed"):
        env.xla()
    other.close()
    # A pool freed without close() leaves the registry too.
    import gc

    third = rlpool.make("CartPole-v1", num_envs=2)
    third.reset()
    h3 = third.xla()[0]
    f(h3)
    del third
    gc.collect()
    with pytest.raises(Exception, match="names no live pool"):
        jax.block_until_ready(f(h3))


def test_python_calls_after_xla_see_the_latest_rows():
    env = rlpool.make("CartPole-v1", num_envs=3, seed=5)
    env.reset()
    handle, _, _, step = env.xla()
    h, (obs, *_r) = jax.jit(lambda h: step(h, jnp.ones(3, jnp.int32)))(handle)
    # A partial reset repeats the other envs' latest rows: those the XLA step wrote.
    o, _ = env.reset(options={"reset_mask": np.array([True, False, False])})
    assert np.array_equal(o[1:], np.asarray(obs)[1:])
    o2, *_ = env.step(np.zeros(3, np.int64))
    ref = rlpool.make("CartPole-v1", num_envs=3, seed=5)
    ref.reset()
    ref.step(np.ones(3, np.int64))
    ref.reset(options={"reset_mask": np.array([True, False, False])})
    assert np.array_equal(o2, ref.step(np.zeros(3, np.int64))[0])
    env.close()
    ref.close()


def test_async_mixed_with_python_recv():
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=1)
    env.async_reset()
    handle, recv, send, _ = env.xla()
    h, (_, _, _, _, info) = jax.jit(recv)(handle)
    ids = np.asarray(info["env_id"])
    jax.block_until_ready(jax.jit(lambda h: send(h, jnp.zeros(2, jnp.int32), ids))(h))
    for _ in range(3):  # blocks XLA put in the ring come back to Python
        _, _, _, _, info = env.recv()
        env.send(np.zeros(2, np.int64), info["env_id"])
    env.close()


def test_same_step_final_obs():
    env = rlpool.make("CartPole-v1", num_envs=2, seed=2, autoreset_mode="SameStep")
    env.reset()
    ref = rlpool.make("CartPole-v1", num_envs=2, seed=2, autoreset_mode="SameStep")
    ref.reset()
    handle, _, _, step = env.xla()
    f = jax.jit(lambda h: step(h, jnp.ones(2, jnp.int32)))
    h, ended = handle, 0
    for _ in range(40):
        h, (obs, _, te, tr, info) = f(h)
        o, _, rte, rtr, rinfo = ref.step(np.ones(2, np.int64))
        assert np.array_equal(np.asarray(obs), o)
        for i in np.flatnonzero(rte | rtr):
            assert np.array_equal(np.asarray(info["final_obs"])[i], rinfo["final_obs"][i])
            ended += 1
    assert ended > 0
    env.close()
    ref.close()


def test_nested_dict_obs_and_hidden_info():
    """A dict observation's "outer.inner" entries come as nested dicts, as from Python; hidden info stays out."""
    env = rlpool.make("NestedDict-v0", num_envs=2, seed=5, autoreset_mode="SameStep", episode_length=3)
    env.reset()
    ref = rlpool.make("NestedDict-v0", num_envs=2, seed=5, autoreset_mode="SameStep", episode_length=3)
    ref.reset()
    handle, _, _, step = env.xla()
    f = jax.jit(lambda h: step(h, jnp.ones(2, jnp.int32)))
    h = handle
    for _ in range(4):
        h, (obs, _, _, _, info) = f(h)
        o, _, _, _, rinfo = ref.step(np.ones(2, np.int64))
        assert sorted(obs) == sorted(o) and sorted(obs["achieved_goal"]) == ["a", "b"]
        jax.tree_util.tree_map(lambda a, b: np.testing.assert_array_equal(np.asarray(a), b), obs, o)
        assert sorted(info) == ["count", "elapsed_step", "env_id", "final_info", "final_obs"]
        assert sorted(info["final_info"]) == ["count", "elapsed_step"]
        assert isinstance(info["final_obs"]["desired_goal"], dict)
    env.close()
    ref.close()


def _tree_types(tree):
    return jax.tree_util.tree_map(lambda x: (tuple(x.shape), np.dtype(x.dtype)), tree)


@pytest.mark.parametrize("task", _tasks())
def test_compat_xla_as_envpool(task):
    """rlpool.compat.envpool's xla() has EnvPool 1.2.5's signature and result structure."""
    import rlpool.compat.envpool as compat

    envpool = pytest.importorskip("envpool")
    results = []
    for module in (compat, envpool):
        env = module.make_gymnasium(task, num_envs=4, batch_size=4, seed=0)
        env.reset()
        handle, recv, send, step = env.xla()

        def body(h, t, step=step):
            h, r = step(h, jnp.full(4, t % 2, jnp.int32))
            return h, r

        _, out = jax.jit(lambda h, body=body: jax.lax.scan(body, h, jnp.arange(5)))(handle)
        results.append(jax.device_get(out))
        env.close()
    ours, theirs = results
    assert jax.tree_util.tree_structure(ours) == jax.tree_util.tree_structure(theirs)
    assert _tree_types(ours) == _tree_types(theirs)
    # And the values are what compat's own step() gives.
    env = compat.make_gymnasium(task, num_envs=4, batch_size=4, seed=0)
    env.reset()
    for t in range(5):
        o, r, te, tr, info = env.step(np.full(4, t % 2, np.int32))
        assert np.array_equal(ours[0][t], o) and np.array_equal(ours[1][t], r)
        assert np.array_equal(ours[4]["elapsed_step"][t], info["elapsed_step"])
    env.close()


def test_legacy_xla_gives_four_tuples():
    """The legacy layer's xla() step, inside jit and scan, gives gym < 0.26's (obs, reward, done, info), as
    CleanRL's XLA script unpacks it, with the values of its own step()."""
    import rlpool.compat.envpool_legacy as legacy

    env = legacy.make_gym("CartPole-v1", num_envs=4, seed=0, max_episode_steps=3)
    env.reset()
    handle, _, _, step = env.xla()

    def body(h, t):
        h, (obs, reward, done, info) = step(h, jnp.full(4, t % 2, jnp.int32))
        return h, (obs, reward, done, info["TimeLimit.truncated"])

    _, out = jax.jit(lambda h: jax.lax.scan(body, h, jnp.arange(4)))(handle)
    env.close()
    env = legacy.make_gym("CartPole-v1", num_envs=4, seed=0, max_episode_steps=3)
    env.reset()
    for t in range(4):
        obs, reward, done, info = env.step(np.full(4, t % 2, np.int32))
        assert np.array_equal(out[0][t], obs) and np.array_equal(out[1][t], reward)
        assert np.array_equal(out[2][t], done) and np.array_equal(out[3][t], info["TimeLimit.truncated"])
    assert np.asarray(out[3][2]).all()  # the time limit, as TimeLimit.truncated
    env.close()


def test_compat_dm_xla_refused():
    import rlpool.compat.envpool as compat

    pytest.importorskip("dm_env")
    env = compat.make_dm("CartPole-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="gymnasium pools"):
        env.xla()
    env.close()


def test_without_jax_names_the_extra():
    code = (
        "import sys; sys.modules['jax'] = None\n"
        "import rlpool\n"
        "env = rlpool.make('CartPole-v1', num_envs=2); env.reset(); env.step([0, 1])\n"
        "try:\n    env.xla()\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "pip install 'jax>=0.10' (rlpool's jax extra: pip install '.[jax]'" in out.stdout, out.stderr


def test_handlers_compile_on_first_use(tmp_path, monkeypatch):
    """Without a library built with the package, the handlers compile into the cache once, then load from it."""
    import ctypes

    import jaxlib

    from rlpool.xla import _build

    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path))
    lib = _build._compile(jaxlib.__version__, jax.ffi.include_dir())
    assert lib.is_relative_to(tmp_path / "xla")
    loaded = ctypes.CDLL(str(lib))
    assert loaded.rlpool_xla_bridge_version() == _build._BRIDGE_VERSION
    for symbol in ("RlpoolXlaSend", "RlpoolXlaRecv", "RlpoolXlaStep", "rlpool_xla_init"):
        assert hasattr(loaded, symbol)
    stamp = lib.stat().st_mtime_ns
    assert _build._compile(jaxlib.__version__, jax.ffi.include_dir()) == lib and lib.stat().st_mtime_ns == stamp
    # A library built for another jaxlib is not used.
    assert _build._prebuilt("0.0.0") is None
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    monkeypatch.setattr(_build.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="no C\\+\\+ compiler"):
        _build._compile("other", jax.ffi.include_dir())


def test_sync_send_then_python_recv():
    env = rlpool.make("CartPole-v1", num_envs=2, seed=4)
    env.reset()
    ref = rlpool.make("CartPole-v1", num_envs=2, seed=4)
    ref.reset()
    handle, recv, send, _ = env.xla()
    h = jax.block_until_ready(jax.jit(lambda h: send(h, jnp.ones(2, jnp.int32)))(handle))
    with pytest.raises(RuntimeError, match="has not been received"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(Exception, match="recv the previous batch first"):
        jax.block_until_ready(jax.jit(lambda h: send(h, jnp.ones(2, jnp.int32)))(h))
    assert np.array_equal(env.recv()[0], ref.step(np.ones(2, np.int64))[0])
    assert np.array_equal(env.step(np.zeros(2, np.int64))[0], ref.step(np.zeros(2, np.int64))[0])
    env.close()
    ref.close()


@pytest.mark.skipif(not ATARI, reason="Atari not built")
def test_ppo_atari_xla_example_runs():
    """The example's jitted update (rollout with the env inside, GAE, minibatch updates) runs a few hundred steps."""

    sys.path.insert(0, str(REPO / "examples"))
    import ppo_atari_xla_jax as ppo

    args = ppo.Args(env_id="Breakout-v5", num_envs=4, num_steps=32, total_timesteps=256, update_epochs=1,
                    num_minibatches=2, log_every=0)
    params, stats = ppo.train(args)
    assert stats["timesteps"] == 256
    assert all(np.isfinite(np.asarray(leaf)).all() for leaf in jax.tree_util.tree_leaves(params))


# One task per family or observation/action kind: dict observations (DeepMind Control), continuous actions
# (MuJoCo, classic control, Box2D), discrete toy text, tuple observations (Blackjack).
FAMILIES = ["Pendulum-v1", "Taxi-v3", "Blackjack-v1", "HalfCheetah-v4", "CheetahRun-v1", "BipedalWalker-v3"]


@pytest.mark.parametrize("task", FAMILIES)
@pytest.mark.parametrize("batch_size", [2, 3])
def test_families_step_alike(task, batch_size):
    """Every kind of observation and action goes through the XLA calls as through Python (20 steps)."""
    if task not in rlpool.list_all_envs():
        pytest.skip(f"{task} is not built")
    _step_alike(task, batch_size, steps=20)


def _step_alike(task: str, batch_size: int, steps: int) -> list[float]:
    """Step one pool of 3 envs through its XLA calls (each call jitted) and a twin pool (same seed) through
    Python with the same actions; assert every observation, reward and flag equal, and return the rewards
    compared (one per env step, resets included in async mode)."""
    n = 3
    env = rlpool.make(task, num_envs=n, batch_size=batch_size, seed=7)
    ref = rlpool.make(task, num_envs=n, batch_size=batch_size, seed=7)
    space = env.single_action_space
    space.seed(0)
    actions = [np.stack([space.sample() for _ in range(batch_size)]) for _ in range(steps)]
    # jax (without x64) passes float32 actions: give both paths the same float32 values.
    actions = [a.astype(np.float32) if a.dtype.kind == "f" else a for a in actions]
    handle, recv, send, step = env.xla()
    step_jit = jax.jit(step)
    recv_jit = jax.jit(recv)
    rewards: list[float] = []
    if batch_size == n:
        env.reset()
        ref.reset()
        h = handle
        for a in actions:
            h, got = step_jit(h, a)
            want = ref.step(a)
            jax.tree_util.tree_map(
                lambda g, w: np.testing.assert_array_equal(np.asarray(g), np.asarray(w).astype(np.asarray(g).dtype)),
                got[:4], tuple(want[:4]),
            )
            rewards += np.asarray(got[1]).tolist()
    else:  # async: per env, the k-th result; each env's k-th action is its own whatever the batch order
        per_env = [[space.sample() for _ in range(len(actions))] for _ in range(n)]
        per_env = [[a.astype(np.float32) if a.dtype.kind == "f" else a for a in seq] for seq in per_env]
        env.async_reset()
        ref.async_reset()
        h, got = recv_jit(handle)
        want = ref.recv()
        mine: dict[int, list] = {i: [] for i in range(n)}
        theirs: dict[int, list] = {i: [] for i in range(n)}
        count = {"mine": [0] * n, "theirs": [0] * n}

        def record(res: Any, out: dict[int, list]) -> None:
            flat = jax.tree_util.tree_leaves(res[0])
            for k, i in enumerate(np.asarray(res[4]["env_id"])):
                out[int(i)].append([np.array(x)[k] for x in flat] + [np.float32(res[1][k])])

        record(got, mine)  # every env's sequence starts with its reset
        record(want, theirs)

        def batch(ids: np.ndarray, who: str) -> np.ndarray:
            rows = [per_env[i][count[who][i]] for i in ids]
            for i in ids:
                count[who][i] += 1
            return np.stack(rows)

        for _ in actions:
            ids = np.asarray(got[4]["env_id"])
            h, got = step_jit(h, batch(ids, "mine"), ids)
            ids = want[4]["env_id"]
            want = ref.step(batch(ids, "theirs"), ids)
            record(got, mine)
            record(want, theirs)
        for i in range(n):
            for g, w in zip(mine[i], theirs[i], strict=False):
                for x, y in zip(g, w, strict=True):
                    np.testing.assert_array_equal(x, np.asarray(y).astype(x.dtype))
                rewards.append(float(g[-1]))
    env.close()
    ref.close()
    assert len(rewards) > n, "no step was compared"
    return rewards


# Image and grid observations: Procgen (64x64 frames), Minigrid (a dict: the view's grid, the direction,
# the mission's bytes), ViZDoom (screen frames; its engines run in processes of their own).
# Steps enough for rewards to come (Bigfish: a fish eaten; Empty-5x5: the goal reached by random moves).
STEPS_BY_TASK = {"BigfishEasy-v0": 300, "MiniGrid-Empty-5x5-v0": 500, "Basic-v1": 100}


CASES = [(task, batch_size) for batch_size in (2, 3) for task in STEPS_BY_TASK]


@pytest.mark.parametrize(("task", "batch_size"), CASES)
def test_procgen_minigrid_vizdoom_step_alike(task, batch_size):
    """Frames and grids go through the XLA calls as through Python, sync and async."""
    if task == "Basic-v1":
        require(vizdoom_missing())
    rewards = _step_alike(task, batch_size, steps=STEPS_BY_TASK[task])
    assert any(r != 0 for r in rewards), "only zero rewards were compared"


def test_python_env_family_through_xla():
    """A numba-compiled Python env (its step may take the GIL on XLA's thread) steps inside jit as from Python."""
    pytest.importorskip("numba")

    sys.path.insert(0, str(REPO / "examples"))
    import python_cartpole  # noqa: F401  (registers PyCartPole-v1)

    for batch_size in (4, 2):
        env = rlpool.make("PyCartPole-v1", num_envs=4, batch_size=batch_size, seed=1)
        ref = rlpool.make("PyCartPole-v1", num_envs=4, batch_size=4, seed=1)
        handle, recv, _, step = env.xla()
        if batch_size == 4:
            env.reset()
            ref.reset()
            def body(h, t, step=step):
                return step(h, (t % 3 == 0).astype(jnp.int32) * jnp.ones(4, jnp.int32))

            _, (obs, reward, *_r) = jax.jit(lambda h, body=body: jax.lax.scan(body, h, jnp.arange(60)))(handle)
            for t in range(60):
                o = ref.step(np.full(4, int(t % 3 == 0), np.int64))[0]
                assert np.array_equal(np.asarray(obs[t]), o), t
        else:
            env.async_reset()
            h, out = jax.jit(recv)(handle)
            step_jit = jax.jit(step)
            for _ in range(30):
                h, out = step_jit(h, jnp.ones(2, jnp.int32), out[4]["env_id"])
            assert np.asarray(out[0]).shape == (2, 4)
        env.close()
        ref.close()


def test_bench_xla_peer_steps_the_pool_it_times():
    """`rlpool bench`'s rlpool-xla peer: each timed call is `steps` jitted sync steps of every env with the
    fixed actions (a twin pool stepped as many times from Python ends in the same states), and the
    measurement counts them."""
    from rlpool.tools import bench

    actions = bench.sample_actions("CartPole-v1", 3)
    runner = bench.make_runner("rlpool-xla", "CartPole-v1", 3, actions)
    try:
        assert runner.steps >= 1 and runner.batch_size == 3 * runner.steps
        runner.run(2)
        twin = rlpool.make_gymnasium("CartPole-v1", num_envs=3, seed=bench.ENV_SEED)
        twin.reset()
        for _ in range(25 + 3 * runner.steps):  # the sizing steps, the compiling call, two timed calls
            twin.step(actions)
        assert [runner.env.get_state(i) for i in range(3)] == [twin.get_state(i) for i in range(3)]
        twin.close()
    finally:
        runner.close()
    m = bench.measure("rlpool-xla", "CartPole-v1", 3, steps=300, warmup=1)
    assert m.steps >= 300 and m.steps % 3 == 0 and m.steps_per_sec > 0
