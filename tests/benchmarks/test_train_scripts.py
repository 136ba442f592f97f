"""The training benchmarks (benchmarks/train_pong.py, benchmarks/train_ant.py) run a few updates and report."""

from __future__ import annotations

import sys

import pytest
from lane import REPO, import_torch_or_skip

import rlpool

import_torch_or_skip()
sys.path.insert(0, str(REPO / "benchmarks"))

import train_ant  # noqa: E402
import train_common  # noqa: E402
import train_pong  # noqa: E402

RATES = ("env_steps_per_s", "policy_samples_per_s", "learner_samples_per_s", "agent_steps_per_s")


def check(summary: dict, steps: int) -> None:
    assert summary["stop_reason"] == "steps"
    assert summary["steps"] == steps
    assert summary["updates"] >= 1
    assert summary["reached_target"] is False
    assert all(summary[name] > 0 for name in RATES)


@pytest.mark.skipif("Pong-v5" not in rlpool.list_all_envs(), reason="the Atari family is not built")
def test_train_pong_runs():
    # One torch thread: enough here, and torch's OpenMP team would be TSan noise (scripts/sanitize.sh).
    args = train_pong.Args(num_envs=4, num_steps=16, num_minibatches=2, update_epochs=1, step_budget=96,
                           device="cpu", torch_threads=1, num_threads=1, log_every=0)
    check(train_pong.train(args), 96)


@pytest.mark.skipif("Ant-v4" not in rlpool.list_all_envs(), reason="the MuJoCo family is not built")
def test_train_ant_runs():
    args = train_ant.Args(num_envs=8, horizon=16, minibatch_size=64, update_epochs=2, step_budget=384,
                          device="cpu", torch_threads=1, num_threads=1, log_every=0)
    check(train_ant.train(args), 384)


def test_small_applies_where_an_option_is_not_given():
    args = train_common.parse_args(train_pong.Args, train_pong.SMALL, "", ["--small", "--num-envs", "16"])
    assert (args.num_envs, args.time_budget, args.small) == (16, 300.0, True)
    assert train_common.parse_args(train_ant.Args, train_ant.SMALL, "", ["--no-adaptive-lr"]).adaptive_lr is False
