"""rlpool as a Stable-Baselines3 VecEnv, checked against SB3's own DummyVecEnv over gymnasium."""

from __future__ import annotations

import time

import gymnasium
import numpy as np
import pytest
from lane import import_torch_or_skip

import_torch_or_skip()
pytest.importorskip("stable_baselines3")

import torch  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.callbacks import EvalCallback, StopTrainingOnRewardThreshold  # noqa: E402
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor, VecNormalize  # noqa: E402
from task_methods_probe import CALLS, register_probe  # noqa: E402

from rlpool.integrations.sb3 import RlpoolVecEnv  # noqa: E402


def state_of(venv: RlpoolVecEnv, i: int) -> np.ndarray:
    return np.frombuffer(venv.env_method("get_state", indices=[i])[0], dtype=np.float64)


def policy(obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Envs 0-3 balance the pole (long episodes, truncations); 4-7 act at random (terminations)."""
    balance = (obs[:, 2] + 0.5 * obs[:, 3] > 0).astype(np.int64)
    random = rng.integers(0, 2, size=len(obs))
    return np.where(np.arange(len(obs)) < 4, balance, random)


def test_steps_match_dummy_vec_env_over_gymnasium():
    """Same states, same actions: rlpool's VecEnv answers as SB3's DummyVecEnv of gymnasium CartPoles."""
    n, limit = 8, 40
    ours = VecMonitor(RlpoolVecEnv("CartPole-v1", num_envs=n, seed=0, max_episode_steps=limit))
    ref = VecMonitor(DummyVecEnv([lambda: gymnasium.make("CartPole-v1", max_episode_steps=limit)] * n))
    obs = ours.reset()
    ref.reset()
    raw = ours.unwrapped
    for i in range(n):  # start every reference env from rlpool's first state
        ref.unwrapped.envs[i].unwrapped.state = state_of(raw, i).copy()
    rng = np.random.default_rng(0)
    seen = {"terminated": 0, "truncated": 0, "episodes": 0}
    for _ in range(300):
        actions = policy(obs, rng)
        ours.step_async(actions)
        ref.step_async(actions)
        obs, rewards, dones, infos = ours.step_wait()
        ref_obs, ref_rewards, ref_dones, ref_infos = ref.step_wait()
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        np.testing.assert_array_equal(rewards, ref_rewards)
        np.testing.assert_array_equal(dones, ref_dones)
        for i in range(n):
            assert set(infos[i]) == set(ref_infos[i])
            assert infos[i]["TimeLimit.truncated"] == ref_infos[i]["TimeLimit.truncated"]
            if dones[i]:
                np.testing.assert_array_equal(infos[i]["terminal_observation"], ref_infos[i]["terminal_observation"])
                assert infos[i]["episode"]["r"] == ref_infos[i]["episode"]["r"]
                assert infos[i]["episode"]["l"] == ref_infos[i]["episode"]["l"]
                seen["truncated" if infos[i]["TimeLimit.truncated"] else "terminated"] += 1
                seen["episodes"] += 1
                # Both reset here, from different random draws: carry rlpool's new state over.
                new_state = state_of(raw, i)
                np.testing.assert_array_equal(obs[i], new_state.astype(np.float32))
                ref.unwrapped.envs[i].unwrapped.state = new_state.copy()
            else:
                np.testing.assert_array_equal(obs[i], ref_obs[i])
    assert seen["terminated"] > 10 and seen["truncated"] > 10
    ours.close()


def test_attributes_methods_and_seed():
    venv = RlpoolVecEnv("CartPole-v1", num_envs=3, seed=1)
    assert venv.get_attr("render_mode") == [None, None, None]
    assert venv.get_attr("max_episode_steps", [0, 2]) == [500, 500]
    assert venv.get_attr("observation_space", 1)[0] == venv.observation_space
    assert venv.has_attr("spec") and not venv.has_attr("no_such_thing")
    venv.set_attr("difficulty", 3, indices=[1])
    assert venv.get_attr("difficulty", [1]) == [3]
    assert venv.env_method("get_wrapper_attr", "difficulty", indices=[1]) == [3]
    with pytest.raises(AttributeError, match="difficulty"):
        venv.get_attr("difficulty", [0])
    with pytest.raises(AttributeError, match="fixed"):
        venv.set_attr("max_episode_steps", 10)
    with pytest.raises(AttributeError, match="no method"):
        venv.env_method("render")
    assert venv.env_is_wrapped(gymnasium.Wrapper) == [False, False, False]
    venv.reset()
    saved = venv.env_method("get_state", indices=[0])[0]
    venv.env_method("set_state", saved, indices=[2])
    assert venv.env_method("get_state", indices=[2]) == [saved]
    # VecEnv.seed(s) gives env i seed s + i at the next reset, like a fresh pool seeded with s.
    assert venv.seed(7) == [7, 8, 9]
    np.testing.assert_array_equal(venv.reset(), RlpoolVecEnv("CartPole-v1", num_envs=3, seed=7).reset())
    with pytest.raises(ValueError, match="batch_size"):
        RlpoolVecEnv("CartPole-v1", num_envs=2, batch_size=1)
    venv.close()


def test_nested_dict_observation_refused():
    # SB3's Dict observations hold no Dicts: a nested one is refused up front, naming the task and why.
    with pytest.raises(ValueError, match=r"NestedDict-v0 has a nested Dict observation space .*'desired_goal'"):
        RlpoolVecEnv("NestedDict-v0", num_envs=2)
    venv = RlpoolVecEnv("NestedDict-v0", num_envs=2, obs_names="a,b")  # a flat Dict is taken
    obs = venv.reset()
    assert set(obs) == {"a", "b"}
    assert venv.reset_infos[0] == {"count": 0}  # the hidden _distance left out
    venv.close()


def test_vec_normalize_save_load(tmp_path):
    venv = VecNormalize(RlpoolVecEnv("CartPole-v1", num_envs=4, seed=3), gamma=0.99)
    obs = venv.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        obs, rewards, dones, infos = venv.step(rng.integers(0, 2, size=4))
        for i in np.flatnonzero(dones):
            ended += 1
            # VecNormalize normalizes the terminal observation with the same statistics as obs.
            raw_terminal = venv.unnormalize_obs(infos[i]["terminal_observation"])
            np.testing.assert_allclose(venv.normalize_obs(raw_terminal), infos[i]["terminal_observation"], rtol=1e-5)
    assert ended > 5 and abs(float(obs.mean())) < 3
    path = tmp_path / "vecnormalize.pkl"
    venv.save(str(path))
    loaded = VecNormalize.load(str(path), RlpoolVecEnv("CartPole-v1", num_envs=4, seed=3))
    np.testing.assert_array_equal(loaded.obs_rms.mean, venv.obs_rms.mean)
    np.testing.assert_array_equal(loaded.obs_rms.var, venv.obs_rms.var)
    loaded.training = False
    probe = np.array([[0.1, -0.2, 0.03, 0.4]], dtype=np.float32)
    np.testing.assert_array_equal(loaded.normalize_obs(probe), venv.normalize_obs(probe))
    obs = loaded.reset()
    obs, *_ = loaded.step(np.zeros(4, dtype=np.int64))
    assert obs.shape == (4, 4)
    venv.close()
    loaded.close()


def test_ppo_solves_cartpole(tmp_path):
    """rl-zoo's PPO settings for CartPole-v1 (8 envs, n_steps 32, 20 epochs); stop once evaluation reaches 475."""
    torch.set_num_threads(1)  # a small MLP: more threads only add overhead on 2 cores
    start = time.perf_counter()
    env = VecMonitor(RlpoolVecEnv("CartPole-v1", num_envs=8, seed=0))

    def linear(value: float):
        return lambda progress_remaining: progress_remaining * value

    model = PPO(
        "MlpPolicy",
        env,
        n_steps=32,
        batch_size=256,
        gae_lambda=0.8,
        gamma=0.98,
        n_epochs=20,
        ent_coef=0.0,
        learning_rate=linear(1e-3),
        clip_range=linear(0.2),
        seed=0,
        device="cpu",
    )
    eval_env = VecMonitor(RlpoolVecEnv("CartPole-v1", num_envs=10, seed=10_000))
    stop = StopTrainingOnRewardThreshold(reward_threshold=475, verbose=0)
    model.learn(100_000, callback=EvalCallback(eval_env, callback_on_new_best=stop, eval_freq=1000, verbose=0))
    model.save(tmp_path / "ppo_cartpole")
    fresh = VecMonitor(RlpoolVecEnv("CartPole-v1", num_envs=10, seed=99_000))
    loaded = PPO.load(tmp_path / "ppo_cartpole", env=fresh, device="cpu")
    mean, _ = evaluate_policy(loaded, fresh, n_eval_episodes=20)
    print(f"PPO: {model.num_timesteps} steps, {time.perf_counter() - start:.1f} s, mean return {mean:.1f}")
    assert mean >= 475


def test_replay_buffer_gets_terminal_observations_and_timeouts():
    """An off-policy algorithm stores the true last observation of each episode and marks time-limit ends."""
    from stable_baselines3 import DQN

    torch.set_num_threads(1)
    env = RlpoolVecEnv("CartPole-v1", num_envs=2, seed=4, max_episode_steps=20)
    model = DQN("MlpPolicy", env, learning_starts=1_000, buffer_size=1_000, seed=0, device="cpu")
    model.learn(600)
    buf = model.replay_buffer
    size = buf.pos
    obs, next_obs = buf.observations[:size], buf.next_observations[:size]
    dones, timeouts = buf.dones[:size].astype(bool), buf.timeouts[:size].astype(bool)
    assert timeouts.sum() > 5 and (dones & ~timeouts).sum() > 5  # both kinds of episode end
    for t in range(size - 1):
        for e in range(2):
            if dones[t, e]:  # the stored next observation is the episode's last, not the reset one
                assert not np.array_equal(next_obs[t, e], obs[t + 1, e])
            else:
                np.testing.assert_array_equal(next_obs[t, e], obs[t + 1, e])


def test_task_methods_as_her_replay_buffer_calls_them():
    """``env_method("compute_reward", ..., indices=[0])`` (SB3's HerReplayBuffer) runs the batch function once."""
    venv = RlpoolVecEnv(register_probe(), num_envs=3, seed=0)
    achieved = np.zeros((5, 3))
    desired = np.array([[0.01, 0, 0]] * 2 + [[1.0, 0, 0]] * 3)
    before = CALLS["compute_reward"]
    rewards = venv.env_method("compute_reward", achieved, desired, [{}] * 5, indices=[0])
    assert CALLS["compute_reward"] == before + 1
    assert len(rewards) == 1
    np.testing.assert_array_equal(rewards[0], np.array([0, 0, -1, -1, -1], np.float32))
    assert len(venv.env_method("compute_terminated", achieved, desired, None)) == 3  # indices=None: every env
    functions = venv.get_attr("compute_reward", indices=[0, 2])
    assert len(functions) == 2 and functions[0] is functions[1] is venv.compute_reward
    assert venv.has_attr("compute_truncated")
    # VecEnvWrapper finds it on the wrapped env.
    np.testing.assert_array_equal(VecNormalize(venv).compute_reward(achieved, desired, None), rewards[0])
    with pytest.raises(AttributeError, match="fixed"):
        venv.set_attr("compute_reward", None)
    venv.close()
    plain = RlpoolVecEnv("CartPole-v1", num_envs=2)
    with pytest.raises(AttributeError, match=r"no method 'compute_reward'; supported: \['get_state'"):
        plain.env_method("compute_reward", achieved, desired, None, indices=[0])
    with pytest.raises(AttributeError, match="no attribute 'compute_reward'; known: .*task's methods: none"):
        plain.get_attr("compute_reward")
    assert not plain.has_attr("compute_reward")
    plain.close()
