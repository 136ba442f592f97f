"""TD3 or SAC on a continuous-action task, trained on rlpool and evaluated on rlpool and on gymnasium.

    python examples/continuous_control.py --algo td3 --env-id Pendulum-v1 --total-timesteps 20000
    python examples/continuous_control.py --algo sac --env-id InvertedPendulum-v5 --total-timesteps 50000

One file in CleanRL's style (its ``td3_continuous_action.py`` and ``sac_continuous_action.py``, plain
torch): one env, one gradient step per env step after ``learning_starts`` random steps. The policy is
trained on an rlpool pool and its deterministic version is then scored on fresh rlpool episodes and on
``gymnasium.make(env_id)``'s own env: a policy that is good on one and not the other would mean the two
envs' dynamics disagree where it matters.

The pool runs in the ``SameStep`` autoreset mode: the step that ends an episode returns the next
episode's first observation, and the ended episode's last one is ``info["final_obs"]``, which is the
transition's next observation in the replay buffer. A truncated episode (the time limit) bootstraps; a
terminated one does not.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import rlpool


@dataclass
class Args:
    algo: str = "td3"  # or "sac"
    env_id: str = "Pendulum-v1"
    seed: int = 1
    total_timesteps: int = 20_000
    learning_starts: int = 1_000
    buffer_size: int = 100_000
    batch_size: int = 256
    gamma: float = 0.99
    tau: float = 0.005
    hidden: int = 256
    policy_lr: float = 3e-4
    q_lr: float = 1e-3
    policy_frequency: int = 2
    exploration_noise: float = 0.1  # TD3
    policy_noise: float = 0.2  # TD3
    noise_clip: float = 0.5  # TD3
    target_return: float = float("nan")  # stop once the rlpool evaluation reaches it (nan: never stop early)
    eval_every: int = 1_000
    eval_episodes: int = 10
    torch_threads: int = 1


def mlp(n_in: int, n_out: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, n_out))


class Actor(nn.Module):
    """TD3: a deterministic tanh policy. SAC: a tanh-squashed Gaussian (``act`` gives its mean's action)."""

    def __init__(self, obs_dim: int, act_dim: int, low: np.ndarray, high: np.ndarray, hidden: int,
                 stochastic: bool) -> None:
        super().__init__()
        self.stochastic = stochastic
        self.net = mlp(obs_dim, 2 * act_dim if stochastic else act_dim, hidden)
        self.register_buffer("scale", torch.as_tensor((high - low) / 2.0, dtype=torch.float32))
        self.register_buffer("bias", torch.as_tensor((high + low) / 2.0, dtype=torch.float32))

    def act(self, obs: torch.Tensor) -> torch.Tensor:
        """The deterministic action (TD3's output; SAC's squashed mean)."""
        out = self.net(obs)
        mean = out.chunk(2, -1)[0] if self.stochastic else out
        return torch.tanh(mean) * self.scale + self.bias

    def sample(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """SAC: a reparameterised action and its log-probability (CleanRL's log-std bounds)."""
        mean, log_std = self.net(obs).chunk(2, -1)
        log_std = -5.0 + 0.5 * (2.0 - -5.0) * (torch.tanh(log_std) + 1.0)
        normal = torch.distributions.Normal(mean, log_std.exp())
        u = normal.rsample()
        y = torch.tanh(u)
        log_prob = normal.log_prob(u) - torch.log(self.scale * (1.0 - y.pow(2)) + 1e-6)
        return y * self.scale + self.bias, log_prob.sum(-1)


class Critics(nn.Module):
    """Two Q networks (clipped double Q)."""

    def __init__(self, obs_dim: int, act_dim: int, hidden: int) -> None:
        super().__init__()
        self.q1, self.q2 = mlp(obs_dim + act_dim, 1, hidden), mlp(obs_dim + act_dim, 1, hidden)

    def forward(self, obs: torch.Tensor, act: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.cat([obs, act], -1)
        return self.q1(x).squeeze(-1), self.q2(x).squeeze(-1)


def soft_update(target: nn.Module, source: nn.Module, tau: float) -> None:
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters(), strict=True):
            t.lerp_(s, tau)


def evaluate(actor: Actor, env_id: str, episodes: int, seed: int, on: str) -> float:
    """Mean return of the deterministic policy over ``episodes`` episodes on rlpool or on gymnasium."""
    returns = np.zeros(episodes)
    with torch.no_grad():
        if on == "rlpool":
            envs = rlpool.make(env_id, num_envs=episodes, seed=seed)
            obs, _ = envs.reset()
            running = np.ones(episodes, dtype=bool)
            while running.any():
                action = actor.act(torch.as_tensor(obs, dtype=torch.float32)).numpy()
                obs, reward, terminated, truncated, _ = envs.step(action)
                returns += reward * running
                running &= ~(terminated | truncated)
            envs.close()
        else:
            env = gym.make(env_id)
            for i in range(episodes):
                obs, _ = env.reset(seed=seed + i)
                done = False
                while not done:
                    action = actor.act(torch.as_tensor(obs, dtype=torch.float32)).numpy()
                    obs, reward, terminated, truncated, _ = env.step(action)
                    returns[i] += reward
                    done = terminated or truncated
            env.close()
    return float(returns.mean())


def train(args: Args) -> tuple[Actor, dict]:
    if args.algo not in ("td3", "sac"):
        raise ValueError(f"algo must be 'td3' or 'sac', not {args.algo!r}")
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    envs = rlpool.make(args.env_id, num_envs=1, seed=args.seed, autoreset_mode="SameStep")
    space = envs.single_action_space
    obs_dim, act_dim = envs.single_observation_space.shape[0], space.shape[0]
    low, high = space.low.astype(np.float32), space.high.astype(np.float32)
    sac = args.algo == "sac"
    actor = Actor(obs_dim, act_dim, low, high, args.hidden, stochastic=sac)
    critics = Critics(obs_dim, act_dim, args.hidden)
    actor_target, critics_target = Actor(obs_dim, act_dim, low, high, args.hidden, sac), Critics(obs_dim, act_dim,
                                                                                                  args.hidden)
    actor_target.load_state_dict(actor.state_dict())
    critics_target.load_state_dict(critics.state_dict())
    actor_opt = torch.optim.Adam(actor.parameters(), lr=args.policy_lr)
    critic_opt = torch.optim.Adam(critics.parameters(), lr=args.q_lr)
    log_alpha = torch.zeros(1, requires_grad=True)  # SAC's temperature, tuned to entropy -act_dim
    alpha_opt = torch.optim.Adam([log_alpha], lr=args.q_lr)

    n = min(args.buffer_size, args.total_timesteps)
    buf_obs, buf_next = np.zeros((n, obs_dim), np.float32), np.zeros((n, obs_dim), np.float32)
    buf_act, buf_rew, buf_term = np.zeros((n, act_dim), np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)

    obs, _ = envs.reset()
    episode_return, recent = 0.0, []
    eval_return = float("nan")
    start = time.perf_counter()
    step = 0
    for step in range(1, args.total_timesteps + 1):
        if step <= args.learning_starts:
            action = rng.uniform(low, high).astype(np.float32)[None]
        else:
            with torch.no_grad():
                o = torch.as_tensor(obs, dtype=torch.float32)
                if sac:
                    action = actor.sample(o)[0].numpy()
                else:
                    noise = rng.normal(0.0, args.exploration_noise, act_dim) * (high - low) / 2.0
                    action = np.clip(actor.act(o).numpy() + noise, low, high).astype(np.float32)
        next_obs, reward, terminated, truncated, info = envs.step(action)
        i = (step - 1) % n
        buf_obs[i], buf_act[i], buf_rew[i], buf_term[i] = obs[0], action[0], reward[0], terminated[0]
        buf_next[i] = info["final_obs"][0] if terminated[0] or truncated[0] else next_obs[0]
        episode_return += float(reward[0])
        if terminated[0] or truncated[0]:
            recent.append(episode_return)
            episode_return = 0.0
        obs = next_obs

        if step > args.learning_starts:
            idx = rng.integers(0, min(step, n), args.batch_size)
            b_obs, b_act, b_next = (torch.as_tensor(b[idx]) for b in (buf_obs, buf_act, buf_next))
            b_rew, b_term = torch.as_tensor(buf_rew[idx]), torch.as_tensor(buf_term[idx])
            with torch.no_grad():
                if sac:
                    next_act, next_logp = actor.sample(b_next)
                    q1, q2 = critics_target(b_next, next_act)
                    next_q = torch.min(q1, q2) - log_alpha.exp() * next_logp
                else:
                    scale = actor.scale
                    noise = (torch.randn_like(b_act) * args.policy_noise).clamp(-args.noise_clip, args.noise_clip)
                    next_act = actor_target.act(b_next) + noise * scale
                    next_act = torch.max(torch.min(next_act, actor.bias + scale), actor.bias - scale)
                    next_q = torch.min(*critics_target(b_next, next_act))
                target = b_rew + args.gamma * (1.0 - b_term) * next_q
            q1, q2 = critics(b_obs, b_act)
            critic_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
            critic_opt.zero_grad()
            critic_loss.backward()
            critic_opt.step()

            if step % args.policy_frequency == 0:
                if sac:
                    for _ in range(args.policy_frequency):  # CleanRL's: make up for the delayed updates
                        act, logp = actor.sample(b_obs)
                        actor_loss = (log_alpha.exp().detach() * logp - torch.min(*critics(b_obs, act))).mean()
                        actor_opt.zero_grad()
                        actor_loss.backward()
                        actor_opt.step()
                        with torch.no_grad():
                            logp = actor.sample(b_obs)[1]
                        alpha_loss = (-log_alpha.exp() * (logp + (-act_dim))).mean()
                        alpha_opt.zero_grad()
                        alpha_loss.backward()
                        alpha_opt.step()
                else:
                    actor_loss = -critics(b_obs, actor.act(b_obs))[0].mean()
                    actor_opt.zero_grad()
                    actor_loss.backward()
                    actor_opt.step()
                    soft_update(actor_target, actor, args.tau)
            soft_update(critics_target, critics, args.tau)

        if step > args.learning_starts and step % args.eval_every == 0 and not np.isnan(args.target_return):
            eval_return = evaluate(actor, args.env_id, args.eval_episodes, seed=10_000 + step, on="rlpool")
            if eval_return >= args.target_return:
                break
    envs.close()
    stats = {
        "timesteps": step,
        "seconds": time.perf_counter() - start,
        "last_eval_return": eval_return,
        "recent_train_return": float(np.mean(recent[-10:])) if recent else float("nan"),
    }
    return actor, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, default in vars(Args()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    args = Args(**vars(parser.parse_args()))
    actor, stats = train(args)
    on_rlpool = evaluate(actor, args.env_id, 20, seed=123_456, on="rlpool")
    on_gymnasium = evaluate(actor, args.env_id, 20, seed=123_456, on="gymnasium")
    print(f"{args.algo} {args.env_id}: {stats['timesteps']} steps in {stats['seconds']:.1f} s; "
          f"deterministic return over 20 fresh episodes: rlpool {on_rlpool:.1f}, gymnasium {on_gymnasium:.1f}")


if __name__ == "__main__":
    main()
