"""A dm_env-consuming loop in the style of DeepMind Acme's EnvironmentLoop, over rlpool's dm_env pools.

The loop only trusts what dm_env promises: ``step_type`` FIRST/MID/LAST, ``discount`` 0
when the task ended the episode and 1 when it was cut by the time limit (so the learner
bootstraps), values within their specs. Every transition is checked against gymnasium's
CartPole stepped from the same state with the same action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import dm_env
import gymnasium
import numpy as np
import pytest

import rlpool
import rlpool.compat.envpool as compat

FIRST, MID, LAST = int(dm_env.StepType.FIRST), int(dm_env.StepType.MID), int(dm_env.StepType.LAST)


@dataclass
class Episode:
    steps: int = 0
    ret: float = 0.0
    last_discount: float | None = None


@dataclass
class BatchedActor:
    """Acme's Actor interface (select_action / observe_first / observe / update), one episode per env row."""

    action_spec: dm_env.specs.DiscreteArray
    num_envs: int
    rng: np.random.Generator
    current: list[Episode] = field(default_factory=list)
    finished: list[Episode] = field(default_factory=list)
    transitions: list[tuple[float, float]] = field(default_factory=list)  # (reward, discount) as an adder sees them

    def select_action(self, observation) -> np.ndarray:
        obs = observation.obs
        balance = (obs[:, 2] + 0.5 * obs[:, 3] > 0).astype(self.action_spec.dtype)
        random = self.rng.integers(0, self.action_spec.num_values, size=len(obs)).astype(self.action_spec.dtype)
        actions = np.where(np.arange(len(obs)) < self.num_envs // 2, balance, random)  # long and short episodes
        for a in actions:
            self.action_spec.validate(a)
        return actions

    def observe_first(self, row: int) -> None:
        while len(self.current) <= row:
            self.current.append(Episode())
        self.current[row] = Episode()

    def observe(self, row: int, reward: float, discount: float, step_type: int) -> None:
        episode = self.current[row]
        episode.steps += 1
        episode.ret += reward
        self.transitions.append((reward, discount))
        if step_type == LAST:
            episode.last_discount = discount
            self.finished.append(episode)

    def update(self) -> None:
        """A learner would consume ``transitions`` here: target = r + gamma * discount * V(next)."""


def validate_row(env, timestep, row: int) -> None:
    for spec, value in zip(env.observation_spec(), timestep.observation, strict=True):
        if isinstance(spec, tuple):  # EnvPool's nested ``players`` entry
            for s, v in zip(spec, value, strict=True):
                s.validate(v[row])
        else:
            spec.validate(value[row])
    env.reward_spec().validate(timestep.reward[row])
    env.discount_spec().validate(timestep.discount[row])


def gym_state(env, i: int) -> np.ndarray:
    return np.frombuffer(env._pool.get_state(i), dtype=np.float64).copy()


@pytest.mark.parametrize("make_dm", [rlpool.make_dm, compat.make_dm], ids=["rlpool", "compat.envpool"])
def test_acme_style_loop_matches_gymnasium(make_dm):
    n, limit = 8, 40
    env = make_dm("CartPole-v1", num_envs=n, seed=5, max_episode_steps=limit)
    assert isinstance(env.action_spec(), dm_env.specs.DiscreteArray)
    ref = [gymnasium.make("CartPole-v1", max_episode_steps=limit) for _ in range(n)]
    actor = BatchedActor(env.action_spec(), n, np.random.default_rng(0))

    def start_episode(i: int, timestep) -> None:
        ref[i].reset()
        ref[i].unwrapped.state = gym_state(env, i)  # continue from rlpool's first state
        actor.observe_first(i)
        validate_row(env, timestep, i)
        assert timestep.reward[i] == 0 and timestep.discount[i] == 1

    timestep = env.reset()
    assert (timestep.step_type == FIRST).all()
    for i in range(n):
        start_episode(i, timestep)
    for _ in range(400):
        actions = actor.select_action(timestep.observation)
        timestep = env.step(actions)
        np.testing.assert_array_equal(timestep.observation.env_id, np.arange(n))
        for i in range(n):
            if timestep.step_type[i] == FIRST:  # the row after LAST: a reset, its action ignored
                start_episode(i, timestep)
                continue
            validate_row(env, timestep, i)
            obs, reward, terminated, truncated, _ = ref[i].step(int(actions[i]))
            np.testing.assert_array_equal(timestep.observation.obs[i], obs)
            assert timestep.reward[i] == reward
            assert timestep.step_type[i] == (LAST if terminated or truncated else MID)
            assert timestep.discount[i] == (0.0 if terminated else 1.0)
            actor.observe(i, float(timestep.reward[i]), float(timestep.discount[i]), int(timestep.step_type[i]))
        actor.update()
    truncated = [e for e in actor.finished if e.steps == limit and e.last_discount == 1.0]
    terminated = [e for e in actor.finished if e.last_discount == 0.0]
    assert len(truncated) > 10 and len(terminated) > 10
    assert len(truncated) + len(terminated) == len(actor.finished)
    env.close()


def test_multi_agent_steps_have_per_agent_reward_and_discount() -> None:
    """A two-player game through dm_env: the step type is per env (LAST once the game is over), the reward and
    discount per player (discount 0 for each terminated player)."""
    env = rlpool.make_dm("TicTacToe-v1", num_envs=2, seed=0)
    assert env.reward_spec().shape == (2,) and env.discount_spec().shape == (2,)
    first = env.reset()
    assert (first.step_type == 0).all()
    mid = env.step(np.array([4, 4]))
    assert (mid.step_type == 1).all() and mid.reward.shape == (2, 2) and (mid.discount == 1).all()
    last = env.step(np.array([4, 0]))  # env 0 plays the taken centre: pgx's illegal-move end; env 1 goes on
    assert last.step_type.tolist() == [2, 1]
    assert last.discount[0].tolist() == [0.0, 0.0] and last.discount[1].tolist() == [1.0, 1.0]
    assert sorted(last.reward[0].tolist()) == [-1.0, 1.0]
    env.close()
