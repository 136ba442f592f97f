"""The C++ Pool's conventions (``_core/python/conventions.cc``): rlpool's own by default, each one a
setting an API layer may choose (``rlpool.compat.envpool`` picks EnvPool's), each refusing bad values."""

import numpy as np
import pytest

import rlpool


def _pool(num_envs: int = 4, batch_size: int | None = None, task: str = "CartPole-v1"):
    env = rlpool.make_gymnasium(task, num_envs=num_envs, batch_size=batch_size or num_envs, seed=3)
    return env, env._pool


def test_defaults_are_rlpool_own():
    env, pool = _pool()
    assert pool.reward_dtype == "float64"
    assert pool.info_keys == [("env_id", "env_id"), ("elapsed_step", "elapsed_step")]
    assert not pool.first_step_resets and not pool.float_discrete_actions and not pool.subset_steps
    assert pool.dict_action_keys is None
    with pytest.raises(ValueError, match="has not been reset"):
        pool.step(np.zeros(4, np.int64))
    pool.reset()
    with pytest.raises(TypeError, match="discrete actions must be integers"):
        pool.step(np.zeros(4, np.float32))
    with pytest.raises(TypeError):
        pool.step({"action": np.zeros(4, np.int64)})
    with pytest.raises(ValueError, match="sync mode"):
        pool.step(np.zeros(2, np.int64), np.array([0, 1]))
    env.close()


def test_reward_dtype_and_info_keys_shape_the_result():
    env, pool = _pool()
    pool.reward_dtype = "float32"
    pool.info_keys = [("id", "env_id"), ("nested.id", "env_id"), ("steps", "elapsed_step")]
    obs, info = pool.reset()
    assert list(info) == ["id", "nested", "steps"]
    assert info["nested"]["id"] is info["id"]
    _, reward, _, _, info = pool.step(np.ones(4, np.int64))
    assert reward.dtype == np.float32 and np.array_equal(reward, np.ones(4))
    assert np.array_equal(info["steps"], np.ones(4))
    pool.reward_dtype = "float64"
    assert pool.step(np.ones(4, np.int64))[1].dtype == np.float64
    env.close()


@pytest.mark.parametrize(
    ("keys", "error"),
    [
        ([("x", "nothing")], "not a field"),
        ([("a.b.c", "env_id")], "one level of nesting"),
        ([("a.", "env_id")], "one level of nesting"),
        ([("_rlpool_x", "env_id")], "_rlpool"),
        ([("a", "env_id"), ("a", "elapsed_step")], "clashes"),
        ([("a", "env_id"), ("a.b", "elapsed_step")], "clashes"),
        ([("a.b", "env_id"), ("a", "elapsed_step")], "clashes"),
    ],
)
def test_bad_info_keys_are_refused_and_change_nothing(keys, error):
    env, pool = _pool()
    before = pool.info_keys
    with pytest.raises(ValueError, match=error):
        pool.info_keys = keys
    assert pool.info_keys == before
    env.close()


def test_bad_settings_are_refused():
    env, pool = _pool()
    with pytest.raises(ValueError, match="reward_dtype"):
        pool.reward_dtype = "int8"
    with pytest.raises(TypeError):
        pool.dict_action_keys = "action"
    with pytest.raises(ValueError, match="may not be empty"):
        pool.dict_action_keys = ("", [])
    assert pool.reward_dtype == "float64" and pool.dict_action_keys is None
    env.close()


def test_leniencies_when_chosen():
    env, pool = _pool()
    pool.first_step_resets = True
    pool.float_discrete_actions = True
    pool.dict_action_keys = ("act", ["ids", "who.ids"])
    pool.subset_steps = True
    obs, *_ = pool.step(np.zeros(4, np.int64))  # resets
    assert obs.shape == (4, 4)
    _, _, _, _, info = pool.step(np.array([1.9, 0.2, 1.0, 0.0], np.float32))  # truncated toward zero
    assert np.array_equal(info["elapsed_step"], [1, 1, 1, 1])
    with pytest.raises(ValueError, match="out of range"):
        pool.step(np.array([2.0, 0, 0, 0]))
    _, _, _, _, info = pool.step({"act": np.array([1, 0]), "who": {"ids": np.array([3, 1])}}, np.array([3, 1]))
    assert np.array_equal(info["env_id"], [3, 1]) and np.array_equal(info["elapsed_step"], [2, 2])
    _, _, _, _, info = pool.step({"act": np.array([1]), "ids": np.array([0])})
    assert np.array_equal(info["env_id"], [0]) and np.array_equal(info["elapsed_step"], [2])
    with pytest.raises(ValueError, match="needs the key 'act'.*'ids', 'who.ids'"):
        pool.step({"action": np.array([1])})
    env.close()


def test_dict_actions_in_async_send():
    env, pool = _pool(num_envs=4, batch_size=2)
    pool.dict_action_keys = ("action", ["env_id"])
    pool.async_reset()
    _, info = pool.recv()[0], pool.recv()[4]
    pool.send({"action": np.zeros(2, np.int64), "env_id": info["env_id"]})
    assert set(pool.recv()[4]["env_id"].tolist()) <= {0, 1, 2, 3}
    env.close()
