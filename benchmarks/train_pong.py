"""Wall-clock to a Pong score of 20: PPO (CleanRL's Atari settings, plain torch) on rlpool's Pong-v5.

    python benchmarks/train_pong.py                    # 32 envs, GPU when torch sees one, 600 s budget
    python benchmarks/train_pong.py --small            # the 2-core CPU budget: 8 envs, 1 torch thread, 300 s
    python benchmarks/train_pong.py --num-envs 64 --time-budget 900 --json pong.json

The envs take EnvPool's Atari options (``episodic_life``, ``reward_clip``, 84x84 grey frames, stacks of 4,
frame skip 4; rlpool's defaults but the first two), and the agent is examples/ppo_atari.py's: the Nature-DQN
torso, CleanRL's hyperparameters (128 steps, minibatches of 256 with the default 32 envs, 4 epochs, lr 2.5e-4
annealed over the step budget, clip 0.1, entropy 0.01, gamma 0.99, lambda 0.95). The score is CleanRL's:
``info["reward"]`` (unclipped) summed over a real game, which ends at ``info["terminated"]`` or a time
limit. The run stops once the mean of the last 10 games reaches ``--target`` (20), or at ``--time-budget``
seconds or ``--step-budget`` agent steps (one agent step = 4 frames); train_common.py describes the figures.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical
from train_common import CommonArgs, EpisodeSums, Run, Timers, gae, parse_args, setup

import rlpool


@dataclasses.dataclass
class Args(CommonArgs):
    """Pong's options: CleanRL's PPO for Atari, with more envs."""

    env_id: str = "Pong-v5"
    num_envs: int = 32
    num_steps: int = 128
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True  # linearly to 0 at the step budget
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 16
    update_epochs: int = 4
    clip_coef: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target: float = 20.0
    window: int = 10
    step_budget: int = 10_000_000
    time_budget: float = 600.0


SMALL: dict[str, Any] = {"num_envs": 8, "num_minibatches": 4, "time_budget": 300.0, "torch_threads": 1}
"""``--small``: CleanRL's own 8 envs (minibatches of 256), a 300 s budget and one torch thread, for a 2-core CPU
machine (where the pool's threads and other processes share the cores, torch's second thread slowed it down)."""


def layer_init(layer: nn.Module, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Module:
    """Orthogonal weights and constant biases, as CleanRL initialises its layers."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """The Nature-DQN torso with policy and value heads (frames as uint8, scaled here)."""

    def __init__(self, n_actions: int) -> None:
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(4, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)), nn.ReLU(),
        )  # fmt: skip
        self.actor = layer_init(nn.Linear(512, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(512, 1), std=1)

    def forward(self, frames: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits and values of a batch of uint8 frame stacks."""
        hidden = self.network(frames.float() / 255.0)
        return self.actor(hidden), self.critic(hidden).squeeze(-1)


def train(args: Args) -> dict[str, Any]:
    """Train until the target, the time budget or the step budget; print and return the summary."""
    t0 = time.perf_counter()
    device, threads = setup(args)
    envs = rlpool.make(args.env_id, num_envs=args.num_envs, num_threads=threads, seed=args.seed,
                       episodic_life=True, reward_clip=True)
    n, steps = args.num_envs, args.num_steps
    obs_shape = envs.single_observation_space.shape
    agent = Agent(int(envs.single_action_space.n)).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    shape = (steps, n)
    obs = torch.zeros(shape + obs_shape, dtype=torch.uint8, device=device)
    actions = torch.zeros(shape, dtype=torch.long, device=device)
    logprobs, rewards, values = (torch.zeros(shape, device=device) for _ in range(3))
    terminateds, dones = torch.zeros(shape, device=device), torch.zeros(shape, device=device)
    valid = torch.zeros(shape, dtype=torch.bool, device=device)

    timers = Timers(device)
    with timers("env"):
        next_obs = envs.reset()[0]
    prev_done = np.zeros(n, dtype=bool)
    games = EpisodeSums(n)
    run = Run(args.env_id, args, device, timers, setup_s=time.perf_counter() - t0, extra={"frame_skip": 4})
    reason = None
    while reason is None:
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * max(0.0, 1.0 - run.steps / args.step_budget)
        for step in range(steps):
            with timers("policy"), torch.no_grad():
                frames = torch.as_tensor(next_obs).to(device, non_blocking=True)
                logits, value = agent(frames)
                dist = Categorical(logits=logits)
                action = dist.sample()
                action_np = action.cpu().numpy()
            obs[step], actions[step], logprobs[step], values[step] = frames, action, dist.log_prob(action), value
            valid[step] = torch.as_tensor(~prev_done, device=device)
            with timers("env"):
                next_obs, reward, terminated, truncated, info = envs.step(action_np)
            done = terminated | truncated
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32, device=device)
            terminateds[step] = torch.as_tensor(terminated, dtype=torch.float32, device=device)
            dones[step] = torch.as_tensor(done, dtype=torch.float32, device=device)
            run.add_steps(n)
            run.add_episodes(games.step(info["reward"], ~prev_done, info["terminated"].astype(bool) | truncated))
            prev_done = done
            reason = run.stop_reason()
            if reason is not None:
                break
        if reason is not None:
            break

        with timers("update", sync=True):
            with torch.no_grad():
                next_value = agent(torch.as_tensor(next_obs).to(device))[1]
            advantages = gae(rewards, values, next_value, terminateds, dones, args.gamma, args.gae_lambda)
            returns = advantages + values
            keep = valid.reshape(-1)
            b_obs = obs.reshape((-1,) + obs_shape)[keep]
            b_actions, b_logprobs = actions.reshape(-1)[keep], logprobs.reshape(-1)[keep]
            b_advantages, b_returns = advantages.reshape(-1)[keep], returns.reshape(-1)[keep]
            batch = b_obs.shape[0]
            minibatch = max(1, (steps * n) // args.num_minibatches)
            for _epoch in range(args.update_epochs):
                order = torch.randperm(batch, device=device)
                for lo in range(0, batch, minibatch):
                    mb = order[lo : lo + minibatch]
                    logits, newvalue = agent(b_obs[mb])
                    dist = Categorical(logits=logits)
                    ratio = (dist.log_prob(b_actions[mb]) - b_logprobs[mb]).exp()
                    adv = b_advantages[mb]
                    adv = (adv - adv.mean()) / (adv.std(unbiased=len(mb) > 1) + 1e-8)
                    clip = args.clip_coef
                    pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                    loss = pg_loss - args.ent_coef * dist.entropy().mean() + args.vf_coef * v_loss
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()
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
