"""Self-play on rlpool's multi-agent vector face: a TicTacToe policy learned from scratch, numpy only.

One pool of ``num_envs`` TicTacToe games (pgx's rules) with the agent axis: observations are
``[num_envs, 2, 3, 3, 2]`` (each player's view), rewards ``[num_envs, 2]``, and ``info["current_player"]`` /
``info["legal_action_mask"]`` say who moves and what is legal. One table of action values plays both sides
(negamax Q-learning: a move is worth the negative of the opponent's best reply, or the mover's reward when the
game ends), so every game teaches both players. ``evaluate`` pits the greedy policy against a uniformly random
player, as first and as second player.

    python examples/selfplay_tictactoe.py
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

import rlpool

POWERS = 3 ** np.arange(9)


@dataclass
class Args:
    seed: int = 0
    num_envs: int = 64
    steps: int = 20_000  # pool steps: about 7 games per env each 50 steps
    learning_rate: float = 0.5
    epsilon: float = 1.0  # exploration: all random at first, decayed linearly to 0.05


def encode(view: np.ndarray) -> np.ndarray:
    """The mover's view ``[n, 3, 3, 2]`` as a table row: each cell 0 (empty), 1 (own mark) or 2 (opponent's)."""
    cells = view[..., 0].reshape(-1, 9) * 1 + view[..., 1].reshape(-1, 9) * 2
    return cells @ POWERS


def greedy(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The best legal action per row (ties to the lowest index)."""
    return np.where(mask, values, -np.inf).argmax(axis=1)


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row."""
    return (rng.random(mask.shape) + mask).argmax(axis=1)


def train(args: Args) -> tuple[np.ndarray, dict]:
    """Learn the action values by self-play; returns the table and some statistics."""
    rng = np.random.default_rng(args.seed)
    q = np.zeros((3**9, 9))
    envs = rlpool.make_gymnasium("TicTacToe-v1", num_envs=args.num_envs, seed=args.seed)
    rows = np.arange(args.num_envs)
    obs, info = envs.reset()
    resetting = np.zeros(args.num_envs, bool)  # NextStep autoreset: this step's row is a new game's start
    games = 0
    start = time.perf_counter()
    for step in range(args.steps):
        mover = info["current_player"]
        state = encode(obs[rows, mover])
        mask = info["legal_action_mask"]
        eps = args.epsilon + (0.05 - args.epsilon) * step / args.steps
        explore = rng.random(args.num_envs) < eps
        action = np.where(explore, random_legal(rng, mask), greedy(q[state], mask))
        obs, reward, terminated, _, info = envs.step(action)
        learn = ~resetting
        over = terminated[:, 0]
        reply = encode(obs[rows, info["current_player"]])
        best_reply = np.where(info["legal_action_mask"], q[reply], -np.inf).max(axis=1)
        target = np.where(over, reward[rows, mover], -best_reply)
        s, a = state[learn], action[learn]
        q[s, a] += args.learning_rate * (target[learn] - q[s, a])
        games += int((over & learn).sum())
        resetting = over
    envs.close()
    return q, {"games": games, "seconds": time.perf_counter() - start}


def evaluate(q: np.ndarray, games: int = 1000, seed: int = 1) -> dict[str, float]:
    """Greedy policy vs. a random player: the share of games it does not lose, as first and as second player."""
    rng = np.random.default_rng(seed)
    out = {}
    for role in ("first", "second"):
        envs = rlpool.make_gymnasium("TicTacToe-v1", num_envs=games, seed=seed)
        rows = np.arange(games)
        obs, info = envs.reset()
        # The first mover is drawn per game; the learner is it ("first") or the other player ("second").
        learner = info["current_player"].copy() if role == "first" else 1 - info["current_player"]
        result = np.zeros(games)
        live = np.ones(games, bool)  # each env's first game counts; the games after it are ignored
        while live.any():
            mover = info["current_player"]
            mask = info["legal_action_mask"]
            mine = greedy(q[encode(obs[rows, mover])], mask)
            action = np.where(mover == learner, mine, random_legal(rng, mask))
            obs, reward, terminated, _, info = envs.step(action)
            ended = live & terminated[:, 0]
            result[ended] = reward[ended, learner[ended]]
            live &= ~ended
        envs.close()
        out[role] = float((result >= 0).mean())
    return out


if __name__ == "__main__":
    table, stats = train(Args())
    print(f"{stats['games']} self-play games in {stats['seconds']:.1f} s")
    print("not lost against a random player:", evaluate(table))
