"""PPO on Atari Pong in one file, written to the EnvPool API (CleanRL's ppo_atari_envpool shape, plain torch).

    python examples/ppo_atari.py --env-id Pong-v5 --total-timesteps 10000000

The only rlpool-specific line is ``import rlpool.compat.envpool as envpool``; with
``--reference`` the same code runs on EnvPool. Envs use EnvPool's Atari options
(``episodic_life``, ``reward_clip``, 84x84 grey frames, 4-frame stacks, frame skip 4).
Hyperparameters are CleanRL's for Atari (8 envs, 128 steps, 4 minibatches, 4 epochs,
lr 2.5e-4 annealed, clip 0.1, ent 0.01, gamma 0.99, lambda 0.95).

Wall-clock on a 2-core machine (CPU torch): about 15 agent steps/s on rlpool's Pong-v5, bound by the
CNN's forward/backward on the CPU, not by the envs (docs/integrations.md); CleanRL's budget for Pong (10M
frames = 2.5M agent steps, reaching about +20) would take about 46 hours there: use a GPU for the network.
``train()`` returns the throughput, so a short run gives an estimate.

Episode statistics follow CleanRL: with ``episodic_life`` a lost life ends the episode the
agent learns from, while ``info["terminated"]`` marks the real game over and
``info["reward"]`` holds the unclipped score. Autoreset is EnvPool's "NextStep": the step
after an episode ends returns the reset observation, and that transition is left out of the loss.
"""

from __future__ import annotations

import argparse
import importlib
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical


@dataclass
class Args:
    env_id: str = "Pong-v5"
    seed: int = 1
    num_envs: int = 8
    num_steps: int = 128
    total_timesteps: int = 10_000_000
    learning_rate: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    torch_threads: int = 2
    reference: bool = False  # run on EnvPool itself
    log_every: int = 10  # updates between progress lines (0: quiet)


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Module:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """The Nature-DQN torso with policy and value heads."""

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

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.network(x / 255.0)).squeeze(-1)

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None):
        hidden = self.network(x / 255.0)
        dist = Categorical(logits=self.actor(hidden))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


def train(args: Args) -> tuple[Agent, dict]:
    envpool = importlib.import_module("envpool" if args.reference else "rlpool.compat.envpool")
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    envs = envpool.make(
        args.env_id, env_type="gym", num_envs=args.num_envs, episodic_life=True, reward_clip=True, seed=args.seed
    )
    try:  # CleanRL's lines; EnvPool 1.x has these already, read-only
        envs.num_envs = args.num_envs
        envs.single_action_space = envs.action_space
        envs.single_observation_space = envs.observation_space
    except AttributeError:
        pass
    obs_shape = envs.single_observation_space.shape
    agent = Agent(int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + obs_shape, dtype=torch.uint8)
    actions = torch.zeros(shape, dtype=torch.long)
    logprobs, rewards, values = torch.zeros(shape), torch.zeros(shape), torch.zeros(shape)
    terminateds, dones, valid = torch.zeros(shape), torch.zeros(shape), torch.zeros(shape, dtype=torch.bool)

    next_obs = torch.as_tensor(envs.reset()[0])
    prev_done = np.zeros(args.num_envs, dtype=bool)
    game_return = np.zeros(args.num_envs)
    game_returns: list[float] = []
    num_updates = max(1, args.total_timesteps // (args.num_envs * args.num_steps))
    start = time.perf_counter()
    update = 0
    for update in range(1, num_updates + 1):
        frac = 1.0 - (update - 1.0) / num_updates
        optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        for step in range(args.num_steps):
            obs[step] = next_obs
            valid[step] = torch.as_tensor(~prev_done)
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs.float())
            actions[step], logprobs[step], values[step] = action, logprob, value
            o, reward, terminated, truncated, info = envs.step(action.numpy())
            done = terminated | truncated
            rewards[step] = torch.as_tensor(reward)
            terminateds[step] = torch.as_tensor(terminated, dtype=torch.float32)
            dones[step] = torch.as_tensor(done, dtype=torch.float32)
            next_obs = torch.as_tensor(o)
            # Game score: unclipped reward, summed across lives until the real game over.
            game_return += info["reward"] * ~prev_done
            game_over = info["terminated"].astype(bool) | truncated
            game_returns.extend(game_return[game_over].tolist())
            game_return[game_over] = 0.0
            prev_done = done

        with torch.no_grad():
            next_value = agent.get_value(next_obs.float())
            advantages = torch.zeros(shape)
            lastgaelam = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * (1.0 - terminateds[t]) - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * (1.0 - dones[t]) * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values

        keep = valid.reshape(-1)
        b_obs = obs.reshape((-1,) + obs_shape)[keep]
        b_actions, b_logprobs = actions.reshape(-1)[keep], logprobs.reshape(-1)[keep]
        b_advantages, b_returns = advantages.reshape(-1)[keep], returns.reshape(-1)[keep]
        batch = b_obs.shape[0]
        minibatch = max(1, batch // args.num_minibatches)
        for _epoch in range(args.update_epochs):
            order = torch.randperm(batch)
            for lo in range(0, batch, minibatch):
                mb = order[lo : lo + minibatch]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb].float(), b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clip = args.clip_coef * frac
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if args.log_every and update % args.log_every == 0:
            steps = update * args.num_envs * args.num_steps
            sps = steps / (time.perf_counter() - start)
            recent = np.mean(game_returns[-10:]) if game_returns else float("nan")
            print(f"update {update}/{num_updates}: {steps} steps, {sps:.0f} steps/s, last games {recent:.1f}")
    envs.close()
    seconds = time.perf_counter() - start
    timesteps = update * args.num_envs * args.num_steps
    stats = {"timesteps": timesteps, "seconds": seconds, "steps_per_second": timesteps / seconds,
             "games": len(game_returns), "recent_game_return": float(np.mean(game_returns[-10:])) if game_returns else
             float("nan")}
    return agent, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, default in vars(Args()).items():
        if isinstance(default, bool):
            parser.add_argument(f"--{name.replace('_', '-')}", action="store_true", default=default)
        else:
            parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    agent, stats = train(Args(**vars(parser.parse_args())))
    print(f"{stats['timesteps']} steps in {stats['seconds']:.0f} s ({stats['steps_per_second']:.0f} steps/s); "
          f"{stats['games']} games, last 10 average {stats['recent_game_return']:.1f}")


if __name__ == "__main__":
    main()
