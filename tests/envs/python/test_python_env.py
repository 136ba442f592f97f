"""Envs written in Python (rlpool.python_env): numba-compiled, run by the C++ pool.

PyCartPole-v1 (examples/python_cartpole.py) is proven bit-for-bit identical to
the built-in CartPole-v1, from the same seeds and from the same set_state
states, and to gymnasium's CartPoleEnv; KeyDoorGrid-v0
(examples/python_gridworld.py) is proven identical to its own functions run
as plain Python. The rest: every autoreset mode, sync and async, the three
APIs, options, errors raised inside compiled code, out-of-bounds writes,
compile errors, the GIL, the on-disk cache across processes and the bench CLI.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from lane import REPO

numba = pytest.importorskip("numba")


import rlpool  # noqa: E402
from rlpool import python_env  # noqa: E402
from rlpool.tools.cli import _import, main  # noqa: E402

EXAMPLES = REPO / "examples"
BOX2 = spaces.Box(-10.0, 10.0, (2,), np.float64)


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory):
    """Compile into a fresh cache directory (restored afterwards)."""
    old = os.environ.get("RLPOOL_CACHE_DIR")
    os.environ["RLPOOL_CACHE_DIR"] = str(tmp_path_factory.mktemp("rlpool-cache"))
    yield os.environ["RLPOOL_CACHE_DIR"]
    if old is None:
        del os.environ["RLPOOL_CACHE_DIR"]
    else:
        os.environ["RLPOOL_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def cartpole(private_cache):
    _import(str(EXAMPLES / "python_cartpole.py"))
    return "PyCartPole-v1"


@pytest.fixture(scope="module")
def grid(private_cache):
    _import(str(EXAMPLES / "python_gridworld.py"))
    return "KeyDoorGrid-v0"


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_same_results(r1, r2, where) -> None:
    obs1, rew1, term1, trunc1, info1 = r1
    obs2, rew2, term2, trunc2, info2 = r2
    assert same_bits(obs1, obs2), where
    assert same_bits(rew1, rew2) and same_bits(term1, term2) and same_bits(trunc1, trunc2), where
    assert same_bits(info1["elapsed_step"], info2["elapsed_step"]), where
    assert same_bits(info1["env_id"], info2["env_id"]), where


# --- CartPole written in Python == the built-in C++ CartPole == gymnasium -----------------------


def test_pycartpole_spaces_and_config_match_cartpole(cartpole):
    py, cc = rlpool.make_spec(cartpole), rlpool.make_spec("CartPole-v1")
    assert py.observation_space == cc.observation_space == gymnasium.make("CartPole-v1").observation_space
    assert py.action_space == cc.action_space
    assert py.max_episode_steps == 500 and py.reward_threshold == 475.0
    assert py.config["sutton_barto_reward"] is False
    assert not any(k.startswith("_") for k in py.config)  # the compiled addresses stay private
    assert cartpole in rlpool.list_all_envs()


@pytest.mark.parametrize("sutton_barto_reward", [False, True])
def test_pycartpole_is_bitwise_cartpole_from_the_same_seeds(cartpole, sutton_barto_reward):
    """Same seeds, same random actions, 3000 steps of 8 envs: every episode, reset and reward identical."""
    py = rlpool.make(cartpole, num_envs=8, seed=11, sutton_barto_reward=sutton_barto_reward)
    cc = rlpool.make("CartPole-v1", num_envs=8, seed=11, sutton_barto_reward=sutton_barto_reward)
    obs_py, _ = py.reset()
    obs_cc, _ = cc.reset()
    assert same_bits(obs_py, obs_cc)
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(3000):
        actions = rng.integers(0, 2, 8)
        r_py, r_cc = py.step(actions), cc.step(actions)
        assert_same_results(r_py, r_cc, t)
        ends += int(r_cc[2].sum() + r_cc[3].sum())
    assert ends > 100  # many episodes ended and were reset
    py.close()
    cc.close()


def test_pycartpole_is_bitwise_cartpole_and_gymnasium_from_set_state(cartpole):
    """The same states set on both pools and on gymnasium's env, the same actions: identical steps."""
    rng = np.random.default_rng(5)
    n = 6
    py = rlpool.make(cartpole, num_envs=n, seed=0)
    cc = rlpool.make("CartPole-v1", num_envs=n, seed=0)
    py.reset()
    cc.reset()
    genv = gymnasium.make("CartPole-v1").unwrapped
    genv.reset(seed=0)
    for trial in range(40):
        # Anywhere in and just beyond the termination box, with large velocities too.
        states = rng.uniform([-2.6, -3.0, -0.25, -4.0], [2.6, 3.0, 0.25, 4.0], size=(n, 4))
        for i in range(n):
            py.set_state(i, states[i].tobytes())
            cc.set_state(i, states[i].tobytes())
            assert py.get_state(i) == cc.get_state(i) == states[i].tobytes()
        for k in range(5):
            actions = rng.integers(0, 2, n)
            r_py, r_cc = py.step(actions), cc.step(actions)
            assert_same_results(r_py, r_cc, (trial, k))
            genv.state, genv.steps_beyond_terminated = states[0].copy(), None
            gobs, greward, gterminated, _, _ = genv.step(int(actions[0]))
            assert same_bits(r_py[0][0], gobs) and r_py[1][0] == greward and r_py[2][0] == gterminated
            if r_cc[2].any() or r_cc[3].any():
                break
            states = np.array([np.frombuffer(py.get_state(i), np.float64) for i in range(n)])


@pytest.mark.parametrize("mode", ["NextStep", "SameStep", "Disabled"])
def test_autoreset_modes_sync_match_cartpole(cartpole, mode):
    kwargs = dict(num_envs=5, seed=3, autoreset_mode=mode, max_episode_steps=30)
    py, cc = rlpool.make(cartpole, **kwargs), rlpool.make("CartPole-v1", **kwargs)
    assert py.metadata["autoreset_mode"] == cc.metadata["autoreset_mode"]
    assert same_bits(py.reset()[0], cc.reset()[0])
    rng = np.random.default_rng(1)
    for t in range(400):
        actions = rng.integers(0, 2, 5)
        r_py, r_cc = py.step(actions), cc.step(actions)
        assert_same_results(r_py, r_cc, t)
        if mode == "SameStep" and "final_obs" in r_cc[4]:
            done = r_cc[4]["_final_obs"]
            assert same_bits(r_py[4]["_final_obs"], done)
            for i in np.flatnonzero(done):
                assert same_bits(r_py[4]["final_obs"][i], r_cc[4]["final_obs"][i])
        if mode == "Disabled":
            done = r_cc[2] | r_cc[3]
            if done.any():
                assert same_bits(py.reset(options={"reset_mask": done})[0], cc.reset(options={"reset_mask": done})[0])


def per_env_trajectories(env, steps: int, num_envs: int) -> dict[int, list[tuple]]:
    """Async send/recv until every env has ``steps`` results (a worker the OS descheduled holds its env back
    while the others run on); each env's actions depend only on its own step count, so any completion order
    works."""
    out: dict[int, list[tuple]] = {i: [] for i in range(num_envs)}
    env.async_reset()
    for _ in range(steps * num_envs * 10):  # bounded: an env that never came back fails the caller's check
        if min(len(v) for v in out.values()) >= steps:
            break
        obs, reward, terminated, truncated, info = env.recv()
        ids = info["env_id"]
        for row, i in enumerate(ids):
            out[int(i)].append((obs[row].tobytes(), reward[row], terminated[row], truncated[row]))
        actions = np.array([(len(out[int(i)]) * 7 + int(i)) % 2 for i in ids])
        env.send(actions, ids)
    return out


def test_async_matches_cartpole(cartpole):
    kwargs = dict(num_envs=6, batch_size=3, num_threads=2, seed=9)
    py, cc = rlpool.make(cartpole, **kwargs), rlpool.make("CartPole-v1", **kwargs)
    a, b = per_env_trajectories(py, 100, 6), per_env_trajectories(cc, 100, 6)
    for i in range(6):
        common = min(len(a[i]), len(b[i]))
        assert common >= 100 and a[i][:common] == b[i][:common], i
    py.close()
    cc.close()


def test_dm_gym_and_gymnasium_registry_faces(cartpole):
    dm_py, dm_cc = rlpool.make_dm(cartpole, num_envs=3, seed=2), rlpool.make_dm("CartPole-v1", num_envs=3, seed=2)
    ts_py, ts_cc = dm_py.reset(), dm_cc.reset()
    for _ in range(60):
        assert same_bits(ts_py.observation.obs, ts_cc.observation.obs)
        assert same_bits(ts_py.step_type, ts_cc.step_type)
        ts_py, ts_cc = dm_py.step(np.array([1, 0, 1])), dm_cc.step(np.array([1, 0, 1]))
    g_py, g_cc = rlpool.make_gym(cartpole, num_envs=2, seed=4), rlpool.make_gym("CartPole-v1", num_envs=2, seed=4)
    assert same_bits(g_py.reset()[0], g_cc.reset()[0])
    for _ in range(60):
        o1, r1, d1, _ = g_py.step(np.array([0, 1]))
        o2, r2, d2, _ = g_cc.step(np.array([0, 1]))
        assert same_bits(o1, o2) and same_bits(r1, r2) and same_bits(d1, d2)
    vec = gymnasium.make_vec(f"rlpool/{cartpole}", num_envs=2, vectorization_mode="vector_entry_point", seed=4)
    assert same_bits(vec.reset()[0], rlpool.make("CartPole-v1", num_envs=2, seed=4).reset()[0])


def test_options_are_typed_and_private_ones_refused(cartpole):
    with pytest.raises(TypeError, match="sutton_barto_reward"):
        rlpool.make(cartpole, sutton_barto_reward="yes")
    with pytest.raises(ValueError, match="unknown option"):
        rlpool.make(cartpole, _step_fn=0)
    with pytest.raises(ValueError, match="unknown option"):
        rlpool.make(cartpole, no_such_option=1)

    # The C++ type refuses a config python_env did not make (nothing is called).
    core = rlpool.registry._core
    with pytest.raises(ValueError, match="registered by rlpool.python_env"):
        core.env_spec("NumbaEnv", {"_reset_fn": 0, "_step_fn": 0, "_spec": ""})
    bad_specs = [
        ("obs x float16 0 0 0", "unknown dtype"),
        ("obs x", "expected a dtype"),
        ("bogus 1", "unknown key"),
        ("task T", "action"),
    ]
    for bad, why in bad_specs:
        with pytest.raises(ValueError, match=why):
            core.env_spec("NumbaEnv", {"_reset_fn": 1, "_step_fn": 1, "_spec": bad})


# --- a grid world with a dict state, dict obs, info, options and random slips -------------------


def test_gridworld_matches_its_functions_run_as_plain_python(grid):
    n, seed = 4, 21
    envs = rlpool.make(grid, num_envs=n, seed=seed, slip=0.3, num_walls=12)
    refs = [python_env.reference(grid, seed=seed + i, slip=0.3, num_walls=12) for i in range(n)]
    obs, info = envs.reset()
    expected = [r.reset() for r in refs]
    rng = np.random.default_rng(2)
    done = np.zeros(n, bool)
    episodes = 0
    for t in range(1500):
        for i in range(n):
            ref_obs, ref_info = expected[i][0], expected[i][-1]
            for key in ref_obs:
                assert same_bits(obs[key][i], ref_obs[key].astype(obs[key].dtype)), (t, i, key)
            assert info["distance"][i] == ref_info["distance"], (t, i)
        actions = rng.integers(0, 4, n)
        obs, reward, terminated, truncated, info = envs.step(actions)
        for i in range(n):
            if done[i]:  # NextStep autoreset: this step was the reset
                expected[i] = (*refs[i].reset(),)
                assert reward[i] == 0.0 and not terminated[i]
            else:
                expected[i] = refs[i].step(actions[i])
                assert reward[i] == expected[i][1] and terminated[i] == expected[i][2], (t, i)
        done = terminated | truncated
        episodes += int(done.sum())
    assert episodes > 5
    space = envs.single_observation_space
    assert isinstance(space, spaces.Dict) and set(space) == {"agent", "target", "has_key", "walls"}
    assert space["has_key"] == spaces.Discrete(2) and space["walls"] == spaces.MultiBinary((3, 3))
    assert space.contains({k: v[0] for k, v in obs.items()})


def test_gridworld_threads_and_state_snapshots(grid):
    results = []
    for threads in (1, 3):
        envs = rlpool.make(grid, num_envs=6, num_threads=threads, seed=1)
        envs.reset()
        rng = np.random.default_rng(0)
        results.append([envs.step(rng.integers(0, 4, 6))[0]["agent"].copy() for _ in range(200)])
    assert all(same_bits(a, b) for a, b in zip(*results, strict=True))
    # get_state/set_state round trip (no slips, so the future depends on the state alone).
    envs = rlpool.make(grid, num_envs=2, seed=4, slip=0.0)
    envs.reset()
    snapshot = envs.get_state(1)
    actions = [np.array([a, (a + 1) % 4]) for a in np.random.default_rng(3).integers(0, 4, 30)]
    first = [envs.step(a)[0]["agent"][1].copy() for a in actions]
    envs.set_state(1, snapshot)
    second = [envs.step(a)[0]["agent"][1].copy() for a in actions]
    assert same_bits(np.array(first), np.array(second))
    with pytest.raises(ValueError, match="bytes"):
        envs.set_state(1, snapshot[:-1])


def test_tuple_obs_and_continuous_actions_match_plain_python(private_cache):
    def reset(state, obs, info, rng):
        state[0] = rng.uniform(-1.0, 1.0)
        state[1] = 0.0
        write(state, obs, info)

    def step(state, action, obs, info, rng, params):
        state[1] += 0.1 * action[0] + rng.normal(0.0, params.noise)
        state[0] += state[1]
        write(state, obs, info)
        return -abs(state[0]), abs(state[0]) > 5.0

    python_env.register(
        "PointMass-v0",
        reset=reset,
        step=step,
        obs=spaces.Tuple((spaces.Box(-np.inf, np.inf, (2,), np.float32), spaces.Discrete(3, start=-1))),
        action=spaces.Box(-1.0, 1.0, (1,), np.float32),
        info={"speed": np.float32(0)},
        state=2,
        options={"noise": 0.05},
        max_episode_steps=50,
    )
    envs = rlpool.make("PointMass-v0", num_envs=3, seed=8, noise=0.2)
    assert envs.single_observation_space == spaces.Tuple(
        (spaces.Box(-np.inf, np.inf, (2,), np.float32), spaces.Discrete(3, start=-1))
    )
    refs = [python_env.reference("PointMass-v0", seed=8 + i, noise=0.2) for i in range(3)]
    obs, _ = envs.reset()
    expected = [r.reset()[0] for r in refs]
    rng = np.random.default_rng(4)
    done = np.zeros(3, bool)
    for t in range(300):
        for i in range(3):
            assert same_bits(obs[0][i], expected[i][0]) and obs[1][i] == expected[i][1], (t, i)
        actions = rng.uniform(-1, 1, (3, 1)).astype(np.float32)
        obs, reward, terminated, truncated, info = envs.step(actions)
        for i in range(3):
            if done[i]:
                expected[i] = refs[i].reset()[0]
                continue
            expected[i], r, term, inf = refs[i].step(actions[i].astype(np.float64))
            assert reward[i] == r and terminated[i] == term and info["speed"][i] == inf["speed"], (t, i)
        done = terminated | truncated


def write(state, obs, info):
    obs[0][0] = state[0]
    obs[0][1] = state[1]
    obs[1][()] = -1 if state[1] < -0.1 else (1 if state[1] > 0.1 else 0)
    info.speed[()] = abs(state[1])


# --- errors inside compiled code ---------------------------------------------------------------


@pytest.fixture(scope="module")
def raiser(private_cache):
    def reset(state, obs):
        state[0] = 0.0
        obs[0] = 0.0

    def step(state, action, obs):
        state[0] += 1.0
        obs[0] = state[0]
        if action == 1:
            raise ValueError("action one is forbidden")
        if action == 2:
            obs[2] = 1.0  # out of bounds: obs has 2 elements
        if action == 3:
            state[-2] = 5.0  # out of bounds: state has 1 element
        return 1.0, False

    python_env.register("Raiser-v0", reset=reset, step=step, obs=BOX2, action=spaces.Discrete(4), state=1,
                        max_episode_steps=100)
    return "Raiser-v0"


@pytest.mark.parametrize(
    ("bad_action", "message"),
    [
        (1, "env 1: Raiser-v0: step() raised ValueError: action one is forbidden"),
        (2, "env 1: Raiser-v0: step() raised IndexError"),
        (3, "env 1: Raiser-v0: step() raised IndexError"),
    ],
)
def test_exceptions_and_bad_writes_raise_and_stay_in_their_env(raiser, bad_action, message):
    # Async: env 1 fails on a worker thread; the error comes out of recv().
    envs = rlpool.make(raiser, num_envs=4, batch_size=2, num_threads=2, seed=0)
    envs.async_reset()
    envs.recv()
    envs.recv()
    with pytest.raises(RuntimeError) as err:
        envs.step(np.array([0, bad_action]), np.array([0, 1]))
    assert message in str(err.value)
    # Sync, and what follows.
    envs = rlpool.make(raiser, num_envs=3, num_threads=2, seed=0)
    envs.reset()
    with pytest.raises(RuntimeError) as err:
        envs.step(np.array([0, bad_action, 0]))
    assert message in str(err.value)
    # Env 1 must be reset first; the others carry on undisturbed.
    with pytest.raises(RuntimeError, match="must be reset"):
        envs.step(np.zeros(3, np.int64))
    obs, _ = envs.reset(options={"reset_mask": np.array([False, True, False])})
    obs, reward, *_ = envs.step(np.zeros(3, np.int64))
    np.testing.assert_array_equal(obs, [[3.0, 0.0], [1.0, 0.0], [3.0, 0.0]])  # 1 row each, neighbours intact
    np.testing.assert_array_equal(reward, [1.0, 1.0, 1.0])
    assert [np.frombuffer(envs.get_state(i), np.float64)[0] for i in range(3)] == [3.0, 1.0, 3.0]


def test_async_error_in_an_envs_first_task_keeps_the_bookkeeping(private_cache):
    # Every env's first task (its reset) raises on a worker: recv() reports it, and the rows still
    # name their own envs, so none of them stays "in flight" and a new reset reaches them again.
    def reset(state, obs):
        raise ValueError("no reset today")

    def step(state, action, obs):
        return 0.0, False

    python_env.register("FailingReset-v0", reset=reset, step=step, obs=BOX2, action=spaces.Discrete(2),
                        state=1, max_episode_steps=10)
    envs = rlpool.make("FailingReset-v0", num_envs=4, batch_size=2, num_threads=2, seed=0)
    for _ in range(2):
        envs.async_reset()  # the second time: not "env_id ... is already in flight"
        with pytest.raises(RuntimeError, match="no reset today"):
            envs.recv()
        with contextlib.suppress(RuntimeError):  # the first error is the one reported
            envs.recv()


def test_rng_matches_the_plain_python_generator_and_checks_its_arguments(private_cache):
    def reset(obs, rng, params):
        obs.f[0] = rng.random()
        obs.f[1] = rng.uniform(2.0, 3.0)
        obs.f[2] = rng.normal()
        obs.f[3] = rng.normal(1.0, 2.0)
        obs.f[4] = rng.uniform()
        obs.i[0] = rng.integers(7)
        obs.i[1] = rng.integers(-3, 5)
        obs.i[2] = rng.bits()
        if params.bad:
            rng.integers(0)

    def step(action, obs):
        return 0.0, False

    python_env.register(
        "RngProbe-v0",
        reset=reset,
        step=step,
        obs=spaces.Dict(
            {"f": spaces.Box(-np.inf, np.inf, (5,), np.float64), "i": spaces.Box(-(2**62), 2**62, (3,), np.int64)}
        ),
        action=spaces.Discrete(2),
        state=1,
        options={"bad": False},
        max_episode_steps=10,
    )
    envs = rlpool.make("RngProbe-v0", num_envs=3, seed=100)
    for _ in range(3):
        obs, _ = envs.reset()
    for i in range(3):
        r = python_env.Rng(100 + i)
        for _ in range(3):
            f = [r.random(), r.uniform(2.0, 3.0), r.normal(), r.normal(1.0, 2.0), r.uniform()]
            ints = [r.integers(7), r.integers(-3, 5), r.bits()]
        assert same_bits(obs["f"][i], np.array(f))
        ints[2] -= (1 << 64) if ints[2] >= 1 << 63 else 0  # the 64 bits, as int64
        assert same_bits(obs["i"][i], np.array(ints, dtype=np.int64))
    with pytest.raises(RuntimeError, match=r"reset\(\) raised ValueError: rng.integers\(n\) needs n > 0"):
        rlpool.make("RngProbe-v0", num_envs=1, bad=True).reset()


def test_gil_is_released_while_compiled_code_runs(private_cache):
    def reset(state, obs):
        obs[0] = 0.0

    def step(state, obs, params):
        total = 0.0
        for i in range(params.work):
            total += math.sin(i)
        state[0] = total
        obs[0] = 1.0
        return 0.0, False

    python_env.register("Spin-v0", reset=reset, step=step, obs=spaces.Box(-1, 1, (1,), np.float64),
                        action=spaces.Discrete(2), state=1, options={"work": 1}, max_episode_steps=10)
    envs = rlpool.make("Spin-v0", num_envs=1, work=100_000)
    envs.reset()
    start = time.perf_counter()
    envs.step(np.zeros(1, np.int64))
    per_iteration = (time.perf_counter() - start) / 100_000
    envs = rlpool.make("Spin-v0", num_envs=1, work=int(min(0.3 / max(per_iteration, 1e-9), 3e8)))
    envs.reset()
    thread = threading.Thread(target=envs.step, args=(np.zeros(1, np.int64),))
    counted = 0
    thread.start()
    while thread.is_alive():
        counted += 1
    thread.join()
    assert counted > 10_000  # the main thread ran Python all along


# --- render ------------------------------------------------------------------------------------


def test_gridworld_frames_match_its_render_run_as_plain_python(grid):
    """The pool's frames (every env, a subset in any order, render_env_id, a resized size) equal
    the task's own render run as plain Python on the twin states, over episodes that end and
    reset; rendering leaves the trajectory as it was (a twin pool that never renders)."""
    cv2 = pytest.importorskip("cv2")
    n, seed = 4, 3
    env = rlpool.make(grid, num_envs=n, num_threads=2, seed=seed, slip=0.3, render_mode="rgb_array",
                      render_env_id=2)
    plain = rlpool.make(grid, num_envs=n, num_threads=2, seed=seed, slip=0.3)
    refs = [python_env.reference(grid, seed=seed + i, slip=0.3) for i in range(n)]
    env.reset()
    plain.reset()
    for r in refs:
        r.reset()
    assert env.metadata["render_fps"] == 8
    rng = np.random.default_rng(0)
    done = np.zeros(n, bool)
    episodes = 0
    for t in range(400):
        want = np.stack([r.render() for r in refs])
        assert want.shape == (n, 144, 144, 3) and want.any()  # 9 x 9 cells of 16 pixels
        if t % 10 == 0 or done.any():
            assert same_bits(env.render(env_ids=list(range(n))), want), f"step {t}"
            assert same_bits(env.render(), want[2:3]), f"step {t}: render_env_id"
            assert same_bits(env.render(env_ids=[3, 0]), want[[3, 0]]), f"step {t}: env_ids order"
        actions = rng.integers(0, 4, n)
        result, other = env.step(actions), plain.step(actions)
        assert all(same_bits(result[0][k], other[0][k]) for k in result[0]), f"step {t}"
        assert all(same_bits(x, y) for x, y in zip(result[1:4], other[1:4], strict=True)), f"step {t}"
        for i in range(n):
            if done[i]:  # NextStep autoreset: this step was the reset
                refs[i].reset()
            else:
                refs[i].step(actions[i])
        done = result[2] | result[3]
        episodes += int(done.sum())
    assert episodes > 2
    resized = rlpool.make(grid, num_envs=1, seed=seed, slip=0.3, render_mode="rgb_array", render_width=84,
                          render_height=100)
    resized.reset()
    ref = python_env.reference(grid, seed=seed, slip=0.3)
    ref.reset()
    want = cv2.resize(ref.render(), (84, 100), interpolation=cv2.INTER_LINEAR)
    got = resized.render()[0]
    assert got.shape == want.shape
    # The engine's bilinear resize of rendered frames may round differently from OpenCV's fixed point by 1.
    assert np.abs(got.astype(int) - want).max() <= 1
    for e in (env, plain, resized):
        e.close()


def test_render_that_raises_names_the_env_and_the_env_steps_on(private_cache):
    """An exception inside a compiled render is a RuntimeError naming the env and the message; the
    env's state is what it was (render drew from a copy, whatever it wrote there), so it steps on
    as a twin that never rendered."""

    @python_env.register("RenderRaises-v0", obs=BOX2, action=spaces.Discrete(2), state=2, max_episode_steps=50,
                         render_size=(8, 6))
    class RenderRaises:
        @staticmethod
        def reset(state, obs):
            state[0] = 0.0
            obs[0] = 0.0
            obs[1] = 0.0

        @staticmethod
        def step(state, action, obs):
            state[0] += 1.0 + action
            obs[0] = state[0]
            obs[1] = 0.0
            return 0.0, False

        @staticmethod
        def render(state, frame):
            frame[:, :, 0] = 7
            state[0] = -100.0  # a copy: discarded
            if state[1] == 0.0:
                raise ValueError("no frame today")

    env = rlpool.make("RenderRaises-v0", num_envs=3, seed=0, render_mode="rgb_array")
    twin = rlpool.make("RenderRaises-v0", num_envs=3, seed=0)
    env.reset()
    twin.reset()
    env.step(np.array([1, 0, 1]))
    twin.step(np.array([1, 0, 1]))
    with pytest.raises(RuntimeError, match=r"env 1: RenderRaises-v0: render\(\) raised ValueError.*no frame today"):
        env.render(env_ids=[1])
    a, b = env.step(np.array([0, 1, 1])), twin.step(np.array([0, 1, 1]))
    assert_same_results(a, b, "after a render that raised")
    assert same_bits(a[0][:, 0], np.array([3.0, 3.0, 4.0]))  # 1 + a, twice; render changed nothing
    env.close()
    twin.close()


def test_a_task_without_render_says_so(cartpole):
    with pytest.raises(ValueError, match="render"):
        rlpool.make(cartpole, render_mode="rgb_array")
    with pytest.raises(ValueError, match="registered without a render function"):
        python_env.reference(cartpole).render()


# --- registration errors -----------------------------------------------------------------------


def _reset(state, obs):
    obs[0] = 0.0


def _step(state, action, obs):
    return 0.0, False


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"reset": lambda state, obz: None}, ValueError, "unknown parameter 'obz'"),
        ({"step": lambda self, action: None}, ValueError, "make it a @staticmethod"),
        ({"reset": lambda state, info: None}, ValueError, "declares no info="),
        ({"step": lambda params: None}, ValueError, "declares no options="),
        ({"obs": spaces.MultiDiscrete([2, 3])}, TypeError, "MultiDiscrete"),
        ({"obs": spaces.Box(0, 3, (), np.int64)}, ValueError, "declare Discrete"),
        ({"obs": spaces.Dict({"a b": BOX2})}, ValueError, "identifier"),
        ({"options": {"lambda": 1.0}}, ValueError, "keyword"),
        ({"action": spaces.Discrete(3, start=1)}, ValueError, "start at 0"),
        ({"action": spaces.Box(-1, 1, (2, 2))}, ValueError, "1-D"),
        ({"options": {"name": "text"}}, TypeError, "bool, int or float"),
        ({"options": {"num_envs": 3}}, ValueError, "pool option"),
        ({"info": {"env_id": BOX2}}, ValueError, "engine writes itself"),
        ({"state": "four"}, TypeError, "shape"),
        ({"state": {"x": np.zeros(2, np.complex128)}}, ValueError, "complex128"),
        ({"task_id": "CartPole-v1"}, ValueError, "already registered"),
        ({"task_id": "Has Space-v0"}, ValueError, "without spaces"),
        ({"reset": None}, TypeError, "both reset= and step="),
        ({"render_size": (8, 8)}, ValueError, "render_size is given but there is no render function"),
        ({"render_fps": 10}, ValueError, "render_fps is given but there is no render function"),
        ({"render": lambda state, frame: None}, ValueError, "render needs render_size=(width, height)"),
        ({"render": lambda state, frame: None, "render_size": (0, 8)}, ValueError, "width and height must be in"),
        ({"render": lambda state, frame: None, "render_size": (8.0, 8)}, TypeError, "two ints"),
        ({"render": lambda state, frame: None, "render_size": (8, 8), "render_fps": 0}, ValueError,
         "positive and finite"),
        ({"render": lambda state: None, "render_size": (8, 8)}, ValueError, "it must take frame"),
        ({"render": lambda state, frme: None, "render_size": (8, 8)}, ValueError, "unknown parameter 'frme'"),
        ({"render": lambda frame, params: None, "render_size": (8, 8)}, ValueError, "declares no options="),
    ],
)
def test_bad_declarations_are_refused_by_name(kwargs, error, message):
    args = dict(task_id="Declared-v0", reset=_reset, step=_step, obs=BOX2, action=spaces.Discrete(2), state=2,
                max_episode_steps=5)
    args.update(kwargs)
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        python_env.register(args.pop("task_id"), **args)
    assert "Declared-v0" not in rlpool.list_all_envs()


def test_missing_numba_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # makes `import numba` fail
    with pytest.raises(ImportError, match=r"pip install 'numba>=0.60' \(rlpool's numba extra"):
        python_env.register("NoNumba-v0", reset=_reset, step=_step, obs=BOX2, action=spaces.Discrete(2), state=2,
                            max_episode_steps=5)
    assert "NoNumba-v0" not in rlpool.list_all_envs()


def test_class_decorator_needs_reset_and_step():
    with pytest.raises(TypeError, match="must define step"):
        python_env.register("NoStep-v0", obs=BOX2, action=spaces.Discrete(2), state=1, max_episode_steps=5)(
            type("NoStep", (), {"reset": staticmethod(_reset)})
        )


def test_compile_errors_point_at_the_users_line(private_cache):
    def reset(state, obs):
        handle = open("/dev/null")  # not in numba's subset
        obs[0] = 0.0
        return handle

    line = reset.__code__.co_firstlineno + 1
    with pytest.raises(python_env.CompileError) as err:
        python_env.register("Unsupported-v0", reset=reset, step=_step, obs=BOX2, action=spaces.Discrete(2),
                            state=2, max_episode_steps=5)
    text = str(err.value)
    assert f"could not compile reset() at {Path(__file__).resolve()}, line {line}" in text
    assert "open" in text and "pysupported" in text
    assert "Unsupported-v0" not in rlpool.list_all_envs()

    def step_returning_one_value(state, action, obs):
        return 1.0

    with pytest.raises(python_env.CompileError, match=r"step\(\) must return \(reward, terminated\)"):
        python_env.register("OneValue-v0", reset=_reset, step=step_returning_one_value, obs=BOX2,
                            action=spaces.Discrete(2), state=2, max_episode_steps=5)


def test_the_docs_example_runs_without_a_source_file():
    """docs/python_envs.md's example, run from a string: no source file, so compiled without the disk cache."""
    text = (REPO / "docs" / "python_envs.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "<docs/python_envs.md>", "exec"), namespace)
    obs, reward = namespace["obs"], namespace["reward"]
    assert obs.shape == (64, 1) and np.all(reward == 1.0)
    info = python_env.task_info("Drift-v0")
    assert not info.cache_hit and info.module_path is None
    assert rlpool.make("Drift-v0", speed=0.25).config["speed"] == 0.25


# --- the disk cache, across processes ----------------------------------------------------------

_TIMED_MAKE = textwrap.dedent(
    """
    import json, sys, time
    import numba, rlpool, rlpool.python_env as pe
    from rlpool.tools.cli import _import
    wall, cpu = time.perf_counter(), time.process_time()
    _import(sys.argv[1])
    envs = rlpool.make("PyCartPole-v1", num_envs=16)
    envs.reset()
    envs.step(envs.action_space.sample())
    info = pe.task_info("PyCartPole-v1")
    print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                      "cache_hit": info.cache_hit, "compile": info.compile_seconds}))
    """
)


def test_second_process_loads_compiled_code_from_disk(tmp_path):
    example = tmp_path / "python_cartpole.py"
    example.write_text((EXAMPLES / "python_cartpole.py").read_text())
    env = {**os.environ, "RLPOOL_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> dict:
        out = subprocess.run([sys.executable, "-c", _TIMED_MAKE, str(example)], env=env, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    first, second = run(), run()
    assert not first["cache_hit"] and second["cache_hit"]
    # register + make + reset + step: loading the compiled code costs far less than compiling it (CPU time,
    # which a busy machine does not inflate; numba's one-time start-up is in both, so no absolute bound).
    assert second["cpu"] < 0.5 * first["cpu"], (first, second)
    print(f"\nfirst process: {first}\nsecond process: {second}")
    # Editing the env's source file invalidates its cached code.
    example.write_text(example.read_text().replace("FORCE_MAG = 10.0", "FORCE_MAG = 10.5"))
    assert not run()["cache_hit"]


# --- the bench command ---------------------------------------------------------------------------


def test_bench_imports_a_module_that_registers_python_envs(cartpole, tmp_path, capsys):
    argv = ["bench", "PyCartPole-v1", "--import", str(EXAMPLES / "python_cartpole.py"), "--num-envs", "2",
            "--steps", "200", "--warmup", "5", "--peers", "rlpool-sync,gym-sync", "--out", str(tmp_path),
            "--no-plot", "--no-progress"]
    assert main(argv) == 0
    report = json.loads((tmp_path / "bench.json").read_text())
    assert [(m["task"], m["peer"]) for m in report["measurements"]] == [("PyCartPole-v1", "rlpool-sync")]
    assert report["config"]["imports"] == [str(EXAMPLES / "python_cartpole.py")]
    assert "gymnasium does not know PyCartPole-v1" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["bench", "CartPole-v1", "--import", "no_such_module_xyz", "--out", str(tmp_path)])
    assert "--import no_such_module_xyz: ModuleNotFoundError" in capsys.readouterr().err


def test_examples_run_as_scripts(cartpole, grid, private_cache):
    env = {**os.environ, "RLPOOL_CACHE_DIR": private_cache}
    for name in ("python_cartpole.py", "python_gridworld.py"):
        out = subprocess.run([sys.executable, str(EXAMPLES / name)], env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        assert "episodes, mean return" in out.stdout
