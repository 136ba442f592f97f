"""rlpool.compat.envpool against EnvPool 1.x's API.

Each check states EnvPool's behaviour by hand (read off EnvPool 1.2.5) and, where
``import envpool`` works (not in CI), also runs EnvPool itself to show the hand-written
expectation is EnvPool's and that both libraries answer alike.
"""

from __future__ import annotations

import functools
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import rlpool
import rlpool.compat.envpool as compat
import rlpool.compat.envpool_legacy as legacy

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import cleanrl_envpool_style as script  # noqa: E402

try:  # an import, not find_spec: scripts/sanitize.sh hides envpool behind a package that refuses it
    import envpool  # noqa: F401

    HAVE_ENVPOOL = True
except ImportError:
    HAVE_ENVPOOL = False
needs_envpool = pytest.mark.skipif(not HAVE_ENVPOOL, reason="envpool is not installed (or hidden)")
needs_pong = pytest.mark.skipif("Pong-v5" not in rlpool.list_all_envs(), reason="the Atari family is not built")


def reference():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import envpool

    return envpool


def arr(dtype: str, shape: tuple) -> tuple:
    return ("ndarray", np.dtype(dtype).str, shape)


def cartpole_info(n: int, legacy_api: bool = False) -> tuple:
    ids = arr("int32", (n,))
    entries = [("env_id", ids), ("players", ("dict", (("env_id", ids),)))]
    if legacy_api:
        entries.append(("TimeLimit.truncated", arr("bool", (n,))))
    entries.append(("elapsed_step", arr("int32", (n,))))
    return ("dict", tuple(entries))


def cartpole_step(n: int) -> tuple:
    """EnvPool 1.x CartPole step: (obs f32, reward f32, terminated, truncated, info)."""
    flags = arr("bool", (n,))
    return ("tuple", (arr("float32", (n, 4)), arr("float32", (n,)), flags, flags, cartpole_info(n)))


# ---------------------------------------------------------------- the CleanRL-shaped script


@functools.cache
def gymnasium_random_cartpole_lengths(episodes: int = 2000) -> np.ndarray:
    """Episode lengths of gymnasium's own CartPole-v1 under uniformly random actions (the reference)."""
    env = gymnasium.make("CartPole-v1")
    rng = np.random.default_rng(12)
    lengths = []
    env.reset(seed=12)
    for _ in range(episodes):
        n, done = 0, False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(rng.integers(2)))
            n, done = n + 1, terminated or truncated
        lengths.append(n)
        env.reset()
    return np.array(lengths)


def assert_random_cartpole_lengths(lengths: list[int]) -> None:
    """The loop's episodes are random-policy CartPole episodes: lengths distributed as gymnasium's (KS)."""
    stats = pytest.importorskip("scipy.stats")
    assert len(lengths) >= 50
    p = stats.ks_2samp(lengths, gymnasium_random_cartpole_lengths()).pvalue
    assert p > 1e-4, (p, np.mean(lengths))


@pytest.mark.parametrize("env_type", ["gym", "gymnasium"])
def test_cleanrl_sync_loop_cartpole(env_type):
    out = script.run(compat, "CartPole-v1", env_type, num_envs=8, total_timesteps=4096, seed=3)
    assert out["signatures"]["reset"] == {("tuple", (arr("float32", (8, 4)), cartpole_info(8)))}
    assert out["signatures"]["step"] == {cartpole_step(8)}
    assert out["autoreset_rows_ok"]
    assert out["spec_num_envs"] == 8
    assert out["config_keys"][: len(compat.ENVPOOL_CONFIG_KEYS)] == list(compat.ENVPOOL_CONFIG_KEYS)
    assert out["episodes"] >= 100
    assert_random_cartpole_lengths(out["lengths"])
    assert out["mean_return"] == out["mean_length"]


def test_cleanrl_async_loop_cartpole():
    out = script.run(compat, "CartPole-v1", "gym", num_envs=8, batch_size=4, total_timesteps=4096, seed=3)
    assert out["signatures"]["recv"] == {cartpole_step(4)}
    assert out["autoreset_rows_ok"]
    assert out["episodes"] >= 100
    assert_random_cartpole_lengths(out["lengths"])


@pytest.mark.parametrize("batch_size", [None, 4])
def test_cleanrl_legacy_loop_cartpole(batch_size):
    """The original 4-tuple CleanRL shape on the legacy module."""
    out = script.run(legacy, "CartPole-v1", "gym", num_envs=8, batch_size=batch_size, total_timesteps=4096, legacy=True)
    n = 8 if batch_size is None else 4
    flags = arr("bool", (n,))
    step = ("tuple", (arr("float32", (n, 4)), arr("float32", (n,)), flags, cartpole_info(n, legacy_api=True)))
    if batch_size is None:
        assert out["signatures"]["reset"] == {arr("float32", (8, 4))}  # obs alone, as gym_reset_return_info=False did
        assert out["signatures"]["step"] == {step}
    else:
        assert out["signatures"]["recv"] == {step}
    assert out["autoreset_rows_ok"]
    assert_random_cartpole_lengths(out["lengths"])


@needs_envpool
@pytest.mark.parametrize("env_type,batch_size", [("gym", None), ("gymnasium", None), ("gym", 4)])
def test_cleanrl_loop_same_as_envpool(env_type, batch_size):
    ours = script.run(compat, "CartPole-v1", env_type, num_envs=8, batch_size=batch_size, total_timesteps=4096)
    theirs = script.run(reference(), "CartPole-v1", env_type, num_envs=8, batch_size=batch_size, total_timesteps=4096)
    assert ours["signatures"] == theirs["signatures"]
    assert ours["observation_space"] == theirs["observation_space"]
    assert ours["action_space"] == theirs["action_space"]
    assert ours["config_keys"][: len(theirs["config_keys"])] == theirs["config_keys"]
    assert ours["spec_num_envs"] == theirs["spec_num_envs"] == 8
    assert ours["autoreset_rows_ok"] and theirs["autoreset_rows_ok"]
    assert_random_cartpole_lengths(ours["lengths"])
    assert_random_cartpole_lengths(theirs["lengths"])


@needs_pong
def test_cleanrl_loop_pong():
    kwargs = {"episodic_life": True, "reward_clip": True}
    out = script.run(compat, "Pong-v5", "gym", num_envs=4, num_steps=32, total_timesteps=2048, **kwargs)
    (sig,) = out["signatures"]["step"]
    obs, reward, terminated, truncated, info = sig[1]
    assert obs == arr("uint8", (4, 4, 84, 84)) and reward == arr("float32", (4,))
    keys = [k for k, _ in info[1]]
    assert keys[:2] == ["env_id", "players"] and keys[-1] == "elapsed_step"
    assert {"lives", "reward", "terminated"} <= set(keys)
    assert out["autoreset_rows_ok"]


@needs_pong
@needs_envpool
@pytest.mark.parametrize("batch_size", [None, 2])
def test_cleanrl_loop_pong_same_as_envpool(batch_size):
    kwargs = {"episodic_life": True, "reward_clip": True}
    args = ("Pong-v5", "gym", 4, batch_size, 32, 1024)
    ours = script.run(compat, *args, **kwargs)
    theirs = script.run(reference(), *args, **kwargs)
    assert ours["signatures"] == theirs["signatures"]
    assert ours["observation_space"] == theirs["observation_space"]
    assert ours["action_space"] == theirs["action_space"]
    assert ours["config_keys"][: len(theirs["config_keys"])] == theirs["config_keys"]


def test_cleanrl_attribute_assignment_is_accepted():
    envs = compat.make("CartPole-v1", env_type="gym", num_envs=3)
    envs.num_envs = 3
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    assert envs.single_observation_space == envs.observation_space == rlpool.make_spec("CartPole-v1").observation_space
    envs.close()


# ---------------------------------------------------------------- config and spec


CONFIG_CASES = [
    {},
    {"num_envs": 4, "seed": 7},
    {"num_envs": 3, "seed": [5, 6, 7]},
    {"num_envs": 3, "env_seed": [5, 6, 7], "seed": 1},
    {"num_envs": 4, "batch_size": 0, "num_threads": 2, "max_episode_steps": 100},
    {"num_envs": 4, "batch_size": 2, "thread_affinity_offset": 0},
]

# EnvPool 1.2.5's config for the cases above (base_path left out: a path on disk).
EXPECTED_CONFIG = [
    dict(num_envs=1, batch_size=1, num_threads=0, seed=42, env_seed=[], max_episode_steps=500),
    dict(num_envs=4, batch_size=4, num_threads=0, seed=7, env_seed=[], max_episode_steps=500),
    dict(num_envs=3, batch_size=3, num_threads=0, seed=0, env_seed=[5, 6, 7], max_episode_steps=500),
    dict(num_envs=3, batch_size=3, num_threads=0, seed=1, env_seed=[5, 6, 7], max_episode_steps=500),
    dict(num_envs=4, batch_size=4, num_threads=2, seed=42, env_seed=[], max_episode_steps=100),
    dict(num_envs=4, batch_size=2, num_threads=0, seed=42, env_seed=[], max_episode_steps=500),
]


def envpool_view(config: dict) -> dict:
    return {k: v for k, v in config.items() if k in compat.ENVPOOL_CONFIG_KEYS and k != "base_path"}


@pytest.mark.parametrize("case,expected", list(zip(CONFIG_CASES, EXPECTED_CONFIG, strict=True)))
def test_config_has_envpool_keys_and_values(case, expected):
    spec = compat.make_spec("CartPole-v1", **case)
    full = dict(
        expected,
        max_num_players=1,
        thread_affinity_offset=case.get("thread_affinity_offset", -1),
        gym_reset_return_info=True,
        reward_threshold=475.0,
    )
    assert envpool_view(spec.config._asdict()) == full
    assert spec.config.num_envs == full["num_envs"]
    envs = compat.make("CartPole-v1", "gymnasium", **case)
    assert list(envs.config)[: len(compat.ENVPOOL_CONFIG_KEYS)] == list(compat.ENVPOOL_CONFIG_KEYS)
    assert envpool_view(envs.config) == full
    assert envs.is_async == (full["batch_size"] != full["num_envs"])
    assert len(envs) == full["num_envs"]
    np.testing.assert_array_equal(envs.all_env_ids, np.arange(full["num_envs"], dtype=np.int32))
    envs.close()


@needs_envpool
@pytest.mark.parametrize("case", CONFIG_CASES)
def test_config_same_as_envpool(case):
    ours = compat.make_spec("CartPole-v1", **case)
    theirs = reference().make_spec("CartPole-v1", **case)
    assert envpool_view(ours.config._asdict()) == envpool_view(theirs.config._asdict())
    assert list(ours.config._fields)[: len(theirs.config._fields)] == list(theirs.config._fields)
    assert ours.reward_threshold == theirs.reward_threshold


@needs_envpool
@pytest.mark.parametrize(
    "task", ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]
)
def test_spaces_and_specs_same_as_envpool(task):
    ours, theirs = compat.make_spec(task), reference().make_spec(task)
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.gymnasium_observation_space == theirs.gymnasium_observation_space
    ours_state, theirs_state = ours.observation_spec(), theirs.observation_spec()
    # rlpool's Acrobot does not report EnvPool's info["state"] (a classic-control family gap).
    missing = set(theirs_state._fields) - set(ours_state._fields)
    assert missing == ({"state"} if task == "Acrobot-v1" else set())
    assert ours_state._fields == tuple(f for f in theirs_state._fields if f not in missing)
    for name in ours_state._fields:
        assert_same_dm_spec(getattr(ours_state, name), getattr(theirs_state, name))
    assert_same_dm_spec(ours.action_spec(), theirs.action_spec())


def assert_same_dm_spec(a, b):
    if isinstance(a, tuple):
        assert type(a).__name__ == type(b).__name__ and a._fields == b._fields
        for x, y in zip(a, b, strict=True):
            assert_same_dm_spec(x, y)
        return
    assert type(a) is type(b) and a.shape == b.shape and a.dtype == b.dtype and a.name == b.name
    if hasattr(a, "minimum"):
        np.testing.assert_allclose(a.minimum, b.minimum, rtol=1e-6)
        np.testing.assert_allclose(a.maximum, b.maximum, rtol=1e-6)


def test_dm_specs_by_hand():
    from dm_env import specs

    spec = compat.make_spec("CartPole-v1")
    state = spec.observation_spec()
    assert type(state).__name__ == "State" and state._fields == ("env_id", "players", "obs")
    assert state.players._fields == ("env_id",) and state.env_id.dtype == np.int32
    assert state.obs.shape == (4,) and state.obs.dtype == np.float32
    action = spec.action_spec()
    assert isinstance(action, specs.DiscreteArray) and action.num_values == 2 and action.dtype == np.int32


# ---------------------------------------------------------------- dm_env


def test_dm_timesteps_as_envpool():
    env = compat.make("CartPole-v1", "dm", num_envs=3, max_episode_steps=5)
    ts = env.reset()
    assert type(ts.observation).__name__ == "State" and ts.observation._fields == ("env_id", "players", "obs")
    assert ts.step_type.dtype == np.int32 and ts.reward.dtype == np.float32 and ts.discount.dtype == np.float32
    np.testing.assert_array_equal(ts.step_type, [0, 0, 0])
    kinds = []
    for _ in range(6):  # CartPole cannot fall within 5 steps: every env is truncated at step 5
        ts = env.step(np.array([0, 1, 0], dtype=np.int32))
        kinds.append((ts.step_type.tolist(), ts.discount.tolist(), ts.reward.tolist()))
        for spec, value in zip(env.observation_spec(), ts.observation, strict=True):
            if not isinstance(spec, tuple):
                assert value.dtype == spec.dtype and value.shape[1:] == spec.shape
    mid = ([1, 1, 1], [1.0] * 3, [1.0] * 3)
    # Truncation: LAST with discount 1 (EnvPool 1.2.5 gives 0 here; see the module docstring); then FIRST.
    assert kinds == [mid] * 4 + [([2, 2, 2], [1.0] * 3, [1.0] * 3), ([0, 0, 0], [1.0] * 3, [0.0] * 3)]
    env.close()


def test_dm_termination_discount_zero():
    env = compat.make_dm("CartPole-v1", num_envs=2)
    env.reset()
    for _ in range(200):  # always pushing right topples the pole in ~10 steps
        ts = env.step(np.ones(2, dtype=np.int64))
        if (ts.step_type == 2).all():
            break
    np.testing.assert_array_equal(ts.discount, [0.0, 0.0])
    assert (ts.observation.env_id == [0, 1]).all()
    env.close()


@needs_envpool
def test_dm_same_as_envpool_but_truncation_discount():
    acts = np.array([0, 1, 0], dtype=np.int32)
    results = []
    for module in (compat, reference()):
        env = module.make_dm("CartPole-v1", num_envs=3, max_episode_steps=5)
        seen = [env.reset()]
        seen += [env.step(acts) for _ in range(6)]
        results.append(seen)
    for ours, theirs in zip(*results, strict=True):
        assert script.signature(tuple(ours)) == script.signature(tuple(theirs))
        np.testing.assert_array_equal(ours.step_type, theirs.step_type)
        last = ours.step_type == 2
        np.testing.assert_array_equal(ours.discount[~last], theirs.discount[~last])
        assert (ours.discount[last] == 1).all() and (theirs.discount[last] == 0).all()


# ---------------------------------------------------------------- behaviour and errors


def test_reset_seed_reseeds_and_seed_method_warns():
    a = compat.make("CartPole-v1", "gymnasium", num_envs=2, seed=1)
    b = compat.make("CartPole-v1", "gymnasium", num_envs=2, seed=2)
    assert not np.array_equal(a.reset()[0], b.reset()[0])
    np.testing.assert_array_equal(a.reset(seed=9)[0], b.reset(seed=9)[0])
    with pytest.warns(UserWarning, match="seed"):
        a.seed(3)
    a.close()
    b.close()


def test_negative_int32_seed_is_accepted():
    a = compat.make("CartPole-v1", "gym", num_envs=2, seed=-5)
    b = compat.make("CartPole-v1", "gym", num_envs=2, seed=-5)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    assert a.config["seed"] == -5


def test_reset_env_id_and_step_env_id():
    envs = compat.make("CartPole-v1", "gym", num_envs=4, batch_size=2)
    envs.async_reset()
    obs, reward, terminated, truncated, info = envs.recv()
    assert obs.shape == (2, 4) and reward.dtype == np.float32
    obs, reward, terminated, truncated, info = envs.step(np.zeros(2, dtype=np.int32), info["env_id"])
    assert info["players"]["env_id"] is info["env_id"]
    obs, info = envs.recv(reset=True)
    assert obs.shape == (2, 4) and set(info) == {"env_id", "players", "elapsed_step"}
    envs.close()


def test_same_step_autoreset_passes_through():
    envs = compat.make("CartPole-v1", "gymnasium", num_envs=2, max_episode_steps=3, autoreset_mode="SameStep")
    envs.reset()
    for _ in range(3):
        obs, reward, terminated, truncated, info = envs.step(np.zeros(2, dtype=np.int64))
    assert truncated.all() and "final_obs" in info and info["final_obs"][0].shape == (4,)
    envs.close()


def test_legacy_reset_and_truncation_flag():
    envs = legacy.make("CartPole-v1", "gym", num_envs=2, max_episode_steps=5)
    obs = envs.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)
    for step in range(5):
        obs, reward, done, info = envs.step(np.zeros(2, dtype=np.int32))
        assert done.all() == (step == 4)
    assert info["TimeLimit.truncated"].all() and list(info)[-2:] == ["TimeLimit.truncated", "elapsed_step"]
    with_info = legacy.make("CartPole-v1", "gym", num_envs=2, gym_reset_return_info=True)
    obs, info = with_info.reset()
    assert obs.shape == (2, 4) and "players" in info


def test_list_all_envs():
    assert set(rlpool.list_all_envs()) <= set(compat.list_all_envs())
    assert {"phys2d/CartPole-v1", "Pendulum-v0", "TicTacToe3d-v5"} <= set(compat.list_all_envs())
    if HAVE_ENVPOOL:
        classic = {"CartPole-v0", "CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"}
        assert classic <= set(reference().list_all_envs()) & set(compat.list_all_envs())


@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: compat.make("CartPole-v1"), TypeError, "env_type"),
        (lambda: compat.make("CartPole-v1", "gym3"), ValueError, "env_type"),
        (lambda: compat.make("Nope-v0", "gym"), ValueError, "unknown task id"),
        (lambda: compat.make("CartPole-v1", "gym", gym_reset_return_info=False), ValueError, "envpool_legacy"),
        (lambda: compat.make("CartPole-v1", "gym", num_envs=2, seed=[1, 2], env_seed=[1, 2]), ValueError, "not both"),
        (lambda: compat.make("CartPole-v1", "gym", num_envs=2, env_seed=[1, 2, 3]), ValueError, "num_envs=2"),
        (lambda: compat.make("CartPole-v1", "gym", seed=2**31), ValueError, "int32"),
        (lambda: compat.make("CartPole-v1", "gym", seed=1.5), TypeError, "seed"),
        (lambda: compat.make("BusyWork-v0", "gym", render_mode="rgb_array"), ValueError, "render"),  # does not render
        (lambda: compat.make("CartPole-v1", "gym", frame_skip=4), ValueError, "frame_skip"),
        (lambda: compat.make("CartPole-v1", "dm", autoreset_mode="SameStep"), ValueError, "NextStep"),
    ],
)
def test_bad_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_bad_actions_raise():
    """Float actions for a Discrete space are cast as EnvPool casts them (astype int32); rlpool refuses them."""
    envs = compat.make("CartPole-v1", "gym", num_envs=2)
    envs.reset()
    native = rlpool.make("CartPole-v1", num_envs=2)
    native.reset()
    with pytest.raises(TypeError, match="integers"):
        native.step(np.array([0.0, 1.0]))
    native.close()
    twin = compat.make("CartPole-v1", "gym", num_envs=2)
    twin.reset()
    np.testing.assert_array_equal(envs.step(np.array([0.7, 1.9]))[0], twin.step(np.array([0, 1]))[0])
    with pytest.raises(ValueError, match="out of range"):
        envs.step(np.array([0.0, 2.0]))
    with pytest.raises(ValueError, match="out of range"):
        envs.step(np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="out of range"):
        envs.step(np.array([0, 2], dtype=np.int32))
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.array([0, 1, 0], dtype=np.int32))
    obs, *_ = envs.step(np.array([0, 1], dtype=np.uint8))
    assert obs.shape == (2, 4)
    envs.close()


def partial_resets(module):
    envs = module.make("CartPole-v1", "gymnasium", num_envs=3)
    envs.reset()
    obs, info = envs.reset(np.array([2, 0], dtype=np.int32))
    masked_obs, masked_info = envs.reset(options={"reset_mask": np.array([False, True, False])})
    dm = module.make_dm("CartPole-v1", num_envs=3)
    dm.reset()
    ts = dm.reset(np.array([1], dtype=np.int32))
    shapes = (obs.shape, masked_obs.shape, ts.observation.obs.shape)
    return shapes, info["env_id"].tolist(), masked_info["env_id"].tolist()


def test_partial_reset_returns_the_reset_rows():
    assert partial_resets(compat) == (((2, 4), (1, 4), (1, 4)), [2, 0], [1])


@needs_envpool
def test_partial_reset_same_as_envpool():
    assert partial_resets(compat) == partial_resets(reference())


def test_atari_config_has_envpool_layout():
    """EnvPool's Atari config names the game `task` and has no reward_threshold (checked without envpool)."""
    if "Pong-v5" not in rlpool.list_all_envs():
        pytest.skip("Atari family not built")
    spec = compat.make_spec("Pong-v5")
    config = spec.config._asdict()
    assert config["task"] == "pong"
    assert "reward_threshold" not in config and "rom_path" not in config
    keys = list(config)
    assert keys.index("img_width") < keys.index("task") < keys.index("mode")
    assert spec.reward_threshold is None
