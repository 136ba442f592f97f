"""A task's methods (``compute_reward`` and the like, as gymnasium-robotics' goal envs have) on every face.

The task is ``TaskMethodsProbe-v0`` (``tests/task_methods_probe.py``), registered for these tests only; a task
without methods is CartPole-v1.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import gymnasium
import numpy as np
import pytest
from task_methods_probe import CALLS, CONFIGS, register_probe

import rlpool
from rlpool.api.pool_owner import PoolOwner
from rlpool.api.single import SingleEnv

METHODS = ["compute_reward", "compute_terminated", "compute_truncated"]


@pytest.fixture(scope="module")
def probe() -> str:
    return register_probe()


def goals(n: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """A batch of achieved and desired goals: the first half 0.01 apart, the rest 1.0."""
    achieved = np.zeros((n, 3))
    desired = np.zeros((n, 3))
    desired[: n // 2, 0] = 0.01
    desired[n // 2 :, 0] = 1.0
    return achieved, desired


def expected_reward(n: int = 6) -> np.ndarray:
    return np.array([0.0] * (n // 2) + [-1.0] * (n - n // 2), np.float32)


def test_spec_builds_the_methods_once_from_the_env_config(probe: str) -> None:
    spec = rlpool.make_spec(probe, distance_threshold=0.5)
    before = CALLS["factory"]
    methods = spec.task_methods
    assert sorted(methods) == METHODS
    assert spec.task_methods is methods and CALLS["factory"] == before + 1
    assert CONFIGS[-1]["distance_threshold"] == 0.5 and "_render" in CONFIGS[-1]  # hidden options included
    assert rlpool.make_spec("CartPole-v1").task_methods == {}
    assert rlpool.registry.task("CartPole-v1").task_methods is None


def test_vector_call_runs_a_task_method_once_and_gives_one_result_per_env(probe: str) -> None:
    envs = rlpool.make(probe, num_envs=4, seed=0)
    achieved, desired = goals()
    before = CALLS["compute_reward"]
    results = envs.call("compute_reward", achieved, desired, {})
    assert CALLS["compute_reward"] == before + 1
    assert isinstance(results, tuple) and len(results) == 4
    assert all(r is results[0] for r in results)
    np.testing.assert_array_equal(results[0], expected_reward())
    terminated = envs.call("compute_terminated", achieved_goal=achieved, desired_goal=desired, info={})[0]
    np.testing.assert_array_equal(terminated, [True] * 3 + [False] * 3)
    envs.close()


def test_vector_get_attr_and_attributes_give_the_functions(probe: str) -> None:
    envs = rlpool.make(probe, num_envs=3)
    functions = envs.get_attr("compute_reward")
    assert len(functions) == 3 and all(f is envs.compute_reward for f in functions)
    achieved, desired = goals()
    np.testing.assert_array_equal(envs.compute_reward(achieved, desired, {}), expected_reward())
    np.testing.assert_array_equal(envs.compute_truncated(achieved, desired, {}), [False] * 6)
    assert {name for name in METHODS if hasattr(envs, name)} == set(METHODS)
    with pytest.raises(AttributeError, match=r"^'GymnasiumVectorEnv' object has no attribute 'compute_rewards'$"):
        envs.compute_rewards  # noqa: B018
    envs.close()


def test_the_env_config_reaches_the_methods(probe: str) -> None:
    envs = rlpool.make(probe, num_envs=2, distance_threshold=2.0)
    achieved, desired = goals()
    np.testing.assert_array_equal(envs.compute_reward(achieved, desired, {}), np.zeros(6, np.float32))
    envs.close()


def test_gymnasium_make_vec_entry_point_has_them(probe: str) -> None:
    envs = gymnasium.make_vec(f"rlpool/{probe}", num_envs=2, vectorization_mode="vector_entry_point")
    achieved, desired = goals()
    rewards = envs.call("compute_reward", achieved, desired, {})
    assert len(rewards) == 2
    np.testing.assert_array_equal(rewards[1], expected_reward())
    envs.close()


def test_single_env_unwrapped_and_get_wrapper_attr(probe: str) -> None:
    env = gymnasium.make(f"rlpool/{probe}")
    assert isinstance(env.unwrapped, SingleEnv)
    achieved, desired = goals()
    np.testing.assert_array_equal(env.unwrapped.compute_reward(achieved, desired, {}), expected_reward())
    np.testing.assert_array_equal(env.get_wrapper_attr("compute_reward")(achieved, desired, {}), expected_reward())
    assert env.has_wrapper_attr("compute_terminated")
    # One env's goals, as a goal env's step reward: a scalar.
    assert env.unwrapped.compute_reward(achieved[0], desired[0], {}) == 0.0
    env.close()


def test_sync_vector_env_over_single_envs_calls_each(probe: str) -> None:
    envs = gymnasium.make_vec(f"rlpool/{probe}", num_envs=2, vectorization_mode="sync")
    achieved, desired = goals()
    rewards = envs.call("compute_reward", achieved, desired, {})
    assert len(rewards) == 2
    np.testing.assert_array_equal(rewards[0], expected_reward())
    envs.close()


def test_gym_face_has_them(probe: str) -> None:
    envs = rlpool.make(probe, env_type="gym", num_envs=2)
    achieved, desired = goals()
    np.testing.assert_array_equal(envs.compute_reward(achieved, desired, {}), expected_reward())
    envs.close()


def test_a_task_without_methods_raises_attribute_errors_naming_them() -> None:
    envs = rlpool.make("CartPole-v1", num_envs=2)
    with pytest.raises(AttributeError, match=r"^'GymnasiumVectorEnv' object has no attribute 'compute_reward'$"):
        envs.compute_reward  # noqa: B018
    with pytest.raises(AttributeError, match=r"no attribute 'compute_reward'; known: .*'spec'.*task's methods: none"):
        envs.call("compute_reward", None, None, {})
    with pytest.raises(AttributeError, match="compute_reward"):
        envs.get_attr("compute_reward")
    assert not hasattr(envs, "compute_reward")
    envs.close()
    env = gymnasium.make("rlpool/CartPole-v1")
    assert not env.has_wrapper_attr("compute_reward")
    with pytest.raises(AttributeError, match="compute_reward"):
        env.get_wrapper_attr("compute_reward")
    env.close()


def test_unknown_attributes_do_not_recurse_before_the_pool_exists() -> None:
    class Unbuilt(PoolOwner):
        pass

    unbuilt = Unbuilt()
    for name in ("_pool", "spec", "compute_reward", "_env_spec", "__setstate__"):
        with pytest.raises(AttributeError, match=f"no attribute '{name}'"):
            getattr(unbuilt, name)
    unbuilt._close_pool()  # as after a failed __init__: nothing to close


def test_a_bad_task_methods_result_is_refused() -> None:
    def hidden(config: dict[str, Any]) -> Any:
        return {"_hidden": print}

    def not_callable(config: dict[str, Any]) -> Any:
        return {"compute_reward": 1.0}

    # Spec-local tasks (the registered one with other task_methods): nothing broken enters the registry.
    spec = rlpool.make_spec("CartPole-v1")
    spec.task = dataclasses.replace(spec.task, task_methods=hidden)
    with pytest.raises(ValueError, match="task method name '_hidden'"):
        spec.task_methods  # noqa: B018
    spec = rlpool.make_spec("CartPole-v1")
    spec.task = dataclasses.replace(spec.task, task_methods=not_callable)
    with pytest.raises(TypeError, match="task method 'compute_reward' must be callable"):
        spec.task_methods  # noqa: B018
