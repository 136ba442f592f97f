"""The single-file PPO examples train on rlpool."""

from __future__ import annotations

import sys

import pytest
from lane import REPO, import_torch_or_skip

import rlpool

import_torch_or_skip()
sys.path.insert(0, str(REPO / "examples"))

import ppo_atari  # noqa: E402
import ppo_cartpole  # noqa: E402


def test_ppo_cartpole_solves():
    agent, stats = ppo_cartpole.train(ppo_cartpole.Args(seed=1))
    print(f"ppo_cartpole: {stats['timesteps']} steps in {stats['seconds']:.1f} s")
    assert stats["last_eval_return"] >= 475
    # The greedy policy on episodes it has never seen (other seeds) scores 475 or more on average.
    assert ppo_cartpole.evaluate(agent, "CartPole-v1", episodes=20, seed=123_456) >= 475


@pytest.mark.skipif("Pong-v5" not in rlpool.list_all_envs(), reason="the Atari family is not built")
def test_ppo_atari_runs():
    # One torch thread: enough here, and torch's OpenMP team would be TSan noise (scripts/sanitize.sh).
    args = ppo_atari.Args(num_envs=4, num_steps=16, total_timesteps=128, update_epochs=1, log_every=0,
                          torch_threads=1)
    _, stats = ppo_atari.train(args)
    assert stats["timesteps"] == 128
