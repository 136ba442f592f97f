"""Helpers for checking rlpool's Box2D envs against gymnasium's, from the same draws.

Every random draw of an rlpool Box2D env comes from the env's own xoshiro256++
generator, whose four words at the start of the episode are part of its saved
state (``src/rlpool/envs/box2d/box2d_env.h``). ``XoshiroGenerator`` draws the
same numbers in Python and stands in for a gymnasium env's ``np_random``: given
the words, gymnasium's reset and steps draw exactly what rlpool's do, in
gymnasium's own code. ``with_words`` writes words into a state, so words drawn
on gymnasium's side can be handed to rlpool through ``set_state``.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

MASK = (1 << 64) - 1
MAGIC = b"rlpool-box2d-v1"


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class XoshiroGenerator:
    """The draws of rlpool's C++ ``Rng`` (src/rlpool/_core/env/rng.h) with numpy Generator's method names."""

    def __init__(self, words: tuple[int, int, int, int]) -> None:
        self.s = [int(w) & MASK for w in words]

    def next(self) -> int:
        s = self.s
        result = (_rotl((s[0] + s[3]) & MASK, 23) + s[0]) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def _double(self) -> float:
        return (self.next() >> 11) * 2.0**-53

    def _integer(self, n: int) -> int:
        """Lemire's method, as Rng::integer."""
        m = self.next() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & MASK
        return m >> 64

    def _many(self, draw: Any, size: Any) -> Any:
        if size is None:
            return draw()
        shape = (size,) if isinstance(size, int) else tuple(size)
        return np.array([draw() for _ in range(int(np.prod(shape)))], dtype=np.float64).reshape(shape)

    def random(self, size: Any = None) -> Any:
        return self._many(self._double, size)

    def uniform(self, low: float = 0.0, high: float = 1.0, size: Any = None) -> Any:
        return self._many(lambda: low + (high - low) * self._double(), size)

    def integers(self, low: int, high: int | None = None, size: Any = None, dtype: Any = np.int64,
                 endpoint: bool = False) -> Any:
        if high is None:
            low, high = 0, low
        n = int(high) - int(low) + (1 if endpoint else 0)
        if size is None:
            return np.int64(int(low) + self._integer(n))
        shape = (size,) if isinstance(size, int) else tuple(size)
        return np.array([int(low) + self._integer(n) for _ in range(int(np.prod(shape)))], dtype=dtype).reshape(shape)


def parse_state(state: bytes) -> tuple[bytes, tuple[int, int, int, int], int, bytes]:
    """(config key, start words, steps, action bytes) of a Box2D env state."""
    assert state.startswith(MAGIC)
    pos = len(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, pos)
    pos += 4
    key = state[pos:pos + key_size]
    pos += key_size
    words = struct.unpack_from("<4Q", state, pos)
    pos += 32
    (steps,) = struct.unpack_from("<Q", state, pos)
    pos += 8
    return key, words, steps, state[pos:]


def with_words(state: bytes, words: tuple[int, int, int, int]) -> bytes:
    """The state of a fresh episode (no steps taken) that starts from generator ``words``."""
    key, _, _, _ = parse_state(state)
    return MAGIC + struct.pack("<I", len(key)) + key + struct.pack("<4Q", *words) + struct.pack("<Q", 0)


def words_from(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """Four generator words drawn from a numpy Generator (e.g. a gymnasium env's ``np_random``)."""
    return tuple(int(w) for w in rng.integers(0, 2**64, size=4, dtype=np.uint64))  # type: ignore[return-value]


def use_words(gym_env: Any, words: tuple[int, int, int, int]) -> None:
    """Make a gymnasium env draw what an rlpool env started from ``words`` draws."""
    gym_env.unwrapped._np_random = XoshiroGenerator(words)


def start_pair(env: Any, gym_env: Any, gym_id: str, options: dict, seed: int,
               rl_to_gym: bool) -> tuple[np.ndarray | None, np.ndarray]:
    """Reset rlpool env 0 and ``gym_env`` onto the same draws; returns (rlpool's first obs or None, gymnasium's).

    ``rl_to_gym``: rlpool draws its words at reset and gymnasium draws the same numbers from them.
    Otherwise gymnasium's own generator, seeded with ``seed``, draws the words (in an env of its own,
    so that the compared episode is a fresh world's first) and rlpool takes them through ``set_state``;
    rlpool then shows no first observation (None).
    """
    import gymnasium

    rl_obs, _ = env.reset()
    if rl_to_gym:
        _, words, _, _ = parse_state(env.get_state(0))
    else:
        drawer = gymnasium.make(gym_id, **options)
        drawer.reset(seed=seed)
        words = words_from(drawer.unwrapped.np_random)
        drawer.close()
        env.set_state(0, with_words(env.get_state(0), words))
        rl_obs = None
    use_words(gym_env, words)
    g_obs, _ = gym_env.reset()
    return (None if rl_obs is None else rl_obs[0]), g_obs
