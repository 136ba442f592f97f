"""gymnasium's conventions beyond VectorEnv's base class: a single-env entry point, get_attr/set_attr/call."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rlpool
from rlpool.api.single import SingleEnv

TASKS = ["CartPole-v1", "Pendulum-v1", "Blackjack-v1", "Taxi-v3", "Pong-v5", "Hopper-v5"]


@pytest.mark.parametrize("task_id", TASKS)
def test_gymnasium_make_gives_one_env_that_passes_check_env(task_id: str) -> None:
    env = gymnasium.make(f"rlpool/{task_id}")
    assert isinstance(env.unwrapped, SingleEnv)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_single_env_steps_as_env_zero_of_a_pool() -> None:
    single = gymnasium.make("rlpool/CartPole-v1")
    pool = rlpool.make("CartPole-v1", num_envs=1, seed=7)
    obs, _ = single.reset(seed=7)
    pobs, _ = pool.reset(seed=7)
    np.testing.assert_array_equal(obs, pobs[0])
    for t in range(600):
        action = t % 2
        obs, reward, terminated, truncated, _ = single.step(action)
        pobs, preward, pterm, ptrunc, _ = pool.step(np.array([action]))
        assert (reward, terminated, truncated) == (preward[0], pterm[0], ptrunc[0])
        if terminated or truncated:
            obs, _ = single.reset()
            pobs, _ = pool.reset()  # the pool would autoreset on its next step; reset both alike
        np.testing.assert_array_equal(obs, pobs[0])


def test_single_env_refuses_pool_options_and_steps_after_the_end() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        gymnasium.make("rlpool/CartPole-v1", num_envs=4)
    env = gymnasium.make("rlpool/CartPole-v1").unwrapped
    env.reset(seed=0)
    terminated = False
    for _ in range(100):  # always pushing left, the pole falls within a few dozen steps
        _, _, terminated, _, _ = env.step(0)
        if terminated:
            break
    assert terminated
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_in_every_mode_and_with_wrappers(mode: str) -> None:
    envs = gymnasium.make_vec(
        "rlpool/CartPole-v1", num_envs=2, vectorization_mode=mode,
        wrappers=[lambda e: gymnasium.wrappers.TransformReward(e, lambda r: 2 * r)],
    )
    envs.reset(seed=0)
    _, reward, *_ = envs.step(np.array([0, 1]))
    np.testing.assert_array_equal(reward, [2.0, 2.0])
    envs.close()


def test_get_attr_call_and_set_attr_on_a_pool() -> None:
    envs = gymnasium.make_vec("rlpool/Pendulum-v1", num_envs=3, vectorization_mode="vector_entry_point", g=9.0)
    assert envs.get_attr("g") == (9.0, 9.0, 9.0)
    assert envs.get_attr("max_episode_steps") == (200,) * 3
    assert envs.get_attr("observation_space")[0] == envs.single_observation_space
    assert envs.call("g") == (9.0,) * 3
    envs.reset(seed=0)
    states = envs.call("get_state")
    assert len(states) == 3 and states[0] == envs.get_state(0) and states[0] != states[1]
    with pytest.raises(AttributeError, match="no attribute 'nope'.*known"):
        envs.get_attr("nope")
    with pytest.raises(AttributeError, match="fixed when the pool is made"):
        envs.set_attr("g", [1.0, 2.0, 3.0])
    envs.close()
