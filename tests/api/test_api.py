"""The public API: factories, gymnasium/gym/dm faces, seeding, spec config and array lifetime."""

from __future__ import annotations

import contextlib
import os
import warnings
from pathlib import Path

import dm_env
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics

import rlpool

CLASSIC = [
    "Acrobot-v1",
    "CartPole-v0",
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
]
CORES = len(os.sched_getaffinity(0))
THETA_LIMIT = 12 * 2 * np.pi / 360  # CartPole's termination angle (gymnasium)

# Several tests run worker threads or async send/recv loops: a hang must fail, not block.
pytestmark = pytest.mark.timeout(30)


def gym_env(task):
    """gymnasium's own single env, the reference for spaces and limits."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(task)


def actions_for(task, n, k):
    if task in ("Pendulum-v1", "MountainCarContinuous-v0"):
        return (np.sin(np.arange(n) + 0.3 * k) * 0.9).reshape(n, 1).astype(np.float32)
    n_actions = gym_env(task).action_space.n
    return (np.arange(n) * 7 + k * 3 + k * k // 5) % n_actions


def cartpole_out_of_bounds(obs):
    """gymnasium's CartPole termination test, applied to the float32 observation."""
    obs = obs.astype(np.float64)
    return (np.abs(obs[..., 0]) > 2.4) | (np.abs(obs[..., 2]) > THETA_LIMIT)


# --------------------------------------------------------------------------- #
# Factories and registry
# --------------------------------------------------------------------------- #


def test_list_all_envs():
    ids = rlpool.list_all_envs()
    assert isinstance(ids, list) and all(isinstance(i, str) for i in ids)
    assert ids == sorted(ids) and len(ids) == len(set(ids))
    assert set(CLASSIC) <= set(ids)


@pytest.mark.parametrize("task", CLASSIC)
def test_spec_matches_gymnasium(task):
    spec = rlpool.make_spec(task)
    ref = gym_env(task)
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space
    assert spec.config["max_episode_steps"] == gymnasium.spec(task).max_episode_steps
    assert spec.config["reward_threshold"] == gymnasium.spec(task).reward_threshold


@pytest.mark.parametrize(
    ("kwargs", "num_envs", "batch_size"),
    [({}, 1, 1), ({"num_envs": 3}, 3, 3), ({"num_envs": 8}, 8, 8), ({"num_envs": 8, "batch_size": 3}, 8, 3)],
)
def test_make_spec_config_defaults(kwargs, num_envs, batch_size):
    config = rlpool.make_spec("CartPole-v1", **kwargs).config
    expected = {
        "num_envs": num_envs,
        "batch_size": batch_size,
        "num_threads": min(batch_size, CORES),
        "seed": 42,
        "max_episode_steps": 500,
        "thread_affinity_offset": -1,
        "max_num_players": 1,
        "gym_reset_return_info": True,
        "reward_threshold": 475.0,
    }
    assert {k: config[k] for k in expected} == expected


def test_make_spec_config_overrides():
    config = rlpool.make_spec(
        "Pendulum-v1",
        num_envs=6,
        batch_size=2,
        num_threads=1,
        seed=5,
        max_episode_steps=9,
        thread_affinity_offset=0,
        g=9.81,
    ).config
    assert config["num_envs"] == 6 and config["batch_size"] == 2 and config["num_threads"] == 1
    assert config["seed"] == 5 and config["max_episode_steps"] == 9 and config["thread_affinity_offset"] == 0
    assert config["g"] == 9.81


@pytest.mark.parametrize("api", ["gymnasium", "gym", "dm"])
def test_make_dispatches_by_env_type(api):
    env = rlpool.make("CartPole-v1", env_type=api, num_envs=2, seed=3)
    direct = {"gymnasium": rlpool.make_gymnasium, "gym": rlpool.make_gym, "dm": rlpool.make_dm}[api](
        "CartPole-v1", num_envs=2, seed=3
    )
    assert type(env) is type(direct)
    assert env.config == direct.config
    if api == "gymnasium":
        assert isinstance(env, VectorEnv)
    if api == "dm":
        assert isinstance(env, dm_env.Environment)
        np.testing.assert_array_equal(env.reset().observation.obs, direct.reset().observation.obs)
    else:
        np.testing.assert_array_equal(env.reset()[0], direct.reset()[0])
    assert rlpool.make("CartPole-v1", num_envs=2).config["num_envs"] == 2  # gymnasium is the default


# --------------------------------------------------------------------------- #
# gymnasium VectorEnv
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("task", CLASSIC)
def test_vector_env_attributes(task):
    env = rlpool.make_gymnasium(task, num_envs=3)
    ref = gym_env(task)
    assert isinstance(env, VectorEnv)
    assert env.num_envs == 3
    assert env.single_observation_space == ref.observation_space
    assert env.single_action_space == ref.action_space
    assert env.observation_space == batch_space(ref.observation_space, 3)
    assert env.action_space == batch_space(ref.action_space, 3)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.render_mode is None
    assert env.closed is False
    obs, info = env.reset()
    assert obs in env.observation_space
    assert isinstance(info, dict) and info["env_id"].tolist() == [0, 1, 2]
    result = env.step(env.action_space.sample())
    assert result[0] in env.observation_space
    assert result[1].shape == result[2].shape == result[3].shape == (3,)
    assert result[2].dtype == result[3].dtype == np.bool_
    env.close()
    assert env.closed is True


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("NextStep", AutoresetMode.NEXT_STEP),
        ("SameStep", AutoresetMode.SAME_STEP),
        ("Disabled", AutoresetMode.DISABLED),
        (AutoresetMode.SAME_STEP, AutoresetMode.SAME_STEP),
    ],
)
def test_metadata_autoreset_mode(mode, expected):
    env = rlpool.make("CartPole-v1", num_envs=2, autoreset_mode=mode)
    assert env.metadata["autoreset_mode"] == expected


def _count_episodes(env, task, steps):
    """Step `env` and count each finished episode's return and length ourselves (NextStep autoreset)."""
    n = env.num_envs
    ret, length = np.zeros(n), np.zeros(n, int)
    prev_done = np.zeros(n, bool)
    ours, theirs = [], []
    env.reset(seed=4)
    for k in range(steps):
        _, rew, term, trunc, info = env.step(actions_for(task, n, k))
        done = term | trunc
        # A step right after an episode end is the autoreset: it starts a new episode.
        ret = np.where(prev_done, 0.0, ret + rew)
        length = np.where(prev_done, 0, length + 1)
        for i in np.flatnonzero(done):
            ours.append((i, ret[i], length[i]))
        if "episode" in info:
            for i in np.flatnonzero(info["_episode"]):
                theirs.append((i, info["episode"]["r"][i], info["episode"]["l"][i]))
        prev_done = done
    return ours, theirs


@pytest.mark.parametrize(
    ("task", "kwargs"), [("CartPole-v1", {}), ("Pendulum-v1", {"max_episode_steps": 15})]
)
def test_record_episode_statistics(task, kwargs):
    env = RecordEpisodeStatistics(rlpool.make(task, num_envs=3, **kwargs))
    ours, theirs = _count_episodes(env, task, 70)
    assert len(ours) >= 3
    assert [(i, length) for i, _, length in ours] == [(i, length) for i, _, length in theirs]
    np.testing.assert_allclose([r for _, r, _ in theirs], [r for _, r, _ in ours], rtol=1e-6)


def test_normalize_observation():
    env = NormalizeObservation(rlpool.make("Pendulum-v1", num_envs=4, seed=2, max_episode_steps=12))
    raw_env = rlpool.make("Pendulum-v1", num_envs=4, seed=2, max_episode_steps=12)
    env.reset()
    raw, _ = raw_env.reset()
    seen = [raw.copy()]
    for k in range(40):
        obs = env.step(actions_for("Pendulum-v1", 4, k))[0]
        raw = raw_env.step(actions_for("Pendulum-v1", 4, k))[0]
        seen.append(raw.copy())
    stack = np.concatenate(seen).astype(np.float64)
    rms = env.obs_rms
    np.testing.assert_allclose(rms.mean, stack.mean(axis=0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(rms.var, stack.var(axis=0), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(obs, (raw - rms.mean) / np.sqrt(rms.var + env.epsilon), rtol=1e-4, atol=1e-5)
    assert np.abs(obs).max() > 0.1


def test_gymnasium_make_vec():
    env = gymnasium.make_vec("rlpool/CartPole-v1", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(env, VectorEnv)
    assert env.num_envs == 3
    direct = rlpool.make("CartPole-v1", num_envs=3)
    np.testing.assert_array_equal(env.reset(seed=8)[0], direct.reset(seed=8)[0])
    for k in range(5):
        a = actions_for("CartPole-v1", 3, k)
        np.testing.assert_array_equal(env.step(a)[0], direct.step(a)[0])
    env.close()
    pend = gymnasium.make_vec(
        "rlpool/Pendulum-v1", num_envs=2, vectorization_mode="vector_entry_point", g=2.5
    )
    assert pend.unwrapped.config["g"] == 2.5


# --------------------------------------------------------------------------- #
# Seeding
# --------------------------------------------------------------------------- #


def _trajectories(env, task, steps=25):
    """Obs of all envs over a reset and `steps` steps, every env taking the same actions."""
    n = env.num_envs
    out = [env.reset()[0].copy()]
    for k in range(steps):
        a = np.repeat(actions_for(task, 1, k), n, axis=0)
        out.append(env.step(a)[0].copy())
    return np.stack(out)


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_int_seed_gives_env_i_seed_plus_i(task):
    pool = _trajectories(rlpool.make(task, num_envs=4, seed=10), task)
    for i in (0, 1, 3):
        single = _trajectories(rlpool.make(task, num_envs=1, seed=10 + i), task)
        np.testing.assert_array_equal(pool[:, i], single[:, 0])
    assert not np.array_equal(pool[:, 1], pool[:, 0])


def test_list_seed():
    seeds = [11, 3, 2**64 - 1]
    pool = _trajectories(rlpool.make("CartPole-v1", num_envs=3, seed=seeds), "CartPole-v1")
    for i, s in enumerate(seeds):
        single = _trajectories(rlpool.make("CartPole-v1", num_envs=1, seed=s), "CartPole-v1")
        np.testing.assert_array_equal(pool[:, i], single[:, 0])


def test_reset_seed_reseeds_reproducibly():
    env = rlpool.make("CartPole-v1", num_envs=3, seed=0)
    fresh = rlpool.make("CartPole-v1", num_envs=3, seed=5)
    first, _ = env.reset()
    a = env.reset(seed=5)[0].copy()
    for k in range(4):
        env.step(actions_for("CartPole-v1", 3, k))
    b = env.reset(seed=5)[0].copy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, fresh.reset()[0])
    assert not np.array_equal(a, first)
    assert not np.array_equal(a, env.reset(seed=6)[0])


def test_reset_seed_list_with_none():
    env = rlpool.make("CartPole-v1", num_envs=3, seed=0)
    twin = rlpool.make("CartPole-v1", num_envs=3, seed=0)
    env.reset()
    twin.reset()
    obs = env.reset(seed=[7, None, 9])[0].copy()
    want = rlpool.make("CartPole-v1", num_envs=3, seed=[7, 1, 9]).reset()[0]
    np.testing.assert_array_equal(obs[[0, 2]], want[[0, 2]])
    np.testing.assert_array_equal(obs[1], twin.reset()[0][1])  # env 1's stream just continues


# --------------------------------------------------------------------------- #
# Returned arrays: views that are never overwritten while held
# --------------------------------------------------------------------------- #


def _snapshot(result):
    obs, rew, term, trunc, info = result
    return [
        obs.copy(),
        rew.copy(),
        term.copy(),
        trunc.copy(),
        info["env_id"].copy(),
        info["elapsed_step"].copy(),
    ]


def _fields(result):
    obs, rew, term, trunc, info = result
    return [obs, rew, term, trunc, info["env_id"], info["elapsed_step"]]


class _Loop:
    """Steps a pool in sync mode, or keeps an async pool's send/recv loop going."""

    def __init__(self, num_envs, batch_size):
        self.env = rlpool.make("CartPole-v1", num_envs=num_envs, batch_size=batch_size, num_threads=1, seed=1)
        self.sync = num_envs == batch_size
        self.k = 0
        if not self.sync:
            self.env.async_reset()

    def first(self):
        if self.sync:
            obs, info = self.env.reset()
            return obs, np.zeros(self.env.num_envs), None, None, info
        return self.env.recv()

    def next(self):
        self.k += 1
        n = self.env.num_envs
        if self.sync:
            return self.env.step(actions_for("CartPole-v1", n, self.k))
        res = self.env.recv()
        ids = res[4]["env_id"].copy()
        self.env.send(actions_for("CartPole-v1", n, self.k)[: len(ids)], ids)
        return res


@pytest.mark.parametrize(("num_envs", "batch_size"), [(4, 4), (8, 3)], ids=["sync", "async"])
def test_held_results_are_not_overwritten(num_envs, batch_size):
    loop = _Loop(num_envs, batch_size)
    first = loop.first()
    first_copy = first[0].copy(), first[4]["env_id"].copy()
    if not loop.sync:
        loop.env.send(np.zeros(batch_size, np.int64), first[4]["env_id"].copy())
    held = loop.next()
    copies = _snapshot(held)
    assert isinstance(held[0], np.ndarray) and not held[0].flags.owndata  # a view of the pool's buffer
    for _ in range(40):
        new = loop.next()
        for a in _fields(new):
            for b in _fields(held) + [first[0], first[4]["env_id"]]:
                assert not np.shares_memory(a, b)
    for x, y in zip(_fields(held), copies, strict=True):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(first[0], first_copy[0])
    np.testing.assert_array_equal(first[4]["env_id"], first_copy[1])


@pytest.mark.parametrize(("num_envs", "batch_size", "most"), [(4, 4, 3), (8, 3, 8)], ids=["sync", "async"])
def test_dropped_results_memory_is_reused(num_envs, batch_size, most):
    loop = _Loop(num_envs, batch_size)
    res = loop.first()
    if not loop.sync:
        loop.env.send(np.zeros(batch_size, np.int64), res[4]["env_id"].copy())
    del res
    pointers = []
    for _ in range(60):
        res = loop.next()
        pointers.append(res[0].__array_interface__["data"][0])
        del res
    assert len(set(pointers)) <= most, len(set(pointers))
    assert set(pointers[-20:]) == set(pointers[20:40])  # a steady cycle


# --------------------------------------------------------------------------- #
# dm_env API
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1", "MountainCarContinuous-v0", "Acrobot-v1"])
def test_dm_specs(task):
    env = rlpool.make_dm(task, num_envs=2)
    ref = gym_env(task)
    obs_spec = env.observation_spec()
    assert isinstance(obs_spec.obs, dm_env.specs.Array)
    assert obs_spec.obs.shape == ref.observation_space.shape
    assert obs_spec.obs.dtype == ref.observation_space.dtype
    if isinstance(obs_spec.obs, dm_env.specs.BoundedArray):
        np.testing.assert_array_equal(obs_spec.obs.minimum, ref.observation_space.low)
        np.testing.assert_array_equal(obs_spec.obs.maximum, ref.observation_space.high)
    action_spec = env.action_spec()
    if isinstance(ref.action_space, gymnasium.spaces.Discrete):
        assert isinstance(action_spec, dm_env.specs.DiscreteArray)
        assert action_spec.num_values == ref.action_space.n
    else:
        assert isinstance(action_spec, dm_env.specs.BoundedArray)
        assert action_spec.shape == ref.action_space.shape
        np.testing.assert_array_equal(action_spec.minimum, ref.action_space.low)
        np.testing.assert_array_equal(action_spec.maximum, ref.action_space.high)
    ts = env.reset()
    assert isinstance(env, dm_env.Environment)
    obs_spec.obs.validate(ts.observation.obs[0])
    action_spec.validate(actions_for(task, 1, 0)[0])


@pytest.mark.parametrize(("task", "kwargs"), [("CartPole-v1", {}), ("Pendulum-v1", {"max_episode_steps": 6})])
def test_dm_step_types(task, kwargs):
    n = 3
    env = rlpool.make_dm(task, num_envs=n, seed=3, **kwargs)
    limit = kwargs.get("max_episode_steps", 500)
    ts = env.reset()
    assert np.all(ts.step_type == dm_env.StepType.FIRST)
    np.testing.assert_array_equal(ts.discount, np.ones(n))
    length = np.zeros(n, int)  # steps into the current episode, counted here
    prev_last = np.zeros(n, bool)
    seen = {dm_env.StepType.MID: 0, dm_env.StepType.LAST: 0, dm_env.StepType.FIRST: 0}
    for k in range(40):
        ts = env.step(actions_for(task, n, k) if task != "CartPole-v1" else np.zeros(n, np.int64))
        length = np.where(prev_last, 0, length + 1)
        obs = ts.observation.obs
        terminated = cartpole_out_of_bounds(obs) if task == "CartPole-v1" else np.zeros(n, bool)
        terminated &= ~prev_last
        truncated = (length == limit) & ~terminated
        for i in range(n):
            if prev_last[i]:
                expected = dm_env.StepType.FIRST
                assert ts.discount[i] == 1 and ts.observation.elapsed_step[i] == 0
            elif terminated[i] or truncated[i]:
                expected = dm_env.StepType.LAST
                assert ts.discount[i] == (0.0 if terminated[i] else 1.0)
            else:
                expected = dm_env.StepType.MID
                assert ts.discount[i] == 1.0
            assert ts.step_type[i] == expected, (k, i)
            seen[expected] += 1
        prev_last = ts.step_type == dm_env.StepType.LAST
    assert all(seen.values())


# --------------------------------------------------------------------------- #
# gym API
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(("task", "kwargs"), [("CartPole-v1", {}), ("Pendulum-v1", {"max_episode_steps": 4})])
def test_gym_four_tuple(task, kwargs):
    n = 3
    env = rlpool.make_gym(task, num_envs=n, seed=6, **kwargs)
    twin = rlpool.make_gymnasium(task, num_envs=n, seed=6, **kwargs)
    obs, info = env.reset()
    np.testing.assert_array_equal(obs, twin.reset()[0])
    length = np.zeros(n, int)
    prev_done = np.zeros(n, bool)
    ended = 0
    for k in range(30):
        a = actions_for(task, n, k) if task != "CartPole-v1" else np.ones(n, np.int64)
        result = env.step(a)
        assert len(result) == 4
        obs, rew, done, info = result
        _, rew2, term, trunc, _ = twin.step(a)
        np.testing.assert_array_equal(rew, rew2)
        np.testing.assert_array_equal(done, term | trunc)
        length = np.where(prev_done, 0, length + 1)
        if task == "CartPole-v1":
            expected_done = cartpole_out_of_bounds(obs) & ~prev_done
            np.testing.assert_array_equal(info["TimeLimit.truncated"], np.zeros(n, bool))
        else:
            expected_done = length == kwargs["max_episode_steps"]
            np.testing.assert_array_equal(info["TimeLimit.truncated"], expected_done)
        np.testing.assert_array_equal(done, expected_done)
        ended += int(done.sum())
        prev_done = done.copy()
    assert ended >= n


def test_gym_reset_return_info_false():
    env = rlpool.make_gym("CartPole-v1", num_envs=2, gym_reset_return_info=False)
    obs = env.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)


# --------------------------------------------------------------------------- #
# Threads
# --------------------------------------------------------------------------- #


def thread_cpus() -> dict[int, str]:
    """Each thread of this process and the CPUs it may run on (the kernel's Cpus_allowed_list)."""
    cpus = {}
    for task in Path("/proc/self/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            for line in (task / "status").read_text().splitlines():
                if line.startswith("Cpus_allowed_list:"):
                    cpus[int(task.name)] = line.split(":", 1)[1].strip()
    return cpus


@pytest.mark.parametrize("batch_size", [8, 3], ids=["sync", "async"])
def test_thread_affinity_offset_zero(batch_size):
    before = os.sched_getaffinity(0)
    kw = {"num_envs": 8, "batch_size": batch_size, "seed": 2}
    threads_before = thread_cpus()
    pinned = rlpool.make("Pendulum-v1", num_threads=2, thread_affinity_offset=0, **kw)
    # The pool's workers are the new threads (sync mode: one, the caller is the second; async: two); each may
    # run on one CPU only: worker w on CPU w mod cores.
    cores = os.cpu_count() or 1
    n_workers = 1 if batch_size == 8 else 2
    workers = {tid: c for tid, c in thread_cpus().items() if tid not in threads_before}
    assert len(workers) == n_workers, workers
    assert sorted(workers.values()) == sorted(str(w % cores) for w in range(n_workers)), workers
    plain = rlpool.make("Pendulum-v1", num_threads=1, **kw)
    assert pinned.config["thread_affinity_offset"] == 0
    for env in (pinned, plain):
        env.async_reset()
    results = {id(pinned): {}, id(plain): {}}
    for env in (pinned, plain):
        for k in range(30):
            obs, rew, _, _, info = env.recv()
            ids = info["env_id"].copy()
            for r, i in enumerate(ids.tolist()):
                results[id(env)][(i, int(info["elapsed_step"][r]))] = obs[r].copy()
            env.send(actions_for("Pendulum-v1", batch_size, k) * 0 + 0.5, ids)
    common = set(results[id(pinned)]) & set(results[id(plain)])
    assert len(common) >= 8
    for key in common:
        np.testing.assert_array_equal(results[id(pinned)][key], results[id(plain)][key])
    assert os.sched_getaffinity(0) == before  # only the workers are pinned
    pinned.close()


@pytest.mark.parametrize("batch_size", [4, 2])
def test_reset_info_has_no_internal_keys(batch_size):
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=batch_size, autoreset_mode="SameStep")
    _, info = env.reset()
    assert not [k for k in info if k.startswith("_rlpool")]
    env.close()


def test_refused_reset_does_not_reseed():
    """A reset refused because an env is in flight changes nothing, its seeds included."""
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0, num_threads=1)
    twin = rlpool.make("CartPole-v1", num_envs=4, batch_size=2, seed=0, num_threads=1)
    for e in (env, twin):
        e.async_reset()
        e.recv()  # two envs still in flight
    with pytest.raises(ValueError, match="in flight"):
        env.reset(seed=[123, None, 456, None])
    for e in (env, twin):
        e.recv()
    a = env.reset(seed=None)
    b = twin.reset(seed=None)
    np.testing.assert_array_equal(a[0], b[0])


@pytest.mark.parametrize(
    "typo, meant",
    # ALE/<Game>-v5 suggests Pong-v5 too, with a note on how it differs (test_gymnasium_first_use.py).
    [("Cartpole-v1", "CartPole-v1"), ("Pong-v4", "Pong-v5"),
     ("HalfCheeta-v5", "HalfCheetah-v5"), ("Humanoid-v3", "Humanoid-v5")],
)
def test_unknown_task_id_suggests_what_was_meant(typo: str, meant: str) -> None:
    with pytest.raises(ValueError) as e:
        rlpool.make(typo)
    message = str(e.value)
    assert f"did you mean {meant!r}" in message
    assert "rlpool list" in message and len(message) < 300  # not every id


def test_unknown_task_id_without_a_likely_match_says_how_to_list() -> None:
    with pytest.raises(ValueError, match=r"unknown task id 'Xyzzy-v0' \(rlpool.list_all_envs\(\)"):
        rlpool.make_spec("Xyzzy-v0")
