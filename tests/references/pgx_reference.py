"""pgx 2.6.0 as the reference for rlpool's PGX games: batches of pgx games (``jax.vmap``, CPU) in lockstep with a pool.

Every game starts from pgx's own initial state (its key draws the first player, and the dice, cards or
tiles where the game has them), written into rlpool's env with ``set_state`` through the game's
``encode`` (pgx state of one game -> rlpool state bytes). Both then take the same actions -- random legal
moves and, now and then, an illegal one (pgx's penalty) -- and every step's observations (all players'),
legal-action masks, rewards, current player and termination are compared exactly. A game that draws
chance in the middle of play (Backgammon's dice, 2048's tiles) passes ``before_step``: given pgx's state
before and after a step, it returns rlpool's state with pgx's draw in it (written before rlpool steps).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rlpool  # noqa: E402
from rlpool.cache import cache_root  # noqa: E402

# pgx's games take seconds to compile (Shogi, Mahjong: half a minute): compiled steps are kept on disk,
# so that a second test of a game, or a second run, loads them.
jax.config.update("jax_compilation_cache_dir", str(cache_root() / "references" / "jax-cache"))
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)

MAX_PLAYERS = 4  # rlpool's pgx_env.h kMaxPlayers


def header(state: Any) -> bytes:
    """The first bytes of an rlpool PGX state: rewards (float64 x 4), current player, terminated, truncated.

    ``state`` is one game's pgx state as numpy (``take``).
    """
    rewards = np.zeros(MAX_PLAYERS)
    rewards[: len(state.rewards)] = np.asarray(state.rewards, dtype=np.float64)
    return struct.pack(
        "<4di??2x", *rewards, int(state.current_player), bool(state.terminated), bool(state.truncated)
    )


def take(states: Any, i: int) -> Any:
    """Game ``i`` of a batch of pgx states, as numpy arrays."""
    return jax.tree_util.tree_map(lambda a: np.asarray(a[i]), states)


@dataclass
class Stats:
    """What a lockstep run covered."""

    steps: int = 0
    games: int = 0
    illegal: int = 0
    terminal_rewards: dict[float, int] = field(default_factory=dict)


class Mismatch(AssertionError):
    """rlpool and pgx disagree: names the task, step, env and what differs."""


def _settings(obj: Any) -> tuple:
    """What tells two pgx envs of one class apart: their plain settings (a Go board's size and komi)."""
    plain = (int, float, str, bool, type(None))
    items = []
    for name, value in sorted(vars(obj).items()):
        if isinstance(value, plain):
            items.append((name, value))
        elif hasattr(value, "__dict__") and not callable(value):
            items.append((name, _settings(value)))
    return tuple(items)


_COMPILED: dict[tuple, tuple[Any, Any, Any]] = {}


def compiled(env: Any) -> tuple[Callable, Callable, Callable]:
    """``(init, step, observe_all)`` of a pgx env, vmapped and jitted once per kind of env in this process."""
    key = (type(env), _settings(env))
    if key not in _COMPILED:
        players = env.num_players
        if players == 1:
            observe = jax.jit(jax.vmap(lambda s: env._observe(s, s.current_player)))
        else:
            observe = jax.jit(jax.vmap(lambda s: jnp.stack([env._observe(s, jnp.int32(p)) for p in range(players)])))
        _COMPILED[key] = (jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step)), observe)
    return _COMPILED[key]


def lockstep(
    task_id: str,
    env: Any,
    encode: Callable[[Any], bytes],
    *,
    games: int,
    batch: int = 256,
    seed: int = 0,
    illegal_rate: float = 0.01,
    before_step: Callable[[Any, Any], bytes] | None = None,
    policy: Callable[[np.random.Generator, np.ndarray], np.ndarray] | None = None,
    **options: Any,
) -> Stats:
    """Play at least ``games`` whole games of ``task_id`` beside pgx's ``env``, comparing every step; raises Mismatch.

    ``policy(rng, legal_mask_batch)`` picks the actions (default: uniform over the legal moves).
    """
    stochastic = before_step is not None
    v_init, v_step, observe = compiled(env)
    rng = np.random.default_rng(seed)
    key = jax.random.PRNGKey(seed)
    pool = rlpool.make_gymnasium(task_id, num_envs=batch, seed=seed, **options)
    multi = pool.spec.arrays.num_agents > 0
    stats = Stats()
    try:
        pool.reset()
        key, sub = jax.random.split(key)
        states = v_init(jax.random.split(sub, batch))
        host = jax.device_get(states)
        for i in range(batch):
            pool.set_state(i, encode(take(host, i)))
        started = np.zeros(batch, dtype=bool)  # a reset row is due (the env finished last step)
        while stats.games < games:
            mask = np.asarray(host.legal_action_mask)
            if policy is not None:
                actions = policy(rng, mask).astype(np.int64)
            else:
                scores = rng.random(mask.shape) + mask
                actions = scores.argmax(axis=1).astype(np.int64)
            illegal = (rng.random(batch) < illegal_rate) & ~mask.all(axis=1)
            for i in np.flatnonzero(illegal):
                actions[i] = rng.choice(np.flatnonzero(~mask[i]))
            key, sub = jax.random.split(key)
            new_states = v_step(states, jnp.asarray(actions, dtype=jnp.int32), jax.random.split(sub, batch))
            new_host = jax.device_get(new_states)
            if stochastic:
                for i in range(batch):
                    if not started[i]:
                        pool.set_state(i, before_step(take(host, i), take(new_host, i)))
            obs, reward, terminated, truncated, info = pool.step(actions)
            expected_obs = np.asarray(observe(new_states))
            live = ~started
            _compare(task_id, stats.steps, live, obs, expected_obs, "observation")
            _compare(task_id, stats.steps, live, info["legal_action_mask"], new_host.legal_action_mask, "legal mask")
            pgx_rewards = np.asarray(new_host.rewards, dtype=np.float64)
            pgx_term = np.asarray(new_host.terminated)
            if multi:
                _compare(task_id, stats.steps, live, info["current_player"], new_host.current_player, "current player")
                _compare(task_id, stats.steps, live, terminated, np.repeat(pgx_term[:, None], reward.shape[1], 1),
                         "terminated")
            else:
                pgx_rewards = pgx_rewards.reshape(batch)
                _compare(task_id, stats.steps, live, terminated, pgx_term, "terminated")
            _compare(task_id, stats.steps, live, reward, pgx_rewards, "rewards")
            stats.steps += int(live.sum())
            stats.illegal += int((illegal & live).sum())
            done = live & pgx_term
            for i in np.flatnonzero(done):
                r = float(pgx_rewards[i].max()) if multi else float(pgx_rewards[i])
                stats.terminal_rewards[r] = stats.terminal_rewards.get(r, 0) + 1
            stats.games += int(done.sum())
            # Rows that were resets this step start pgx's next game now.
            states, host = new_states, new_host
            if started.any():
                key, sub = jax.random.split(key)
                fresh = v_init(jax.random.split(sub, batch))
                pick = jnp.asarray(started)
                states = jax.tree_util.tree_map(
                    lambda f, s, pick=pick: jnp.where(pick.reshape((-1,) + (1,) * (s.ndim - 1)), f, s), fresh, states
                )
                host = jax.device_get(states)
                for i in np.flatnonzero(started):
                    pool.set_state(i, encode(take(host, i)))
            started = done
    finally:
        pool.close()
    return stats


def _compare(task_id: str, step: int, live: np.ndarray, ours: Any, theirs: Any, what: str) -> None:
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    if ours.shape != theirs.shape:
        raise Mismatch(f"{task_id}: {what} has shape {ours.shape} in rlpool, {theirs.shape} in pgx")
    diff = (ours != theirs).reshape(len(live), -1).any(axis=1) & live
    if diff.any():
        i = int(np.flatnonzero(diff)[0])
        raise Mismatch(f"{task_id}, step {step}, env {i}: {what} differs\nrlpool: {ours[i]!r}\npgx:    {theirs[i]!r}")


def assert_other_player_first_caught(
    task_id: str, env: Any, encode: Callable[[Any], bytes], *, batch: int = 16, match: str | None = None
) -> None:
    """A power check every two-player comparison must pass: games ``encode``d with the other player to move are
    caught (a game's colours alone are often symmetric, so swapping them would not be)."""

    def other_player_first(s: Any) -> bytes:
        return encode(s.replace(current_player=1 - s.current_player))

    with pytest.raises(Mismatch, match=match):
        lockstep(task_id, env, other_player_first, games=20, batch=batch, seed=4)


def assert_states_refused(task_id: str, bad_games: Callable[[bytes], dict[str, bytes]]) -> None:
    """Each of ``bad_games(game)`` (the game's bytes after the header of a fresh state, keyed by the text its error
    names) is a ValueError from ``set_state`` that leaves the env's state as it was; so is a state one byte short; and
    the env takes its good state afterwards."""
    pool = rlpool.make_gymnasium(task_id, num_envs=1, seed=0)
    try:
        pool.reset()
        good = pool.get_state(0)
        head = good[: len(header_of_start())]
        for what, blob in bad_games(good[len(head) :]).items():
            with pytest.raises(ValueError, match=what):
                pool.set_state(0, head + blob)
            assert pool.get_state(0) == good
        with pytest.raises(ValueError, match="bytes"):
            pool.set_state(0, good[:-1])
        pool.set_state(0, good)
        assert pool.get_state(0) == good
    finally:
        pool.close()


def set_byte(game: bytes, offset: int, value: int) -> bytes:
    """``game`` with its byte ``offset`` set to ``value`` (modulo 256: -1 is 0xFF)."""
    return game[:offset] + bytes([value & 0xFF]) + game[offset + 1 :]


def start_state(task_id: str) -> bytes:
    """The state of a fresh env of ``task_id`` after its first reset."""
    pool = rlpool.make_gymnasium(task_id, num_envs=1, seed=0)
    try:
        pool.reset()
        return pool.get_state(0)
    finally:
        pool.close()


def assert_start_is_pgx(task_id: str, env: Any, encode: Callable[[Any], bytes]) -> None:
    """A reset's game (its state after the header) is pgx's start (of key 0) ``encode``d; the env takes that state."""
    good = encode(jax.tree_util.tree_map(np.asarray, env.init(jax.random.PRNGKey(0))))
    pool = rlpool.make_gymnasium(task_id, num_envs=1, seed=0)
    try:
        pool.reset()
        head = len(header_of_start())
        assert pool.get_state(0)[head:] == good[head:]
        pool.set_state(0, good)
        assert pool.get_state(0) == good
    finally:
        pool.close()


def cycling(moves: Sequence[int]) -> Callable[[np.random.Generator, np.ndarray], np.ndarray]:
    """A lockstep policy: every game plays ``moves`` in turn, over and over (each must be legal when its turn comes)."""
    step = [0]

    def policy(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
        action = moves[step[0] % len(moves)]
        step[0] += 1
        assert mask[:, action].all(), "the cycle's move is not legal"
        return np.full(len(mask), action)

    return policy


def lockstep_cycle(task_id: str, env: Any, encode: Callable[[Any], bytes], moves: Sequence[int]) -> Stats:
    """``lockstep`` of 64 games that all play ``moves`` over and over (``cycling``), without illegal moves."""
    return lockstep(task_id, env, encode, games=64, batch=64, seed=9, illegal_rate=0, policy=cycling(moves))


def zeroed(encode: Callable[[Any], bytes], hashes: slice) -> Callable[[Any], bytes]:
    """``encode`` with the bytes ``hashes`` of its state (a game's hash history) zeroed."""

    def wrong(s: Any) -> bytes:
        good = encode(s)
        return good[: hashes.start] + bytes(hashes.stop - hashes.start) + good[hashes.stop :]

    return wrong


def assert_start_repeats(
    task_id: str, env: Any, encode: Callable[[Any], bytes], moves: Sequence[int], hashes: slice
) -> None:
    """Games that play four ``moves`` (there and back for each side) over and over meet the start position for the
    third time at step 8: pgx's draw. With the hash history (the state's bytes ``hashes``) zeroed, rlpool sees the start
    position's hash (now 0) in every unused slot at the 4th step, where pgx sees a first repetition: caught there."""
    stats = lockstep_cycle(task_id, env, encode, moves)
    assert stats.steps == 8 * 64 and stats.terminal_rewards == {0.0: 64}
    with pytest.raises(Mismatch, match=f"step {3 * 64}, "):  # (lockstep counts steps of all games)
        lockstep_cycle(task_id, env, zeroed(encode, hashes), moves)


def header_of_start() -> bytes:
    """The header of a state before any move: no rewards, player 0 to move, not over."""
    return struct.pack("<4di??2x", 0.0, 0.0, 0.0, 0.0, 0, False, False)
