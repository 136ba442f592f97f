"""Wall-clock to an Ant return of 4000: PPO with rl_games' EnvPool Ant settings (plain torch) on rlpool's Ant-v4.

    python benchmarks/train_ant.py                     # 64 envs, GPU when torch sees one, 600 s budget
    python benchmarks/train_ant.py --small             # the 2-core CPU budget: 1 torch thread, 300 s
    python benchmarks/train_ant.py --env-id Ant-v5 --num-envs 256 --json ant.json

The settings are rl_games' ``configs/mujoco/ant_envpool.yaml`` (which trains EnvPool's Ant-v4): 64 envs,
horizon 64, minibatches of 2048, 4 epochs, one ELU MLP of 256-128-64 shared by the Gaussian policy (a
state-independent log-std, starting at 0) and the value head, observations normalised by running statistics
(clipped to ±5), values normalised likewise, rewards scaled by 0.1, lr 3e-4 adapted to a KL of 0.008 after
every minibatch, clip 0.2 on the ratio and the value, critic coefficient 2, no entropy bonus, gradients
clipped at norm 1, gamma 0.99, lambda 0.95. Actions are clipped to [-1, 1] for the env. Time limits bootstrap
(the value of the episode's last observation), terminations do not. The return is the unscaled reward summed
over an episode; the run stops once the mean of the last 20 episodes reaches ``--target`` (4000), or at
``--time-budget`` seconds or ``--step-budget`` agent steps; train_common.py describes the figures.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
import torch
from torch import nn
from train_common import CommonArgs, EpisodeSums, Run, RunningMeanStd, Timers, gae, parse_args, setup

import rlpool


@dataclasses.dataclass
class Args(CommonArgs):
    """Ant's options: rl_games' ant_envpool.yaml."""

    env_id: str = "Ant-v4"
    num_envs: int = 64
    horizon: int = 64
    minibatch_size: int = 2048
    update_epochs: int = 4
    hidden: str = "256,128,64"
    learning_rate: float = 3e-4
    adaptive_lr: bool = True  # rl_games' "adaptive" schedule; --no-adaptive-lr keeps lr fixed
    kl_threshold: float = 0.008
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    clip_value: bool = True
    critic_coef: float = 2.0
    ent_coef: float = 0.0
    max_grad_norm: float = 1.0
    reward_scale: float = 0.1
    normalize_input: bool = True
    normalize_value: bool = True
    target: float = 4000.0
    window: int = 20
    step_budget: int = 100_000_000
    time_budget: float = 600.0


SMALL: dict[str, Any] = {"time_budget": 300.0, "torch_threads": 1}
"""``--small``: the same settings with a 300 s budget and one torch thread, for a 2-core CPU machine."""


class ActorCritic(nn.Module):
    """rl_games' ``continuous_a2c_logstd`` with ``separate: False``: one ELU MLP, a mean head and a value head."""

    def __init__(self, obs_dim: int, act_dim: int, hidden: list[int]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = obs_dim
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ELU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.mu = nn.Linear(width, act_dim)
        self.value = nn.Linear(width, 1)
        self.logstd = nn.Parameter(torch.zeros(act_dim))
        self.obs_rms = RunningMeanStd((obs_dim,))
        self.value_rms = RunningMeanStd(())

    def forward(self, obs: torch.Tensor, normalize_input: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
        """Action means and values (normalised where values are) of a batch of raw observations."""
        x = self.obs_rms.normalize(obs, clip=5.0) if normalize_input else obs
        hidden = self.trunk(x)
        return self.mu(hidden), self.value(hidden).squeeze(-1)


def gaussian_kl(mu: torch.Tensor, sigma: torch.Tensor, old_mu: torch.Tensor, old_sigma: torch.Tensor) -> torch.Tensor:
    """rl_games' ``policy_kl``: the KL divergence between diagonal Gaussians, summed over actions, batch mean."""
    c1 = torch.log(old_sigma / sigma + 1e-5)
    c2 = (sigma**2 + (old_mu - mu) ** 2) / (2.0 * (old_sigma**2 + 1e-5))
    return (c1 + c2 - 0.5).sum(-1).mean()


def train(args: Args) -> dict[str, Any]:
    """Train until the target, the time budget or the step budget; print and return the summary."""
    t0 = time.perf_counter()
    device, threads = setup(args)
    envs = rlpool.make(args.env_id, num_envs=args.num_envs, num_threads=threads, seed=args.seed)
    n, steps = args.num_envs, args.horizon
    obs_dim = int(envs.single_observation_space.shape[0])
    act_dim = int(envs.single_action_space.shape[0])
    model = ActorCritic(obs_dim, act_dim, [int(h) for h in args.hidden.split(",")]).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-8)
    lr = args.learning_rate

    def value_out(v: torch.Tensor) -> torch.Tensor:  # the value head's output in return units
        return model.value_rms.denormalize(v) if args.normalize_value else v

    shape = (steps, n)
    obs = torch.zeros(shape + (obs_dim,), device=device)
    actions, mus = torch.zeros(shape + (act_dim,), device=device), torch.zeros(shape + (act_dim,), device=device)
    logprobs, rewards, values = (torch.zeros(shape, device=device) for _ in range(3))
    terminateds, dones = torch.zeros(shape, device=device), torch.zeros(shape, device=device)
    valid = torch.zeros(shape, dtype=torch.bool, device=device)

    timers = Timers(device)
    with timers("env"):
        next_obs = envs.reset()[0]
    prev_done = np.zeros(n, dtype=bool)
    episodes = EpisodeSums(n)
    run = Run(args.env_id, args, device, timers, setup_s=time.perf_counter() - t0)
    reason = None
    while reason is None:
        old_sigma = model.logstd.detach().exp()
        for step in range(steps):
            with timers("policy"), torch.no_grad():
                x = torch.as_tensor(next_obs, dtype=torch.float32).to(device, non_blocking=True)
                mu, value = model(x, args.normalize_input)
                action = mu + old_sigma * torch.randn_like(mu)
                logprob = torch.distributions.Normal(mu, old_sigma).log_prob(action).sum(-1)
                action_np = action.clamp(-1.0, 1.0).cpu().numpy()
            obs[step], actions[step], mus[step], logprobs[step], values[step] = x, action, mu, logprob, value_out(value)
            valid[step] = torch.as_tensor(~prev_done, device=device)
            with timers("env"):
                next_obs, reward, terminated, truncated, _ = envs.step(action_np)
            done = terminated | truncated
            rewards[step] = torch.as_tensor(reward * args.reward_scale, dtype=torch.float32, device=device)
            terminateds[step] = torch.as_tensor(terminated, dtype=torch.float32, device=device)
            dones[step] = torch.as_tensor(done, dtype=torch.float32, device=device)
            run.add_steps(n)
            run.add_episodes(episodes.step(reward, ~prev_done, done))
            prev_done = done
            reason = run.stop_reason()
            if reason is not None:
                break
        if reason is not None:
            break

        with timers("update", sync=True):
            with torch.no_grad():
                x = torch.as_tensor(next_obs, dtype=torch.float32).to(device)
                next_value = value_out(model(x, args.normalize_input)[1])
            advantages = gae(rewards, values, next_value, terminateds, dones, args.gamma, args.gae_lambda)
            returns = advantages + values
            keep = valid.reshape(-1)
            b_obs = obs.reshape(-1, obs_dim)[keep]
            b_actions, b_mus = actions.reshape(-1, act_dim)[keep], mus.reshape(-1, act_dim)[keep]
            b_logprobs, b_advantages = logprobs.reshape(-1)[keep], advantages.reshape(-1)[keep]
            b_returns, b_values = returns.reshape(-1)[keep], values.reshape(-1)[keep]
            if args.normalize_input:
                model.obs_rms.update(b_obs)
            if args.normalize_value:
                model.value_rms.update(b_returns)
                b_returns, b_values = model.value_rms.normalize(b_returns), model.value_rms.normalize(b_values)
            b_advantages = (b_advantages - b_advantages.mean()) / (b_advantages.std() + 1e-8)
            batch = b_obs.shape[0]
            for _epoch in range(args.update_epochs):
                order = torch.randperm(batch, device=device)
                for lo in range(0, batch, args.minibatch_size):
                    mb = order[lo : lo + args.minibatch_size]
                    mu, newvalue = model(b_obs[mb], args.normalize_input)
                    sigma = model.logstd.exp().expand_as(mu)
                    dist = torch.distributions.Normal(mu, sigma)
                    ratio = (dist.log_prob(b_actions[mb]).sum(-1) - b_logprobs[mb]).exp()
                    adv, target = b_advantages[mb], b_returns[mb]
                    clip = args.clip_coef
                    pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                    v_loss = (newvalue - target) ** 2
                    if args.clip_value:
                        old = b_values[mb]
                        clipped = old + (newvalue - old).clamp(-clip, clip)
                        v_loss = torch.max(v_loss, (clipped - target) ** 2)
                    entropy = dist.entropy().sum(-1).mean()
                    loss = pg_loss + 0.5 * args.critic_coef * v_loss.mean() - args.ent_coef * entropy
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                    optimizer.step()
                    if args.adaptive_lr:  # rl_games' AdaptiveScheduler, after every minibatch
                        kl = float(gaussian_kl(mu.detach(), sigma.detach(), b_mus[mb], old_sigma.expand_as(mu)))
                        if kl > 2.0 * args.kl_threshold:
                            lr = max(lr / 1.5, 1e-6)
                        elif kl < 0.5 * args.kl_threshold:
                            lr = min(lr * 1.5, 1e-2)
                        optimizer.param_groups[0]["lr"] = lr
        run.add_update(batch * args.update_epochs)
        run.progress()
        reason = run.stop_reason()
    envs.close()
    run.progress(force=True)
    return run.finish(reason)


def main() -> None:
    args = parse_args(Args, SMALL, __doc__.split("\n")[0])
    assert isinstance(args, Args)
    train(args)


if __name__ == "__main__":
    main()
