"""Helpers for checking rlpool's Box2D envs against gymnasium's, from the same draws.

Every random draw of an rlpool Box2D env comes from the env's own xoshiro256++
generator, whose four words at the start of the episode are part of its saved
state (``src/rlpool/envs/box2d/box2d_env.h``). ``XoshiroGenerator`` (``xoshiro``) draws the
same numbers in Python and stands in for a gymnasium env's ``np_random``: given
the words, gymnasium's reset and steps draw exactly what rlpool's do, in
gymnasium's own code. ``with_words`` writes words into a state, so words drawn
on gymnasium's side can be handed to rlpool through ``set_state``.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
from xoshiro import XoshiroGenerator

MAGIC = b"rlpool-box2d-v1"


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
