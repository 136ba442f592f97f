"""What the training benchmarks (train_pong.py, train_ant.py) share: options, timers, GAE, running statistics, stopping.

The scripts run as ``python benchmarks/train_<task>.py`` and import this module as ``train_common``. Each
trains PPO on an rlpool pool in torch and reports the wall-clock time until the mean return of its last few
episodes reaches a target, or what it reached when a time or step budget ran out. Time is split into what
the pool's ``reset`` and ``step`` took (env steps/s), the policy's forward passes while collecting (including
the copies of observations to the device and of actions back), and the PPO update (learner samples/s); the
overall rate is agent steps over the whole training wall-clock. A step is one agent step of one env (for
Atari, 4 frames).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import time
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch


@dataclasses.dataclass
class CommonArgs:
    """Options every training benchmark takes; a script's own Args subclasses this with its defaults."""

    seed: int = 1
    device: str = "auto"  # auto: cuda where torch sees a GPU, else cpu
    num_envs: int = 32
    num_threads: int = 0  # the pool's threads; 0: every core
    torch_threads: int = 0  # torch's CPU threads; 0: every core
    time_budget: float = 600.0  # seconds of training before giving up
    step_budget: int = 10_000_000  # agent steps before giving up
    target: float = 0.0  # stop once the mean return of the last `window` episodes reaches it
    window: int = 10
    log_every: float = 10.0  # seconds between progress lines (0: none)
    json: str = ""  # also write the summary here
    small: bool = False  # the 2-core CPU budget (the script's SMALL settings)


def parse_args(cls: type[CommonArgs], small: dict[str, Any], description: str,
               argv: Sequence[str] | None = None) -> CommonArgs:
    """Options named after ``cls``'s fields (``--num-envs``...); ``--small`` applies ``small`` where not given."""
    parser = argparse.ArgumentParser(description=description)
    for field in dataclasses.fields(cls):
        flag = "--" + field.name.replace("_", "-")
        default = field.default
        if isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=f"default {default}")
        else:
            parser.add_argument(flag, type=type(default), default=None, help=f"default {default}")
    given = {k: v for k, v in vars(parser.parse_args(argv)).items() if v is not None}
    settings = dict(small) if given.get("small") else {}
    settings.update(given)
    return cls(**settings)


def resolve_device(name: str) -> torch.device:
    """``auto``: cuda where torch sees a GPU, else cpu; otherwise the named device."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)


def setup(args: CommonArgs) -> tuple[torch.device, int]:
    """Seed Python, numpy and torch, set torch's CPU threads; return the device and the pool's thread count."""
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    cores = os.cpu_count() or 1
    torch.set_num_threads(args.torch_threads or cores)
    device = resolve_device(args.device)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    return device, args.num_threads or cores


class Timers:
    """Seconds spent in named sections; ``with timers("env"):`` adds the block's wall-clock time to ``env``.

    On a GPU, ``sync=True`` waits for the device's queued work before the clock is read at both ends, so that
    the section is charged with its kernels and not the next section.
    """

    def __init__(self, device: torch.device) -> None:
        self.seconds: dict[str, float] = {}
        self._cuda = device.type == "cuda"

    @contextmanager
    def __call__(self, name: str, sync: bool = False) -> Iterator[None]:
        """Time the block into ``name``."""
        if sync and self._cuda:
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        try:
            yield
        finally:
            if sync and self._cuda:
                torch.cuda.synchronize()
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t0

    def get(self, name: str) -> float:
        """Seconds in ``name`` so far."""
        return self.seconds.get(name, 0.0)


class RunningMeanStd(torch.nn.Module):
    """Running mean and variance of a batch stream (Chan's parallel update), on the model's device."""

    def __init__(self, shape: tuple[int, ...], epsilon: float = 1e-5) -> None:
        super().__init__()
        self.register_buffer("mean", torch.zeros(shape, dtype=torch.float64))
        self.register_buffer("var", torch.ones(shape, dtype=torch.float64))
        self.register_buffer("count", torch.tensor(epsilon, dtype=torch.float64))
        self.epsilon = epsilon

    @torch.no_grad()
    def update(self, x: torch.Tensor) -> None:
        """Fold a batch (first dimension: samples) into the statistics."""
        x = x.to(torch.float64)
        batch_mean, batch_var, batch_count = x.mean(0), x.var(0, unbiased=False), x.shape[0]
        delta = batch_mean - self.mean
        total = self.count + batch_count
        self.mean += delta * batch_count / total
        m2 = self.var * self.count + batch_var * batch_count + delta.square() * self.count * batch_count / total
        self.var.copy_(m2 / total)
        self.count.copy_(total)

    def normalize(self, x: torch.Tensor, clip: float = math.inf) -> torch.Tensor:
        """``(x - mean) / std``, clipped to ``[-clip, clip]``."""
        std = (self.var + self.epsilon).sqrt().to(x.dtype)
        return ((x - self.mean.to(x.dtype)) / std).clamp(-clip, clip)

    def denormalize(self, x: torch.Tensor) -> torch.Tensor:
        """The inverse of ``normalize`` (without clipping)."""
        return x * (self.var + self.epsilon).sqrt().to(x.dtype) + self.mean.to(x.dtype)


@torch.no_grad()
def gae(rewards: torch.Tensor, values: torch.Tensor, next_value: torch.Tensor, terminateds: torch.Tensor,
        dones: torch.Tensor, gamma: float, lam: float) -> torch.Tensor:
    """Generalised advantage estimates of a rollout (``[steps, envs]``) from a pool in EnvPool's "NextStep" mode.

    There the step after an episode's end returns the next episode's first observation; the observation
    returned with the end is the episode's last one, whose value (``values[t + 1]``) bootstraps a truncated
    episode, while a terminated one is not bootstrapped. ``dones`` cuts the chain of estimates at every end;
    the step after an end (its action ignored) gets a meaningless estimate and is left out of the loss.
    """
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        following = next_value if t == steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * following * (1.0 - terminateds[t]) - values[t]
        last = delta + gamma * lam * (1.0 - dones[t]) * last
        advantages[t] = last
    return advantages


class EpisodeSums:
    """Each env's running sum of rewards; ``step`` returns the sums of the episodes that ended there."""

    def __init__(self, num_envs: int) -> None:
        self.sums = np.zeros(num_envs)

    def step(self, rewards: np.ndarray, counted: np.ndarray, ended: np.ndarray) -> list[float]:
        """Add ``rewards`` where ``counted``; hand back and clear the sums where ``ended``."""
        self.sums += np.where(counted, rewards, 0.0)
        done = self.sums[ended].tolist()
        self.sums[ended] = 0.0
        return done


class Run:
    """A training run's clock, budgets, episode returns and reports.

    The clock starts when the run is made (after the pool and the model exist). ``add_steps`` counts agent
    steps and ``add_episodes`` finished episodes' returns; ``stop_reason`` says whether to stop (the target
    reached, or a budget spent; the scripts ask after every pool step and every update, so a run can pass its
    time budget by up to one update); ``progress`` prints a line after an update once ``log_every`` seconds
    have passed since the last; ``summary`` is the final report.
    """

    def __init__(self, task: str, args: CommonArgs, device: torch.device, timers: Timers, setup_s: float,
                 extra: dict[str, Any] | None = None) -> None:
        self.task, self.args, self.device, self.timers = task, args, device, timers
        self.setup_s = setup_s
        self.extra = dict(extra or {})
        self.steps = 0
        self.episodes = 0
        self.recent: deque[float] = deque(maxlen=args.window)
        self.learner_samples = 0
        self.policy_samples = 0
        self.updates = 0
        self.time_to_target: float | None = None
        self.steps_to_target: int | None = None
        self.start = time.perf_counter()
        self._next_log = args.log_every

    def elapsed(self) -> float:
        """Seconds since the run's clock started."""
        return time.perf_counter() - self.start

    def recent_return(self) -> float:
        """Mean return of the last ``window`` episodes (nan before the first)."""
        return float(np.mean(self.recent)) if self.recent else math.nan

    def add_steps(self, agent_steps: int) -> None:
        """Count ``agent_steps`` steps collected (one per env per pool step)."""
        self.steps += agent_steps
        self.policy_samples += agent_steps

    def add_episodes(self, returns: Sequence[float]) -> None:
        """Record finished episodes' returns; the first time the recent mean reaches the target is kept."""
        for value in returns:
            self.recent.append(float(value))
        self.episodes += len(returns)
        if (self.time_to_target is None and len(self.recent) == self.args.window
                and self.recent_return() >= self.args.target):
            self.time_to_target, self.steps_to_target = self.elapsed(), self.steps

    def add_update(self, samples: int) -> None:
        """Count one PPO update that passed ``samples`` samples (all epochs) through forward and backward."""
        self.updates += 1
        self.learner_samples += samples

    def stop_reason(self) -> str | None:
        """"target", "time" or "steps" where the run should stop, else None."""
        if self.time_to_target is not None:
            return "target"
        if self.elapsed() >= self.args.time_budget:
            return "time"
        if self.steps >= self.args.step_budget:
            return "steps"
        return None

    def rates(self) -> dict[str, float]:
        """Env, policy, learner and overall rates so far."""
        t = self.timers

        def per(units: float, seconds: float) -> float:
            return units / seconds if seconds > 0 else math.nan

        return {
            "env_steps_per_s": per(self.steps, t.get("env")),
            "policy_samples_per_s": per(self.policy_samples, t.get("policy")),
            "learner_samples_per_s": per(self.learner_samples, t.get("update")),
            "agent_steps_per_s": per(self.steps, self.elapsed()),
        }

    def progress(self, force: bool = False) -> None:
        """Print a progress line where ``log_every`` seconds have passed since the last one (or ``force``)."""
        if not self.args.log_every and not force:
            return
        now = self.elapsed()
        if now < self._next_log and not force:
            return
        self._next_log = now + self.args.log_every
        r = self.rates()
        print(f"steps {self.steps:>10,}  time {now:7.1f} s  return (last {len(self.recent)}) "
              f"{self.recent_return():8.1f}  episodes {self.episodes:>5}  env {r['env_steps_per_s']:8,.0f} steps/s  "
              f"learner {r['learner_samples_per_s']:8,.0f} samples/s  agent {r['agent_steps_per_s']:7,.0f} steps/s",
              flush=True)

    def summary(self, reason: str) -> dict[str, Any]:
        """The final figures, as printed and as the JSON line."""
        t = self.timers
        out: dict[str, Any] = {
            "task": self.task,
            "device": str(self.device),
            "num_envs": self.args.num_envs,
            "seed": self.args.seed,
            "target": self.args.target,
            "window": self.args.window,
            "reached_target": self.time_to_target is not None,
            "time_to_target_s": self.time_to_target,
            "steps_to_target": self.steps_to_target,
            "stop_reason": reason,
            "steps": self.steps,
            "wall_s": self.elapsed(),
            "setup_s": self.setup_s,
            "episodes": self.episodes,
            "recent_return": self.recent_return(),
            "updates": self.updates,
            "env_s": t.get("env"),
            "policy_s": t.get("policy"),
            "update_s": t.get("update"),
            **self.rates(),
            **self.extra,
        }
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in out.items()}

    def finish(self, reason: str) -> dict[str, Any]:
        """Print the final report (readable lines, then one JSON line), write it to ``--json``, return it."""
        s = self.summary(reason)
        reached = (f"reached {self.args.target:g} after {s['time_to_target_s']:.1f} s ({s['steps_to_target']:,} steps)"
                   if s["reached_target"] else f"did not reach {self.args.target:g} (stopped: {reason})")
        recent = "n/a" if s["recent_return"] is None else f"{s['recent_return']:.1f}"
        print(f"\n{self.task} on {s['device']}, {s['num_envs']} envs: {reached}")
        print(f"  {s['steps']:,} agent steps in {s['wall_s']:.1f} s (setup before that {s['setup_s']:.1f} s); "
              f"{s['episodes']} episodes, last {len(self.recent)} mean {recent}")

        def rate(name: str) -> str:
            return "n/a" if s[name] is None else f"{s[name]:,.0f}"

        print(f"  env:     {rate('env_steps_per_s')} steps/s inside the pool's reset/step ({s['env_s']:.1f} s)")
        print(f"  policy:  {rate('policy_samples_per_s')} samples/s forward while collecting ({s['policy_s']:.1f} s)")
        print(f"  learner: {rate('learner_samples_per_s')} samples/s through the PPO update, all epochs "
              f"({s['update_s']:.1f} s, {s['updates']} updates)")
        print(f"  overall: {rate('agent_steps_per_s')} agent steps/s")
        line = json.dumps(s)
        print(line, flush=True)
        if self.args.json:
            with open(self.args.json, "w") as f:
                f.write(line + "\n")
        return s
