"""PPO on CartPole-v1 with rlpool's gymnasium API, in one file (CleanRL's style, plain torch).

    python examples/ppo_cartpole.py                      # trains until the greedy policy scores 475
    python examples/ppo_cartpole.py --target-return 0    # the whole --total-timesteps budget
    python examples/ppo_cartpole.py --api gym --target-metric train   # gym's 4-tuple, as EnvPool + gym < 0.26

``--api gym`` steps the pool through EnvPool's old gym API (``rlpool.compat.envpool_legacy``, what
CleanRL's EnvPool scripts use): ``reset()`` gives ``obs``, ``step`` gives ``(obs, reward, done, info)``
with ``info["TimeLimit.truncated"]``. ``--target-metric train`` stops on the mean return of the last 20
training episodes instead of the greedy policy's.

Hyperparameters are rl-zoo's for CartPole-v1 (8 envs, 32 steps per rollout, one 256-sample
minibatch, 20 epochs, lr 1e-3 and clip 0.2 both annealed, gamma 0.98, lambda 0.8).

rlpool autoresets on the step after an episode ends ("NextStep", as EnvPool and gymnasium 1.x):
the step that ends an episode returns the episode's final observation, and the next step
ignores its action and returns the new episode's first observation with reward 0. So a
truncated episode bootstraps from the value of that final observation for free, and the
reset transition is left out of the loss.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import rlpool


@dataclass
class Args:
    env_id: str = "CartPole-v1"
    seed: int = 1
    num_envs: int = 8
    num_steps: int = 32
    total_timesteps: int = 100_000
    learning_rate: float = 1e-3
    anneal: bool = True
    gamma: float = 0.98
    gae_lambda: float = 0.8
    num_minibatches: int = 1
    update_epochs: int = 20
    clip_coef: float = 0.2
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_return: float = 475.0  # stop once the greedy policy averages this (0: never stop early)
    eval_every: int = 20  # updates between greedy evaluations
    eval_episodes: int = 16
    torch_threads: int = 1
    api: str = "gymnasium"  # or "gym": EnvPool's 4-tuple API of gym < 0.26
    target_metric: str = "eval"  # "eval": the greedy policy's return; "train": the last 20 training episodes'


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )  # fmt: skip
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, n_actions), std=0.01),
        )  # fmt: skip

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None):
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.get_value(x)

    def greedy(self, x: torch.Tensor) -> torch.Tensor:
        return self.actor(x).argmax(-1)


def evaluate(agent: Agent, env_id: str, episodes: int, seed: int) -> float:
    """Mean return of the greedy policy: ``episodes`` envs, one full episode each."""
    envs = rlpool.make(env_id, num_envs=episodes, seed=seed)
    obs, _ = envs.reset()
    returns = np.zeros(episodes)
    running = np.ones(episodes, dtype=bool)
    with torch.no_grad():
        while running.any():
            action = agent.greedy(torch.as_tensor(obs)).numpy()
            obs, reward, terminated, truncated, _ = envs.step(action)
            returns += reward * running
            running &= ~(terminated | truncated)
    envs.close()
    return float(returns.mean())


class Pool:
    """The training pool through rlpool's gymnasium API or EnvPool's old gym one (``api="gym"``)."""

    def __init__(self, args: Args) -> None:
        if args.api not in ("gymnasium", "gym"):
            raise ValueError(f"api must be 'gymnasium' or 'gym', not {args.api!r}")
        self.legacy = args.api == "gym"
        if self.legacy:
            import rlpool.compat.envpool_legacy as envpool

            self.envs = envpool.make(args.env_id, env_type="gym", num_envs=args.num_envs, seed=args.seed)
        else:
            self.envs = rlpool.make(args.env_id, num_envs=args.num_envs, seed=args.seed)
        self.single_observation_space = self.envs.single_observation_space
        self.single_action_space = self.envs.single_action_space

    def reset(self) -> np.ndarray:
        return self.envs.reset() if self.legacy else self.envs.reset()[0]

    def step(self, action: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(obs, reward, terminated, truncated)`` from either API."""
        if self.legacy:
            obs, reward, done, info = self.envs.step(action)
            truncated = info["TimeLimit.truncated"]
            return obs, reward, done & ~truncated, truncated
        obs, reward, terminated, truncated, _ = self.envs.step(action)
        return obs, reward, terminated, truncated

    def close(self) -> None:
        self.envs.close()


def train(args: Args) -> tuple[Agent, dict]:
    if args.target_metric not in ("eval", "train"):
        raise ValueError(f"target_metric must be 'eval' or 'train', not {args.target_metric!r}")
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    envs = Pool(args)
    obs_dim = envs.single_observation_space.shape[0]
    agent = Agent(obs_dim, int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + (obs_dim,))
    actions = torch.zeros(shape, dtype=torch.long)
    logprobs, rewards, values = torch.zeros(shape), torch.zeros(shape), torch.zeros(shape)
    terminateds, dones, valid = torch.zeros(shape), torch.zeros(shape), torch.zeros(shape, dtype=torch.bool)

    next_obs = torch.as_tensor(envs.reset())
    prev_done = torch.zeros(args.num_envs, dtype=torch.bool)  # the next step of these envs is their reset
    episode_return = np.zeros(args.num_envs)
    recent: list[float] = []
    num_updates = args.total_timesteps // (args.num_envs * args.num_steps)
    start = time.perf_counter()
    eval_return = float("nan")
    update = 0
    for update in range(1, num_updates + 1):
        frac = 1.0 - (update - 1.0) / num_updates if args.anneal else 1.0
        optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        clip = frac * args.clip_coef if args.anneal else args.clip_coef

        for step in range(args.num_steps):
            obs[step] = next_obs
            valid[step] = ~prev_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            actions[step], logprobs[step], values[step] = action, logprob, value
            o, reward, terminated, truncated = envs.step(action.numpy())
            done = terminated | truncated
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            terminateds[step] = torch.as_tensor(terminated, dtype=torch.float32)
            dones[step] = torch.as_tensor(done, dtype=torch.float32)
            next_obs = torch.as_tensor(o)
            episode_return += reward
            recent.extend(episode_return[done].tolist())
            episode_return[done] = 0.0
            prev_done = torch.as_tensor(done)

        with torch.no_grad():
            # values[t + 1] is the value of the observation step t returned: after a truncation
            # that is the episode's final observation, so truncations bootstrap correctly.
            next_value = agent.get_value(next_obs)
            advantages = torch.zeros(shape)
            lastgaelam = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * (1.0 - terminateds[t]) - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * (1.0 - dones[t]) * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values

        keep = valid.reshape(-1)  # drop the reset transitions: their actions were ignored
        b_obs = obs.reshape(-1, obs_dim)[keep]
        b_actions, b_logprobs = actions.reshape(-1)[keep], logprobs.reshape(-1)[keep]
        b_advantages, b_returns = advantages.reshape(-1)[keep], returns.reshape(-1)[keep]
        batch = b_obs.shape[0]
        minibatch = max(1, batch // args.num_minibatches)
        for _epoch in range(args.update_epochs):
            order = torch.randperm(batch)
            for lo in range(0, batch, minibatch):
                mb = order[lo : lo + minibatch]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        if args.target_metric == "train":
            if args.target_return > 0 and len(recent) >= 20 and np.mean(recent[-20:]) >= args.target_return:
                break
        elif args.target_return > 0 and update % args.eval_every == 0:
            eval_return = evaluate(agent, args.env_id, args.eval_episodes, seed=10_000 + update)
            if eval_return >= args.target_return:
                break
    envs.close()
    stats = {
        "updates": update,
        "timesteps": update * args.num_envs * args.num_steps,
        "seconds": time.perf_counter() - start,
        "last_eval_return": eval_return,
        "recent_train_return": float(np.mean(recent[-20:])) if recent else float("nan"),
    }
    return agent, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, default in vars(Args()).items():
        kind = type(default)
        if kind is bool:
            parser.add_argument(f"--{name.replace('_', '-')}", type=lambda s: s.lower() in ("1", "true", "yes"),
                                default=default)
        else:
            parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=default)
    args = Args(**vars(parser.parse_args()))
    agent, stats = train(args)
    final = evaluate(agent, args.env_id, 20, seed=123_456)
    print(
        f"{stats['timesteps']} steps in {stats['seconds']:.1f} s; greedy return over 20 fresh episodes: {final:.1f}"
    )


if __name__ == "__main__":
    main()
